package main

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runner"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

// ncReplayCCA maps a model CC onto the packet replay's algorithm for
// --compare; the others have no packet counterpart.
var ncReplayCCA = map[netcalc.CCKind]string{
	netcalc.LineRate: "linerate",
	netcalc.DCQCN:    "dcqcn:zhu2015", // Table II of the paper
}

// ncCompareDir, ncCompareFile and ncCompareFlowsFile are what --compare
// adds to the folder.
const (
	ncCompareDir       = "replay"
	ncCompareFile      = "compare.parquet"
	ncCompareFlowsFile = "compare_flows.parquet"
)

// ncCompare is summary.json's "compare" object: the replay's side.
type ncCompare struct {
	ReplayCCA         string  `json:"replay_cca"`
	ReplayDir         string  `json:"replay_dir"`
	BottleneckNode    int32   `json:"bottleneck_node"`
	BottleneckPort    int32   `json:"bottleneck_port"`
	BufferBytes       int64   `json:"buffer_bytes"`
	MaxTimeNs         int64   `json:"max_time_ns"`
	PeakBacklogBytes  float64 `json:"replay_peak_backlog_bytes"` // payload bytes, at the recorded steps
	PeakBacklogNs     int64   `json:"replay_peak_backlog_ns"`
	FirstPauseNs      int64   `json:"replay_first_pause_ns"` // -1: no pause
	FinalBacklogBytes float64 `json:"replay_final_backlog_bytes"`
	// ModelPeakDelayNs and ReplayPeakDelayNs are the largest delays of
	// compare.parquet (-1: none measured).
	ModelPeakDelayNs  int64 `json:"model_peak_delay_ns"`
	ReplayPeakDelayNs int64 `json:"replay_peak_delay_ns"`
	// ModelJain and ReplayJain are Jain's index of the payload each flow
	// got through the bottleneck by the horizon (1 = equal shares).
	ModelJain  float64 `json:"model_jain_index"`
	ReplayJain float64 `json:"replay_jain_index"`
	Rows       int     `json:"compare_rows"`
	FlowRows   int     `json:"compare_flow_rows"`
	// ReplayWallMs is printed in the text summary only.
	ReplayWallMs float64 `json:"-"`
}

// ncCompareRow is one row of compare.parquet: the model and the replay at
// one recorded step. Bytes are payload bytes (the model has no headers).
type ncCompareRow struct {
	TNs                int64   `parquet:"t_ns,delta"`           // sample time, ns
	ModelBacklogBytes  float64 `parquet:"model_backlog_bytes"`  // model aggregate backlog, bytes
	ReplayBacklogBytes float64 `parquet:"replay_backlog_bytes"` // payload queued at the bottleneck port, bytes
	ModelRateBps       float64 `parquet:"model_rate_bps"`       // admitted Â over the last step, bit/s
	ReplayRateBps      float64 `parquet:"replay_rate_bps"`      // payload enqueued at the bottleneck over the last step, bit/s
	ModelPaused        int64   `parquet:"model_paused"`         // 1: PFC pauses some flow
	ReplayPaused       int64   `parquet:"replay_paused"`        // 1: some sender's link is paused
	// ModelDelayNs is the model's delay of the byte admitted at t: the
	// horizontal deviation inf{d >= 0 : Out(t+d) >= Â(t)} of the
	// aggregate, at the grid's resolution; -1 when that byte has not left
	// by the horizon.
	ModelDelayNs int64 `parquet:"model_delay_ns"`
	// ReplayDelayNs is the mean time (payload-weighted) the data packets
	// enqueued at the bottleneck port in the step ending at t spent there,
	// enqueue to the end of their transmission; -1 when none was
	// enqueued, or none of them left by the horizon.
	ReplayDelayNs int64 `parquet:"replay_delay_ns"`
}

// ncFlowRow is one row of compare_flows.parquet: one flow of the model and
// the same flow (its messages) in the replay at one recorded step.
type ncFlowRow struct {
	TNs                int64   `parquet:"t_ns,delta"`           // sample time, ns
	FlowID             int64   `parquet:"flow_id"`              // the model's flow index (summary.json flows)
	ModelRateBps       float64 `parquet:"model_rate_bps"`       // admitted ΔÂ_j over the last step (0 across a timeout), bit/s
	ReplayRateBps      float64 `parquet:"replay_rate_bps"`      // the flow's payload arriving at the bottleneck switch over the last step, bit/s
	ModelBacklogBytes  float64 `parquet:"model_backlog_bytes"`  // the flow's bytes in the path server, bytes
	ReplayBacklogBytes float64 `parquet:"replay_backlog_bytes"` // the flow's payload arrived at the bottleneck switch and not yet sent on the bottleneck port, bytes
}

