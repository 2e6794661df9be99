package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
)

// cdfDataDir is ../shared/data/cdf (beside the repository) seen from this
// package's folder.
const cdfDataDir = "../../../shared/data/cdf"

// metricsOut is the part of `ccreplay metrics --json` for one run that the
// tests compare with summary.json.
type metricsOut struct {
	SchemaVersion string               `json:"schema_version"`
	Dir           string               `json:"dir"`
	Partition     map[string]string    `json:"partition"`
	CCA           string               `json:"cca"`
	PacketRows    int64                `json:"packet_rows"`
	DataPackets   int64                `json:"data_packets"`
	Metrics       metrics.Summary      `json:"metrics"`
	Packets       *metrics.PacketStats `json:"packets"`
}

// runManifest is a run's manifest with its metrics decoded.
type runManifest struct {
	runfolder.Manifest
	Metrics metrics.Summary `json:"metrics"`
}

func readManifest(t *testing.T, dir string) runManifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, runfolder.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	var m runManifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The requirement: `ccreplay metrics` on a run folder equals the
// run's own summary, every metric, on several workloads. The tolerance is
// zero: floats too must be bit-identical (metrics.DefaultRelTol is only
// what --verify allows).
func TestMetricsEqualsRunSummary(t *testing.T) {
	tmp := t.TempDir()
	lossy := writeFile(t, tmp, "lossy.yaml", "switch:\n  buffer: 150KB\n  pfc: {enabled: false}\nnic:\n  rto: 200us\n")
	cases := []struct {
		name string
		args []string
		need string // a data folder the case needs
	}{
		{"incast", []string{"--workload", "incast:n=8,size=200KB,jitter=20us", "--cca", "dcqcn", "--packets", "all"}, ""},
		{"websearch", []string{"--workload", "cdf:dist=websearch,hosts=8,load=0.5,flows=60,data=" + cdfDataDir,
			"--cca", "hpcc", "--topology", "leafspine:leaves=2,hosts=4,spines=2,uplinks=2,rate=100G,fabric=100G"}, cdfDataDir},
		{"osu-alltoall", []string{"--workload", "osu-alltoall:nodes=4,ppn=1,sizes=1KiB..16KiB,iters=2,warmup=0", "--cca", "dcqcn"}, ""},
		{"lossy", []string{"--config", lossy, "--workload", "incast:n=6,size=300KB", "--cca", "linerate", "--packets", "all"}, ""},
		{"no-packets", []string{"--workload", "incast:n=3,size=50KB", "--cca", "swift", "--packets", "none"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.need != "" {
				if _, err := os.Stat(c.need); err != nil {
					t.Skipf("%s is absent (the shared data folder beside the repository): %v", c.need, err)
				}
			}
			dir := filepath.Join(tmp, c.name)
			runCLI(t, append([]string{"run", "--out", dir}, c.args...)...).mustSucceed(t)
			man := readManifest(t, dir)

			r := runCLI(t, "metrics", "--json", dir)
			r.mustSucceed(t)
			var got metricsOut
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				t.Fatalf("metrics --json: %v\n%s", err, r.stdout)
			}
			if d := metrics.Diff(got.Metrics, man.Metrics, 0); len(d) > 0 || !reflect.DeepEqual(got.Metrics, man.Metrics) {
				t.Errorf("recomputed metrics differ from "+runfolder.SummaryFile+":\n%s", strings.Join(d, "\n"))
			}
			// The same JSON text too, field for field.
			var a, b struct{ Metrics json.RawMessage }
			sj, _ := os.ReadFile(filepath.Join(dir, runfolder.SummaryFile))
			json.Unmarshal(sj, &a)
			json.Unmarshal([]byte(r.stdout), &b)
			var ca, cb bytes.Buffer
			json.Compact(&ca, a.Metrics)
			json.Compact(&cb, b.Metrics)
			if ca.String() != cb.String() {
				t.Errorf("metrics JSON text differs:\n got %s\nwant %s", cb.String(), ca.String())
			}
			if got.SchemaVersion != man.SchemaVersion || got.PacketRows != man.PacketRows || got.DataPackets != man.DataPackets {
				t.Errorf("schema %q, packet_rows %d, data_packets %d; "+runfolder.SummaryFile+" has %q, %d, %d",
					got.SchemaVersion, got.PacketRows, got.DataPackets, man.SchemaVersion, man.PacketRows, man.DataPackets)
			}
			if man.Metrics.FlowsFinished == 0 || man.Metrics.FlowsFinished != man.Metrics.Flows {
				t.Errorf("fixture: %d of %d flows finished", man.Metrics.FlowsFinished, man.Metrics.Flows)
			}
			if man.Packets == string(replay.PacketsNone) {
				if got.Packets != nil || got.PacketRows != 0 {
					t.Errorf("--packets none: packets %+v, packet_rows %d", got.Packets, got.PacketRows)
				}
			} else {
				p := got.Packets
				if p == nil || p.Rows == 0 {
					t.Fatalf("no packet statistics: %+v", p)
				}
				all := man.Packets == string(replay.PacketsAll)
				if d := metrics.CheckPackets(*p, man.Metrics, all); len(d) > 0 {
					t.Errorf(runfolder.PacketsFile+" disagrees with the flow/port rows:\n%s", strings.Join(d, "\n"))
				}
				if p.SwitchQueueDelayNs.N == 0 || p.DataDeliveredPkts < man.Metrics.DataPktsSent-man.Metrics.DropsPkts {
					t.Errorf("switch hops %d, delivered %d of %d sent with %d drops",
						p.SwitchQueueDelayNs.N, p.DataDeliveredPkts, man.Metrics.DataPktsSent, man.Metrics.DropsPkts)
				}
			}
			switch c.name {
			case "lossy":
				if man.Metrics.DropsPkts == 0 || got.Packets.DropsByKind["DATA"] == 0 {
					t.Errorf("lossy run dropped nothing: %+v", got.Packets)
				}
			case "websearch":
				if len(man.Metrics.Buckets) != metrics.DefaultBuckets {
					t.Errorf("websearch: %d buckets", len(man.Metrics.Buckets))
				}
			case "osu-alltoall":
				if man.Metrics.Collectives == 0 {
					t.Errorf("osu-alltoall: no collectives")
				}
			}

			// --verify agrees, and the table has the run's table in it.
			v := runCLI(t, "metrics", "--verify", dir)
			v.mustSucceed(t)
			runTable := runCLI(t, "metrics", dir).stdout
			var want bytes.Buffer
			metrics.WriteTable(&want, man.Metrics)
			if !strings.Contains(runTable, want.String()) || !strings.Contains(v.stdout, "verified against "+runfolder.SummaryFile+": 1 runs") {
				t.Errorf("table lacks the run's metrics table:\n%s", runTable)
			}
			if c.name == "osu-alltoall" && !strings.Contains(runTable, "MPI_Alltoall average latency") {
				t.Errorf("osu-alltoall table lacks the latency per size:\n%s", runTable)
			}
		})
	}
}

