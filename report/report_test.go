package report

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/reproduce"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/sweep"
)

var update = flag.Bool("update", false, "rewrite testdata/run.golden.html from the current code")

// The committed folders of testdata were written by ccreplay itself:
//
//	ccreplay run --workload incast:n=4,size=256KB --cca dcqcn --packets data --out run
//	ccreplay compare --workload 'osu-alltoall:nodes=4,ppn=1,sizes=1..4KiB' --cca dcqcn,hpcc --packets none --out cmp
//	ccreplay estimate --workload incast:n=4,size=256KB --out est
const (
	runDir  = "testdata/run"
	cmpDir  = "testdata/cmp"
	estDir  = "testdata/est"
	testGen = "ccreplay test"
)

func build(t *testing.T, dirs ...string) (string, *Result) {
	t.Helper()
	b, res, err := Build(dirs, Options{Generator: testGen})
	if err != nil {
		t.Fatal(err)
	}
	return string(b), res
}

// TestGolden keeps the page of a fixed run byte for byte (go test
// ./report -run TestGolden -update rewrites it after a deliberate change).
func TestGolden(t *testing.T) {
	page, _ := build(t, runDir)
	golden := "testdata/run.golden.html"
	if *update {
		if err := os.WriteFile(golden, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if page != string(want) {
		t.Fatalf("the page of %s differs from %s (rerun with -update after a deliberate change)", runDir, golden)
	}
}

// TestDeterministic: the same inputs give the same bytes, whatever the
// order of map iteration; folders given in another order keep each
// algorithm's colour.
func TestDeterministic(t *testing.T) {
	sw := writeSweep(t, t.TempDir(), 2, 2)
	a, _ := build(t, runDir, cmpDir, estDir, sw)
	for range 3 {
		if b, _ := build(t, runDir, cmpDir, estDir, sw); b != a {
			t.Fatal("two builds of the same folders differ")
		}
	}
	// dcqcn is colour 0 and hpcc colour 1 (plot's order) in both orders.
	for _, order := range [][]string{{cmpDir}, {filepath.Join(cmpDir, "cca=hpcc"), filepath.Join(cmpDir, "cca=dcqcn")}} {
		page, _ := build(t, order...)
		for alg, col := range map[string]string{"dcqcn:hpcc-run": "#0072b2", "hpcc:paper": "#d55e00"} {
			re := regexp.MustCompile(`stroke="` + col + `"[^>]*><title>` + alg + `</title>`)
			if !re.MatchString(page) {
				t.Errorf("%v: %s's curve is not drawn in %s", order, alg, col)
			}
		}
	}
}

// TestSelfContained: nothing is fetched (no src, href outside the page or
// url()), no script, and the content security policy forbids both.
func TestSelfContained(t *testing.T) {
	page, _ := build(t, runDir, cmpDir, estDir)
	for _, bad := range []string{"<script", "src=", "url(", "@import", "http://", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	if !strings.Contains(page, `content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`) {
		t.Error("no content security policy forbidding fetches and scripts")
	}
	if !strings.Contains(page, "@media print") {
		t.Error("no print style sheet")
	}
	// The svg namespace is the one http:// allowed, and it is not a fetch.
	for _, m := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		if !strings.HasPrefix(m[1], "#") {
			t.Errorf("link out of the page: %s", m[1])
		}
	}
}

// TestSameNumbersAsMetrics: the run's metrics table holds, row for row,
// what `ccreplay metrics` prints after recomputing from the Parquet files
// (arrowread.Recompute, the same path as the command, packets.parquet
// streamed), and its bucket and message-size tables the recomputed ones.
func TestSameNumbersAsMetrics(t *testing.T) {
	page, _ := build(t, runDir)
	rf, err := runfolder.Open(runDir)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := arrowread.Recompute(rf, arrowread.RecomputeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Packets == nil {
		t.Fatal("fixture: no " + runfolder.PacketsFile)
	}
	rows := append(metrics.SummaryRows(rec.Summary), metrics.PacketRows(*rec.Packets)...)
	_, sizes := metrics.SizeCells(metrics.BySize(rec.Rows.Messages))
	for _, c := range sizes {
		if !strings.Contains(page, numberRow(c)) {
			t.Errorf("message size %s is not in the page as metrics prints it", c[0])
		}
	}
	for _, r := range rows {
		if !strings.Contains(page, "<tr>"+numberRow([]string{esc(r.Label), esc(r.Value)})+"</tr>") {
			t.Errorf("metrics row %q = %q is not in the page", r.Label, r.Value)
		}
	}
	for _, cells := range metrics.BucketCells(rec.Summary.Buckets) {
		if !strings.Contains(page, numberRow(cells)) {
			t.Errorf("bucket %s is not in the page as metrics prints it", cells[0])
		}
	}
}

// numberRow is a table row's HTML, without <tr>: cells[0] its header, the
// other cells right-aligned numbers.
func numberRow(cells []string) string {
	return `<th scope="row">` + cells[0] + `</th><td class="n">` + strings.Join(cells[1:], `</td><td class="n">`) + `</td>`
}

// TestRunSections: every part of a run's page is there: what was run
// (command, seed, topology, effective parameters), warnings, metrics,
// buckets and the figures plot draws, the packet log only summarised.
func TestRunSections(t *testing.T) {
	page, res := build(t, runDir)
	m, err := runfolder.ReadManifest(runDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"ccreplay run --workload incast:n=4,size=256KB --cca dcqcn:hpcc-run --topology star:hosts=5,rate=100Gbps,delay=1us --seed 1 --packets data",
		"config.switch_buffer_bytes", "cca_params.ai_rate", m.Tool, "Warnings", "FCT and slowdown per flow-size bucket",
		"5 hosts, 1 switch, 10 egress ports: 10 at 100.000 Gb/s", // star:hosts=5: a host link each way

	} {
		if !strings.Contains(page, esc(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
	views := map[string]bool{}
	for _, v := range regexp.MustCompile(`data-view="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		views[v[1]] = true
	}
	for _, v := range []string{"fct_cdf", "slowdown_buckets", "queue_time", "rate_time"} {
		if !views[v] {
			t.Errorf("no %s figure (views %v)", v, views)
		}
	}
	if len(res.Figures) != 4 || len(res.Skipped) != 1 || res.Skipped[0].View != "alltoall_latency" {
		t.Errorf("figures %v, skipped %v: want 4 figures and alltoall skipped", res.Figures, res.Skipped)
	}
	// 24000-odd packet rows, a page that does not grow with them: no
	// number of a packet row is in it, and it is small.
	if len(page) > 200<<10 {
		t.Errorf("page of %d bytes for a run of 4 flows", len(page))
	}
}

// TestComparison: a compare tree gives one column per run, the settings
// that differ between dcqcn's and hpcc's presets, and the OSU curve.
func TestComparison(t *testing.T) {
	page, res := build(t, cmpDir)
	if res.Runs != 2 {
		t.Fatalf("runs %d, want 2", res.Runs)
	}
	for _, want := range []string{"Settings that differ between the runs", "config.ecn_kmin_bytes", `data-view="alltoall_latency"`, `data-view="fct_cdf"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Every Compared metric is a row with a cell per run.
	for _, mt := range metrics.Compared {
		if !regexp.MustCompile(`<th scope="row">` + regexp.QuoteMeta(esc(mt.Label)) + `</th>(<td class="n">[^<]*</td>){2}</tr>`).MatchString(page) {
			t.Errorf("no row %q with 2 runs", mt.Label)
		}
	}
}

// TestEstimate: the links and the estimate's warnings are on the page.
func TestEstimate(t *testing.T) {
	page, res := build(t, estDir)
	m, err := runfolder.ReadManifest(estDir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Inputs[0].Kind != KindEstimate {
		t.Fatalf("kind %s", res.Inputs[0].Kind)
	}
	if len(m.Warnings) == 0 {
		t.Fatal("fixture: the estimate has no warning")
	}
	for _, w := range m.Warnings {
		if !strings.Contains(page, esc(w)) {
			t.Errorf("warning %q not shown", w)
		}
	}
	want := fmt.Sprintf("%d links carry traffic, %d link simulations ran", m.Estimate.Links, m.Estimate.LinksSimulated)
	if !strings.Contains(page, want) || !strings.Contains(page, "Links per kind") {
		t.Errorf("page lacks the links simulated (%q)", want)
	}
}

// TestSweep: each headline metric against each axis but the algorithm's
// and the seed's, a line per algorithm whose points are the means over
// the seeds, and a row per point.
func TestSweep(t *testing.T) {
	root := writeSweep(t, t.TempDir(), 3, 2)
	page, res := build(t, root)
	_, _, tab, err := sweep.Collect(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(res.Figures); got != 2*len(sweepMetrics) {
		t.Errorf("%d figures, want %d (each metric against kmin and buffer)", got, 2*len(sweepMetrics))
	}
	if !strings.Contains(page, "FCT mean against kmin") || !strings.Contains(page, "<title>hpcc</title>") {
		t.Error("no FCT-against-kmin figure with an hpcc line")
	}
	rows := strings.Count(page[strings.Index(page, "Every point"):], "<tr>") - 1
	if rows != tab.Rows {
		t.Errorf("%d point rows, want %d", rows, tab.Rows)
	}
	if strings.Contains(page, "not done yet") {
		t.Error("a warning of points not done in a finished sweep")
	}

	// A point not done is a warning, a pending row, and out of the means.
	if err := os.Remove(filepath.Join(root, "cca=dcqcn", "kmin=5KB", "buffer=1MB", "seed=1", runfolder.SummaryFile)); err != nil {
		t.Fatal(err)
	}
	page, res = build(t, root)
	if !strings.Contains(page, "1 points are not done yet") || len(res.Warnings) != 1 || !strings.Contains(page, "<td>pending</td>") {
		t.Errorf("no warning or pending row for a point not done (warnings %q)", res.Warnings)
	}
}

// TestReproduce: the paper's numbers beside ours with the verdicts.
func TestReproduce(t *testing.T) {
	dir := t.TempDir()
	writeReproduction(t, dir)
	page, res := build(t, dir)
	for _, want := range []string{"A Paper (2024), Table 1", "<th scope=\"row\">mean FCT</th><td class=\"n\">100 us</td><td class=\"n\">110 us</td><td>reproduces</td>",
		"queue: the buffer is deeper here", "2 claims: 1 differs, 1 reproduces."} {
		if !strings.Contains(page, esc(want)) && !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if len(res.Figures) != 1 || res.Runs != 1 {
		t.Errorf("figures %v runs %d", res.Figures, res.Runs)
	}
}

// TestNotAnOutput: a folder of none of the kinds, a file, a missing
// folder and an incomplete run are one-line errors naming the path.
func TestNotAnOutput(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(empty, "x.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	half := filepath.Join(t.TempDir(), "half")
	copyDir(t, runDir, half)
	if err := os.Remove(filepath.Join(half, runfolder.SummaryFile)); err != nil {
		t.Fatal(err)
	}
	badRepro := t.TempDir()
	if err := os.WriteFile(filepath.Join(badRepro, reproduce.ReportFile), []byte(`{"claims": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	badSweep := t.TempDir()
	if err := os.WriteFile(filepath.Join(badSweep, sweep.ManifestFile), []byte(`{"kind": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{badRepro, reproduce.ReportFile},
		{badSweep, sweep.ManifestFile},
		{empty, "not a ccreplay output folder"},
		{file, "a file, give a folder"},
		{filepath.Join(empty, "nope"), "no such folder"},
		{half, "incomplete run folder"},
	} {
		_, _, err := Build([]string{c.dir}, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.dir) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line naming it with %q", c.dir, err, c.want)
		}
	}
	if _, _, err := Build([]string{empty}, Options{}); !errors.Is(err, ErrNotAnOutput) {
		t.Errorf("not ErrNotAnOutput: %v", err)
	}
}

// TestWriteAtomic: Write leaves the file and no temporary beside it.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.html")
	res, err := Write(p, []string{runDir}, Options{Generator: testGen})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || len(b) != res.Bytes {
		t.Fatalf("%v: %d bytes, result says %d", err, len(b), res.Bytes)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("files beside the report: %v", ents)
	}
}

// TestLargeSweepFast: a 1,000-point sweep (written through sweep.json,
// point.json and summary.json as `ccreplay sweep` writes them) reports in
// well under a second of build and a page whose size does not explode;
// TestChromium times it in a browser.
func TestLargeSweepFast(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the 1,000-point sweep takes a few seconds to write")
	}
	root := largeSweep(t)
	start := time.Now()
	b, res, err := Build([]string{root}, Options{Generator: testGen})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("1000-point sweep: built in %v, %d bytes, %d figures", time.Since(start), len(b), len(res.Figures))
	if len(b) > 3<<20 {
		t.Errorf("page of %d bytes", len(b))
	}
}

var (
	largeOnce sync.Once
	largeDir  string
	largeErr  error
)

// largeSweep is a 1,000-point sweep (writeSweep with 25 kmin values and 5
// seeds), written once for the tests that need it and removed by TestMain.
func largeSweep(t *testing.T) string {
	t.Helper()
	largeOnce.Do(func() {
		largeDir, largeErr = os.MkdirTemp("", "ccreplay-report-sweep")
		if largeErr == nil {
			writeSweep(t, filepath.Join(largeDir, "sw"), 25, 5)
		}
	})
	if largeErr != nil {
		t.Fatal(largeErr)
	}
	return filepath.Join(largeDir, "sw")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if largeDir != "" {
		os.RemoveAll(largeDir)
	}
	os.Exit(code)
}

// writeSweep writes a sweep of 2 algorithms x nk kmin values x 4 buffers x
// nseed seeds into root the way `ccreplay sweep` does (sweep.json from the
// plan, each point's point.json with its hash and a complete summary.json)
// with made-up metrics: FCT grows with kmin, hpcc's is lower. Parquet
// files are left out (sweep reads summary.json; a point without them is
// done).
func writeSweep(t testing.TB, root string, nk, nseed int) string {
	t.Helper()
	var ks []string
	for i := range nk {
		ks = append(ks, fmt.Sprintf("%dKB", 5*(i+1)))
	}
	spec := fmt.Sprintf(`kind: run
workload: incast:n=4,size=64KB
topology: star:hosts=5,rate=100Gbps,delay=1us
packets: none
axes:
  cca: [dcqcn, hpcc]
  switch.ecn.kmin: [%s]
  switch.buffer: [1MB, 2MB, 4MB, 8MB]
  seed: 1..%d
`, strings.Join(ks, ", "), nseed)
	sp, err := sweep.ParseSpec("test sweep", []byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	pl, err := sweep.NewPlan(sp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pl.Prepare(root); err != nil {
		t.Fatal(err)
	}
	for i, pt := range pl.Points {
		dir := filepath.Join(root, filepath.FromSlash(pt.Dir))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		rec, _ := json.Marshal(map[string]any{"index": i, "hash": pt.Hash})
		if err := os.WriteFile(filepath.Join(dir, sweep.PointFile), rec, 0o644); err != nil {
			t.Fatal(err)
		}
		var kmin, seed float64
		fmt.Sscanf(pt.Values[1].Text, "%fKB", &kmin)
		fmt.Sscanf(pt.Values[3].Text, "%f", &seed)
		f := 100e3 + 1e3*kmin + 500*seed
		if pt.Values[0].Text == "hpcc" {
			f *= 0.7
		}
		m := &runfolder.Manifest{Tool: "ccreplay test", Trace: "incast:n=4,size=64KB", CCA: pt.Values[0].Text, Seed: uint64(seed), Topology: "star:hosts=5,rate=100Gbps,delay=1us"}
		m.Metrics = metrics.Summary{Flows: 4, FlowsFinished: 4, FCTMeanNs: f, FCTP99Ns: int64(1.5 * f), SlowdownP50: f / 2e4, SlowdownP99: f / 1e4,
			GoodputBps: 4 * 64e3 * 8 / (f * 1e-9), QLenMaxBytes: int64(kmin * 1e3), ECNRatio: kmin / 1000, JainIndex: 0.99, MCTP99Ns: int64(1.5 * f)}.Encode()
		if err := runfolder.Write(dir, m); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// writeReproduction makes dir a reproduce folder of two claims, one that
// reproduces and one that differs with a note, over the test run as its
// one case (case=a).
func writeReproduction(t *testing.T, dir string) {
	t.Helper()
	copyDir(t, runDir, filepath.Join(dir, "case=a"))
	rep := reproduce.Report{SchemaVersion: reproduce.ReportVersion, Experiment: "test-exp", Paper: "A Paper (2024), Table 1", Title: "a test", Scale: "small",
		Claims: []reproduce.ClaimResult{
			{ID: "a/fct", What: "mean FCT", Unit: "us", Paper: 100, Ours: 110, Rule: "within x1.2", Verdict: reproduce.Reproduces},
			{ID: "a/q", What: "queue", Unit: "KB", Paper: 50, Ours: 500, Rule: "within x2", Verdict: reproduce.Differs, Note: "the buffer is deeper here"},
		}}
	if err := output.WriteJSONAtomic(filepath.Join(dir, reproduce.ReportFile), rep); err != nil {
		t.Fatal(err)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