// bottleneckTap bins payload bytes by the recorded step at or after their
// time: arrivals into the bottleneck switch (a data packet to the receiver
// leaving any port that links to that switch arrives one serialization and
// one propagation delay later, which is when the switch queues it), the
// departures from the bottleneck port, and, for a consistency check, the
// enqueue times the departing packets carry. Arrivals, not the departing
// packets' enqueue times, make the backlog: packets still queued when the
// replay stops at the horizon never depart. It also records the
// PAUSE/RESUME frames the senders receive.
type bottleneckTap struct {
	node, port int32
	rate       units.BitsPerSec // the bottleneck port's
	dst        int32
	step       units.Time
	up         map[[2]int32]topology.Port // ports linked to the bottleneck switch
	arr, deq   []float64                  // per step k: bytes with time in (t_{k-1}, t_k]
	enq        []float64                  // departing packets by their enqueue time
	// sojourn is, per step of enqueue, the payload-weighted sum of the
	// departing packets' time at the bottleneck port, ps x bytes.
	sojourn []float64
	// flowOf maps a message to its model flow; arrF and deqF are arr and
	// deq per model flow.
	flowOf     map[int64]int
	arrF, deqF [][]float64
	pfc        []pfcFrame
}

type pfcFrame struct {
	t          units.Time
	node, port int32
	prio       uint8
	pause      bool
}

// bin is the first step k with k*step >= t, or -1 past the last one.
func (b *bottleneckTap) bin(t units.Time) int {
	k := int((t + b.step - 1) / b.step)
	if k >= len(b.enq) {
		return -1
	}
	return k
}

func (b *bottleneckTap) Dequeue(now units.Time, node, port int32, p *fabric.Packet) {
	if p.Kind != fabric.Data {
		return
	}
	if l, ok := b.up[[2]int32{node, port}]; ok && p.Dst == b.dst {
		if k := b.bin(now + units.TxTime(units.Bytes(p.Size), l.Rate) + l.Delay); k >= 0 {
			b.arr[k] += float64(p.Payload)
			if f, ok := b.flowOf[p.MsgID]; ok {
				b.arrF[f][k] += float64(p.Payload)
			}
		}
		return
	}
	if node != b.node || port != b.port {
		return
	}
	if k := b.bin(p.EnqAt); k >= 0 {
		b.enq[k] += float64(p.Payload)
		// Dequeue is called when the transmission starts; the packet
		// leaves the port when it ends.
		out := now + units.TxTime(units.Bytes(p.Size), b.rate)
		b.sojourn[k] += float64(out-p.EnqAt) * float64(p.Payload)
	}
	if k := b.bin(now); k >= 0 {
		b.deq[k] += float64(p.Payload)
		if f, ok := b.flowOf[p.MsgID]; ok {
			b.deqF[f][k] += float64(p.Payload)
		}
	}
}

func (b *bottleneckTap) Deliver(units.Time, int32, *fabric.Packet)     {}
func (b *bottleneckTap) Drop(units.Time, int32, int32, *fabric.Packet) {}

func (b *bottleneckTap) observePFC(now units.Time, node, port int32, prio uint8, pause bool) {
	b.pfc = append(b.pfc, pfcFrame{now, node, port, prio, pause})
}

// compareCheck refuses --compare with a model CC the replay does not have.
func (o *netcalcOptions) compareCheck() error {
	if _, ok := ncReplayCCA[netcalc.CCKind(o.CCA)]; !ok && o.Compare {
		return usageErrorf("--compare: %s has no packet counterpart in the replay (want --cca linerate or dcqcn)", o.CCA)
	}
	return nil
}

