// Package scenario builds the many-to-one runs RL-CC is trained and
// evaluated on (RL-CC, Tessler 2022, Section 8 and Appendix A.1;
// RL-CC-NIC, Fuhrer 2023, Section IV): N long flows from distinct senders
// into one receiver through one switch, every link 100 Gb/s with 1 us of
// propagation delay (the default star of package topology, the closest our
// presets come to the single-switch simulator of RL-CC, Tessler 2022).
//
// A Scenario holds everything replay.Run needs except the congestion
// control: the trace, the topology, the switch and NIC configurations and
// the simulated duration. Config(spec) completes it.
package scenario

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// MaxFlows is the largest flow count ManyToOne accepts
// (RL-CC, Tessler 2022, Table 6, goes up to 8192).
const MaxFlows = 8192

// Options shape a many-to-one scenario. Zero fields take the defaults
// their comments give.
type Options struct {
	// Duration is the simulated time of the run, picoseconds; the run stops
	// there (replay.Config.MaxTime). Default 5 ms.
	Duration units.Time
	// FlowBytes is each flow's payload, bytes. Default 0 means long flows:
	// enough for one flow alone at line rate to outlast Duration
	// (rate x Duration / 8 x 2, rounded up to a whole MB).
	FlowBytes units.Bytes
	// PerHost is the number of flows per sender host; 0 takes the hosts x
	// flows-per-host of RL-CC (Tessler 2022), Table 6, when the flow count
	// is one of its rows (e.g. 128 = 64 x 2, 2048 = 64 x 32) and one flow
	// per host otherwise.
	PerHost int
	// Jitter spreads the flows' start times uniformly over [0, Jitter),
	// picoseconds, in whole nanoseconds. Default 0: every flow starts at
	// time 0, as in the many-to-one test of RL-CC (Tessler 2022).
	Jitter units.Time
	// Rate is every link's rate, bits per second. Default 100 Gb/s
	// (RL-CC, Tessler 2022, Appendix A).
	Rate units.BitsPerSec
	// Delay is every link's propagation delay, picoseconds. Default 1 us
	// (base RTT 4.18 us with 1048 B packets at 100 Gb/s).
	Delay units.Time
	// Lossy turns PFC off: a full switch buffer drops packets and the NIC
	// recovers with NACKs and go-back-N (the lossy fabric of
	// RL-CC-NIC, Fuhrer 2023, Table II).
	Lossy bool
	// BufferBytes is the switch's shared buffer, bytes. Default 32 MB (the
	// switch model's default).
	BufferBytes units.Bytes
}

// Scenario is one many-to-one run without its congestion control.
type Scenario struct {
	// Name is "many-to-one:N" (N the number of flows).
	Name string
	// Flows is the number of flows N; Hosts the number of sender hosts.
	Flows, Hosts int
	// Trace has one message per flow, from hosts 0..Hosts-1 to host Hosts.
	Trace *trace.Trace
	// Topology is a star of Hosts+1 hosts.
	Topology *topology.Topology
	// Switch and NIC are the device configurations.
	Switch switchmodel.Config
	NIC    nic.Config
	// Duration is the simulated time of the run, picoseconds.
	Duration units.Time
	// Rate is the bottleneck (receiver link) rate, bits per second.
	Rate units.BitsPerSec
}

// defaults fills the zero fields of o.
func (o *Options) defaults() {
	o.Duration = cmp.Or(o.Duration, 5*units.Millisecond)
	o.Rate = cmp.Or(o.Rate, 100*units.Gbps)
	o.Delay = cmp.Or(o.Delay, units.Microsecond)
	if o.BufferBytes == 0 {
		o.BufferBytes = switchmodel.DefaultConfig().BufferBytes
	}
	if o.FlowBytes == 0 {
		b := float64(o.Rate) * float64(o.Duration) / float64(units.Second) / 8 * 2
		mb := int64(b/float64(units.MB)) + 1
		o.FlowBytes = units.Bytes(mb) * units.MB
	}
}

