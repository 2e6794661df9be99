// Package replay wires a run together: it builds NICs and switches on a
// topology, creates one flow per queue pair of the trace, releases messages
// at their times or when their dependencies complete, runs the event
// kernel, and collects the per-flow, per-message and per-port records and
// the per-packet log.
package replay

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
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
	// Packets is the per-packet log's level of detail: which packet events
	// become rows for PacketSink.
	Packets PacketLevel
	// PacketSink, when set (and Packets is not none), is given the
	// per-packet log's rows in the run's event order, the same order for
	// any Threads. The replay writes no file: whoever runs it owns the
	// sink (packets.parquet, see package runner).
	PacketSink PacketSink `json:"-"`
	// RowSink, when set, is given the flow and message rows as flows
	// finish (see RowSink) and Result.Flows and Result.Messages stay nil:
	// a run then holds no row of a finished flow (flows.parquet and
	// messages.parquet, see package runner).
	RowSink RowSink `json:"-"`
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
	// Progress, when set, is called between slices of events (about 65,536)
	// and at the end with the simulated time and the
	// messages delivered so far (for a status line; not part of the output).
	Progress func(now units.Time, delivered, total int) `json:"-"`
	// Observer, when set, sees every packet event (tests, samplers); it is
	// called in addition to the packet log.
	Observer fabric.Tap `json:"-"`
	// TimeStep, when positive, is the clock resolution of the simulator
	// to reproduce, picoseconds: every serialization time, on links and in
	// the NICs' pacing, is truncated to a multiple of it
	// (fabric.Port.TxStep, nic.Config.TxStep). 1 ns reproduces the HPCC
	// ns-3 simulator (--hpcc-config sets it); 0, the default, keeps exact
	// picoseconds.
	TimeStep units.Time `json:",omitempty"`
	// CCBaseRTT selects the base RTT each flow's algorithm is given (its
	// FlowInfo.BaseRTT, hence HPCC's T and every BDP window); the base_rtt_ns
	// column of flows.parquet stays the path's own either way.
	CCBaseRTT BaseRTTMode `json:",omitempty"`
	// FlowCC, when not nil, holds for each flow (as Run numbers them)
	// what its algorithm is told of its path, in place of what this
	// topology's path and CCBaseRTT say (CCInfo): for a network that
	// stands in for part of another (estimate's link networks), whose
	// flows keep the base RTT, BDP window and hop count the full network
	// gives them. Its length must be the number of flows.
	FlowCC []FlowCCInfo `json:"-"`
	// PFCObserver, when set, sees every PAUSE and RESUME frame where it
	// arrives (the HPCC simulator's pfc.txt); nil costs nothing.
	PFCObserver PFCObserver `json:"-"`
	// QueueSampler, when set, samples the switches at fixed times (the
	// HPCC simulator's queue monitor); its events end when the run does.
	QueueSampler *QueueSampler `json:"-"`
	// WrapCC, when set, wraps each flow's algorithm as the flow creates it
	// (decision recorders for reward datasets); flowID is the flow's id in
	// flows.parquet. The wrapper must forward every method unchanged.
	WrapCC func(flowID int32, a cca.Algorithm) cca.Algorithm `json:"-"`
	// Threads is the number of partitions the run's nodes are split into,
	// each run by its own goroutine (0 or 1: one). The outputs are the
	// same for any value; a run that shares something among all its nodes
	// (Result.SerialWhy) runs on one.
	Threads int `json:"-"`
}

// ApplyCCHints sets the switch ECN marking, the receiver's CNP interval,
// INT and the switches' per-port flow counter from the algorithm preset's
// hints. Call it before applying explicit user overrides, which take
// precedence.
func (c *Config) ApplyCCHints() {
	if h := c.CC.ECN; h != nil {
		c.Switch.ECN.Enabled = true
		c.Switch.ECN.KminBytes, c.Switch.ECN.KmaxBytes = h.KminBytes, h.KmaxBytes
		c.Switch.ECN.Pmax, c.Switch.ECN.RefRate = h.Pmax, h.RefRate
	}
	if c.CC.CNPInterval > 0 {
		c.NIC.CNPInterval = c.CC.CNPInterval
	}
	if c.CC.NeedsINT || c.CC.NeedsFlowCounter {
		c.Switch.INT = true
	}
	if c.CC.NeedsFlowCounter {
		c.Switch.FlowCounter = true
	}
}

// ValidateFor checks c (Validate), tr (trace.Trace.Validate) and that the
// topology has the hosts tr needs: what Run checks before it starts.
func (c *Config) ValidateFor(tr *trace.Trace) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if err := tr.Validate(); err != nil {
		return err
	}
	if tr.Hosts > c.Topology.NumHosts {
		return fmt.Errorf("topology %s has %d hosts but the workload needs %d", c.Topology.Name, c.Topology.NumHosts, tr.Hosts)
	}
	return nil
}

