package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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
	fl := readFlows(t, est)
	ff := readFlows(t, full)
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
	// PFC off and a 200 KB buffer: an 8-to-1 incast of 200 KB flows drops
	// in the receiver's link simulation, whose switch is the star's; the
	// links.parquet row, summary.json's warnings and stderr say so, and
	// --strict refuses.
	cfg := filepath.Join(dir, "lossy.yaml")
	if err := os.WriteFile(cfg, []byte("switch:\n  buffer: 200KB\n  pfc: {enabled: false}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lossy := []string{"estimate", "--workload", "incast:n=8,size=200KB", "--topology", "star:hosts=9", "--cca", "dcqcn", "--config", cfg}
	r = runCLI(t, append(lossy, "--out", filepath.Join(dir, "lossy"))...)
	r.mustSucceed(t)
	if !strings.Contains(r.stderr, "warning: ") || !strings.Contains(r.stderr, "dropped packets") {
		t.Fatalf("no drop warning on stderr:\n%s", r.stderr)
	}
	links, err := arrowread.ReadLinks(filepath.Join(dir, "lossy", runfolder.LinksFile))
	if err != nil {
		t.Fatal(err)
	}
	drops := false
	for _, l := range links {
		drops = drops || l.DroppedPkts > 0 && strings.Contains(l.Warnings, "drops")
	}
	sum, err := os.ReadFile(filepath.Join(dir, "lossy", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !drops || !strings.Contains(string(sum), "dropped packets") {
		t.Fatalf("drops not reported: links %+v\nsummary %s", links, sum)
	}
	r = runCLI(t, append(lossy, "--out", filepath.Join(dir, "lossy-strict"), "--strict")...)
	if r.code != ExitFailure || !strings.Contains(r.stderr, "--strict") {
		t.Fatalf("--strict on drops: exit %d\n%s", r.code, r.stderr)
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
	r = runCLI(t, append([]string{"estimate", "--reverse-acks", "mean", "--out", filepath.Join(t.TempDir(), "w")}, estArgs...)...)
	if r.code != ExitUsage || !strings.Contains(r.stderr, `--reverse-acks "mean": want rate or packets`) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Fatalf("--reverse-acks mean: exit %d\n%s", r.code, r.stderr)
	}
	r = runCLI(t, append([]string{"estimate", "--sender-nics", "half", "--out", filepath.Join(t.TempDir(), "v")}, estArgs...)...)
	if r.code != ExitUsage || !strings.Contains(r.stderr, `--sender-nics "half": want shares, alone or shared`) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Fatalf("--sender-nics half: exit %d\n%s", r.code, r.stderr)
	}
	r = runCLI(t, append([]string{"estimate", "--sender-nics", "shared", "--out", filepath.Join(t.TempDir(), "u")}, estArgs...)...)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--sender-nics shared needs --no-cluster") {
		t.Fatalf("--sender-nics shared with clustering: exit %d\n%s", r.code, r.stderr)
	}
}

// linkOutcomes reads the outcome (link.json) of every link simulation of
// a link folder.
func linkOutcomes(t *testing.T, links string) []estimate.LinkSim {
	t.Helper()
	m, err := estimate.ReadLinksManifest(links)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]estimate.LinkSim, len(m.Links))
	for i, it := range m.Links {
		b, err := os.ReadFile(filepath.Join(links, it.Dir, estimate.OutcomeFile))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestEstimateReverseAcks: --reverse-acks packets runs the link networks
// with the flows whose ACKs cross each link (the manifest says so, the
// link folder's link.json and links.parquet count them) and estimates
// every flow. It runs in the link folder of a rate estimate of the same
// scenario, whose links it must not reuse (each link's hash has the
// choice): reused, they would carry no reverse flows.
func TestEstimateReverseAcks(t *testing.T) {
	dir := t.TempDir()
	links := filepath.Join(dir, "links")
	rate := filepath.Join(dir, "rate")
	runCLI(t, append([]string{"estimate", "--out", rate, "-j", "1", "--links-dir", links}, estArgs...)...).mustSucceed(t)
	pk := filepath.Join(dir, "packets")
	r := runCLI(t, append([]string{"estimate", "--out", pk, "-j", "1", "--links-dir", links, "--reverse-acks", "packets", "--stats"}, estArgs...)...)
	r.mustSucceed(t)
	for name, want := range map[string]string{rate: estimate.ReverseAcksRate, pk: estimate.ReverseAcksPackets} {
		man, err := runfolder.ReadManifest(name)
		if err != nil {
			t.Fatal(err)
		}
		if man.Estimate == nil || man.Estimate.ReverseAcks != want {
			t.Fatalf("%s: estimate %+v, want reverse_acks %s", name, man.Estimate, want)
		}
	}
	if len(readFlows(t, pk)) != len(readFlows(t, rate)) {
		t.Fatal("the two estimates have different flows")
	}
	carried := 0
	for _, s := range linkOutcomes(t, links) {
		carried += s.ReverseFlows
	}
	if carried == 0 {
		t.Fatalf("no link simulation of the packets estimate carried reverse flows")
	}
	// links.parquet says as much, link by link (read back with Arrow).
	rows, err := arrowread.ReadLinks(filepath.Join(pk, runfolder.LinksFile))
	if err != nil {
		t.Fatal(err)
	}
	inRows := int64(0)
	for _, r := range rows {
		if !r.Simulated && r.ReverseFlows != 0 {
			t.Fatalf("represented link %d: %d reverse flows", r.LinkID, r.ReverseFlows)
		}
		inRows += r.ReverseFlows
	}
	if inRows != int64(carried) {
		t.Fatalf("links.parquet counts %d reverse flows, the link folder %d", inRows, carried)
	}
}

// TestEstimateSenderNICs: --sender-nics shared runs the link networks with
// their senders' other flows (the manifest says so, link.json and
// links.parquet count them, read back with Arrow) and estimates every
// flow; in the link folder of an estimate with the NICs alone, whose link
// simulations it must not reuse (each link's hash has the choice). The
// default, shares, paces them instead (the manifest says so too).
func TestEstimateSenderNICs(t *testing.T) {
	dir := t.TempDir()
	links := filepath.Join(dir, "links")
	// 2 ms: a host sends four flows on average, several at once.
	args := []string{"--workload", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=2ms",
		"--topology", "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", "--cca", "dcqcn", "-j", "1", "--links-dir", links}
	alone := filepath.Join(dir, "alone")
	runCLI(t, append([]string{"estimate", "--out", alone, "--sender-nics", "alone"}, args...)...).mustSucceed(t)
	shared := filepath.Join(dir, "shared")
	runCLI(t, append([]string{"estimate", "--out", shared, "--sender-nics", "shared", "--no-cluster"}, args...)...).mustSucceed(t)
	for name, want := range map[string]string{alone: estimate.SenderNICsAlone, shared: estimate.SenderNICsShared} {
		man, err := runfolder.ReadManifest(name)
		if err != nil {
			t.Fatal(err)
		}
		if man.Estimate == nil || man.Estimate.SenderNICs != want {
			t.Fatalf("%s: estimate %+v, want sender_nics %s", name, man.Estimate, want)
		}
	}
	if len(readFlows(t, shared)) != len(readFlows(t, alone)) {
		t.Fatal("the two estimates have different flows")
	}
	carried := 0
	for _, s := range linkOutcomes(t, links) {
		carried += s.SideFlows
	}
	if carried == 0 {
		t.Fatal("no link simulation carried a sender's other flow")
	}
	var inRows int64
	for _, d := range []string{alone, shared} {
		rows, err := arrowread.ReadLinks(filepath.Join(d, runfolder.LinksFile))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if (d == alone || !r.Simulated) && r.SenderFlows != 0 {
				t.Fatalf("%s: link %d (simulated %v): %d senders' flows", d, r.LinkID, r.Simulated, r.SenderFlows)
			}
			inRows += r.SenderFlows
		}
	}
	if inRows != int64(carried) {
		t.Fatalf("links.parquet counts %d senders' flows, the link folder %d", inRows, carried)
	}
	// The default, --sender-nics shares, paces the link networks' flows
	// to their NIC shares in the same link folder: some flows' estimates
	// move from those with the NICs alone and none is under its ideal.
	shares := filepath.Join(dir, "shares") // the default
	runCLI(t, append([]string{"estimate", "--out", shares}, args...)...).mustSucceed(t)
	man, err := runfolder.ReadManifest(shares)
	if err != nil {
		t.Fatal(err)
	}
	if man.Estimate == nil || man.Estimate.SenderNICs != estimate.SenderNICsShares {
		t.Fatalf("estimate %+v, want sender_nics shares", man.Estimate)
	}
	a, b := readFlows(t, alone), readFlows(t, shares)
	if len(a) != len(b) {
		t.Fatal("the two estimates have different flows")
	}
	moved := 0
	for i := range a {
		if b[i].FCTNs < b[i].IdealFCTNs {
			t.Fatalf("flow %d: estimated FCT %d ns under its ideal %d ns", b[i].FlowID, b[i].FCTNs, b[i].IdealFCTNs)
		}
		if a[i].FCTNs != b[i].FCTNs {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no flow's estimate moved with the NICs shared out")
	}
	t.Logf("%d of %d flows' estimates moved", moved, len(a))
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

// TestEstimateLinksDir: --links-dir keeps each link simulation in a
// folder of its own and gives the estimate -j alone gives; run again with
// another clustering it reuses the links simulated before (resume by
// hash: only the new ones run); a changed scenario runs again; `estimate
// link` refuses a link folder whose inputs changed, status counts the
// links, and a foreign folder is refused as --links-dir.
func TestEstimateLinksDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	few := []string{"--tolerance", "1", "--pool-flows", "1"} // a few links simulated
	runCLI(t, append(append([]string{"estimate", "--out", "plain", "-j", "1"}, few...), estArgs...)...).mustSucceed(t)
	runCLI(t, append(append([]string{"estimate", "--out", "kept", "-j", "2", "--links-dir", "L"}, few...), estArgs...)...).mustSucceed(t)
	for _, f := range []string{runfolder.FlowsFile, runfolder.LinksFile, runfolder.SummaryFile} {
		a, _ := os.ReadFile(filepath.Join("plain", f))
		b, _ := os.ReadFile(filepath.Join("kept", f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Fatalf("%s differs with --links-dir", f)
		}
	}
	m, err := estimate.ReadLinksManifest("L")
	if err != nil {
		t.Fatal(err)
	}
	first := map[string]time.Time{}
	for _, it := range m.Links {
		st, err := os.Stat(filepath.Join("L", it.Dir, estimate.OutcomeFile))
		if err != nil {
			t.Fatal(err)
		}
		first[it.Dir] = st.ModTime()
	}
	// Every link now: the ones simulated before are not run again.
	time.Sleep(20 * time.Millisecond)
	runCLI(t, append([]string{"estimate", "--out", "all", "--no-cluster", "--links-dir", "L"}, estArgs...)...).mustSucceed(t)
	m2, err := estimate.ReadLinksManifest("L")
	if err != nil {
		t.Fatal(err)
	}
	if len(m2.Links) <= len(m.Links) {
		t.Fatalf("--no-cluster simulates %d links, the default %d", len(m2.Links), len(m.Links))
	}
	for _, it := range m2.Links {
		st, err := os.Stat(filepath.Join("L", it.Dir, estimate.OutcomeFile))
		if err != nil {
			t.Fatal(err)
		}
		if t0, ok := first[it.Dir]; ok && !st.ModTime().Equal(t0) {
			t.Fatalf("link %s ran again though its hash did not change", it.Dir)
		}
	}
	s := runCLI(t, "estimate", "status", "L")
	s.mustSucceed(t)
	if want := fmt.Sprintf("%d points: %d done, 0 failed", len(m2.Links), len(m2.Links)); !strings.Contains(s.stdout, want) {
		t.Fatalf("status: %s", s.stdout)
	}
	runCLI(t, "estimate", "link", "L", "--index", "0").mustSucceed(t)
	if r := runCLI(t, "estimate", "link", "L", "--index", "100000"); r.code != ExitUsage {
		t.Fatalf("link index out of range: exit %d %s", r.code, r.stderr)
	}
	// Another seed is another scenario: every hash changes.
	other := append(append([]string(nil), estArgs...), "--seed", "2")
	runCLI(t, append([]string{"estimate", "--out", "seed2", "--links-dir", "L"}, other...)...).mustSucceed(t)
	m3, _ := estimate.ReadLinksManifest("L")
	if m3.Scenario == m2.Scenario {
		t.Fatal("the scenario's hash did not change with the seed")
	}
	// A task of the old plan finds the inputs changed: the manifest now
	// holds seed 2's plan, so fake an old manifest's scenario.
	m3.Scenario = m2.Scenario
	b, _ := json.Marshal(m3)
	writeFile(t, "L", estimate.LinksManifestFile, string(b))
	if r := runCLI(t, "estimate", "link", "L", "--index", "0"); r.code != ExitBadInput || !strings.Contains(r.stderr, "changed since it was planned") {
		t.Fatalf("changed inputs: exit %d %s", r.code, r.stderr)
	}
	if err := os.Mkdir("foreign", 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, "foreign", "notes.txt", "x")
	if r := runCLI(t, append([]string{"estimate", "--out", "f", "--links-dir", "foreign"}, estArgs...)...); r.code != ExitUsage || !strings.Contains(r.stderr, "not an estimate's link folder") {
		t.Fatalf("foreign --links-dir: exit %d %s", r.code, r.stderr)
	}
}

// TestEstimateDrawSeed: --draw-seed equal to --seed is the default
// estimate byte for byte; another draw seed on the same link folder
// keeps links.parquet, is echoed in summary.json and by default the
// echo is the run's seed.
func TestEstimateDrawSeed(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--workload", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=1ms", "--seed", "3",
		"--topology", "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", "--cca", "dcqcn", "-j", "1", "--links-dir", filepath.Join(dir, "links")}
	def, same, other := filepath.Join(dir, "def"), filepath.Join(dir, "same"), filepath.Join(dir, "other")
	runCLI(t, append([]string{"estimate", "--out", def}, args...)...).mustSucceed(t)
	runCLI(t, append([]string{"estimate", "--out", same, "--draw-seed", "3"}, args...)...).mustSucceed(t)
	runCLI(t, append([]string{"estimate", "--out", other, "--draw-seed", "4"}, args...)...).mustSucceed(t)
	read := func(d, name string) []byte {
		b, err := os.ReadFile(filepath.Join(d, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, name := range []string{runfolder.FlowsFile, runfolder.LinksFile} {
		if !bytes.Equal(read(def, name), read(same, name)) {
			t.Errorf("--draw-seed 3 --seed 3: %s differs from the default's", name)
		}
	}
	if !bytes.Equal(read(def, runfolder.LinksFile), read(other, runfolder.LinksFile)) {
		t.Error("--draw-seed 4: links.parquet differs")
	}
	for d, want := range map[string]uint64{def: 3, same: 3, other: 4} {
		man, err := runfolder.ReadManifest(d)
		if err != nil {
			t.Fatal(err)
		}
		if man.Estimate == nil || man.Estimate.DrawSeed != want {
			t.Errorf("%s: estimate %+v, want draw_seed %d", d, man.Estimate, want)
		}
	}
}

// TestEstimateSimulateEvery: --simulate-every host-down simulates every
// host downlink (links.parquet, read back by Arrow) and says so in
// summary.json; an unknown kind is a usage error (exit 2) naming it.
func TestEstimateSimulateEvery(t *testing.T) {
	out := filepath.Join(t.TempDir(), "est")
	runCLI(t, "estimate", "--workload", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=1ms",
		"--topology", "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", "--cca", "dctcp", "-j", "1",
		"--tolerance", "0.5", "--pool-flows", "1", "--simulate-every", "host-down", "--out", out).mustSucceed(t)
	rows, err := arrowread.ReadLinks(filepath.Join(out, runfolder.LinksFile))
	if err != nil {
		t.Fatal(err)
	}
	down, represented := 0, 0
	for _, r := range rows {
		if r.Kind == "host-down" {
			down++
			if !r.Simulated {
				t.Errorf("host downlink %d represented by %d", r.LinkID, r.RepresentedBy)
			}
		}
		if !r.Simulated {
			represented++
		}
	}
	if down == 0 || represented == 0 {
		t.Fatalf("%d host downlinks, %d links represented: want both", down, represented)
	}
	man, err := runfolder.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if man.Estimate == nil || len(man.Estimate.SimulateEvery) != 1 || man.Estimate.SimulateEvery[0] != "host-down" {
		t.Fatalf("estimate %+v, want simulate_every [host-down]", man.Estimate)
	}
	r := runCLI(t, "estimate", "--workload", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=100us", "--simulate-every", "core", "--out", filepath.Join(t.TempDir(), "x"))
	if r.code != 2 || !strings.Contains(r.stderr, `--simulate-every: link kind "core"`) {
		t.Fatalf("--simulate-every core: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestEstimateLinksDirShared: estimates whose link networks differ
// (--sender-nics alone and shares) and one that shares every link
// simulation with another (--draw-seed) run at the same time on one link
// folder: each writes what it writes alone, byte for byte, and the folder
// keeps both constructions' simulations of each link side by side (each
// in a folder named with its hash), so running either again simulates
// nothing. Before the 47th session a link's folder was link=N whatever its
// hash, and one estimate replaced the other's simulations under it.
func TestEstimateLinksDirShared(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--workload", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=300us",
		"--topology", "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", "--cca", "dcqcn", "-j", "1", "--no-cluster"}
	runs := [][]string{{"--sender-nics", "alone"}, {"--sender-nics", "shares"}, {"--sender-nics", "shares", "--draw-seed", "7"}}
	shared := filepath.Join(dir, "L")
	for k, extra := range runs {
		alone := append([]string{"estimate", "--out", filepath.Join(dir, fmt.Sprint("alone", k)), "--links-dir", filepath.Join(dir, fmt.Sprint("L", k))}, args...)
		runCLI(t, append(alone, extra...)...).mustSucceed(t)
	}
	res := make([]cliResult, len(runs))
	var wg sync.WaitGroup
	for k, extra := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[k] = runCLI(t, append(append([]string{"estimate", "--out", filepath.Join(dir, fmt.Sprint("shared", k)), "--links-dir", shared}, args...), extra...)...)
		}()
	}
	wg.Wait()
	for k := range runs {
		res[k].mustSucceed(t)
		for _, f := range []string{runfolder.FlowsFile, runfolder.LinksFile, runfolder.SummaryFile} {
			a, _ := os.ReadFile(filepath.Join(dir, fmt.Sprint("alone", k), f))
			b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprint("shared", k), f))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Fatalf("estimate %v: %s differs when it shares its link folder with the others", runs[k], f)
			}
		}
	}
	// Both constructions' simulations are kept: each estimate again finds
	// all of its links done and runs none (its folders keep their times).
	folders, err := filepath.Glob(filepath.Join(shared, "link=*"))
	if err != nil {
		t.Fatal(err)
	}
	m0, err := estimate.ReadLinksManifest(filepath.Join(dir, "L0"))
	if err != nil {
		t.Fatal(err)
	}
	if len(folders) != 2*len(m0.Links) {
		t.Fatalf("the shared link folder holds %d link simulations, want both constructions' %d each", len(folders), len(m0.Links))
	}
	before := map[string]time.Time{}
	for _, f := range folders {
		st, err := os.Stat(filepath.Join(f, estimate.OutcomeFile))
		if err != nil {
			t.Fatal(err)
		}
		before[f] = st.ModTime()
	}
	time.Sleep(20 * time.Millisecond)
	for k, extra := range runs[:2] {
		runCLI(t, append(append([]string{"estimate", "--out", filepath.Join(dir, fmt.Sprint("again", k)), "--links-dir", shared}, args...), extra...)...).mustSucceed(t)
	}
	for f, t0 := range before {
		if st, err := os.Stat(filepath.Join(f, estimate.OutcomeFile)); err != nil || !st.ModTime().Equal(t0) {
			t.Fatalf("%s was simulated again: %v", f, err)
		}
	}
}

// TestEstimateLinkTaskReadsItsSubmission: a Slurm task (`estimate link
// --list`) plans from the manifest its submission keeps beside the list,
// not from the link folder's, which another estimate may have rewritten
// since: it runs the links it was submitted for.
func TestEstimateLinkTaskReadsItsSubmission(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	args := append([]string{"-j", "1", "--no-cluster", "--links-dir", "L"}, estArgs...)
	runCLI(t, append([]string{"estimate", "--out", "a", "--sender-nics", "alone"}, args...)...).mustSucceed(t)
	a, err := estimate.ReadLinksManifest("L")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(a)
	slurm := filepath.Join("L", estimate.LinksStateDir, "slurm")
	list := filepath.Join(slurm, "submit-001.list")
	if err := os.MkdirAll(slurm, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, slurm, "submit-001.json", string(b))
	writeFile(t, slurm, "submit-001.list", "0\n1\n")
	// Another estimate rewrites the folder's manifest.
	runCLI(t, append([]string{"estimate", "--out", "b", "--sender-nics", "shares"}, args...)...).mustSucceed(t)
	if m, _ := estimate.ReadLinksManifest("L"); m.Links[0].Hash == a.Links[0].Hash {
		t.Fatal("the two constructions gave one hash")
	}
	for _, it := range a.Links[:2] {
		if err := os.RemoveAll(filepath.Join("L", it.Dir)); err != nil {
			t.Fatal(err)
		}
	}
	runCLI(t, "estimate", "link", "L", "--list", list, "--task", "0", "--chunk", "2").mustSucceed(t)
	for _, it := range a.Links[:2] {
		if _, err := os.Stat(filepath.Join("L", it.Dir, estimate.OutcomeFile)); err != nil {
			t.Fatalf("the task did not run its submission's link %s: %v", it.Dir, err)
		}
	}
}
