package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportCommand runs `ccreplay report` through cobra on a run and a
// comparison written by the CLI: the file is written, --json says what it
// holds, and a folder that is no output is a one-line error with exit 3.
func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	cmp := filepath.Join(dir, "cmp")
	runCLI(t, "run", "--workload", "incast:n=4,size=64KB", "--packets", "data", "--out", run).mustSucceed(t)
	runCLI(t, "compare", "--workload", "incast:n=4,size=64KB", "--cca", "dcqcn,hpcc", "--out", cmp).mustSucceed(t)
	out := filepath.Join(dir, "r.html")
	r := runCLI(t, "report", run, cmp, "-o", out, "--json")
	r.mustSucceed(t)
	var res struct {
		Path    string   `json:"path"`
		Bytes   int      `json:"bytes"`
		Runs    int      `json:"runs"`
		Figures []string `json:"figures"`
		Tables  []string `json:"tables"`
		Inputs  []struct{ Kind string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != filepath.ToSlash(out) || res.Bytes != len(b) || res.Runs != 3 || len(res.Figures) < 4 || len(res.Tables) < 4 ||
		len(res.Inputs) != 2 || res.Inputs[0].Kind != "run" || res.Inputs[1].Kind != "comparison" {
		t.Errorf("--json: %+v (file %d bytes)", res, len(b))
	}
	checkNoTempFiles(t, dir)

	r = runCLI(t, "report", run, "-o", out)
	r.mustSucceed(t)
	if !strings.HasPrefix(r.stdout, "ccreplay report: wrote "+out) {
		t.Errorf("stdout %q", r.stdout)
	}

	empty := t.TempDir()
	r = runCLI(t, "report", empty, "-o", filepath.Join(dir, "x.html"))
	if r.code != ExitBadInput || !strings.Contains(r.stderr, empty) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Errorf("not an output: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.html")); err == nil {
		t.Error("a report was written for a folder that is no output")
	}
	r = runCLI(t, "report", run, "-o", filepath.Join(dir, "no", "such", "r.html"))
	if r.code != ExitFailure || !strings.Contains(r.stderr, "cannot write") {
		t.Errorf("unwritable -o: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runCLI(t, "report"); r.code != ExitUsage {
		t.Errorf("no folder: exit %d", r.code)
	}
	if r := runCLI(t, "report", run, "--buckets", "0"); r.code != ExitUsage {
		t.Errorf("--buckets 0: exit %d", r.code)
	}
}

// TestReportFlags parses through the cobra command with runF: the folders
// and flags arrive as given, nothing is written.
func TestReportFlags(t *testing.T) {
	var got *reportOptions
	f := &Factory{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	c := NewCmdReport(f, func(o *reportOptions) error { got = o; return nil })
	c.SetArgs([]string{"a", "b", "-o", "x.html", "--json", "--buckets", "20"})
	if err := c.Execute(); err != nil {
		t.Fatal(err)
	}
	if got == nil || strings.Join(got.Dirs, ",") != "a,b" || got.Out != "x.html" || !got.JSON || got.Buckets != 20 {
		t.Errorf("parsed %+v", got)
	}
}
