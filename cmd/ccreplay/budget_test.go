package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// Sizes whose cost nobody stated are refused before anything is built, in
// one line with the estimate (issue 33, class 4): a sweep of more points
// than sweep.MaxPoints (it took 2.27 GB and wrote a 274 MB sweep.json at
// 10^6 points), a generated trace above --max-memory.
func TestRefusedWithTheEstimate(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"sweep", "--workload", "incast:n=2,size=1KB", "--seeds", "1..1000000", "--out", filepath.Join(dir, "sw")}, ExitUsage,
			[]string{"1000000 points, more than the limit of 100000", "about 3 GB"}},
		{[]string{"sweep", "--workload", "incast:n=2,size=1KB", "--seeds", "1..50000", "--cca", "dcqcn,hpcc,dolce", "--out", filepath.Join(dir, "sw")}, ExitUsage,
			[]string{"150000 points, more than the limit of 100000", "about 450 MB", runfolder.SweepManifestFile + " of about 40.5 MB"}},
		{[]string{"gen", "cdf:dist=websearch,hosts=16,load=0.5,flows=2000000", "-o", filepath.Join(dir, "t.parquet"), "--max-memory", "300MB"}, ExitBadInput,
			[]string{"cdf: the trace needs about 544 MB: 2000000 messages x 240 B + 64 MB, more than --max-memory 300MB"}},
		{[]string{"gen", "all-to-all:hosts=1000", "-o", filepath.Join(dir, "t.parquet"), "--max-memory", "300MB"}, ExitBadInput,
			[]string{"all-to-all: the trace needs about 544 MB"}},
	} {
		r := runCLI(t, tc.args...)
		line := strings.TrimSuffix(r.stderr, "\n")
		if r.code != tc.code || strings.Contains(line, "\n") {
			t.Errorf("%s: exit %d, want %d, one line; stderr:\n%s", strings.Join(tc.args, " "), r.code, tc.code, r.stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(line, w) {
				t.Errorf("%s: %q lacks %q", strings.Join(tc.args, " "), line, w)
			}
		}
	}
	// Under the budget the same generator runs.
	runCLI(t, "gen", "cdf:dist=websearch,hosts=16,load=0.5,flows=1000", "-o", filepath.Join(dir, "ok.parquet"), "--max-memory", "300MB").mustSucceed(t)
}
