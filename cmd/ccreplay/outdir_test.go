package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// Regression (issue "Runs a user can trust", 6): a run into a folder that
// held a --packets data run left the old packets.parquet beside the new
// --packets none run, and plot then drew the old data. Replacing a run
// now takes --force and replaces the whole folder.
func TestRunReplacesPreviousRunOnlyWithForce(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	runCLI(t, "run", "--workload", smallWorkload, "--out", out, "--packets", "data").mustSucceed(t)
	before, _ := os.ReadFile(filepath.Join(out, runfolder.SummaryFile))

	r := runCLI(t, "run", "--workload", smallWorkload, "--out", out, "--packets", "none", "--seed", "2")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "holds a previous ccreplay run (dcqcn:hpcc-run, seed 1); give --force") {
		t.Fatalf("second run without --force: exit %d, stderr %q", r.code, r.stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(out, runfolder.SummaryFile)); !bytes.Equal(before, after) {
		t.Fatal("a refused run changed the previous run's " + runfolder.SummaryFile)
	}

	runCLI(t, "run", "--workload", smallWorkload, "--out", out, "--packets", "none", "--seed", "2", "--force").mustSucceed(t)
	names := dirNames(t, out)
	if slices.Contains(names, runfolder.PacketsFile) {
		t.Errorf("stale "+runfolder.PacketsFile+" of the previous run survived --force: %v", names)
	}
	if s := readSummary(t, out); s.Seed != 2 || s.Packets != "none" {
		t.Errorf("summary is not the new run's: seed %d packets %q", s.Seed, s.Packets)
	}
	checkNoTempFiles(t, filepath.Dir(out))
}

// A folder that is not ccreplay's is never written into, even with
// --force; an empty folder is fine; a file is refused.
func TestRunRefusesForeignOutput(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "notes")
	os.MkdirAll(foreign, 0o755)
	writeFile(t, foreign, "thesis.tex", "precious")
	for _, force := range []string{"--force=false", "--force"} {
		r := runCLI(t, "run", "--workload", smallWorkload, "--out", foreign, force)
		if r.code != ExitUsage || !strings.Contains(r.stderr, `not a ccreplay output folder (it holds "thesis.tex")`) {
			t.Errorf("%s: exit %d, stderr %q", force, r.code, r.stderr)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(foreign, "thesis.tex")); string(b) != "precious" {
		t.Error("the foreign folder was touched")
	}
	file := writeFile(t, dir, "file", "x")
	if r := runCLI(t, "run", "--workload", smallWorkload, "--out", file); r.code != ExitUsage || !strings.Contains(r.stderr, "is a file") {
		t.Errorf("file as --out: exit %d, stderr %q", r.code, r.stderr)
	}
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	runCLI(t, "run", "--workload", smallWorkload, "--out", empty, "--packets", "none").mustSucceed(t)
	if s := readSummary(t, empty); s.SchemaVersion == "" {
		t.Error("no summary in the formerly empty folder")
	}
}

// compare replaces a previous comparison only with --force, and the
// replaced tree holds exactly the new runs.
func TestCompareReplacesWholeTree(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cmp")
	runCLI(t, "compare", "--workload", smallWorkload, "--cca", "dcqcn,linerate", "--out", out).mustSucceed(t)
	r := runCLI(t, "compare", "--workload", smallWorkload, "--cca", "dcqcn", "--out", out)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "holds a previous ccreplay comparison") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	runCLI(t, "compare", "--workload", smallWorkload, "--cca", "dcqcn", "--out", out, "--force").mustSucceed(t)
	if names := dirNames(t, out); !slices.Equal(names, []string{"cca=dcqcn", runfolder.CollectionFile, runfolder.ComparisonFile}) {
		t.Errorf("comparison folder holds %v", names)
	}
	var coll struct {
		Kind     string   `json:"kind"`
		Complete bool     `json:"complete"`
		Runs     []string `json:"runs"`
	}
	b, _ := os.ReadFile(filepath.Join(out, runfolder.CollectionFile))
	if err := json.Unmarshal(b, &coll); err != nil || coll.Kind != "comparison" || !coll.Complete || !slices.Equal(coll.Runs, []string{"cca=dcqcn/seed=1"}) {
		t.Errorf(runfolder.CollectionFile+": %+v %v", coll, err)
	}
}

