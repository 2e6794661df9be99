package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/plot"
	"github.com/ccreplay/ccreplay/runfolder"
)

// plotCompare runs `ccreplay compare` of dcqcn and hpcc on workload into
// a temporary folder, with the per-packet log, and returns the folder.
func plotCompare(t *testing.T, workload string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "cmp")
	runCLI(t, "compare", "--workload", workload, "--cca", "dcqcn,hpcc", "--packets", "data", "--out", out, "--parallel", "2").mustSucceed(t)
	return out
}

// checkImages fails unless dir holds name.png (a PNG that decodes) and
// name.svg (an SVG document) for each name.
func checkImages(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n+".png"))
		if err != nil {
			t.Errorf("%s.png: %v", n, err)
		} else if img, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%s.png is not a PNG: %v", n, err)
		} else if img.Bounds().Dx() != 900 {
			t.Errorf("%s.png is %d pixels wide, want 900 (6 in at 150 dpi)", n, img.Bounds().Dx())
		}
		s, err := os.ReadFile(filepath.Join(dir, n+".svg"))
		if err != nil {
			t.Errorf("%s.svg: %v", n, err)
		} else if !bytes.HasPrefix(s, []byte("<?xml")) && !bytes.HasPrefix(s, []byte("<svg")) {
			t.Errorf("%s.svg does not start with <?xml or <svg: %.40q", n, s)
		}
	}
}

// readDirBytes maps each file name in dir to its content.
func readDirBytes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	for _, n := range dirNames(t, dir) {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		m[n] = b
	}
	return m
}

// An incast: every view but the all-to-all, PNG and SVG, and the same
// files when plotted twice.
func TestPlotIncast(t *testing.T) {
	cmp := plotCompare(t, "incast:n=4,size=100KB")
	figs := filepath.Join(t.TempDir(), "figs")
	r := runCLI(t, "plot", cmp, "-o", figs)
	r.mustSucceed(t)
	checkImages(t, figs, plot.FCTCDFName, plot.SlowdownName, plot.QueueName, plot.RateName)
	if n := len(dirNames(t, figs)); n != 8 {
		t.Errorf("%d files in %s, want 8: %v", n, figs, dirNames(t, figs))
	}
	if !strings.Contains(r.stdout, "skipped alltoall_latency: no run is an MPI_Alltoall workload") {
		t.Errorf("stdout does not say why the all-to-all view was skipped:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "rate source: "+runfolder.PacketsFile) {
		t.Errorf("stdout does not name the rate source:\n%s", r.stdout)
	}
	checkNoTempFiles(t, figs)

	again := filepath.Join(t.TempDir(), "figs")
	runCLI(t, "plot", cmp, "-o", again).mustSucceed(t)
	a, b := readDirBytes(t, figs), readDirBytes(t, again)
	for n := range a {
		if !bytes.Equal(a[n], b[n]) {
			t.Errorf("%s differs between two plots of the same runs", n)
		}
	}

	// The data behind the figures, from the same folders.
	runs := loadRuns(t, cmp)
	cdf, err := plot.FCTCDF(runs)
	if err != nil {
		t.Fatal(err)
	}
	if len(cdf.Panels[0].Series) != 2 {
		t.Errorf("%d CDF curves, want one per algorithm", len(cdf.Panels[0].Series))
	}
	for _, s := range cdf.Panels[0].Series {
		if s.Y[len(s.Y)-1] != 1 || !slices.IsSorted(s.Y) || !slices.IsSorted(s.X) {
			t.Errorf("%s: CDF %v not monotone up to exactly 1", s.Label, s.Y)
		}
	}
	q, err := plot.QueueOverTime(runs, plot.TimeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The receiver's downlink is the one congested port of a 4-to-1 incast.
	if len(q.Panels) != 1 {
		t.Errorf("%d congested ports, want 1", len(q.Panels))
	}
	for _, p := range q.Panels {
		for _, s := range p.Series {
			peak := slices.Max(s.Y)
			if slices.Min(s.Y) < 0 || peak <= 1 {
				t.Errorf("%s: queue in [%v, %v] KB, want >= 0 and a built-up queue", s.Label, slices.Min(s.Y), peak)
			}
		}
	}
	sd, err := plot.Slowdown(runs, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sd.Panels[0].Series {
		// 4 flows of one size: one bucket (equal-size groups merge).
		if !slices.Equal(s.Count, []int64{4}) {
			t.Errorf("%s: bucket counts %v, want one bucket of 4 flows", s.Label, s.Count)
		}
		for _, y := range s.Y {
			if y < 1 {
				t.Errorf("%s: slowdown %v < 1", s.Label, y)
			}
		}
	}
}

// The OSU MPI_Alltoall benchmark: the latency curve has one point per
// message size (Dolce-RC, Ye 2023, Fig. 5), the same numbers compare prints.
func TestPlotOSUAlltoall(t *testing.T) {
	const workload = "osu-alltoall:nodes=4,ppn=1,sizes=1..4KiB,iters=2"
	cmp := plotCompare(t, workload)
	figs := filepath.Join(t.TempDir(), "figs")
	r := runCLI(t, "plot", cmp, "-o", figs, "--json")
	r.mustSucceed(t)
	var rep plot.DrawReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, r.stdout)
	}
	if len(rep.Runs) != 2 {
		t.Errorf("runs %q, want the two compare runs", rep.Runs)
	}
	checkImages(t, figs, plot.FCTCDFName, plot.SlowdownName, plot.RateName, plot.AlltoallName)
	if !slices.Contains(rep.Files, filepath.ToSlash(filepath.Join(figs, "alltoall_latency.svg"))) {
		t.Errorf("files %q lack alltoall_latency.svg", rep.Files)
	}

	runs := loadRuns(t, cmp)
	fig, err := plot.AlltoallLatency(runs)
	if err != nil {
		t.Fatal(err)
	}
	sizes := []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}
	for _, s := range fig.Panels[0].Series {
		if !slices.Equal(s.X, sizes) {
			t.Errorf("%s: sizes %v, want one point per size %v", s.Label, s.X, sizes)
		}
		if !slices.Equal(s.Count, slices.Repeat([]int64{2}, len(sizes))) {
			t.Errorf("%s: iterations %v, want 2 timed per size", s.Label, s.Count)
		}
		if !slices.IsSorted(s.Y) {
			t.Errorf("%s: latency %v us falls as messages grow", s.Label, s.Y)
		}
	}
	// The 1-byte latency is what compare's OSU table prints (us, 2 decimals).
	out := runCLI(t, "compare", "--workload", workload, "--cca", "dcqcn", "--out", filepath.Join(t.TempDir(), "c"))
	out.mustSucceed(t)
	seen := false
	for _, line := range strings.Split(out.stdout, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "1" {
			seen = true
			if want := fmt.Sprintf("%.2f", fig.Panels[0].Series[0].Y[0]); f[1] != want {
				t.Errorf("compare prints %s us for 1 B, plot has %s", f[1], want)
			}
		}
	}
	if !seen {
		t.Errorf("no 1-byte line in compare's OSU table:\n%s", out.stdout)
	}
}

