package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// The made-up fct.txt pair the fidelity package ships (its README says
// what differs between them).
const (
	validateRef   = "../../fidelity/testdata/ns3_fct.txt"
	validateOther = "../../fidelity/testdata/other_fct.txt"
)

// validateJSON is the part of validate --json the tests read.
type validateJSON struct {
	Reference struct {
		Label, Path, Source string
	} `json:"reference"`
	Other struct {
		Label, Path, Source string
	} `json:"other"`
	Match struct {
		Matched        int `json:"matched"`
		ByPorts        int `json:"by_ports"`
		ByStart        int `json:"by_start"`
		UnmatchedRef   int `json:"unmatched_reference"`
		UnmatchedOther int `json:"unmatched_other"`
	} `json:"match"`
	Overall struct {
		Flows         int                `json:"flows"`
		SlowdownRatio map[string]float64 `json:"slowdown_ratio"`
		FCTMeanRatio  float64            `json:"fct_mean_ratio"`
		LastRatio     float64            `json:"last_completion_ratio"`
	} `json:"overall"`
	HPCCBuckets struct {
		Buckets []struct {
			Flows         int                `json:"flows"`
			SlowdownRatio map[string]float64 `json:"slowdown_ratio"`
		} `json:"buckets"`
	} `json:"hpcc_buckets"`
	Buckets struct {
		Buckets []struct {
			Flows         int                `json:"flows"`
			SlowdownRatio map[string]float64 `json:"slowdown_ratio"`
		} `json:"buckets"`
	} `json:"buckets"`
	TopSlower  []map[string]any `json:"top_slower"`
	TopFaster  []map[string]any `json:"top_faster"`
	Violations []struct {
		Where, Metric string
	} `json:"violations"`
	Plots []string `json:"plots"`
}

func decodeValidate(t *testing.T, r cliResult) validateJSON {
	t.Helper()
	var v validateJSON
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("validate --json is not JSON: %v\n%s", err, r.stdout)
	}
	return v
}

// A run compared with its own --fct-txt, and with itself through its
// Parquet files: every flow matches by ports and every ratio is exactly 1.
func TestValidateRunAgainstItself(t *testing.T) {
	dir := t.TempDir()
	run, fct := filepath.Join(dir, "run"), filepath.Join(dir, runfolder.FCTFile)
	runCLI(t, "run", "--workload", "incast:n=8,size=100KB", "--packets", "none", "--out", run, "--fct-txt", fct).mustSucceed(t)
	for _, args := range [][]string{
		{"validate", run, "--ns3-fct", fct, "--json", "--bands", "--max-overall-err", "1e-12", "--max-bucket-err", "1e-12", "--min-bucket-flows", "1"},
		{"validate", fct, run, "--json", "--bands"},
	} {
		r := runCLI(t, args...)
		r.mustSucceed(t)
		v := decodeValidate(t, r)
		if v.Match.Matched != 8 || v.Match.ByPorts != 8 || v.Overall.Flows != 8 {
			t.Errorf("%q: match %+v", args, v.Match)
		}
		for k, x := range v.Overall.SlowdownRatio {
			if x != 1 {
				t.Errorf("%q: overall slowdown ratio %s = %v, want exactly 1", args, k, x)
			}
		}
		if v.Overall.FCTMeanRatio != 1 || v.Overall.LastRatio != 1 || len(v.TopSlower)+len(v.TopFaster) != 0 || v.Violations == nil || len(v.Violations) != 0 {
			t.Errorf("%q: mean %v last %v top %v %v violations %v", args, v.Overall.FCTMeanRatio, v.Overall.LastRatio, v.TopSlower, v.TopFaster, v.Violations)
		}
	}
	// The Parquet side says where its rows come from.
	r := runCLI(t, "validate", fct, run)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, runfolder.MessagesFile+" and "+runfolder.FlowsFile+" (no "+runfolder.FCTFile+" in the folder): FCT = sender_done_ns - release_ns") {
		t.Errorf("the table does not say the rows came from Parquet:\n%s", r.stdout)
	}
}