// Readers refuse a folder that is not a complete run: one with Parquet
// files but no summary.json (a run killed before it finished, written by
// an older version), or whose summary.json does not say complete.
func TestReadersRefuseIncompleteRunFolder(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	runCLI(t, "run", "--workload", smallWorkload, "--out", run, "--packets", "none").mustSucceed(t)
	os.Remove(filepath.Join(run, runfolder.SummaryFile))
	for _, args := range [][]string{
		{"metrics", run},
		{"metrics", dir},
		{"plot", run, "-o", filepath.Join(dir, "fig")},
	} {
		r := runCLI(t, args...)
		if r.code == ExitOK || !strings.Contains(r.stderr, "incomplete run folder") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	writeFile(t, run, runfolder.SummaryFile, `{"schema_version": "ccreplay.v2", "cca": "dcqcn"}`)
	if r := runCLI(t, "metrics", run); r.code == ExitOK || !strings.Contains(r.stderr, `"complete": true`) {
		t.Errorf("summary without complete: exit %d, stderr %q", r.code, r.stderr)
	}
}

// Regression (issue "Runs a user can trust", 5): ingest reported a
// truncated capture but run --trace replayed it without a word. Now run
// warns on stderr, records the warning in summary.json, and --strict
// refuses the capture.
func TestRunWarnsOnDamagedCapture(t *testing.T) {
	b, err := os.ReadFile("../../examples/alltoall_roce.pcap")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cut := writeFile(t, dir, "cut.pcap", string(b[:len(b)*2/3]))
	out := filepath.Join(dir, "out")
	r := runCLI(t, "run", "--trace", cut, "--out", out, "--packets", "none", "--topology", "dolce-testbed")
	r.mustSucceedWithWarning(t)
	if !strings.Contains(r.stderr, "warning: "+cut+": the capture is truncated or damaged at packet") {
		t.Errorf("no warning on stderr: %q", r.stderr)
	}
	var s struct {
		Warnings []string `json:"warnings"`
	}
	sb, _ := os.ReadFile(filepath.Join(out, runfolder.SummaryFile))
	if err := json.Unmarshal(sb, &s); err != nil || len(s.Warnings) == 0 || !strings.Contains(s.Warnings[0], "truncated or damaged") {
		t.Errorf(runfolder.SummaryFile+" warnings: %q (%v)", s.Warnings, err)
	}
	r = runCLI(t, "run", "--trace", cut, "--out", filepath.Join(dir, "strict"), "--strict", "--topology", "dolce-testbed")
	if r.code != ExitBadInput || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "--strict refuses damaged inputs") {
		t.Errorf("--strict: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "strict")); !os.IsNotExist(err) {
		t.Errorf("--strict left an output folder: %v", err)
	}
	// The intact capture gives no warning.
	r = runCLI(t, "run", "--trace", "../../examples/alltoall_roce.pcap", "--out", filepath.Join(dir, "ok"), "--packets", "none", "--strict", "--topology", "dolce-testbed")
	r.mustSucceed(t)
	if strings.Contains(r.stderr, "warning") {
		t.Errorf("intact capture warned: %q", r.stderr)
	}
}

// mustSucceedWithWarning fails unless the invocation exited 0 (stderr may
// hold warnings).
func (r cliResult) mustSucceedWithWarning(t *testing.T) {
	t.Helper()
	if r.code != ExitOK {
		t.Fatalf("exit code %d, want 0\nstderr: %s", r.code, r.stderr)
	}
}
