// Package eval measures congestion control on many-to-one runs the way the
// RL-CC papers report it:
//
//   - RL-CC (Tessler 2022), Table 1: SU, switch utilization [%]; FR,
//     fairness min rate x 100 / max rate; QL, queue latency [us]; DR, drop
//     rate [Gbit/s];
//   - RL-CC-NIC (Fuhrer 2023), Table III: GP, goodput normalised to line
//     rate, and latency [us];
//   - RL-CC (Tessler 2022), Proposition 1: the fixed point is every flow at
//     1/N of the line rate, so each flow's throughput is also reported in
//     units of the fair share C/N (min, max) with Jain's index.
//
// Every figure is measured over the window [Warmup, Duration) of simulated
// time, after the flows have had time to converge (as RL-CC-NIC, Fuhrer
// 2023, Section IV, measures "after reaching a steady state"), from the
// packet events of the run (replay.Config.Observer); the scenarios come
// from package rl/scenario (N long flows into one receiver through one
// switch).
package eval

import (
	"cmp"
	"context"
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/rl/scenario"
	"github.com/ccreplay/ccreplay/units"
)

// Options shape an evaluation run. Zero fields take the defaults in their
// comments.
type Options struct {
	// Duration is the simulated time of each run, picoseconds. Default 10 ms.
	Duration units.Time
	// Warmup is when measurement starts, picoseconds; the window is
	// [Warmup, Duration). Default Duration/2.
	Warmup units.Time
	// Jitter spreads flow start times over [0, Jitter), picoseconds (whole
	// nanoseconds). Default 0: all flows start together, as in the
	// many-to-one test of RL-CC (Tessler 2022).
	Jitter units.Time
	// Lossy turns PFC off: a full buffer drops packets and DR measures
	// failures to control congestion (RL-CC, Tessler 2022, Table 1;
	// RL-CC-NIC, Fuhrer 2023, Section VI-A). Default false: PFC on, the
	// setting rl/scenario trains in (DR is then 0 by construction).
	Lossy bool
	// BufferBytes is the switch's shared buffer, bytes. Default 5 MB, the
	// buffer of the simulator of RL-CC (Tessler 2022), Fig. 3 ("the 5MB
	// allocated"). With PFC on, the pause thresholds scale with it, so it also bounds the
	// switch queue of a lossless run.
	BufferBytes units.Bytes
	// Seed seeds the run (ECN draws, start jitter).
	Seed uint64
	// Context, when set, stops the work when it is done: the call returns
	// an error wrapping its error within milliseconds. Nil means
	// context.Background().
	Context context.Context
}

// ctx returns o.Context or context.Background().
func (o *Options) ctx() context.Context { return cmp.Or(o.Context, context.Background()) }

func (o *Options) defaults() error {
	o.Duration = cmp.Or(o.Duration, 10*units.Millisecond)
	o.Warmup = cmp.Or(o.Warmup, o.Duration/2)
	o.BufferBytes = cmp.Or(o.BufferBytes, 5*units.MB)
	switch {
	case o.Duration < 0:
		return fmt.Errorf("eval: duration %v must be positive", o.Duration)
	case o.Warmup < 0 || o.Warmup >= o.Duration:
		return fmt.Errorf("eval: warmup %v must be in [0, duration %v)", o.Warmup, o.Duration)
	case o.BufferBytes < 0:
		return fmt.Errorf("eval: buffer %d bytes must be positive", o.BufferBytes)
	}
	return nil
}

