package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/sweep"
)

// readSweepTable reads sweep.parquet back with Arrow's reader (the file
// is written by Arrow's writer; DuckDB reads it in tests/duckdb): column
// names and the string form of each row.
func readSweepTable(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	tab, _ := testfiles.ArrowTable(t, path, "")
	defer tab.Release()
	var names []string
	rows := make([][]string, tab.NumRows())
	for i := 0; i < int(tab.NumCols()); i++ {
		col := tab.Column(i)
		names = append(names, col.Name())
		row := 0
		for _, chunk := range col.Data().Chunks() {
			for j := 0; j < chunk.Len(); j++ {
				v := "null"
				if !chunk.IsNull(j) {
					v = chunk.(interface{ ValueStr(int) string }).ValueStr(j)
				}
				rows[row] = append(rows[row], v)
				row++
			}
		}
	}
	return names, rows
}

func colIndex(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// A sweep from the command line: braces make axes, one hive-partitioned
// run folder per point, sweep.parquet with one row per point read back by
// Arrow; the same command again runs nothing; outputs are byte-identical
// whatever -j is.
func TestSweepCLI(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	args := []string{"sweep", "--cca", "dcqcn,hpcc", "--workload", "incast:n={2,4},size=64KB", "--seeds", "1..3", "--out", "sw"}
	r := runCLI(t, append(args, "-j", "2")...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "12 points (12 run now, 0 already done, 0 failed)") {
		t.Fatalf("stdout: %s", r.stdout)
	}
	runs, err := runfolder.Find("sw")
	if err != nil || len(runs) != 12 {
		t.Fatalf("%d run folders, %v", len(runs), err)
	}
	if runs[0].Dir != filepath.Join("sw", "cca=dcqcn", "n=2", "seed=1") {
		t.Errorf("first point folder %s", runs[0].Dir)
	}
	names, rows := readSweepTable(t, filepath.Join("sw", sweep.TableFile))
	if len(rows) != 12 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, c := range []string{"point", "dir", "status", "cca", "n", "seed", "sim_end_ns", "fct_p99_ns", "slowdown_p99", "unfair_ratio"} {
		if colIndex(names, c) < 0 {
			t.Errorf(runfolder.SweepTableFile+" has no column %s: %v", c, names)
		}
	}
	if got := rows[11][colIndex(names, "dir")]; got != "cca=hpcc/n=4/seed=3" {
		t.Errorf("last row's dir %q", got)
	}
	if got := rows[5][colIndex(names, "flows")]; got != "4" {
		t.Errorf("row 5 flows %q, want 4 (n=4)", got)
	}
	// Resume: nothing to run.
	r = runCLI(t, args...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "12 points (0 run now, 12 already done, 0 failed)") {
		t.Fatalf("resume: %s", r.stdout)
	}
	// Determinism: one worker, another folder, the same bytes.
	runCLI(t, "sweep", "--cca", "dcqcn,hpcc", "--workload", "incast:n={2,4},size=64KB", "--seeds", "1..3", "--out", "sw1", "-j", "1").mustSucceed(t)
	for _, f := range []string{sweep.TableFile, sweep.ManifestFile, "cca=hpcc/n=4/seed=3/" + runfolder.FlowsFile, "cca=hpcc/n=4/seed=3/" + runfolder.SummaryFile, "cca=hpcc/n=4/seed=3/" + runfolder.PointFile} {
		a, _ := os.ReadFile(filepath.Join("sw", f))
		b, _ := os.ReadFile(filepath.Join("sw1", f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between -j 2 and -j 1", f)
		}
	}
	// Status and collect through the command.
	st := runCLI(t, "sweep", "status", "sw")
	st.mustSucceed(t)
	if !strings.Contains(st.stdout, "12 points: 12 done, 0 failed, 0 running, 0 pending") {
		t.Errorf("status: %s", st.stdout)
	}
	c := runCLI(t, "sweep", "collect", "sw", "--json")
	c.mustSucceed(t)
	if !strings.Contains(c.stdout, `"done": 12`) {
		t.Errorf("collect --json: %s", c.stdout)
	}
	p := runCLI(t, "sweep", "plot", "sw", "--metric", "fct_p99_ns", "--x", "n", "-o", "figs")
	p.mustSucceed(t)
	if _, err := os.Stat(filepath.Join("figs", "sweep_fct_p99_ns_vs_n.png")); err != nil {
		t.Errorf("plot: %v\n%s", err, p.stdout)
	}
}

// A point that fails does not stop the others; the command exits 1 and
// names the failures; the same command again retries only them.
func TestSweepFailedPoints(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	args := []string{"sweep", "--workload", "incast:n=2,size=64KB", "--axis", "cca_params.ai_rate=5Mbps,-3Mbps", "--seeds", "1..2", "--out", "sw"}
	r := runCLI(t, args...)
	if r.code != ExitFailure || !strings.Contains(r.stderr, "2 of 4 points failed") || !strings.Contains(r.stdout, "ai_rate=-3Mbps") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	names, rows := readSweepTable(t, filepath.Join("sw", sweep.TableFile))
	failed := 0
	for _, row := range rows {
		if row[colIndex(names, "status")] == "failed" {
			failed++
			if row[colIndex(names, "error")] == "null" || row[colIndex(names, "fct_p99_ns")] != "null" {
				t.Errorf("failed row: %v", row)
			}
		}
	}
	if failed != 2 {
		t.Errorf("%d failed rows, want 2", failed)
	}
	r = runCLI(t, args...)
	if r.code != ExitFailure || !strings.Contains(r.stdout, "(2 run now, 2 already done, 2 failed)") {
		t.Errorf("retry: exit %d %s", r.code, r.stdout)
	}
}

// Command-line mistakes exit 2, bad specifications 3, a folder that is
// not a sweep is refused.
func TestSweepErrors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, dir, "bad.yaml", "workload: incast:n=2,size=1KB\naxes:\n  switch.bufer: [1MB]\n")
	os.MkdirAll("foreign", 0o755)
	writeFile(t, dir, "foreign/x.txt", "x")
	checkExits(t, []exitCase{
		{[]string{"sweep", "--workload", "incast:n=2,size=1KB"}, ExitUsage, "--out"},
		{[]string{"sweep", "--workload", "incast:n={2,3", "--out", "o"}, ExitUsage, "unbalanced braces"},
		{[]string{"sweep", "--workload", "incast:n=2,size=1KB", "--axis", "nic.nope=1,2", "--out", "o"}, ExitUsage, `unknown key "nope" in section nic`},
		{[]string{"sweep", "--spec", "bad.yaml", "--out", "o"}, ExitBadInput, `bad.yaml:3: axis switch.bufer`},
		{[]string{"sweep", "--workload", "incast:n=2,size=1KB", "--out", "foreign"}, ExitUsage, "not a ccreplay sweep"},
		{[]string{"sweep", "status", "foreign"}, ExitBadInput, "not a sweep folder"},
		{[]string{"sweep", "--workload", "incast:n=2,size=1KB", "--out", "o", "--kind", "train"}, ExitUsage, "--kind"},
	})
}

