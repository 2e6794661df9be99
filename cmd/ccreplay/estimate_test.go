package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/estimate"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/runfolder"
)

// estWorkload is a 16-host three-tier fat-tree under WebSearch: flows
// reach every kind of link in well under a second.
var estArgs = []string{"--workload", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=200us",
	"--topology", "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", "--cca", "dcqcn"}

// TestEstimateFolder: estimate writes a complete run folder with
// "mode": "estimate", links.parquet read back with Arrow, every flow of
// the packet-level run estimated; metrics and validate read it; a rerun
// is byte-identical whatever -j is.
func TestEstimateFolder(t *testing.T) {
	dir := t.TempDir()
	est := filepath.Join(dir, "est")
	runCLI(t, append([]string{"estimate", "--out", est, "-j", "1"}, estArgs...)...).mustSucceed(t)
	man, err := runfolder.ReadManifest(est)
	if err != nil {
		t.Fatal(err)
	}
	if man.Mode != runfolder.ModeEstimate || man.Estimate == nil || man.Estimate.LinksSimulated == 0 || man.Estimate.Tolerance != estimate.DefaultTolerance || man.Estimate.PoolFlows != estimate.DefaultPoolFlows {
		t.Fatalf("manifest mode %q estimate %+v", man.Mode, man.Estimate)
	}
	links, err := arrowread.ReadLinks(filepath.Join(est, runfolder.LinksFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != man.Estimate.Links || len(links) < 10 {
		t.Fatalf("%d rows in "+runfolder.LinksFile+", manifest says %d links", len(links), man.Estimate.Links)
	}
	full := filepath.Join(dir, "full")
	runCLI(t, append([]string{"run", "--packets", "none", "--out", full}, estArgs...)...).mustSucceed(t)
	fl, err := arrowread.ReadFlows(filepath.Join(est, runfolder.FlowsFile))
	if err != nil {
		t.Fatal(err)
	}
	ff, err := arrowread.ReadFlows(filepath.Join(full, runfolder.FlowsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(fl) != len(ff) {
		t.Fatalf("estimate has %d flows, run %d", len(fl), len(ff))
	}
	for i := range fl {
		e, r := fl[i], ff[i]
		if e.FlowID != r.FlowID || e.Src != r.Src || e.Dst != r.Dst || e.SizeBytes != r.SizeBytes || e.StartNs != r.StartNs ||
			e.IdealFCTNs != r.IdealFCTNs || e.BaseRTTNs != r.BaseRTTNs || e.Hops != r.Hops || e.StandaloneNs != r.StandaloneNs {
			t.Fatalf("flow %d: estimate %+v\nrun %+v", i, e, r)
		}
	}
	runCLI(t, "metrics", est).mustSucceed(t)
	v := runCLI(t, "validate", est, full)
	v.mustSucceed(t)
	if !strings.Contains(v.stdout, "matched") {
		t.Fatalf("validate output:\n%s", v.stdout)
	}
	// Byte-identical rerun with more workers.
	again := filepath.Join(dir, "again")
	runCLI(t, append([]string{"estimate", "--out", again, "-j", "3"}, estArgs...)...).mustSucceed(t)
	for _, f := range man.Files {
		a, _ := os.ReadFile(filepath.Join(est, f))
		b, _ := os.ReadFile(filepath.Join(again, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between -j 1 and -j 3 (or is empty)", f)
		}
	}
}

// TestEstimateJSONAndNoCluster: --json prints the manifest; --no-cluster
// simulates every link and says so.
func TestEstimateJSONAndNoCluster(t *testing.T) {
	r := runCLI(t, append([]string{"estimate", "--out", filepath.Join(t.TempDir(), "e"), "--no-cluster", "--json"}, estArgs...)...)
	r.mustSucceed(t)
	var m runfolder.Manifest
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	if m.Mode != "estimate" || m.Estimate.Tolerance != -1 || m.Estimate.LinksSimulated != m.Estimate.Links {
		t.Fatalf("--no-cluster manifest: %+v", m.Estimate)
	}
}

// TestEstimateWarningsAndStrict: a PFC-heavy incast prints warning:
// lines; --strict refuses it and writes nothing.
func TestEstimateWarningsAndStrict(t *testing.T) {
	dir := t.TempDir()
	args := []string{"estimate", "--workload", "incast:n=16,size=2MB", "--cca", "linerate"}
	r := runCLI(t, append(args, "--out", filepath.Join(dir, "w"))...)
	r.mustSucceed(t)
	if !strings.Contains(r.stderr, "warning: ") || !strings.Contains(r.stderr, "PFC pauses") {
		t.Fatalf("no PFC warning on stderr:\n%s", r.stderr)
	}
	out := filepath.Join(dir, "strict")
	r = runCLI(t, append(args, "--out", out, "--strict")...)
	if r.code != ExitFailure || !strings.Contains(r.stderr, "--strict") {
		t.Fatalf("--strict: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("--strict left %s: %v", out, err)
	}
}

// TestEstimateBadInput: a closed-loop workload is bad input (exit 3), a
// negative tolerance and a pool of no flows usage errors (exit 2).
func TestEstimateBadInput(t *testing.T) {
	r := runCLI(t, "estimate", "--workload", "osu-alltoall:nodes=4,ppn=1,sizes=1KB..1KB,warmup=0,iters=1", "--out", filepath.Join(t.TempDir(), "x"))
	if r.code != ExitBadInput || !strings.Contains(r.stderr, "open-loop") {
		t.Fatalf("closed loop: exit %d\n%s", r.code, r.stderr)
	}
	r = runCLI(t, append([]string{"estimate", "--tolerance", "-0.5", "--out", filepath.Join(t.TempDir(), "y")}, estArgs...)...)
	if r.code != ExitUsage {
		t.Fatalf("negative tolerance: exit %d\n%s", r.code, r.stderr)
	}
	r = runCLI(t, append([]string{"estimate", "--pool-flows", "0", "--out", filepath.Join(t.TempDir(), "z")}, estArgs...)...)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--pool-flows") {
		t.Fatalf("--pool-flows 0: exit %d\n%s", r.code, r.stderr)
	}
}

// TestSweepEstimate: a sweep of kind estimate writes an estimate's folder
// per point (mode estimate, links.parquet), collects their metrics into
// sweep.parquet, skips done points when run again, and `sweep point`
// (what a Slurm array task runs) runs a point of kind estimate.
func TestSweepEstimate(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	args := []string{"sweep", "--kind", "estimate", "--workload", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=100us",
		"--topology", "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", "--cca", "dcqcn,hpcc", "--out", "sw", "-j", "1"}
	runCLI(t, args...).mustSucceed(t)
	for _, c := range []string{"dcqcn", "hpcc"} {
		d := filepath.Join("sw", "cca="+c)
		man, err := runfolder.ReadManifest(d)
		if err != nil {
			t.Fatal(err)
		}
		if man.Mode != runfolder.ModeEstimate || man.Estimate == nil {
			t.Fatalf("%s: mode %q", c, man.Mode)
		}
		if _, err := arrowread.ReadLinks(filepath.Join(d, runfolder.LinksFile)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join("sw", runfolder.SweepTableFile)); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, args...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "0 run now, 2 already done") {
		t.Fatalf("second sweep: %s", r.stdout)
	}
	if err := os.RemoveAll(filepath.Join("sw", "cca=hpcc")); err != nil {
		t.Fatal(err)
	}
	runCLI(t, "sweep", "point", "sw", "--index", "1").mustSucceed(t)
	if man, err := runfolder.ReadManifest(filepath.Join("sw", "cca=hpcc")); err != nil || man.Mode != runfolder.ModeEstimate {
		t.Fatalf("sweep point of kind estimate: %v %+v", err, man)
	}
}
