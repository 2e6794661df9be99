package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/netcalc/scenario"

	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/runfolder"
)

// ncCompareArgs is a 31-to-1 incast of 1 MB flows, small enough to replay
// packet by packet in a test.
var ncCompareArgs = []string{"--topology", "star:hosts=32,rate=100G,delay=1us", "--workload", "incast:n=31,size=1MB"}

func ncCompareRun(t *testing.T, out string, extra ...string) (scenario.Summary, arrowTable) {
	t.Helper()
	s := ncRunArgs(t, out, append(append([]string{"netcalc"}, ncCompareArgs...), append(extra, "--compare")...)...)
	if s.Compare == nil {
		t.Fatalf(runfolder.SummaryFile + " has no compare object")
	}
	for _, f := range []string{"replay/" + runfolder.PacketsFile, "replay/" + runfolder.SummaryFile, "replay/" + runfolder.FlowsFile, runfolder.CompareFile} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	c := readArrow(t, filepath.Join(out, scenario.CompareFile))
	if c.rows != s.Compare.Rows {
		t.Errorf("%s: %d rows, summary says %d", runfolder.CompareFile, c.rows, s.Compare.Rows)
	}
	for _, col := range []string{"t_ns", "model_paused", "replay_paused", "model_delay_ns", "replay_delay_ns"} {
		if len(c.i64[col]) != c.rows {
			t.Errorf("compare: int64 column %s has %d values", col, len(c.i64[col]))
		}
	}
	for _, col := range []string{"model_backlog_bytes", "replay_backlog_bytes", "model_rate_bps", "replay_rate_bps"} {
		if len(c.f64[col]) != c.rows {
			t.Errorf("compare: double column %s has %d values", col, len(c.f64[col]))
		}
	}
	// compare_flows.parquet: one row per step and flow, whose per-flow
	// backlogs add up to compare.parquet's (the same payload, split by
	// the messages' model flow).
	f := readArrow(t, filepath.Join(out, scenario.CompareFlowsFile))
	if f.rows != s.Compare.FlowRows || f.rows != c.rows*len(s.Flows) {
		t.Fatalf("%s: %d rows, summary says %d, want %d steps x %d flows", runfolder.CompareFlowsFile, f.rows, s.Compare.FlowRows, c.rows, len(s.Flows))
	}
	for k := 0; k < c.rows; k++ {
		var model, replay float64
		for j := 0; j < len(s.Flows); j++ {
			i := k*len(s.Flows) + j
			if f.i64["t_ns"][i] != c.i64["t_ns"][k] || f.i64["flow_id"][i] != int64(j) {
				t.Fatalf("compare_flows row %d: t %d flow %d, want t %d flow %d", i, f.i64["t_ns"][i], f.i64["flow_id"][i], c.i64["t_ns"][k], j)
			}
			model += f.f64["model_backlog_bytes"][i]
			replay += f.f64["replay_backlog_bytes"][i]
		}
		if math.Abs(replay-c.f64["replay_backlog_bytes"][k]) > 1e-6 || math.Abs(model-c.f64["model_backlog_bytes"][k]) > 1e-3*max(1, model) {
			t.Fatalf("t=%d ns: the flows' backlogs add up to %v (model) and %v (replay), %s says %v and %v",
				c.i64["t_ns"][k], model, replay, runfolder.CompareFile, c.f64["model_backlog_bytes"][k], c.f64["replay_backlog_bytes"][k])
		}
	}
	return s, c
}