// A dataset sweep writes decisions.parquet in every point folder, with
// the dataset options of its specification (or flags); changing them
// changes every point's hash; bad ones are refused before anything runs.
func TestSweepDataset(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	args := []string{"sweep", "--kind", "dataset", "--workload", "incast:n=2,size=64KB", "--cca", "dcqcn,hpcc", "--reward", "rlcc", "--out", "ds"}
	runCLI(t, args...).mustSucceed(t)
	for _, c := range []string{"dcqcn", "hpcc"} {
		var info struct {
			Rewards []string `json:"rewards"`
			Gamma   float64  `json:"gamma"`
		}
		b, err := os.ReadFile(filepath.Join("ds", "cca="+c, runfolder.DatasetFile))
		if err != nil || json.Unmarshal(b, &info) != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if len(info.Rewards) != 1 || info.Rewards[0] != "rlcc" || info.Gamma != 0.99 {
			t.Errorf("%s: "+runfolder.DatasetFile+" %+v, want only rlcc and the default gamma", c, info)
		}
		if _, err := os.Stat(filepath.Join("ds", "cca="+c, runfolder.DecisionsFile)); err != nil {
			t.Error(err)
		}
	}
	r := runCLI(t, append(args, "--gamma", "0.5")...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "(2 run now, 0 already done") {
		t.Errorf("a changed gamma must rerun every point: %s", r.stdout)
	}
	writeFile(t, dir, "ds.yaml", "kind: dataset\nworkload: incast:n=2,size=64KB\ndataset:\n  reward: fdcc\n  nstep: 3\naxes:\n  cca: [dcqcn]\n")
	runCLI(t, "sweep", "--spec", "ds.yaml", "--out", "ds2").mustSucceed(t)
	for _, bad := range [][]string{
		{"sweep", "--kind", "dataset", "--workload", "incast:n=2,size=1KB", "--reward", "nope", "--out", "x"},
		{"sweep", "--kind", "dataset", "--workload", "incast:n=2,size=1KB", "--gamma", "2", "--out", "x"},
		{"sweep", "--workload", "incast:n=2,size=1KB", "--gamma", "0.5", "--out", "x"},
	} {
		if r := runCLI(t, bad...); r.code != ExitUsage {
			t.Errorf("%v: exit %d %s", bad, r.code, r.stderr)
		}
	}
	writeFile(t, dir, "bad.yaml", "kind: dataset\nworkload: incast:n=2,size=1KB\ndataset:\n  gama: 1\n")
	if r := runCLI(t, "sweep", "--spec", "bad.yaml", "--out", "x"); r.code != ExitBadInput || !strings.Contains(r.stderr, `bad.yaml:4: unknown key "gama" in section dataset`) {
		t.Errorf("bad dataset section: exit %d %s", r.code, r.stderr)
	}
}