// Flow sizes from the HPCC WebSearch CDF (../shared/data): equal-count
// size buckets.
func TestPlotWebSearch(t *testing.T) {
	data, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "data", "cdf"))
	if _, err := os.Stat(filepath.Join(data, "hpcc")); err != nil {
		t.Skipf("shared data not found at %s: %v", data, err)
	}
	cmp := filepath.Join(t.TempDir(), "cmp")
	runCLI(t, "compare", "--workload", "cdf:dist=websearch,hosts=4,load=0.5,flows=43,data="+data,
		"--cca", "dcqcn", "--out", cmp).mustSucceed(t)
	figs := filepath.Join(t.TempDir(), "figs")
	r := runCLI(t, "plot", cmp, "-o", figs, "--views", "fct,slowdown,queue")
	r.mustSucceed(t)
	checkImages(t, figs, plot.FCTCDFName, plot.SlowdownName)
	if !strings.Contains(r.stdout, "skipped queue_time: no run has "+runfolder.PacketsFile+"; run ccreplay run/compare with --packets data") {
		t.Errorf("no clear message about the missing "+runfolder.PacketsFile+":\n%s", r.stdout)
	}
	runs := loadRuns(t, cmp)
	sd, err := plot.Slowdown(runs, 10)
	if err != nil {
		t.Fatal(err)
	}
	// 43 flows into 10 buckets: 5,5,5,4,...,4.
	want := []int64{5, 5, 5, 4, 4, 4, 4, 4, 4, 4}
	if got := sd.Panels[0].Series[0].Count; !slices.Equal(got, want) {
		t.Errorf("bucket counts %v, want %v", got, want)
	}
}

func TestPlotErrors(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run")
	runCLI(t, "run", "--workload", smallWorkload, "--out", run).mustSucceed(t)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"plot"}, ExitUsage, "give at least one run folder"},
		{[]string{"plot", run, "--format", "gif"}, ExitUsage, `--format "gif"`},
		{[]string{"plot", run, "--views", "fct,pie"}, ExitUsage, `--views "pie"`},
		{[]string{"plot", run, "--bins", "0"}, ExitUsage, "--bins must be between 1 and 100000"},
		{[]string{"plot", filepath.Join(run, "missing")}, ExitBadInput, "missing: no such folder"},
		{[]string{"plot", t.TempDir()}, ExitBadInput, "not a run folder (no " + runfolder.SummaryFile + ") and no run folder below it"},
		{[]string{"plot", run, "--views", "alltoall", "-o", t.TempDir()}, ExitBadInput, "nothing to plot"},
	} {
		r := runCLI(t, c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.msg) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", c.args, r.code, r.stderr, c.code, c.msg)
		}
		if strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%q: error is not one line: %q", c.args, r.stderr)
		}
	}
}

// A view skipped now removes the figure an earlier plot left, so the
// folder never shows a stale picture as current.
func TestPlotRemovesStaleFigure(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run")
	runCLI(t, "run", "--workload", smallWorkload, "--packets", "none", "--out", run).mustSucceed(t)
	figs := t.TempDir()
	stale := writeFile(t, figs, "queue_time.png", "old")
	r := runCLI(t, "plot", run, "-o", figs, "--views", "fct,queue")
	r.mustSucceed(t)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale %s still there (err %v)", stale, err)
	}
	if !strings.Contains(r.stdout, "removed") {
		t.Errorf("stdout does not say the stale figure was removed:\n%s", r.stdout)
	}
}

// loadRuns loads the run folders below dir as plot reads them.
func loadRuns(t *testing.T, dir string) []*plot.Run {
	t.Helper()
	found, err := runfolder.Expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := plot.LoadRuns(runfolder.Dirs(found))
	if err != nil {
		t.Fatal(err)
	}
	return runs
}
