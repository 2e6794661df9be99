package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// `gen` writes a trace that reads back, deterministic per seed, and its
// output runs with `run --trace`.
func TestGenWritesTraceThatRuns(t *testing.T) {
	tmp := t.TempDir()
	for _, ext := range []string{".parquet", ".csv", ".jsonl"} {
		out := filepath.Join(tmp, "osu"+ext)
		r := runCLI(t, "gen", "osu-alltoall:nodes=2,ppn=2,sizes=1..1KiB,iters=1,warmup=0", "-o", out, "--json")
		if r.code != ExitOK {
			t.Fatalf("%s: exit %d: %s", ext, r.code, r.stderr)
		}
		var rep gen.Report
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatal(err)
		}
		tr, err := trace.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Messages) != rep.Messages || rep.Ranks != 4 || rep.Hosts != 2 || rep.Collectives == 0 {
			t.Fatalf("%s: report %+v vs %d messages read back", ext, rep, len(tr.Messages))
		}
	}
	a, b := filepath.Join(tmp, "a.parquet"), filepath.Join(tmp, "b.parquet")
	for _, p := range []string{a, b} {
		if r := runCLI(t, "gen", "incast:n=4,size=10KB,jitter=10us", "-o", p, "--seed", "9"); r.code != ExitOK {
			t.Fatal(r.stderr)
		}
	}
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	if string(x) != string(y) {
		t.Fatal("gen is not deterministic per seed")
	}
	r := runCLI(t, "run", "--trace", filepath.Join(tmp, "osu.csv"), "--out", filepath.Join(tmp, "run"), "--packets", "none")
	if r.code != ExitOK || !strings.Contains(r.stdout, "collectives") {
		t.Fatalf("run on the generated OSU trace: exit %d %s", r.code, r.stderr)
	}
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"gen", "nope", "-o", filepath.Join(tmp, "x.csv")}, ExitBadInput},
		{[]string{"gen", "incast:n=0", "-o", filepath.Join(tmp, "x.csv")}, ExitBadInput},
		{[]string{"gen", "incast"}, ExitUsage},
		{[]string{"gen", "incast", "-o", filepath.Join(tmp, "x.txt")}, ExitUsage},
	} {
		r := runCLI(t, c.args...)
		if r.code != c.code || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d %q, want %d in one line", c.args, r.code, r.stderr, c.code)
		}
	}
}