// runReplay runs the packet replay on the model's inputs into
// dir/replay (a run folder, --packets data, stopped at the horizon) and
// returns the compare rows and the summary's "compare" object.
func (o *netcalcOptions) runReplay(ctx context.Context, dir string, cfg *netcalc.Config, p *ncPath, res *netcalc.Result) ([]ncCompareRow, *ncCompare, []string, error) {
	spec := ncReplayCCA[cfg.CC]
	st, err := runconfig.Resolve(runconfig.Request{
		Trace: o.Trace, Workload: o.Workload, CCA: spec, Topology: o.Topology, Seed: o.Seed,
		Out: o.Out, Packets: "data", MaxTime: o.Horizon, Strict: o.Strict, Set: o.set,
	}, registry())
	if err != nil {
		return nil, nil, nil, err
	}
	// Static PFC at the model's thresholds (per Gb/s of the ingress port, as
	// the netcalc-burst experiment) and a buffer that never overflows:
	// twice the workload's payload, at least 32 MB.
	var total int64
	for _, m := range st.Trace.Messages {
		total += m.Bytes
	}
	pfc := cfg.PFC != nil
	st.File.Switch = &runconfig.SwitchSection{
		Buffer: fmt.Sprintf("%dB", max(2*total, 32_000_000)),
		PFC:    &runconfig.PFCSection{Enabled: &pfc, Mode: "static", XoffPerGbps: "9500", XonPerGbps: "9250"},
	}
	rc, err := st.Config(st.Specs[0], o.Seed)
	if err != nil {
		return nil, nil, nil, err
	}
	n := len(res.Aggregate.Backlog)
	tap := &bottleneckTap{node: p.Link.Node, port: p.Link.Port, rate: p.C, dst: p.Dst, step: res.Dt,
		up: map[[2]int32]topology.Port{}, arr: make([]float64, n), enq: make([]float64, n), deq: make([]float64, n),
		sojourn: make([]float64, n), flowOf: map[int64]int{}}
	for fi, src := range p.Sources {
		for _, id := range src.Messages {
			tap.flowOf[id] = fi
		}
		tap.arrF = append(tap.arrF, make([]float64, n))
		tap.deqF = append(tap.deqF, make([]float64, n))
	}
	for _, nd := range st.Topology.Nodes {
		for j, pt := range nd.Ports {
			if pt.Peer == p.Link.Node {
				tap.up[[2]int32{nd.ID, int32(j)}] = pt
			}
		}
	}
	rc.Observer, rc.PFCObserver = tap, tap.observePFC
	start := time.Now()
	_, _, err = runner.Run(ctx, scenarioOf(st, &rc), filepath.Join(dir, ncCompareDir), nil)
	wall := time.Since(start)
	if err != nil {
		return nil, nil, nil, err
	}
	rows, c := compareRows(res, tap)
	flowRows := compareFlowRows(res, tap, c)
	c.ReplayCCA, c.ReplayDir = spec, ncCompareDir
	c.BottleneckNode, c.BottleneckPort = p.Link.Node, p.Link.Port
	c.BufferBytes, c.MaxTimeNs = int64(rc.Switch.BufferBytes), nsOf(rc.MaxTime)
	c.ReplayWallMs = float64(wall.Microseconds()) / 1000
	if err := output.WriteRows(filepath.Join(dir, ncCompareFile), rows); err != nil {
		return nil, nil, nil, err
	}
	if err := output.WriteRows(filepath.Join(dir, ncCompareFlowsFile), flowRows); err != nil {
		return nil, nil, nil, err
	}
	var warnings []string
	if len(o.CCAParams) > 0 {
		warnings = append(warnings, fmt.Sprintf("--compare: the replay runs %s with its preset values; --cca-param applies to the model only", spec))
	}
	return rows, c, warnings, nil
}