// Same folder, same output, byte for byte (table and JSON).
func TestMetricsDeterministic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	runCLI(t, "run", "--out", dir, "--workload", smallWorkload, "--packets", "all").mustSucceed(t)
	for _, args := range [][]string{{"metrics", dir}, {"metrics", "--json", dir}} {
		a, b := runCLI(t, args...), runCLI(t, args...)
		a.mustSucceed(t)
		if a.stdout != b.stdout || a.stdout == "" {
			t.Errorf("%v: two invocations differ", args)
		}
	}
}

// A compare tree: one row per run with the partition keys as columns,
// --by cca groups, --by size-bucket lists buckets, and every run's metrics
// equal its summary.json.
func TestMetricsHiveTree(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cmp")
	runCLI(t, "compare", "--workload", "incast:n=4,size=100KB,jitter=10us", "--cca", "dcqcn,linerate",
		"--seeds", "1,2", "--out", out, "--parallel", "1").mustSucceed(t)

	r := runCLI(t, "metrics", "--json", "--verify", out)
	r.mustSucceed(t)
	var tree struct {
		SchemaVersion string       `json:"schema_version"`
		Keys          []string     `json:"keys"`
		Runs          []metricsOut `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tree.Keys, []string{"cca", "seed"}) || len(tree.Runs) != 4 {
		t.Fatalf("keys %v, %d runs", tree.Keys, len(tree.Runs))
	}
	wantParts := []string{"dcqcn/1", "dcqcn/2", "linerate/1", "linerate/2"}
	for i, run := range tree.Runs {
		if got := run.Partition["cca"] + "/" + run.Partition["seed"]; got != wantParts[i] {
			t.Errorf("run %d: partition %s, want %s", i, got, wantParts[i])
		}
		man := readManifest(t, filepath.FromSlash(run.Dir))
		if !reflect.DeepEqual(run.Metrics, man.Metrics) {
			t.Errorf("%s: metrics differ from "+runfolder.SummaryFile, run.Dir)
		}
	}

	table := runCLI(t, "metrics", out)
	table.mustSucceed(t)
	lines := strings.Split(strings.TrimSpace(table.stdout), "\n")
	if len(lines) != 2+1+4 || !strings.HasPrefix(lines[2], "cca") || !strings.Contains(lines[2], "seed") ||
		!strings.Contains(lines[2], "FCT p99") || !strings.HasPrefix(lines[5], "linerate") {
		t.Errorf("per-run table:\n%s", table.stdout)
	}

	by := runCLI(t, "metrics", "--by", "cca", out)
	by.mustSucceed(t)
	if !strings.Contains(by.stdout, "cca=dcqcn (2)") || !strings.Contains(by.stdout, "cca=linerate (2)") || !strings.Contains(by.stdout, "[") {
		t.Errorf("--by cca:\n%s", by.stdout)
	}
	var grouped struct {
		Groups []struct {
			Value string             `json:"value"`
			Runs  int                `json:"runs"`
			Mean  map[string]float64 `json:"mean"`
			Min   map[string]float64 `json:"min"`
			Max   map[string]float64 `json:"max"`
		} `json:"groups"`
	}
	j := runCLI(t, "metrics", "--by", "seed", "--json", out)
	j.mustSucceed(t)
	json.Unmarshal([]byte(j.stdout), &grouped)
	if len(grouped.Groups) != 2 || grouped.Groups[0].Value != "1" || grouped.Groups[0].Runs != 2 {
		t.Fatalf("--by seed groups: %+v", grouped.Groups)
	}
	// The group mean of an integer metric is the mean of its runs' values
	// (runs 0 and 2 are seed 1).
	g := grouped.Groups[0]
	want := float64(tree.Runs[0].Metrics.FCTP99Ns+tree.Runs[2].Metrics.FCTP99Ns) / 2
	if g.Mean["fct_p99_ns"] != want || g.Min["fct_p99_ns"] > g.Mean["fct_p99_ns"] || g.Max["fct_p99_ns"] < want {
		t.Errorf("seed 1 fct_p99_ns mean %v min %v max %v, want mean %v", g.Mean["fct_p99_ns"], g.Min["fct_p99_ns"], g.Max["fct_p99_ns"], want)
	}

	// HPCC's view with 2 buckets: the 4 flows of a run are one size, so
	// its two groups merge into one bucket: 4 runs x 1 line.
	sb := runCLI(t, "metrics", "--by", "size-bucket", "--buckets", "2", out)
	sb.mustSucceed(t)
	lines = strings.Split(strings.TrimSpace(sb.stdout), "\n")
	if len(lines) != 2+1+4 || !strings.Contains(lines[2], "slowdown p50") || !strings.Contains(lines[2], "p99") {
		t.Errorf("--by size-bucket:\n%s", sb.stdout)
	}
	// Several run folders given one by one compare too.
	two := runCLI(t, "metrics", "--json", filepath.Join(out, "cca=dcqcn", "seed=2"), filepath.Join(out, "cca=linerate", "seed=1"))
	two.mustSucceed(t)
	json.Unmarshal([]byte(two.stdout), &tree)
	if len(tree.Runs) != 2 || tree.Runs[0].Partition["seed"] != "2" || tree.Runs[1].Partition["cca"] != "linerate" {
		t.Errorf("two folders: %+v", tree.Runs)
	}
}

// Bad inputs: one line on stderr naming what and where, exit 3; a
// difference from summary.json under --verify: exit 1; bad flags: exit 2.
func TestMetricsBadInputs(t *testing.T) {
	tmp := t.TempDir()
	good := filepath.Join(tmp, "good")
	runCLI(t, "run", "--out", good, "--workload", "incast:n=4,size=200KB", "--packets", "data").mustSucceed(t)
	variant := func(name string, edit func(dir string)) string {
		dir := filepath.Join(tmp, name)
		os.MkdirAll(dir, 0o755)
		for _, f := range dirNames(t, good) {
			b, _ := os.ReadFile(filepath.Join(good, f))
			os.WriteFile(filepath.Join(dir, f), b, 0o644)
		}
		edit(dir)
		return dir
	}
	edit := func(file string, fn func([]byte) []byte) func(string) {
		return func(dir string) {
			p := filepath.Join(dir, file)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(p, fn(b), 0o644)
		}
	}
	truncated := variant("truncated", edit(runfolder.FlowsFile, func(b []byte) []byte { return b[:len(b)/2] }))
	corrupt := variant("corrupt", edit(runfolder.PacketsFile, func(b []byte) []byte {
		for i := 200; i < 400 && i < len(b)-100; i++ {
			b[i] ^= 0x5a
		}
		return b
	}))
	// Same-length replacement keeps the Parquet footer well-formed.
	oldParquet := variant("old-parquet", edit(runfolder.PortsFile, func(b []byte) []byte {
		return bytes.ReplaceAll(b, []byte("ccreplay.v2"), []byte("ccreplay.v0"))
	}))
	oldSummary := variant("old-summary", edit(runfolder.SummaryFile, func(b []byte) []byte {
		return bytes.ReplaceAll(b, []byte(`"schema_version": "ccreplay.v2"`), []byte(`"schema_version": "ccreplay.v0"`))
	}))
	noMessages := variant("no-messages", func(dir string) { os.Remove(filepath.Join(dir, runfolder.MessagesFile)) })
	edited := variant("edited", edit(runfolder.SummaryFile, func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"flows": 4`), []byte(`"flows": 5`), 1)
	}))
	emptyDir := filepath.Join(tmp, "empty")
	os.MkdirAll(filepath.Join(emptyDir, "sub"), 0o755)

	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"missing folder", []string{filepath.Join(tmp, "nope")}, ExitBadInput, []string{"nope", "no such folder"}},
		{"a file", []string{filepath.Join(good, runfolder.FlowsFile)}, ExitBadInput, []string{runfolder.FlowsFile, "not a folder"}},
		{"not a run folder", []string{emptyDir}, ExitBadInput, []string{emptyDir, "not a run folder"}},
		{"truncated parquet", []string{truncated}, ExitBadInput, []string{filepath.Join(truncated, runfolder.FlowsFile), "not a Parquet file"}},
		{"corrupt page", []string{corrupt}, ExitBadInput, []string{filepath.Join(corrupt, runfolder.PacketsFile)}},
		{"wrong parquet version", []string{oldParquet}, ExitBadInput, []string{filepath.Join(oldParquet, runfolder.PortsFile), `schema version "ccreplay.v0", want "ccreplay.v2" or "ccreplay.v1"`}},
		{"wrong summary version", []string{oldSummary}, ExitBadInput, []string{filepath.Join(oldSummary, runfolder.SummaryFile), `"ccreplay.v0"`}},
		{"missing file", []string{noMessages}, ExitBadInput, []string{filepath.Join(noMessages, runfolder.MessagesFile)}},
		{"verify difference", []string{"--verify", edited}, ExitFailure, []string{"--verify", edited, "flows: 4 vs 5"}},
		{"no argument", nil, ExitUsage, []string{"requires at least 1 arg"}},
		{"bad --by", []string{"--by", "load", good}, ExitUsage, []string{`--by "load"`, "keys: none"}},
		{"bad --buckets", []string{"--buckets", "0", good}, ExitUsage, []string{"--buckets"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, append([]string{"metrics"}, c.args...)...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", r.code, c.code, r.stderr)
			}
			last := strings.TrimSpace(r.stderr)
			if i := strings.LastIndex(last, "\n"); i >= 0 {
				last = last[i+1:]
			}
			if !strings.HasPrefix(last, "ccreplay: ") {
				t.Errorf("error line %q lacks the ccreplay prefix", last)
			}
			for _, w := range c.want {
				if !strings.Contains(last, w) {
					t.Errorf("error %q lacks %q", last, w)
				}
			}
			if c.code == ExitBadInput && strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Errorf("error is not one line:\n%s", r.stderr)
			}
		})
	}
}