// status --limit lists at most that many points not done; plot draws a
// text axis (cca) at categorical positions; a sweep whose sbatch cannot run
// says so in one line and writes no script; point refuses an index past
// the sweep.
func TestSweepStatusPlotSlurmErrors(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	r := runCLI(t, "sweep", "--workload", "incast:n=2,size=16KB", "--axis", "cca_params.ai_rate=-1Mbps,-2Mbps,-3Mbps", "--out", "bad")
	if r.code != ExitFailure {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	st := runCLI(t, "sweep", "status", "bad", "--limit", "1")
	st.mustSucceed(t)
	if !strings.Contains(st.stdout, "3 failed") || !strings.Contains(st.stdout, "(2 more not done)") || strings.Count(st.stdout, "failed  ") != 1 {
		t.Errorf("status --limit 1:\n%s", st.stdout)
	}
	runCLI(t, "sweep", "--workload", "incast:n=2,size=16KB", "--cca", "dcqcn,hpcc", "--seeds", "1..2", "--out", "sw").mustSucceed(t)
	p := runCLI(t, "sweep", "plot", "sw", "--metric", "fct_p99_ns", "--x", "cca", "-o", "figs")
	p.mustSucceed(t)
	if _, err := os.Stat(filepath.Join("figs", "sweep_fct_p99_ns_vs_cca.png")); err != nil {
		t.Error(err)
	}
	if r := runCLI(t, "sweep", "plot", "sw", "--metric", "nope", "--x", "cca"); r.code != ExitUsage || !strings.Contains(r.stderr, "--metric nope") {
		t.Errorf("unknown metric: exit %d %s", r.code, r.stderr)
	}
	r = runCLI(t, "sweep", "--workload", "incast:n=2,size=16KB", "--seeds", "1..2", "--out", "sl", "--slurm", "--ccreplay", "/bin/true", "--sbatch", "/no/such/sbatch")
	if r.code != ExitFailure || !strings.Contains(r.stderr, "sbatch") || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
		t.Errorf("sbatch missing: exit %d %q", r.code, r.stderr)
	}
	if scripts, _ := filepath.Glob(filepath.Join("sl", ".sweep", "slurm", "*.sh")); len(scripts) != 0 {
		t.Errorf("a failed submission left %v", scripts)
	}
	if r := runCLI(t, "sweep", "point", "sw", "--index", "9"); r.code != ExitBadInput || !strings.Contains(r.stderr, "no point 9") {
		t.Errorf("point past the sweep: exit %d %s", r.code, r.stderr)
	}
}
