package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/metrics/inspect"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// `ccreplay metrics RUN --phases` on the FDCC thesis' fair-share join
// (Sec. 6.1, Fig. 6.2), scaled down: 4 flows of 5 MB joining one every
// 100 us, so that all four share the link from 300 us on. The phases run
// from flow event to flow event, each phase's shares add up to 1, and
// every byte a flow's packets delivered lands in exactly one of its
// phases: Σ delivered_bytes = its data_bytes_sent (PFC, no drops).
func TestMetricsPhases(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "fs")
	runCLI(t, "run", "--out", dir, "--workload", "fairshare:size=5MB,stagger=100us", "--cca", "dcqcn", "--packets", "data").mustSucceed(t)

	r := runCLI(t, "metrics", dir, "--phases", "--json")
	r.mustSucceed(t)
	var got inspect.PhasesJSON
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	flows := readFlows(t, dir)
	// 4 starts (0, 100, 200, 300 us) and 4 finishes: 7 phases, no gap.
	if len(got.Phases) != 7 {
		t.Fatalf("%d phases, want 7:\n%s", len(got.Phases), r.stdout)
	}
	want := []int{1, 2, 3, 4, 3, 2, 1} // active flows per phase
	delivered := map[int64]int64{}
	for k, p := range got.Phases {
		if len(p.Flows) != want[k] {
			t.Errorf("phase %d: %d flows, want %d", k, len(p.Flows), want[k])
		}
		if k < 4 && p.StartNs != int64(k)*100_000 {
			t.Errorf("phase %d starts at %d ns, want flow %d's start %d ns", k, p.StartNs, k, k*100_000)
		}
		if k > 0 && p.StartNs != got.Phases[k-1].EndNs {
			t.Errorf("phase %d starts at %d, the previous ended at %d", k, p.StartNs, got.Phases[k-1].EndNs)
		}
		var share float64
		for _, f := range p.Flows {
			share += f.Share
			delivered[f.FlowID] += f.DeliveredBytes
			if r := float64(f.DeliveredBytes) * 8e9 / float64(p.EndNs-p.StartNs); math.Abs(f.RateBps-r) > 1e-9*r {
				t.Errorf("phase %d flow %d: rate %v, want delivered*8/duration %v", k, f.FlowID, f.RateBps, r)
			}
		}
		if math.Abs(share-1) > 1e-12 {
			t.Errorf("phase %d: shares add up to %v", k, share)
		}
		if n := float64(len(p.Flows)); p.JainIndex < 1/n-1e-12 || p.JainIndex > 1+1e-12 {
			t.Errorf("phase %d: Jain index %v outside [1/%v, 1]", k, p.JainIndex, n)
		}
	}
	if p := got.Phases[0]; p.Flows[0].FlowID != 0 || p.Flows[0].Share != 1 || p.JainIndex != 1 {
		t.Errorf("phase 0 is flow 0 alone: %+v", p)
	}
	if last := got.Phases[6]; last.EndNs != maxFinish(flows) {
		t.Errorf("the last phase ends at %d, the last flow finished at %d", last.EndNs, maxFinish(flows))
	}
	for _, f := range flows {
		if delivered[f.FlowID] != f.DataBytesSent {
			t.Errorf("flow %d: %d bytes delivered over its phases, data_bytes_sent %d", f.FlowID, delivered[f.FlowID], f.DataBytesSent)
		}
	}

	// The table: a header, then a line per (phase, flow).
	tr := runCLI(t, "metrics", "--phases", dir)
	tr.mustSucceed(t)
	for _, w := range []string{"7 phases between flow starts and finishes", "phase", "Jain", "throughput", "share"} {
		if !strings.Contains(tr.stdout, w) {
			t.Errorf("table lacks %q:\n%s", w, tr.stdout)
		}
	}
	if lines := strings.Count(tr.stdout, "\n"); lines != 3+1+(1+2+3+4+3+2+1) {
		t.Errorf("table has %d lines, want 3 of heading, 1 of header and 16 of (phase, flow):\n%s", lines, tr.stdout)
	}
	if testing.Verbose() {
		t.Log("\n" + tr.stdout)
	}
}

// maxFinish is the latest finish_ns of the flows.
func maxFinish(flows []v2.FlowRow) int64 {
	var m int64
	for _, f := range flows {
		m = max(m, f.FinishNs)
	}
	return m
}

// --phases refuses a run without packets.parquet (a flow's bytes over
// its lifetime cannot give its share inside a phase), several runs, and
// the flags of the other views.
func TestMetricsPhasesRefusals(t *testing.T) {
	tmp := t.TempDir()
	none := filepath.Join(tmp, "none")
	runCLI(t, "run", "--out", none, "--workload", "fairshare:n=2,size=200KB,stagger=10us", "--packets", "none").mustSucceed(t)
	data := filepath.Join(tmp, "data")
	runCLI(t, "run", "--out", data, "--workload", "fairshare:n=2,size=200KB,stagger=10us", "--packets", "data").mustSucceed(t)
	for _, c := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no " + runfolder.PacketsFile, []string{none, "--phases"}, ExitBadInput,
			[]string{"metrics --phases: " + filepath.ToSlash(none) + " has no " + runfolder.PacketsFile, "delivery times", "--packets data"}},
		{"two runs", []string{tmp, "--phases"}, ExitUsage, []string{"--phases takes one run folder, got 2 runs"}},
		{"with --by", []string{data, "--phases", "--by", "cca"}, ExitUsage, []string{"does not take --by"}},
		{"with --verify", []string{data, "--phases", "--verify"}, ExitUsage, []string{"does not take --verify"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, append([]string{"metrics"}, c.args...)...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", r.code, c.code, r.stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			if r.stdout != "" {
				t.Errorf("printed on stdout:\n%s", r.stdout)
			}
		})
	}
}