// The shipped pair: table, JSON, plots and a failing band check.
func TestValidateShippedPair(t *testing.T) {
	r := runCLI(t, "validate", validateRef, validateOther, "--top", "3")
	r.mustSucceed(t)
	for _, s := range []string{
		"reference: ns3_fct.txt (" + validateRef + ": " + runfolder.FCTFile + " file)",
		"matched 38 flows: 1 of 39 reference rows, 1 of 39 other rows unmatched; 37 by (src, dst, sport, dport), 1 by (src, dst, size) and start within 10 ns",
		"overall (38 flows, percentiles nearest rank)", "slowdown p99", "last completion",
		"HPCC buckets (fct_analysis.py", "ccreplay buckets (ccreplay metrics", "3 flows slower in the other", "3 flows faster in the other",
	} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("table has no %q:\n%s", s, r.stdout)
		}
	}

	plots := filepath.Join(t.TempDir(), "fig")
	r = runCLI(t, "validate", validateRef, validateOther, "--json", "--plots", plots, "--bands", "--min-bucket-flows", "2")
	if r.code != ExitFailure {
		t.Fatalf("bands on FCTs 0.9 to 1.2 times apart: exit %d, want %d\n%s", r.code, ExitFailure, r.stderr)
	}
	v := decodeValidate(t, r)
	if len(v.Violations) == 0 || !strings.Contains(r.stderr, "outside band: ") || !strings.HasSuffix(r.stderr, "ratios outside their bands\n") {
		t.Errorf("violations %v, stderr:\n%s", v.Violations, r.stderr)
	}
	if len(v.HPCCBuckets.Buckets) != 20 || v.HPCCBuckets.Buckets[0].Flows != 1 || len(v.Buckets.Buckets) == 0 {
		t.Errorf("buckets: %d HPCC, %d ccreplay", len(v.HPCCBuckets.Buckets), len(v.Buckets.Buckets))
	}
	want := []string{"fidelity_fct_scatter.png", "fidelity_fct_scatter.svg", "fidelity_slowdown.png", "fidelity_slowdown.svg", "fidelity_slowdown_cdf.png", "fidelity_slowdown_cdf.svg"}
	if got := dirNames(t, plots); strings.Join(got, " ") != strings.Join(want, " ") || len(v.Plots) != 6 {
		t.Errorf("plots %v (JSON %v), want %v", got, v.Plots, want)
	}
	for _, n := range want {
		if st, err := os.Stat(filepath.Join(plots, n)); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", n, err)
		}
	}
	// Wide bands pass.
	runCLI(t, "validate", validateRef, validateOther, "--max-overall-err", "0.5", "--max-bucket-err", "0.5").mustSucceed(t)
}

func TestValidateBadInput(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.txt")
	checkExits(t, []exitCase{
		{[]string{"validate", missing, validateOther}, ExitBadInput, "nope.txt: no such file or directory"},
		{[]string{"validate", validateRef, "../../fidelity/testdata/malformed_fct.txt"}, ExitBadInput, "malformed_fct.txt:2: start_ns"},
		{[]string{"validate", validateRef, dir}, ExitBadInput, "neither " + runfolder.FCTFile + " nor a ccreplay run folder"},
		{[]string{"validate", validateRef, validateOther, "--min-match", "1"}, ExitBadInput, "only 38 flows match: 97.4 % of the reference's 39"},
		{[]string{"validate", validateRef, validateOther, "--start-tolerance", "0", "--min-match", "0.99"}, ExitBadInput, "only 37 flows match"},
		{[]string{"validate"}, ExitUsage, "accepts between 1 and 2 arg(s)"},
		{[]string{"validate", validateRef}, ExitUsage, "give RUN_DIR --ns3-fct"},
		{[]string{"validate", validateRef, validateOther, "--ns3-fct", validateRef}, ExitUsage, "--ns3-fct compares one RUN_DIR"},
		{[]string{"validate", validateRef, validateOther, "--top", "-1"}, ExitUsage, "--top must be >= 0"},
		{[]string{"validate", validateRef, validateOther, "--min-match", "2"}, ExitUsage, "--min-match must be in 0..1"},
		{[]string{"validate", validateRef, validateOther, "--hpcc-step", "0"}, ExitUsage, "--hpcc-step must be in 1..100"},
	})
}

// ccreplay on the HPCC simulator's ws16_hpcc scenario against the
// simulator's fct.txt (skipped without ../shared/data): every flow
// matches by ports, standalone FCTs agree, and the overall ratios are
// near 1 (the bands the project holds itself to are asserted elsewhere).
func TestValidateNS3Reference(t *testing.T) {
	ref, err := filepath.Abs("../../../shared/data/ns3_reference")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ref, "runs/ws16_hpcc/"+runfolder.FCTFile)); err != nil {
		t.Skipf("shared ns-3 reference data absent (%v)", err)
	}
	out := filepath.Join(t.TempDir(), "ws16")
	t.Chdir(ref) // the runs' config paths are relative to this folder
	runCLI(t, "run", "--hpcc-config", "runs/ws16_hpcc/config.txt", "--packets", "none", "--fct-txt", out+".txt", "--out", out).mustSucceed(t)
	r := runCLI(t, "validate", out+".txt", "--ns3-fct", "runs/ws16_hpcc/"+runfolder.FCTFile, "--json")
	r.mustSucceed(t)
	v := decodeValidate(t, r)
	if v.Match.Matched != 685 || v.Match.ByPorts != 685 {
		t.Errorf("match %+v, want all 685 flows by ports", v.Match)
	}
	for k, x := range map[string]float64{"slowdown p50": v.Overall.SlowdownRatio["p50"], "slowdown p99": v.Overall.SlowdownRatio["p99"],
		"mean FCT": v.Overall.FCTMeanRatio, "last completion": v.Overall.LastRatio} {
		if x < 0.8 || x > 1.25 {
			t.Errorf("%s ratio %v outside [0.8, 1.25]", k, x)
		}
	}
	t.Logf("ws16_hpcc: slowdown ratios %v, mean FCT %v, last completion %v", v.Overall.SlowdownRatio, v.Overall.FCTMeanRatio, v.Overall.LastRatio)
}
