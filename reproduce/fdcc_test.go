package reproduce

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/runfolder"
)

// The shipped FDCC policy on FDCC (Zhang 2023), Table 6.2's 16-to-1 incast
// (20 MB flows, Gaussian starts within 1 ms, 64-to-64 dumbbell, one-BDP
// windows), beside DCQCN and HPCC on the same setup.
//
// The thesis claims "better overall fairness" with goodput 0.90 (Section
// 6.2, Table 6.2). Issue 35's bar for the shipped policy: every flow
// finishes, goodput at least 0.85 of the link, and an unfair ratio during
// the incast ((BW_max - BW_avg) / BW_avg over the span in which every flow
// is active, Section 5.4) below DCQCN's and HPCC's on the same runs.
// Measured when the policy was shipped: goodput 0.942, unfair ratio 0.022
// against DCQCN's 0.198 and HPCC's 0.748, mean slowdown 16.0 (thesis 16.9;
// DCQCN 16.1, HPCC 15.8). The thesis' unfair ratio (0.00002) is not
// reached (docs/FDCC.md, "Results").
func TestShippedFDCCOn16To1(t *testing.T) {
	if testing.Short() {
		t.Skip("three 16-to-1 runs of 20 MB flows")
	}
	e := &Experiment{Name: "fdcc-16", Paper: "test", Title: "test", Setup: "test",
		Runs: func(Scale) []Run {
			return []Run{table62Run(16, "dcqcn:hpcc"), table62Run(16, "hpcc"), table62Run(16, "fdcc")}
		},
		Claims: func(Scale) []Claim { return nil },
	}
	out := t.TempDir() + "/out"
	rep, err := Execute(context.Background(), e, Options{Out: out, Registry: all.Registry(), Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 3 {
		t.Fatalf("%d runs", len(rep.Runs))
	}
	sum := map[string]*metrics.Summary{}
	for _, spec := range []string{"dcqcn:hpcc", "hpcc", "fdcc"} {
		s, err := readRunSummary(out, table62Run(16, spec).Label)
		if err != nil {
			t.Fatal(err)
		}
		sum[spec] = s
		t.Logf("%-11s unfair during the incast %.5f  goodput %.3f  mean slowdown %.1f  mean queue %.0f B  flows finished %d/%d",
			spec, unfairDuringIncast(s), s.GoodputNorm, s.SlowdownMean, s.QLenAvgBytes, s.FlowsFinished, s.Flows)
	}
	f := sum["fdcc"]
	if f.FlowsFinished != f.Flows {
		t.Fatalf("fdcc: %d of %d flows finished", f.FlowsFinished, f.Flows)
	}
	if u, d, h := unfairDuringIncast(f), unfairDuringIncast(sum["dcqcn:hpcc"]), unfairDuringIncast(sum["hpcc"]); !(u < d && u < h) {
		t.Errorf("fdcc unfair ratio during the incast %.4f, want below DCQCN's %.4f and HPCC's %.4f", u, d, h)
	}
	if f.GoodputNorm < 0.85 {
		t.Errorf("fdcc goodput %.3f of the link, want >= 0.85", f.GoodputNorm)
	}
}

// What DCQCN's unfair ratio on FDCC (Zhang 2023), Table 6.2's 4-to-1 incast
// measures (Section 5.4: (BW_max - BW_avg) / BW_avg during the incast; here
// over the span in which all four flows are active, the same rule for every
// algorithm). The four one-BDP windows keep the bottleneck queue near three
// BDPs (about 217 KB), below the `hpcc-run` preset's ECN threshold Kmin of
// 400 KB, so no packet is marked, no CNP is sent and DCQCN never changes a
// rate: its figure is that of the one-BDP windows sharing a FIFO queue, the
// same to the bit as with no congestion control at all (`linerate` with the
// same windows; its switch marks at the default thresholds, 5 KB and up, and
// it ignores the marks). Measured: 0.0005 (docs/FDCC.md, "The unfair ratio
// at 4-to-1").
func TestTable62DCQCNAt4To1IsTheWindows(t *testing.T) {
	if testing.Short() {
		t.Skip("two 4-to-1 runs of 20 MB flows")
	}
	specs := []string{"dcqcn:hpcc-run", "linerate"}
	e := &Experiment{Name: "fdcc-4", Paper: "test", Title: "test", Setup: "test",
		Runs: func(Scale) []Run {
			return []Run{table62Run(4, specs[0]), table62Run(4, specs[1])}
		},
		Claims: func(Scale) []Claim { return nil },
	}
	out := t.TempDir() + "/out"
	if _, err := Execute(context.Background(), e, Options{Out: out, Registry: all.Registry(), Parallel: 2}); err != nil {
		t.Fatal(err)
	}
	var sum [2]*metrics.Summary
	for i, spec := range specs {
		s, err := readRunSummary(out, table62Run(4, spec).Label)
		if err != nil {
			t.Fatal(err)
		}
		sum[i] = s
		t.Logf("%-14s unfair during the incast %.6f over %d ns  goodput %.4f  mean queue %.0f B  max queue %d B  marks %d  CNPs %d",
			spec, unfairDuringIncast(s), s.ConcurrentWindowNs, s.GoodputNorm, s.QLenAvgBytes, s.QLenMaxBytes, s.ECNMarkedPkts, s.CNPs)
	}
	d, l := sum[0], sum[1]
	if d.FlowsFinished != 4 || l.FlowsFinished != 4 {
		t.Fatalf("flows finished: dcqcn %d, linerate %d of 4", d.FlowsFinished, l.FlowsFinished)
	}
	if d.QLenMaxBytes >= 400_000 || d.ECNMarkedPkts != 0 || d.CNPs != 0 {
		t.Errorf("dcqcn: max queue %d B (Kmin 400000 B), %d marks, %d CNPs; want a queue below Kmin and no marks or CNPs",
			d.QLenMaxBytes, d.ECNMarkedPkts, d.CNPs)
	}
	if a, b := unfairDuringIncast(d), unfairDuringIncast(l); a != b || d.ConcurrentWindowNs != l.ConcurrentWindowNs || d.GoodputNorm != l.GoodputNorm {
		t.Errorf("dcqcn unfair %v over %d ns, goodput %v; linerate %v over %d ns, goodput %v: want the same",
			a, d.ConcurrentWindowNs, d.GoodputNorm, b, l.ConcurrentWindowNs, l.GoodputNorm)
	}
	if u := unfairDuringIncast(d); !(u > 0 && u < 0.002) {
		t.Errorf("dcqcn unfair ratio during the incast %v, want in (0, 0.002) (measured 0.0005)", u)
	}
}

// readRunSummary reads the metrics of summary.json in the run folder
// labelled label under out.
func readRunSummary(out, label string) (*metrics.Summary, error) {
	b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(label), runfolder.SummaryFile))
	if err != nil {
		return nil, err
	}
	var doc struct {
		Metrics metrics.Summary `json:"metrics"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	return &doc.Metrics, nil
}

// Options.CCAParams adds parameters to the runs of the named algorithm
// only (eval fdcc's --policy), in the configs written and in the runs.
func TestCCAParamsReachTheirAlgorithm(t *testing.T) {
	e := &Experiment{Name: "params", Paper: "test", Title: "test", Setup: "test",
		Runs: func(Scale) []Run {
			return []Run{
				{Label: "cca=fdcc", Config: runFile("incast:n=2,size=100KB", "", "fdcc")},
				{Label: "cca=hpcc", Config: runFile("incast:n=2,size=100KB", "", "hpcc")},
			}
		},
		Claims: func(Scale) []Claim { return nil },
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Execute(context.Background(), e, Options{Out: out, Registry: all.Registry(), Parallel: 1,
		CCAParams: map[string]map[string]string{"fdcc": {"min_window": "2"}}}); err != nil {
		t.Fatal(err)
	}
	for label, want := range map[string]string{"cca=fdcc": "2", "cca=hpcc": ""} {
		b, err := os.ReadFile(filepath.Join(out, ConfigsDir, ConfigName(label)))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Params map[string]string `json:"cca_params"`
		}
		s, err := os.ReadFile(filepath.Join(out, label, runfolder.SummaryFile))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(s, &doc); err != nil {
			t.Fatal(err)
		}
		inConfig := strings.Contains(string(b), "min_window")
		if got := doc.Params["min_window"]; got != want || inConfig != (want != "") {
			t.Errorf("%s: min_window %q in the run (want %q), in its config %v", label, got, want, inConfig)
		}
	}
}