// ManyToOne builds the N-to-1 scenario. The seed draws the start times
// when Jitter is set; the same arguments give the same scenario.
func ManyToOne(flows int, o Options, seed uint64) (*Scenario, error) {
	if flows < 1 || flows > MaxFlows {
		return nil, fmt.Errorf("many-to-one: flows must be in 1..%d, got %d", MaxFlows, flows)
	}
	if o.Duration < 0 || o.FlowBytes < 0 || o.PerHost < 0 || o.Jitter < 0 || o.Rate < 0 || o.Delay < 0 || o.BufferBytes < 0 {
		return nil, fmt.Errorf("many-to-one: duration, flow bytes, per-host count, jitter, rate, delay and buffer must not be negative")
	}
	if o.Jitter%units.Nanosecond != 0 {
		return nil, fmt.Errorf("many-to-one: jitter must be whole nanoseconds, got %d ps", int64(o.Jitter))
	}
	o.defaults()
	spec := fmt.Sprintf("incast:flows=%d,size=%d,jitter=%dns", flows, int64(o.FlowBytes), int64(o.Jitter/units.Nanosecond))
	if o.PerHost > 0 {
		if flows%o.PerHost != 0 {
			return nil, fmt.Errorf("many-to-one: %d flows are not a multiple of %d per host", flows, o.PerHost)
		}
		spec += fmt.Sprintf(",per_host=%d", o.PerHost)
	} else if !inTable6(flows) {
		spec += ",per_host=1"
	}
	tr, err := gen.Parse(spec, int64(seed))
	if err != nil {
		return nil, fmt.Errorf("many-to-one: %w", err)
	}
	topo, err := topology.Parse(fmt.Sprintf("star:hosts=%d,rate=%dbps,delay=%dns", tr.Hosts, int64(o.Rate), int64(o.Delay/units.Nanosecond)), tr.Hosts)
	if err != nil {
		return nil, fmt.Errorf("many-to-one: %w", err)
	}
	sw := switchmodel.DefaultConfig()
	sw.BufferBytes = o.BufferBytes
	sw.PFC.Enabled = !o.Lossy
	return &Scenario{
		Name: fmt.Sprintf("many-to-one:%d", flows), Flows: flows, Hosts: tr.Hosts - 1,
		Trace: tr, Topology: topo, Switch: sw, NIC: nic.DefaultConfig(),
		Duration: o.Duration, Rate: o.Rate,
	}, nil
}

// inTable6 reports whether flows is a row of RL-CC (Tessler 2022), Table 6.
func inTable6(flows int) bool {
	for _, f := range []int{2, 4, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192} {
		if f == flows {
			return true
		}
	}
	return false
}

// Config is the replay configuration of the scenario under the algorithm
// spec: the preset's network hints (ECN, CNP interval, INT) applied, no
// packet log, the run stopped at Duration.
func (s *Scenario) Config(spec cca.Spec, seed uint64) replay.Config {
	cfg := replay.Config{
		Topology: s.Topology, CC: spec, Switch: s.Switch, NIC: s.NIC,
		Seed: seed, Packets: replay.PacketsNone, MaxTime: s.Duration,
	}
	cfg.ApplyCCHints()
	return cfg
}

// Run replays the scenario under spec without writing files.
func (s *Scenario) Run(spec cca.Spec, seed uint64) (*replay.Result, error) {
	return replay.Run(s.Config(spec, seed), s.Trace)
}

// StartRates draws each of flows flows' starting rate, a fraction of line
// rate, log-uniformly from [lo, 1] with a PCG stream of seed; every rate is
// 1 (line rate, as in the many-to-one test of RL-CC, Tessler 2022) when lo
// is 0 or 1. Trainers and the distiller start flows apart so that a policy
// sees unequal rates at the same RTT inflation.
func StartRates(flows int, lo float64, seed uint64) []float64 {
	out := make([]float64, flows)
	r := rand.New(rand.NewPCG(seed, 0x5157a27))
	for i := range out {
		out[i] = 1
		if lo > 0 && lo < 1 {
			out[i] = math.Exp(math.Log(lo) * r.Float64())
		}
	}
	return out
}

// StartRatesAround draws each of flows flows' starting rate, a fraction
// of line rate, as 1/flows x 10^(decades x (2u - 1)) with u uniform in
// [0, 1) from a PCG stream of seed, at most 1: spread log-uniformly over
// decades decades either side of the fair share.
func StartRatesAround(flows int, decades float64, seed uint64) []float64 {
	out := make([]float64, flows)
	r := rand.New(rand.NewPCG(seed, 0xfa125))
	for i := range out {
		out[i] = min(math.Pow(10, decades*(2*r.Float64()-1))/float64(flows), 1)
	}
	return out
}
