// Package replay wires a run together: it builds NICs and switches on a
// topology, creates one flow per queue pair of the trace, releases messages
// at their times or when their dependencies complete, runs the event
// kernel, and collects the per-flow, per-message and per-port records and
// the per-packet log.
package replay

import (
	"fmt"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

// PacketLevel selects what packets.parquet records.
type PacketLevel string

// Packet log levels.
const (
	PacketsNone PacketLevel = "none" // no packets.parquet
	PacketsData PacketLevel = "data" // data packets: every dequeue, delivery and drop
	PacketsAll  PacketLevel = "all"  // data and control packets (ACK, NACK, CNP, PAUSE, RESUME)
)

// ParsePacketLevel validates a --packets value.
func ParsePacketLevel(s string) (PacketLevel, error) {
	switch l := PacketLevel(s); l {
	case PacketsNone, PacketsData, PacketsAll:
		return l, nil
	}
	return "", fmt.Errorf("invalid packet level %q (want none, data or all)", s)
}

// Config is everything a run depends on besides the trace. A run is a pure
// function of (trace, Config): the same inputs give byte-identical outputs.
type Config struct {
	Topology *topology.Topology
	// CC is the resolved congestion control (see cca.Registry.Build).
	CC     cca.Spec
	Switch switchmodel.Config
	NIC    nic.Config
	// Seed seeds the run's only RNG (ECN marking draws) and the flow hashes.
	Seed uint64
	// Packets is the per-packet log's level of detail.
	Packets PacketLevel
	// MaxTime stops the run at this simulated time, picoseconds; 0 = run
	// until every message is delivered and acknowledged.
	MaxTime units.Time
	// CheckEvery, when positive, verifies byte conservation at this period
	// of simulated time and fails the run on the first violation.
	CheckEvery units.Time
	// LocalRate is the speed of a message between two endpoints on the same
	// host (an intra-node MPI transfer through shared memory), bits per
	// second; such a message never touches the network and completes
	// Bytes*8/LocalRate after its release; 0 means instantly.
	LocalRate units.BitsPerSec
	// Progress, when set, is called every 100 us of simulated time with the
	// messages delivered so far (for a status line; not part of the output).
	Progress func(now units.Time, delivered, total int) `json:"-"`
	// Observer, when set, sees every packet event (tests, samplers); it is
	// called in addition to the packet log.
	Observer fabric.Tap `json:"-"`
	// WrapCC, when set, wraps each flow's algorithm as the flow creates it
	// (decision recorders for reward datasets); flowID is the flow's id in
	// flows.parquet. The wrapper must forward every method unchanged.
	WrapCC func(flowID int32, a cca.Algorithm) cca.Algorithm `json:"-"`
}

// ApplyCCHints sets the switch ECN marking and the receiver's CNP interval
// from the algorithm preset's hints. Call it before applying explicit user
// overrides, which take precedence.
func (c *Config) ApplyCCHints() {
	if h := c.CC.ECN; h != nil {
		c.Switch.ECN.Enabled = true
		c.Switch.ECN.KminBytes, c.Switch.ECN.KmaxBytes = h.KminBytes, h.KmaxBytes
		c.Switch.ECN.Pmax, c.Switch.ECN.RefRate = h.Pmax, h.RefRate
	}
	if c.CC.CNPInterval > 0 {
		c.NIC.CNPInterval = c.CC.CNPInterval
	}
	if c.CC.NeedsINT {
		c.Switch.INT = true
	}
}

// Validate checks the configuration before a run.
func (c *Config) Validate() error {
	if c.Topology == nil {
		return fmt.Errorf("no topology")
	}
	if c.CC.New == nil {
		return fmt.Errorf("no congestion control")
	}
	if err := c.Switch.Validate(); err != nil {
		return err
	}
	if err := c.NIC.Validate(); err != nil {
		return err
	}
	if _, err := ParsePacketLevel(string(c.Packets)); err != nil {
		return err
	}
	if c.MaxTime < 0 || c.CheckEvery < 0 || c.LocalRate < 0 {
		return fmt.Errorf("max time, check period and local rate must be >= 0")
	}
	return nil
}