// Result is one algorithm on one many-to-one scenario.
type Result struct {
	// Algorithm is the spec's name (e.g. "dcqcn:hpcc-repo", "rlcc:auto").
	Algorithm string `json:"algorithm"`
	// Label is a caller's name for the row (e.g. "teacher"); may be empty.
	Label string `json:"label,omitempty"`
	// Flows is N, the number of flows.
	Flows int `json:"flows"`
	// SU is the bottleneck utilisation in percent: wire bytes of data
	// packets the switch sent to the receiver in the window x 8 / (line
	// rate x window) x 100 (RL-CC, Tessler 2022, Table 1, "SU").
	SU float64 `json:"su_pct"`
	// FR is the fairness min rate x 100 / max rate over the flows' goodputs
	// in the window (RL-CC, Tessler 2022, Table 1, "FR"; its Section 3,
	// item 4).
	FR float64 `json:"fr_pct"`
	// QL is the mean queueing delay of the data packets the switch sent to
	// the receiver in the window, microseconds (dequeue time - enqueue time;
	// RL-CC, Tessler 2022, Table 1, "QL").
	QL float64 `json:"ql_us"`
	// DR is the drop rate: wire bytes of data packets dropped in the window
	// x 8 / window, Gbit/s (RL-CC, Tessler 2022, Table 1, "DR").
	DR float64 `json:"dr_gbps"`
	// Goodput is the payload the receiver accepted in order in the window
	// (each PSN counted once, retransmissions excluded), x 8 / (line rate x
	// window): RL-CC-NIC (Fuhrer 2023), Table III, "GP", normalised to line
	// rate. Headers cap it at payload/wire = 1000/1048 = 0.954.
	Goodput float64 `json:"goodput"`
	// Latency is the mean one-way network latency of the data packets the
	// receiver got in the window (arrival - departure from the sender NIC,
	// propagation and serialisation included), microseconds
	// (RL-CC-NIC, Fuhrer 2023, Table III, "Latency").
	Latency float64 `json:"latency_us"`
	// ShareMin and ShareMax are the smallest and largest flow goodput in
	// units of the fair share (line rate / N): both 1 at the fixed
	// point of RL-CC (Tessler 2022), Proposition 1, with a fully used link.
	ShareMin float64 `json:"share_min"`
	ShareMax float64 `json:"share_max"`
	// Jain is Jain's fairness index of the flows' goodputs, in (0, 1].
	Jain float64 `json:"jain"`
	// DropPkts is the number of data packets dropped in the window.
	DropPkts int64 `json:"drop_pkts"`
	// Window is the measurement window's length, microseconds.
	WindowUs float64 `json:"window_us"`
}

// ManyToOne runs spec on the N-to-1 scenario of package rl/scenario and
// measures it over the window.
func ManyToOne(spec cca.Spec, flows int, o Options) (Result, error) {
	if err := o.defaults(); err != nil {
		return Result{}, err
	}
	sc, err := scenario.ManyToOne(flows, scenario.Options{
		Duration: o.Duration, Jitter: o.Jitter, Lossy: o.Lossy, BufferBytes: o.BufferBytes,
	}, o.Seed)
	if err != nil {
		return Result{}, fmt.Errorf("eval: %w", err)
	}
	m := newMeter(sc, o.Warmup)
	cfg := sc.Config(spec, o.Seed)
	cfg.Observer = m
	if _, err := replay.RunContext(o.ctx(), cfg, sc.Trace); err != nil {
		return Result{}, fmt.Errorf("eval: %s on %s: %w", spec.Name, sc.Name, err)
	}
	return m.result(spec.Name, sc, o.Duration), nil
}

// Fairest reports the run, among many-to-one runs of spec with each of
// the flow counts, whose FR (RL-CC, Tessler 2022, Table 1) is smallest: the
// worst-case fairness the trainer and the distiller select policies by.
// The first such run wins ties; flows must not be empty.
func Fairest(spec cca.Spec, flows []int, o Options) (Result, error) {
	if len(flows) == 0 {
		return Result{}, fmt.Errorf("eval: no flow counts to check")
	}
	var worst Result
	for i, n := range flows {
		r, err := ManyToOne(spec, n, o)
		if err != nil {
			return Result{}, err
		}
		if i == 0 || r.FR < worst.FR {
			worst = r
		}
	}
	return worst, nil
}

