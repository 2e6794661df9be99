package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
)

// testEnv is an Env over buffers with no memory budget; stats lines say
// "stats".
func testEnv(out, errw *bytes.Buffer) Env {
	return Env{Streams: iostreams.Streams{Out: out, Err: errw}, Registry: all.Registry(), Now: time.Now,
		CheckMemory: func(string, *topology.Topology, *trace.Trace, int) error { return nil },
		Stats:       func(w io.Writer, _ time.Duration, _ *replay.Result) { io.WriteString(w, "stats\n") },
		PresetNote:  func(string) string { return "" }}
}

func flags(out string) *runconfig.Flags {
	return &runconfig.Flags{Workload: "incast:n=2,size=10KB", CCA: "dcqcn", Seed: 1, Out: out, Packets: "none",
		PPN: 1, Scale: 1, Threads: 1, Set: map[string]bool{}}
}

// A run writes its folder and prints summary.json with --json; --fct-txt
// inside the folder arrives with it; --stats writes its line on stderr.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	f := flags(filepath.Join(dir, "run"))
	f.JSON, f.Stats, f.FCTTxt = true, true, filepath.Join(dir, "run", "sub", runfolder.FCTFile)
	var out, errw bytes.Buffer
	if err := Run(t.Context(), f, testEnv(&out, &errw)); err != nil {
		t.Fatal(err)
	}
	var man struct {
		Metrics struct {
			FlowsFinished int `json:"flows_finished"`
		} `json:"metrics"`
	}
	if err := json.Unmarshal(out.Bytes(), &man); err != nil || man.Metrics.FlowsFinished != 2 {
		t.Errorf("stdout is not the manifest of 2 finished flows: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(f.Out, runfolder.SummaryFile)); err != nil {
		t.Error(err)
	}
	if b, err := os.ReadFile(f.FCTTxt); err != nil || strings.Count(string(b), "\n") != 2 {
		t.Errorf("%s: %v\n%s", runfolder.FCTFile, err, b)
	}
	if errw.String() != "stats\n" {
		t.Errorf("stderr %q", errw.String())
	}
	f = flags(filepath.Join(dir, "bad"))
	f.Threads = 0
	if err := Run(t.Context(), f, testEnv(&out, &errw)); clierr.Code(err) != clierr.ExitUsage {
		t.Errorf("--threads 0: %v", err)
	}
}

// Two algorithms side by side: the table names both, the folder holds one
// run per algorithm; bad seeds or --parallel are usage errors.
func TestCompare(t *testing.T) {
	dir := t.TempDir()
	f := flags(filepath.Join(dir, "cmp"))
	var out, errw bytes.Buffer
	if err := Compare(t.Context(), f, &CompareOptions{CCAs: "dcqcn,hpcc", Seeds: "1", Parallel: 2}, testEnv(&out, &errw)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "2 algorithms x 1 seeds") || !strings.Contains(out.String(), "hpcc") {
		t.Errorf("table:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(f.Out, "cca=hpcc", "seed=1", runfolder.SummaryFile)); err != nil {
		t.Error(err)
	}
	for _, c := range []CompareOptions{{CCAs: "dcqcn", Seeds: "x", Parallel: 1}, {CCAs: "dcqcn", Seeds: "1", Parallel: 0}} {
		if err := Compare(t.Context(), flags(filepath.Join(dir, "bad")), &c, testEnv(&out, &errw)); clierr.Code(err) != clierr.ExitUsage {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

func TestStagedPath(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	st, err := runfolder.Stage(out, runfolder.StageOptions{Flag: "--out"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Abort()
	if got := StagedPath(out, st, filepath.Join(out, "a", "f.txt")); got != filepath.Join(st.Dir, "a", "f.txt") {
		t.Errorf("inside: %s", got)
	}
	for _, p := range []string{filepath.Join(dir, "f.txt"), out} {
		if got := StagedPath(out, st, p); got != p {
			t.Errorf("%s became %s", p, got)
		}
	}
}
