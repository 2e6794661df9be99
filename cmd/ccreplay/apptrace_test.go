package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shipped OTF2 archive and Chakra trace set replay through `run` under
// two algorithms each: every message finishes, the collectives are
// counted, and --compute-scale 0 (no compute) never makes a run longer.
func TestRunApplicationTraces(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		trace       string
		extra       []string
		collectives int64
	}{
		{"../../examples/otf2_halo8/traces.otf2", []string{"--ppn", "4"}, 3},
		{"../../examples/chakra_allreduce8/workload.3.et", nil, 2},
	} {
		for _, cca := range []string{"dcqcn", "hpcc"} {
			out := filepath.Join(dir, filepath.Base(filepath.Dir(c.trace))+"-"+cca)
			args := append([]string{"run", "--trace", c.trace, "--cca", cca, "--out", out, "--packets", "none"}, c.extra...)
			runCLI(t, args...).mustSucceed(t)
			s := readSummary(t, out)
			if s.metricInt(t, "messages") == 0 || s.metricInt(t, "messages") != s.metricInt(t, "messages_finished") {
				t.Errorf("%s under %s: %d of %d messages finished", c.trace, cca, s.metricInt(t, "messages_finished"), s.metricInt(t, "messages"))
			}
			if got := s.metricInt(t, "collectives_finished"); got != c.collectives {
				t.Errorf("%s under %s: %d collectives finished, want %d", c.trace, cca, got, c.collectives)
			}
			fast := out + "-nocompute"
			runCLI(t, append(args[:len(args)-len(c.extra)-2], append([]string{"--out", fast, "--compute-scale", "0"}, c.extra...)...)...).mustSucceed(t)
			if a, b := readSummary(t, fast).metricInt(t, "sim_duration_ns"), s.metricInt(t, "sim_duration_ns"); a > b {
				t.Errorf("%s under %s: %d ns without compute, %d with", c.trace, cca, a, b)
			}
		}
	}
}

// ingest reports both formats (text and JSON) and writes them as traces.
func TestIngestApplicationTraces(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, "ingest", "../../examples/otf2_halo8/traces.otf2", "--ppn", "4", "-o", filepath.Join(dir, "halo.csv"))
	r.mustSucceed(t)
	for _, w := range []string{"8 ranks on 2 hosts", "collective MPI_Allreduce: 3", "events MpiIsend: 48", "wrote 224 messages on 2 hosts"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("ingest otf2: no %q in\n%s", w, r.stdout)
		}
	}
	r = runCLI(t, "ingest", "../../examples/chakra_allreduce8/workload.0.et", "--json")
	r.mustSucceed(t)
	for _, w := range []string{`"ranks": 8`, `"ALL_REDUCE": 2`} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("ingest chakra --json: no %q in\n%s", w, r.stdout)
		}
	}
}

// Damaged application traces: one line naming the file, exit 3.
func TestApplicationTraceErrors(t *testing.T) {
	dir := t.TempDir()
	// A Chakra set whose rank 1 is cut in the middle of a node.
	for i := 0; i < 8; i++ {
		b, err := os.ReadFile(filepath.Join("../../examples/chakra_allreduce8", "workload."+string(rune('0'+i))+".et"))
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			b = b[:len(b)-7]
		}
		writeFile(t, dir, "w."+string(rune('0'+i))+".et", string(b))
	}
	// An OTF2 anchor that is not one.
	bad := writeFile(t, dir, "bad.otf2", "not an anchor")
	for _, c := range []struct{ file, want string }{
		{filepath.Join(dir, "w.0.et"), "w.1.et"},
		{bad, "bad.otf2"},
	} {
		for _, cmd := range []string{"run", "ingest"} {
			args := []string{cmd, c.file}
			if cmd == "run" {
				args = []string{"run", "--trace", c.file, "--out", filepath.Join(dir, "o")}
			}
			r := runCLI(t, args...)
			if r.code != ExitBadInput || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
				t.Errorf("%v: exit %d, stderr %q; want exit 3 and one line naming %s", args, r.code, r.stderr, c.want)
			}
		}
	}
	if r := runCLI(t, "run", "--trace", filepath.Join(dir, "w.0.et"), "--compute-scale", "-1", "--out", filepath.Join(dir, "o")); r.code == ExitOK {
		t.Error("a negative --compute-scale must be refused")
	}
}