// meter accumulates the window's figures from packet events.
type meter struct {
	from      units.Time
	numHosts  int32 // hosts are nodes [0, numHosts); switches follow
	receiver  int32
	expectPSN []int64 // per flow, the receiver's next in-order PSN
	good      []int64 // per flow, in-order payload bytes in the window

	bottleneckBytes int64 // data wire bytes the switch sent to the receiver
	queueSum        int64 // picoseconds, over those packets
	queuePkts       int64
	latSum          int64 // picoseconds, over packets the receiver got
	latPkts         int64
	dropBytes       int64
	dropPkts        int64
}

var _ fabric.Tap = (*meter)(nil)

func newMeter(sc *scenario.Scenario, from units.Time) *meter {
	n := sc.Flows // one flow per message, ids 0..N-1
	return &meter{
		from: from, numHosts: int32(sc.Topology.NumHosts), receiver: int32(sc.Hosts),
		expectPSN: make([]int64, n), good: make([]int64, n),
	}
}

// Dequeue counts data packets leaving a switch towards the receiver.
func (m *meter) Dequeue(now units.Time, node, port int32, p *fabric.Packet) {
	if now < m.from || p.Kind != fabric.Data || node < m.numHosts || p.Dst != m.receiver {
		return
	}
	m.bottleneckBytes += int64(p.Size)
	m.queueSum += int64(now - p.EnqAt)
	m.queuePkts++
}

// Deliver counts the receiver's in-order data (go-back-N accepts exactly
// the next expected PSN).
func (m *meter) Deliver(now units.Time, node int32, p *fabric.Packet) {
	if p.Kind != fabric.Data || p.Flow < 0 || int(p.Flow) >= len(m.expectPSN) {
		return
	}
	inOrder := p.PSN == m.expectPSN[p.Flow]
	if inOrder {
		m.expectPSN[p.Flow]++
	}
	if now < m.from {
		return
	}
	m.latSum += int64(now - p.SentAt)
	m.latPkts++
	if inOrder {
		m.good[p.Flow] += int64(p.Payload)
	}
}

// Drop counts dropped data packets.
func (m *meter) Drop(now units.Time, node, port int32, p *fabric.Packet) {
	if now < m.from || p.Kind != fabric.Data {
		return
	}
	m.dropBytes += int64(p.Size)
	m.dropPkts++
}

func (m *meter) result(name string, sc *scenario.Scenario, end units.Time) Result {
	win := float64(end-m.from) / float64(units.Second) // seconds
	line := float64(sc.Rate)                           // bits per second
	r := Result{Algorithm: name, Flows: sc.Flows, WindowUs: win * 1e6, DropPkts: m.dropPkts}
	r.SU = 100 * float64(m.bottleneckBytes) * 8 / (line * win)
	r.DR = float64(m.dropBytes) * 8 / win / 1e9
	if m.queuePkts > 0 {
		r.QL = float64(m.queueSum) / float64(m.queuePkts) / float64(units.Microsecond)
	}
	if m.latPkts > 0 {
		r.Latency = float64(m.latSum) / float64(m.latPkts) / float64(units.Microsecond)
	}
	var total, sq float64
	lo, hi := math.Inf(1), 0.0
	for _, b := range m.good {
		v := float64(b)
		total += v
		sq += v * v
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	r.Goodput = total * 8 / (line * win)
	fair := line / float64(sc.Flows) * win / 8 // bytes per flow at the fair share
	r.ShareMin, r.ShareMax = lo/fair, hi/fair
	if hi > 0 {
		r.FR = 100 * lo / hi
	}
	if sq > 0 {
		r.Jain = total * total / (float64(len(m.good)) * sq)
	}
	return r
}

// Window describes the measurement window, "5ms..10ms".
func (o Options) Window() string {
	warm := o.Warmup
	if warm == 0 {
		warm = o.Duration / 2
	}
	return fmt.Sprintf("%v..%v", warm, o.Duration)
}

// FabricName is "lossy" or "lossless" (PFC on), as the tables' titles say.
func FabricName(lossy bool) string {
	if lossy {
		return "lossy"
	}
	return "lossless"
}