// Validate checks the configuration before a run: each part on its own
// (topology, switch, NIC, packet level, times), then what no part can
// check alone, so that a configuration that passes can forward packets
// and finish. Errors are lowercase, one line, and name the run.yaml key or
// the flag: `switch.buffer 1B is smaller than one data packet (1048 B:
// nic.mtu_payload 1000 + nic.header 48)`.
func (c *Config) Validate() error {
	if c.Topology == nil {
		return fmt.Errorf("no topology")
	}
	if c.CC.New == nil {
		return fmt.Errorf("no congestion control")
	}
	if err := c.Topology.Validate(); err != nil {
		return fmt.Errorf("topology: %w", err)
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
	switch {
	case c.MaxTime < 0:
		return fmt.Errorf("max_time must not be negative, got %v", c.MaxTime)
	case c.MaxTime > limits.MaxTime:
		return limits.TimeError("max_time", c.MaxTime)
	case c.CheckEvery < 0:
		return fmt.Errorf("check period (--check) must not be negative, got %v", c.CheckEvery)
	case c.CheckEvery > limits.MaxTime:
		return limits.TimeError("check period (--check)", c.CheckEvery)
	case c.TimeStep < 0 || c.TimeStep > units.Second:
		return fmt.Errorf("time step must be in [0, 1s], got %v", c.TimeStep)
	case c.CCBaseRTT != BaseRTTPath && c.CCBaseRTT != BaseRTTNS3Pair && c.CCBaseRTT != BaseRTTNS3Max:
		return fmt.Errorf("cc base RTT mode %q: want \"\", %q or %q", c.CCBaseRTT, BaseRTTNS3Pair, BaseRTTNS3Max)
	case !(c.LocalRate >= 0 && c.LocalRate <= units.MaxRate):
		return fmt.Errorf("nic.local_rate must be 0 (instant) or a rate up to 1Pbps, got %d bps", int64(c.LocalRate))
	}
	if c.QueueSampler != nil {
		if err := c.QueueSampler.validate(); err != nil {
			return err
		}
	}
	if err := c.checkSignals(); err != nil {
		return err
	}
	return c.checkForwarding()
}

// checkSignals refuses a network that withholds the congestion signal the
// algorithm reacts to: INT for HPCC-style algorithms (and the per-port
// flow count, carried in INT, for those that ask for it), ECN marking for
// DCQCN, DCTCP and Dolce-RC. Such a run completes but measures nothing
// the algorithm is for (HPCC without INT sees no queue: 94.5 % of its
// packets marked where it keeps 5.2 %), so it is an error naming both.
func (c *Config) checkSignals() error {
	switch {
	case (c.CC.NeedsINT || c.CC.NeedsFlowCounter) && !c.Switch.INT:
		return fmt.Errorf("%s needs INT telemetry from the switches, but switch.int is false: remove switch.int or set it true", c.CC.Name)
	case c.CC.NeedsFlowCounter && !c.Switch.FlowCounter:
		return fmt.Errorf("%s reads the per-port flow count (FDCC, Zhang 2023, Algorithm 2), but the switches do not count flows: apply the algorithm's hints (Config.ApplyCCHints)", c.CC.Name)
	case c.CC.ECN != nil && !c.Switch.ECN.Enabled:
		return fmt.Errorf("%s reacts to ECN marks, but switch.ecn.enabled is false: remove it or set it true (or pick an algorithm that does not use ECN)", c.CC.Name)
	}
	return nil
}

// checkForwarding rejects switch settings under which a switch of the
// topology could never forward a data packet, or would need more buffer
// than it has for what PFC sets aside. Such a run never finishes: every
// packet is dropped and retransmitted forever.
func (c *Config) checkForwarding() error {
	sw, n := &c.Switch, &c.NIC
	pkt := n.MTUPayload + n.HeaderBytes
	if sw.BufferBytes < pkt {
		return fmt.Errorf("switch.buffer %s is smaller than one data packet (%d B: nic.mtu_payload %d + nic.header %d)",
			units.FormatSize(sw.BufferBytes), int64(pkt), int64(n.MTUPayload), int64(n.HeaderBytes))
	}
	t := c.Topology
	for i := t.NumHosts; i < len(t.Nodes); i++ {
		node := &t.Nodes[i]
		for j, p := range node.Ports {
			if sw.PFC.HeadroomBytes == 0 && bdpTooLarge(p.Rate, p.Delay) {
				// switchmodel.New sizes the headroom from this product
				// even when PFC is off.
				return fmt.Errorf("topology: switch %q port %d: rate %v x delay %v is more than 10^18 bytes on the wire", node.Name, j, p.Rate, p.Delay)
			}
		}
		if !sw.PFC.Enabled {
			continue
		}
		switch sw.PFC.Mode {
		case switchmodel.PFCStatic:
			if err := c.checkStaticPFC(node); err != nil {
				return err
			}
			// NB: dynamic PFC is not checked against the buffer: when the
			// ports' reserves and headroom take the whole buffer, the
			// dynamic threshold (FDCC, Zhang 2023, Section 3.3) is zero and
			// every ingress pauses once it holds more than its reserve,
			// which still forwards (slowly), as a real switch so configured
			// would.
		}
	}
	return nil
}

// bdpTooLarge reports whether rate x delay is beyond 10^18 bytes.
func bdpTooLarge(rate units.BitsPerSec, delay units.Time) bool {
	hi, lo := bits.Mul64(uint64(max(delay, 0)), uint64(max(rate, 0)))
	if hi >= 8e12 {
		return true
	}
	q, _ := bits.Div64(hi, lo, 8e12)
	return q > uint64(limits.MaxTotalBytes)
}

// checkStaticPFC rejects static Xoff thresholds (xoff_per_gbps x port rate)
// above the buffer: the switch would drop before it pauses anyone.
func (c *Config) checkStaticPFC(node *topology.Node) error {
	pfc, buf := &c.Switch.PFC, c.Switch.BufferBytes
	for _, p := range node.Ports {
		// xoff = xoff_per_gbps * rate / 1 Gb/s, as switchmodel.New
		// computes it in int64: the product must fit too.
		hi, lo := bits.Mul64(uint64(pfc.XoffPerGbps), uint64(p.Rate))
		if hi != 0 || lo > math.MaxInt64 {
			return fmt.Errorf("switch.pfc.xoff_per_gbps %s x port rate %v of switch %q is beyond int64 bytes",
				units.FormatSize(pfc.XoffPerGbps), p.Rate, node.Name)
		}
		if xoff := units.Bytes(lo / uint64(units.Gbps)); xoff > buf {
			return fmt.Errorf("switch.pfc.xoff_per_gbps %s gives xoff %s on the %v ports of switch %q, more than switch.buffer %s",
				units.FormatSize(pfc.XoffPerGbps), units.FormatSize(xoff), p.Rate, node.Name, units.FormatSize(buf))
		}
	}
	return nil
}

// FlowCCInfo is what a flow's algorithm is told of its path
// (cca.FlowInfo): its base RTT, picoseconds (HPCC's T, every BDP window),
// and its hop count (Swift's target delay).
type FlowCCInfo struct {
	BaseRTT units.Time
	Hops    int
}

// CCInfo is what c tells the algorithm of a flow on path (FlowCCInfo):
// the base RTT of c.CCBaseRTT's mode and len(path) hops. maxRTT is
// topology.NS3MaxRTT of c.Topology, read only in BaseRTTNS3Max mode.
func (c *Config) CCInfo(path []topology.Hop, maxRTT units.Time) FlowCCInfo {
	info := FlowCCInfo{Hops: len(path)}
	switch c.CCBaseRTT {
	case BaseRTTNS3Pair:
		info.BaseRTT = topology.NS3BaseRTT(path, c.NIC.MTUPayload)
	case BaseRTTNS3Max:
		info.BaseRTT = maxRTT
	default:
		info.BaseRTT = topology.PathBaseRTT(path, c.NIC.MTUPayload+c.NIC.HeaderBytes, c.NIC.AckBytes)
	}
	return info
}

// BaseRTTMode is how the base RTT an algorithm is given is computed.
type BaseRTTMode string

const (
	// BaseRTTPath (the default, "") is the flow's path: propagation both
	// ways plus one data packet and one ACK serialized per hop
	// (topology.PathBaseRTT).
	BaseRTTPath BaseRTTMode = ""
	// BaseRTTNS3Pair is the HPCC ns-3 simulator's pairRtt of the flow's
	// path (topology.NS3BaseRTT: one payload serialized per hop, no ACK),
	// its GLOBAL_T 0.
	BaseRTTNS3Pair BaseRTTMode = "ns3-pair"
	// BaseRTTNS3Max is the simulator's maxRtt, the largest pairRtt of any
	// two hosts of the topology, for every flow (topology.NS3MaxRTT), its
	// GLOBAL_T 1 (the default of its config).
	BaseRTTNS3Max BaseRTTMode = "ns3-max"
)
