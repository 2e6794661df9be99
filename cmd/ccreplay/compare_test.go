package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v16/parquet/file"
)

// compare's outputs are identical whatever the parallelism (the issue's
// requirement), laid out as hive partitions cca=NAME/seed=N.
func TestCompareIdenticalAcrossParallelism(t *testing.T) {
	tmp := t.TempDir()
	outs := map[int]string{}
	stdouts := map[int]string{}
	for _, par := range []int{1, 2, 4} {
		out := filepath.Join(tmp, "p"+string(rune('0'+par)))
		r := runCLI(t, "compare", "--workload", "incast:n=4,size=200KB,jitter=10us", "--cca", "dcqcn,dcqcn:zhu2015,linerate",
			"--seeds", "1..2", "--parallel", string(rune('0'+par)), "--out", out)
		if r.code != ExitOK {
			t.Fatalf("parallel %d: exit %d: %s", par, r.code, r.stderr)
		}
		outs[par], stdouts[par] = out, strings.ReplaceAll(r.stdout, out, "OUT")
	}
	ref, err := os.ReadFile(filepath.Join(outs[1], "comparison.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for _, par := range []int{2, 4} {
		got, _ := os.ReadFile(filepath.Join(outs[par], "comparison.parquet"))
		if !bytes.Equal(ref, got) {
			t.Errorf("comparison.parquet differs between --parallel 1 and %d", par)
		}
		if stdouts[par] != stdouts[1] {
			t.Errorf("table differs between --parallel 1 and %d", par)
		}
		for _, run := range []string{"cca=dcqcn/seed=1", "cca=dcqcn-zhu2015/seed=2", "cca=linerate/seed=1"} {
			a, err1 := os.ReadFile(filepath.Join(outs[1], run, "flows.parquet"))
			b, err2 := os.ReadFile(filepath.Join(outs[par], run, "flows.parquet"))
			if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
				t.Errorf("%s/flows.parquet missing or different at --parallel %d", run, par)
			}
		}
	}
	for _, want := range []string{"dcqcn:zhu2015", "dcqcn:hpcc", "linerate", "FCT p99", "slowdown p99 per flow-size bucket", "["} {
		if !strings.Contains(stdouts[1], want) {
			t.Errorf("table lacks %q:\n%s", want, stdouts[1])
		}
	}
	// Read back with Arrow: 3 algorithms x 2 seeds x (1 overall + 1 bucket:
	// the flows are all one size, so the ten equal-count groups merge) rows.
	rdr, err := file.OpenParquetFile(filepath.Join(outs[1], "comparison.parquet"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	if n := rdr.NumRows(); n != 3*2*(1+1) {
		t.Errorf("comparison.parquet has %d rows, want 12", n)
	}
	for _, col := range []string{"cca", "seed", "bucket", "fct_p99_ns", "slowdown_p99", "ecn_ratio", "unfair_ratio", "pfc_pause_fraction"} {
		if rdr.MetaData().Schema.ColumnIndexByName(col) < 0 {
			t.Errorf("comparison.parquet lacks column %s", col)
		}
	}
}

func TestCompareJSONAndErrors(t *testing.T) {
	tmp := t.TempDir()
	r := runCLI(t, "compare", "--workload", "incast:n=2,size=50KB", "--cca", "dcqcn,linerate", "--seeds", "3,5", "--json", "--out", tmp)
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got struct {
		Runs []struct {
			CCA     string
			Spec    string
			Seed    uint64
			Metrics struct{ Flows int64 }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	// cca is the folder's partition value, spec the resolved algorithm.
	if len(got.Runs) != 4 || got.Runs[0].CCA != "dcqcn" || got.Runs[0].Spec != "dcqcn:hpcc" || got.Runs[1].Seed != 5 || got.Runs[3].Metrics.Flows != 2 {
		t.Fatalf("unexpected JSON runs: %+v", got.Runs)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"compare", "--workload", "incast:n=2"}, ExitUsage, "--cca"},
		{[]string{"compare", "--workload", "incast:n=2", "--cca", "dcqcn,dcqcn"}, ExitUsage, "repeated"},
		{[]string{"compare", "--workload", "incast:n=2", "--cca", "dcqcn", "--seeds", "5..1"}, ExitUsage, "seed range"},
		{[]string{"compare", "--workload", "incast:n=2", "--cca", "dcqcn", "--seeds", "x"}, ExitUsage, "invalid seed"},
		{[]string{"compare", "--workload", "incast:n=2", "--cca", "dcqcn", "--parallel", "0"}, ExitUsage, "--parallel"},
		{[]string{"compare", "--workload", "incast:n=2", "--cca", "dcqcn,nope"}, ExitBadInput, "unknown congestion control"},
	} {
		r := runCLI(t, append(c.args, "--out", filepath.Join(tmp, "bad"))...)
		if r.code != c.code || !strings.Contains(r.stderr, c.msg) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q in one line", c.args, r.code, r.stderr, c.code, c.msg)
		}
	}
}