// Bound test without congestion control (linerate, PFC off): at every
// recorded step the replay's bottleneck backlog stays within the model's
// vertical deviation sup(Â-D) plus one packet (MTU payload) per flow.
func TestNetcalcCompareLineRateBound(t *testing.T) {
	s, c := ncCompareRun(t, filepath.Join(t.TempDir(), "lr"), "--cca", "linerate", "--pfc", "off", "--horizon", "3ms")
	var vdev float64
	for _, v := range c.f64["model_backlog_bytes"] {
		vdev = max(vdev, v)
	}
	bound := vdev + float64(len(s.Flows))*float64(nic.DefaultConfig().MTUPayload)
	for k, v := range c.f64["replay_backlog_bytes"] {
		if v > bound || v < 0 {
			t.Fatalf("t=%d ns: replay backlog %v B, bound %v B (model sup %v + %d MTUs)", c.i64["t_ns"][k], v, bound, vdev, len(s.Flows))
		}
	}
	cmp := s.Compare
	if cmp.ReplayCCA != "linerate" || cmp.PeakBacklogBytes < 0.9*vdev || cmp.FirstPauseNs != -1 || cmp.FinalBacklogBytes != 0 {
		t.Errorf("compare summary %+v (model peak %v)", cmp, vdev)
	}
	if cmp.BufferBytes < 31_000_000 {
		t.Errorf("replay buffer %d B is smaller than the workload", cmp.BufferBytes)
	}
	// Delay: the model's FIFO at rate C delays the byte admitted at t by
	// its backlog over C (the horizontal deviation of Â and D); the replay's
	// packets wait as long for the payload ahead of them, plus their
	// headers (wire/payload) and one packet's transmission.
	cfg := nic.DefaultConfig()
	wire := float64(cfg.MTUPayload+cfg.HeaderBytes) / float64(cfg.MTUPayload)
	mtuNs := float64(cfg.MTUPayload+cfg.HeaderBytes) * 8 / 100 // ns at 100 Gb/s
	for k := range c.rows {
		m, r := c.i64["model_delay_ns"][k], c.i64["replay_delay_ns"][k]
		if want := c.f64["model_backlog_bytes"][k] * 8 / 100; m >= 0 && math.Abs(float64(m)-want) > 100+1 {
			t.Fatalf("t=%d ns: model delay %d ns, backlog/C %v ns", c.i64["t_ns"][k], m, want)
		}
		if r >= 0 && m >= 0 && float64(r) > float64(m)*wire+float64(len(s.Flows))*mtuNs+200 {
			t.Fatalf("t=%d ns: replay delay %d ns, above the model's %d ns x %.3f plus one packet per flow", c.i64["t_ns"][k], r, m, wire)
		}
	}
	if cmp.ModelPeakDelayNs < 2_300_000 || cmp.ReplayPeakDelayNs < cmp.ModelPeakDelayNs {
		t.Errorf("peak delays: model %d ns, replay %d ns; want about 30 MB / 100 Gb/s = 2.4 ms, the replay's above (headers)", cmp.ModelPeakDelayNs, cmp.ReplayPeakDelayNs)
	}
	if cmp.ModelJain < 0.999 || cmp.ReplayJain < 0.99 {
		t.Errorf("Jain's index model %v replay %v: 31 equal flows at line rate share the link", cmp.ModelJain, cmp.ReplayJain)
	}
}

// DCQCN --compare writes a compare.parquet Arrow reads, where both sides
// have a backlog and an arrival rate.
func TestNetcalcCompareDCQCN(t *testing.T) {
	s, c := ncCompareRun(t, filepath.Join(t.TempDir(), "dcqcn"), "--cca", "dcqcn", "--pfc", "on", "--horizon", "1ms")
	if s.Compare.ReplayCCA != "dcqcn:zhu2015" || c.rows != 1001 {
		t.Errorf("replay %s, %d rows", s.Compare.ReplayCCA, c.rows)
	}
	for _, col := range []string{"model_backlog_bytes", "replay_backlog_bytes", "model_rate_bps", "replay_rate_bps"} {
		var peak float64
		for _, v := range c.f64[col] {
			peak = max(peak, v)
		}
		if peak <= 0 {
			t.Errorf("compare: %s is never positive", col)
		}
	}
}

// The replay's backlog does not depend on where the replay stops: packets
// still queued at the horizon count (they arrived; they never depart).
func TestNetcalcCompareHorizonIndependent(t *testing.T) {
	dir := t.TempDir()
	peak := map[string][2]float64{}
	for _, h := range []string{"300us", "1ms"} {
		r := runCLI(t, "netcalc", "--topology", "star:hosts=32,rate=100G,delay=1us", "--workload", "incast:n=31,size=1MB",
			"--cca", "dcqcn", "--pfc", "off", "--horizon", h, "--compare", "--figure", "none", "--out", filepath.Join(dir, h), "--json")
		r.mustSucceed(t)
		var s struct {
			Compare struct {
				Peak  float64 `json:"replay_peak_backlog_bytes"`
				Final float64 `json:"replay_final_backlog_bytes"`
			} `json:"compare"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
			t.Fatal(err)
		}
		peak[h] = [2]float64{s.Compare.Peak, s.Compare.Final}
	}
	if peak["300us"][0] != peak["1ms"][0] || peak["300us"][1] <= 0 {
		t.Errorf("peak backlog %v (300 us) against %v (1 ms), final at 300 us %v: want the same peak and a queue left at 300 us",
			peak["300us"][0], peak["1ms"][0], peak["300us"][1])
	}
}
