package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v16/parquet/file"

	"github.com/ccreplay/ccreplay/runfolder"
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
	ref, err := os.ReadFile(filepath.Join(outs[1], runfolder.ComparisonFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, par := range []int{2, 4} {
		got, _ := os.ReadFile(filepath.Join(outs[par], runfolder.ComparisonFile))
		if !bytes.Equal(ref, got) {
			t.Errorf(runfolder.ComparisonFile+" differs between --parallel 1 and %d", par)
		}
		if stdouts[par] != stdouts[1] {
			t.Errorf("table differs between --parallel 1 and %d", par)
		}
		for _, run := range []string{"cca=dcqcn/seed=1", "cca=dcqcn-zhu2015/seed=2", "cca=linerate/seed=1"} {
			a, err1 := os.ReadFile(filepath.Join(outs[1], run, runfolder.FlowsFile))
			b, err2 := os.ReadFile(filepath.Join(outs[par], run, runfolder.FlowsFile))
			if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
				t.Errorf("%s/"+runfolder.FlowsFile+" missing or different at --parallel %d", run, par)
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
	rdr, err := file.OpenParquetFile(filepath.Join(outs[1], runfolder.ComparisonFile), false)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	if n := rdr.NumRows(); n != 3*2*(1+1) {
		t.Errorf(runfolder.ComparisonFile+" has %d rows, want 12", n)
	}
	for _, col := range []string{"cca", "seed", "bucket", "fct_p99_ns", "slowdown_p99", "ecn_ratio", "unfair_ratio", "pfc_pause_fraction"} {
		if rdr.MetaData().Schema.ColumnIndexByName(col) < 0 {
			t.Errorf(runfolder.ComparisonFile+" lacks column %s", col)
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
	if len(got.Runs) != 4 || got.Runs[0].CCA != "dcqcn" || got.Runs[0].Spec != "dcqcn:hpcc-run" || got.Runs[1].Seed != 5 || got.Runs[3].Metrics.Flows != 2 {
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

// TestCompareNetworkDifferences: compare names every network setting that
// differs between its algorithms' runs (the ECN marking and CNP interval
// their presets bring: dcqcn:hpcc-run marks at 400 KB per 100 Gb/s with
// CNPs 1 us apart, dcqcn:dolce-sim at 7 KB with 55 us, hpcc needs INT), in
// the table, the --json output and comparison.json; --same-network runs
// them all on one algorithm's settings and then lists none.
func TestCompareNetworkDifferences(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"compare", "--workload", "incast:n=2,size=100KB", "--cca", "dcqcn:hpcc-run,dcqcn:dolce-sim,hpcc"}
	out := filepath.Join(tmp, "diff")
	r := runCLI(t, append(base, "--out", out)...)
	r.mustSucceed(t)
	for _, row := range [][]string{
		// hpcc's preset sets no marking and no CNP interval: the switch's
		// and the NIC's defaults (Zhu 2015's 5 KB / 200 KB / 1 %, 50 us).
		{"nic.cnp_interval", "1us", "55us", "50us"},
		{"switch.ecn.kmin", "400KB", "7KB", "5KB"},
		{"switch.ecn.kmax", "1600KB", "500KB", "200KB"},
		{"switch.ecn.pmax", "0.2", "0.01", "0.01"},
		{"switch.ecn.ref_rate", "100Gbps", "off", "off"},
		{"switch.int", "false", "false", "true"},
	} {
		line := ""
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(l, row[0]+" ") {
				line = l
			}
		}
		if got := strings.Fields(line); !slices.Equal(got, row) {
			t.Errorf("row %v: got %q\n%s", row, line, r.stdout)
		}
	}
	var coll struct {
		Diffs []struct {
			Setting string            `json:"setting"`
			Values  map[string]string `json:"values"`
		} `json:"network_differences"`
		Same string `json:"same_network"`
	}
	b, err := os.ReadFile(filepath.Join(out, runfolder.CollectionFile))
	if err != nil || json.Unmarshal(b, &coll) != nil {
		t.Fatalf(runfolder.CollectionFile+": %v\n%s", err, b)
	}
	found := map[string]map[string]string{}
	for _, d := range coll.Diffs {
		found[d.Setting] = d.Values
	}
	if v := found["switch.ecn.kmin"]; v["dcqcn-hpcc-run"] != "400KB" || v["dcqcn-dolce-sim"] != "7KB" || v["hpcc"] == "" {
		t.Errorf(runfolder.CollectionFile+" switch.ecn.kmin: %v", v)
	}
	if v := found["nic.cnp_interval"]; v["dcqcn-hpcc-run"] != "1us" || v["dcqcn-dolce-sim"] != "55us" {
		t.Errorf(runfolder.CollectionFile+" nic.cnp_interval: %v", v)
	}
	if _, ok := found["switch.buffer"]; ok || coll.Same != "" {
		t.Errorf(runfolder.CollectionFile+" lists a setting every run shares, or same_network: %+v", coll)
	}
	r = runCLI(t, append(base, "--json", "--out", filepath.Join(tmp, "json"))...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, `"network_differences"`) || !strings.Contains(r.stdout, `"setting": "switch.ecn.kmin"`) {
		t.Errorf("--json lacks the differences:\n%.600s", r.stdout)
	}

	// Held at dcqcn:dolce-sim's: nothing differs, and the runs took its marking.
	out = filepath.Join(tmp, "same")
	r = runCLI(t, append(base, "--same-network=dcqcn:dolce-sim", "--out", out)...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "network: the same for every algorithm, dcqcn:dolce-sim's (--same-network)") || strings.Contains(r.stdout, "switch.ecn.kmin") {
		t.Errorf("--same-network table:\n%s", r.stdout)
	}
	b, _ = os.ReadFile(filepath.Join(out, runfolder.CollectionFile))
	if !strings.Contains(string(b), `"same_network": "dcqcn:dolce-sim"`) || strings.Contains(string(b), "network_differences") {
		t.Errorf("--same-network "+runfolder.CollectionFile+":\n%s", b)
	}
	sum, _ := os.ReadFile(filepath.Join(out, "cca=dcqcn-hpcc-run", "seed=1", runfolder.SummaryFile))
	if !strings.Contains(string(sum), `"cnp_interval_ns": 55000`) {
		t.Errorf("dcqcn:hpcc-run under --same-network did not take the 55 us CNP interval:\n%.2000s", sum)
	}
	// Bare: the first algorithm's. Unknown or ambiguous: a usage error.
	r = runCLI(t, append(base, "--same-network", "--out", filepath.Join(tmp, "bare"))...)
	r.mustSucceed(t)
	if !strings.Contains(r.stdout, "dcqcn:hpcc-run's (--same-network)") {
		t.Errorf("bare --same-network:\n%s", r.stdout)
	}
	for _, bad := range []string{"--same-network=swift", "--same-network=dcqcn"} {
		r = runCLI(t, append(base, bad, "--out", filepath.Join(tmp, "bad"))...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, "--same-network") {
			t.Errorf("%s: exit %d, stderr %q", bad, r.code, r.stderr)
		}
	}
}
