package fabric

import "github.com/ccreplay/ccreplay/units"

// Tap observes packet events for the per-packet log (packets.parquet).
// Implementations must copy what they need: p is recycled afterwards.
// A nil Tap costs one comparison per event.
type Tap interface {
	// Dequeue: p left the egress queue of (node, port) onto the link.
	Dequeue(now units.Time, node, port int32, p *Packet)
	// Deliver: p reached its destination host's NIC.
	Deliver(now units.Time, node int32, p *Packet)
	// Drop: p was discarded at (node, port).
	Drop(now units.Time, node, port int32, p *Packet)
}
