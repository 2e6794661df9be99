package scenario

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// replayCCA maps a model CC onto the packet replay's algorithm for
// Request.Compare; the others have no packet counterpart.
var replayCCA = map[netcalc.CCKind]string{
	netcalc.LineRate: "linerate",
	netcalc.DCQCN:    "dcqcn:zhu2015", // Table II of the paper
}

// CompareDir, CompareFile and CompareFlowsFile are what Request.Compare
// adds to the folder.
const (
	CompareDir       = "replay"
	CompareFile      = runfolder.CompareFile
	CompareFlowsFile = runfolder.CompareFlowsFile
)

// Compare is summary.json's "compare" object: the replay's side.
type Compare struct {
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

// ncCompareRow and ncFlowRow are the rows of compare.parquet and
// compare_flows.parquet (schema/v2).
type (
	ncCompareRow = v2.NetcalcCompareRow
	ncFlowRow    = v2.NetcalcFlowRow
)

// replayConfig resolves the packet replay of the model's inputs: the
// workload and topology as the model has them, the model CC's packet
// counterpart, --packets data, stopped at the horizon, static PFC at the
// model's thresholds (per Gb/s of the ingress port, as the netcalc-burst
// experiment) and a buffer that never overflows: twice the workload's
// payload, at least 32 MB.
func replayConfig(r *Request, m *Model) (*runconfig.Setup, *runner.Scenario, error) {
	st, err := runconfig.Resolve(runconfig.Request{
		Trace: r.Trace, Workload: r.Workload, CCA: replayCCA[r.CC], Topology: r.Topology, Seed: r.Seed,
		Out: r.Out, Packets: "data", MaxTime: r.Horizon, Strict: r.Strict, Set: r.Set,
	}, r.Registry)
	if err != nil {
		return nil, nil, err
	}
	var total int64
	for _, msg := range st.Trace.Messages {
		total += msg.Bytes
	}
	pfc := m.Config.PFC != nil
	st.File.Switch = &runconfig.SwitchSection{
		Buffer: fmt.Sprintf("%dB", max(2*total, 32_000_000)),
		PFC:    &runconfig.PFCSection{Enabled: &pfc, Mode: "static", XoffPerGbps: "9500", XonPerGbps: "9250"},
	}
	rc, err := st.Config(st.Specs[0], r.Seed)
	if err != nil {
		return nil, nil, err
	}
	return st, &runner.Scenario{Config: &rc, Trace: st.Trace, TraceName: filepath.ToSlash(st.TraceName), Warnings: st.Warnings}, nil
}

// runReplay runs the packet replay on the model's inputs into
// dir/replay (a run folder) and writes compare.parquet and
// compare_flows.parquet. It returns the compare rows, the summary's
// "compare" object and its warnings.
func runReplay(ctx context.Context, r *Request, dir string, m *Model, res *netcalc.Result) ([]ncCompareRow, *Compare, []string, error) {
	st, sc, err := replayConfig(r, m)
	if err != nil {
		return nil, nil, nil, err
	}
	tap := newTap(m.Path, st, len(res.Aggregate.Backlog), res.Dt)
	sc.Config.Observer, sc.Config.PFCObserver = tap, tap.observePFC
	start := time.Now()
	_, _, err = runner.Run(ctx, sc, filepath.Join(dir, CompareDir), nil)
	wall := time.Since(start)
	if err != nil {
		return nil, nil, nil, err
	}
	rows, c := compareRows(res, tap)
	flowRows := compareFlowRows(res, tap, c)
	c.ReplayCCA, c.ReplayDir = replayCCA[r.CC], CompareDir
	c.BottleneckNode, c.BottleneckPort = m.Path.Link.Node, m.Path.Link.Port
	c.BufferBytes, c.MaxTimeNs = int64(sc.Config.Switch.BufferBytes), nsOf(sc.Config.MaxTime)
	c.ReplayWallMs = float64(wall.Microseconds()) / 1000
	if err := output.WriteRows(filepath.Join(dir, CompareFile), rows); err != nil {
		return nil, nil, nil, err
	}
	if err := output.WriteRows(filepath.Join(dir, CompareFlowsFile), flowRows); err != nil {
		return nil, nil, nil, err
	}
	var warnings []string
	if len(r.Params) > 0 {
		warnings = append(warnings, fmt.Sprintf("--compare: the replay runs %s with its preset values; --cca-param applies to the model only", c.ReplayCCA))
	}
	return rows, c, warnings, nil
}

// pfcPort is a priority of a port PFC frames pause and resume.
type pfcPort struct {
	node, port int32
	prio       uint8
}

// compareRows puts the model's aggregate and the replay's bottleneck side
// by side at the model's recorded steps.
func compareRows(res *netcalc.Result, tap *bottleneckTap) ([]ncCompareRow, *Compare) {
	ag := &res.Aggregate
	n := len(ag.Backlog)
	c := &Compare{FirstPauseNs: -1, Rows: n, ModelPeakDelayNs: -1, ReplayPeakDelayNs: -1}
	rows := make([]ncCompareRow, n)
	perSec := 8 / res.Dt.Seconds()
	paused := map[pfcPort]bool{}
	j := 0
	var in, out float64
	for k := range n {
		t := res.T(k)
		in += tap.arr[k]
		out += tap.deq[k]
		for ; j < len(tap.pfc) && tap.pfc[j].t <= t; j++ {
			f := tap.pfc[j]
			paused[pfcPort{f.node, f.port, f.prio}] = f.pause
		}
		r := ncCompareRow{TNs: nsOf(t), ModelBacklogBytes: ag.Backlog[k], ReplayBacklogBytes: in - out,
			ReplayRateBps: tap.arr[k] * perSec, ReplayDelayNs: -1}
		if k > 0 {
			r.ModelRateBps = (ag.Ahat.V[k] - ag.Ahat.V[k-1]) * perSec
		}
		r.ModelPaused, r.ReplayPaused = flag(anyPaused(res, k)), flag(anyTrue(paused))
		if r.ReplayBacklogBytes > c.PeakBacklogBytes {
			c.PeakBacklogBytes, c.PeakBacklogNs = r.ReplayBacklogBytes, r.TNs
		}
		if tap.enq[k] > 0 {
			r.ReplayDelayNs = int64(math.Round(tap.sojourn[k] / tap.enq[k] / float64(units.Nanosecond)))
		}
		rows[k] = r
	}
	modelDelays(res, rows)
	c.finish(rows, tap.pfc)
	return rows, c
}

// finish sets the peaks, the first pause (also one after the last step)
// and the final backlog from the rows.
func (c *Compare) finish(rows []ncCompareRow, frames []pfcFrame) {
	for _, r := range rows {
		c.ModelPeakDelayNs = max(c.ModelPeakDelayNs, r.ModelDelayNs)
		c.ReplayPeakDelayNs = max(c.ReplayPeakDelayNs, r.ReplayDelayNs)
	}
	for _, f := range frames {
		if f.pause {
			c.FirstPauseNs = nsOf(f.t)
			break
		}
	}
	if n := len(rows); n > 0 {
		c.FinalBacklogBytes = rows[n-1].ReplayBacklogBytes
	}
}

// flag is 1 for true, 0 for false.
func flag(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// anyTrue reports whether some port's priority is paused.
func anyTrue(m map[pfcPort]bool) bool {
	for _, v := range m {
		if v {
			return true
		}
	}
	return false
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
		for m < n && ag.Out.V[m] < ag.Ahat.V[k]-tieBytes {
			m++
		}
		if m == n {
			rows[k].ModelDelayNs = -1
			continue
		}
		rows[k].ModelDelayNs = nsOf(res.T(m) - res.T(k))
	}
}

// tieBytes is the tolerance of byte comparisons between curves (the
// model's float sums).
const tieBytes = 1e-6

// compareFlowRows puts each model flow beside its messages in the replay,
// step by step, and sets the Jain indexes of what each flow got through
// the bottleneck by the horizon.
func compareFlowRows(res *netcalc.Result, tap *bottleneckTap, c *Compare) []ncFlowRow {
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