// compareRows puts the model's aggregate and the replay's bottleneck side
// by side at the model's recorded steps.
func compareRows(res *netcalc.Result, tap *bottleneckTap) ([]ncCompareRow, *ncCompare) {
	ag := &res.Aggregate
	n := len(ag.Backlog)
	c := &ncCompare{FirstPauseNs: -1, Rows: n}
	rows := make([]ncCompareRow, n)
	perSec := 8 / res.Dt.Seconds()
	type key struct {
		node, port int32
		prio       uint8
	}
	paused := map[key]bool{}
	j := 0
	var in, out float64
	for k := range n {
		t := res.T(k)
		in += tap.arr[k]
		out += tap.deq[k]
		for ; j < len(tap.pfc) && tap.pfc[j].t <= t; j++ {
			f := tap.pfc[j]
			if f.pause && c.FirstPauseNs < 0 {
				c.FirstPauseNs = nsOf(f.t)
			}
			paused[key{f.node, f.port, f.prio}] = f.pause
		}
		r := ncCompareRow{TNs: nsOf(t), ModelBacklogBytes: ag.Backlog[k], ReplayBacklogBytes: in - out,
			ReplayRateBps: tap.arr[k] * perSec}
		if k > 0 {
			r.ModelRateBps = (ag.Ahat.V[k] - ag.Ahat.V[k-1]) * perSec
		}
		for i := range res.Flows {
			if res.Flows[i].Paused[k] {
				r.ModelPaused = 1
				break
			}
		}
		for _, v := range paused {
			if v {
				r.ReplayPaused = 1
				break
			}
		}
		if r.ReplayBacklogBytes > c.PeakBacklogBytes {
			c.PeakBacklogBytes, c.PeakBacklogNs = r.ReplayBacklogBytes, r.TNs
		}
		r.ReplayDelayNs = -1
		if tap.enq[k] > 0 {
			r.ReplayDelayNs = int64(math.Round(tap.sojourn[k] / tap.enq[k] / float64(units.Nanosecond)))
		}
		rows[k] = r
	}
	modelDelays(res, rows)
	c.ModelPeakDelayNs, c.ReplayPeakDelayNs = -1, -1
	for _, r := range rows {
		c.ModelPeakDelayNs = max(c.ModelPeakDelayNs, r.ModelDelayNs)
		c.ReplayPeakDelayNs = max(c.ReplayPeakDelayNs, r.ReplayDelayNs)
	}
	for ; j < len(tap.pfc); j++ { // a pause after the last step
		if tap.pfc[j].pause && c.FirstPauseNs < 0 {
			c.FirstPauseNs = nsOf(tap.pfc[j].t)
		}
	}
	if n > 0 {
		c.FinalBacklogBytes = rows[n-1].ReplayBacklogBytes
	}
	return rows, c
}

// modelDelays sets each row's model delay: the horizontal deviation of the
// aggregate's Â and Out (both never drop) at the recorded steps, by a
// pointer that only moves forward.
func modelDelays(res *netcalc.Result, rows []ncCompareRow) {
	ag := &res.Aggregate
	n := len(rows)
	m := 0
	for k := range n {
		m = max(m, k)
		for m < n && ag.Out.V[m] < ag.Ahat.V[k]-ncTieBytes {
			m++
		}
		if m == n {
			rows[k].ModelDelayNs = -1
			continue
		}
		rows[k].ModelDelayNs = nsOf(res.T(m) - res.T(k))
	}
}

// ncTieBytes is the tolerance of byte comparisons between curves (the
// model's float sums).
const ncTieBytes = 1e-6

// compareFlowRows puts each model flow beside its messages in the replay,
// step by step, and sets the Jain indexes of what each flow got through
// the bottleneck by the horizon.
func compareFlowRows(res *netcalc.Result, tap *bottleneckTap, c *ncCompare) []ncFlowRow {
	n := len(res.Aggregate.Backlog)
	perSec := 8 / res.Dt.Seconds()
	rows := make([]ncFlowRow, 0, n*len(res.Flows))
	modelOut := make([]float64, len(res.Flows))
	replayOut := make([]float64, len(res.Flows))
	in := make([]float64, len(res.Flows))
	for k := range n {
		t := nsOf(res.T(k))
		for f := range res.Flows {
			s := &res.Flows[f]
			in[f] += tap.arrF[f][k]
			replayOut[f] += tap.deqF[f][k]
			r := ncFlowRow{TNs: t, FlowID: int64(f), ModelBacklogBytes: s.Backlog[k],
				ReplayRateBps: tap.arrF[f][k] * perSec, ReplayBacklogBytes: in[f] - replayOut[f]}
			if k > 0 {
				r.ModelRateBps = max(0, s.Ahat.V[k]-s.Ahat.V[k-1]) * perSec
			}
			rows = append(rows, r)
		}
	}
	for f := range res.Flows {
		if v := res.Flows[f].Out.V; len(v) > 0 {
			modelOut[f] = v[len(v)-1]
		}
	}
	c.ModelJain, c.ReplayJain = jain(modelOut), jain(replayOut)
	c.FlowRows = len(rows)
	return rows
}

// jain is Jain's fairness index (Σx)²/(n·Σx²) of xs; 1 for no flow or
// nothing sent.
func jain(xs []float64) float64 {
	var s, s2 float64
	for _, x := range xs {
		s += x
		s2 += x * x
	}
	if s2 == 0 {
		return 1
	}
	return s * s / (float64(len(xs)) * s2)
}
