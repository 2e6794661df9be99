package main

import (
	"compress/gzip"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/fidelity"
	"github.com/ccreplay/ccreplay/topology"
)

const ns3FatTree = "testdata/ns3_fattree"

// gunzipTo writes the decompressed testdata file name into dir and returns
// its path.
func gunzipTo(t *testing.T, dir, name string) string {
	t.Helper()
	f, err := os.Open(filepath.Join(ns3FatTree, name+".gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	w, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(w, zr); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// fatTreeScenario writes the fat-tree (topology.WriteHPCC of hpcc-fattree),
// the flows and cc's simulator configuration into dir, and returns the
// configuration's path. The configuration is the shared reference folder's
// ws16 one for cc with its files replaced and SIMULATOR_STOP_TIME 2.05, as
// the simulator's runs in testdata used it.
func fatTreeScenario(t *testing.T, dir, cc string) string {
	t.Helper()
	base, err := os.ReadFile(filepath.Join(ns3Reference, "runs", "ws16_"+cc, "config.txt"))
	if os.IsNotExist(err) {
		t.Skipf("shared data %s not present (it lives beside the checkout); skipping", ns3Reference)
	}
	if err != nil {
		t.Fatal(err)
	}
	topo, err := topology.Parse("hpcc-fattree", 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := topology.WriteHPCC(&b, topo); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"fat.txt": b.String(), "trace.txt": "1\n0\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	replace := map[string]string{
		"TOPOLOGY_FILE": filepath.Join(dir, "fat.txt"), "FLOW_FILE": gunzipTo(t, dir, "flow.txt"),
		"TRACE_FILE": filepath.Join(dir, "trace.txt"), "TRACE_OUTPUT_FILE": filepath.Join(dir, "mix.tr"),
		"FCT_OUTPUT_FILE": filepath.Join(dir, "fct_ns3.txt"), "PFC_OUTPUT_FILE": filepath.Join(dir, "pfc.txt"),
		"QLEN_MON_FILE": filepath.Join(dir, "qlen.txt"), "SIMULATOR_STOP_TIME": "2.05",
	}
	lines := strings.Split(string(base), "\n")
	for i, l := range lines {
		if f := strings.Fields(l); len(f) > 0 {
			if v, ok := replace[f[0]]; ok {
				lines[i] = f[0] + " " + v
				delete(replace, f[0])
			}
		}
	}
	if len(replace) != 0 {
		t.Fatalf("the reference configuration lacks keys %v", replace)
	}
	cfg := filepath.Join(dir, "config.txt")
	if err := os.WriteFile(cfg, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The HPCC paper's 320-host fat-tree (3 tiers, ECMP, 100G hosts and 400G
// fabric, per-rate ECN thresholds, maxRtt over host pairs), 3,280
// WebSearch flows at 30 %, under DCQCN and HPCC, against the HPCC ns-3
// simulator's own runs of the same files: every flow matches with the same
// standalone FCT, the median slowdown and the mean FCT agree within 2 %,
// and the p95 and p99 slowdowns within 5 % of the simulator's, or, for
// DCQCN, whose RED marks are random, within 5 % of the range of its three
// runs with different random streams (their p99s span 9 %).
func TestNS3FatTreeFidelity(t *testing.T) {
	if testing.Short() {
		t.Skip("replays the 320-host fat-tree twice (about 25 s)")
	}
	t.Parallel()
	for cc, runs := range map[string][]string{
		"dcqcn": {"fct_dcqcn_run1.txt", "fct_dcqcn_run2.txt", "fct_dcqcn_run3.txt"},
		"hpcc":  {"fct_hpcc_run1.txt"},
	} {
		t.Run(cc, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cfg := fatTreeScenario(t, dir, cc)
			out := filepath.Join(dir, "out")
			if r := runCLI(t, "run", "--hpcc-config", cfg, "--packets", "none", "-o", out); r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			other, err := fidelity.Load(out, "ccreplay")
			if err != nil {
				t.Fatal(err)
			}
			var p95s, p99s []float64
			var ours fidelity.Stats
			for _, name := range runs {
				ref, err := fidelity.Load(gunzipTo(t, dir, name), "ns-3")
				if err != nil {
					t.Fatal(err)
				}
				rep, err := fidelity.Compare(ref, other, fidelity.Options{})
				if err != nil {
					t.Fatal(err)
				}
				m := rep.Match
				if m.Matched != 3280 || m.UnmatchedRef != 0 || m.UnmatchedOther != 0 || m.ByPorts != m.Matched || m.StandaloneDiffer != 0 {
					t.Fatalf("%s: matching %+v: want all 3,280 flows matched by ports with the same standalone FCT", name, m)
				}
				o := rep.Overall
				t.Logf("%s: slowdown ratio p50 %.3f p95 %.3f p99 %.3f, mean FCT ratio %.3f", name, o.SlowdownRatio.P50, o.SlowdownRatio.P95, o.SlowdownRatio.P99, o.FCTMeanRatio)
				if math.Abs(o.SlowdownRatio.P50-1) > 0.02 || math.Abs(o.FCTMeanRatio-1) > 0.02 {
					t.Errorf("%s: slowdown p50 ratio %.3f, mean FCT ratio %.3f: want both within 2 %%", name, o.SlowdownRatio.P50, o.FCTMeanRatio)
				}
				p95s, p99s = append(p95s, o.SlowdownRef.P95), append(p99s, o.SlowdownRef.P99)
				ours = o.SlowdownOther
			}
			within := func(what string, v float64, refs []float64) {
				lo, hi := refs[0], refs[0]
				for _, r := range refs {
					lo, hi = math.Min(lo, r), math.Max(hi, r)
				}
				if v < lo*0.95 || v > hi*1.05 {
					t.Errorf("slowdown %s %.3f outside the simulator's %.3f..%.3f widened by 5 %%", what, v, lo, hi)
				}
			}
			within("p95", ours.P95, p95s)
			within("p99", ours.P99, p99s)
		})
	}
}
