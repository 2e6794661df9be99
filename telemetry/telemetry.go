// Package telemetry holds the in-band network telemetry (INT) record that
// switches stamp on data packets and that the receiver echoes back to the
// sender's congestion control. It sits below both the packet (fabric) and
// the algorithm boundary (cca), so the switch model can write a hop record
// and HPCC can read one without either importing the other.
package telemetry

import "github.com/ccreplay/ccreplay/units"

// Hop is the in-band network telemetry one switch egress port stamps on a
// data packet at dequeue (HPCC, FDCC).
type Hop struct {
	QLen     units.Bytes      // egress queue length after dequeue, bytes
	TxBytes  units.Bytes      // cumulative bytes sent by that port, bytes
	TS       units.Time       // dequeue time, picoseconds
	LinkRate units.BitsPerSec // port rate, bits per second
	// Flows is the number of flows counted by the egress port (FDCC,
	// Zhang 2023, Algorithm 2), after this packet's own update (line 11
	// returns the set's size once lines 2-10 have run); 0 when the
	// counter is off (switchmodel.Config.FlowCounter).
	Flows int32
}

// MaxHops is the number of INT hops a packet carries at most.
const MaxHops = 5
