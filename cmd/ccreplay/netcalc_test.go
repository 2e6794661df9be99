package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/netcalc/scenario"
	"github.com/ccreplay/ccreplay/runfolder"
)

// paperIncastArgs is the 31-to-1 incast of paper 003, Section V.
var paperIncastArgs = []string{"netcalc", "--topology", "star:hosts=32,rate=100G,delay=1us",
	"--workload", "incast:n=31,size=10MB"}

func ncRun(t *testing.T, out string, extra ...string) scenario.Summary {
	t.Helper()
	return ncRunArgs(t, out, append(slices.Clone(paperIncastArgs), extra...)...)
}

// ncRunArgs runs the command line args with --out out --json and reads
// the summary it prints.
func ncRunArgs(t *testing.T, out string, args ...string) scenario.Summary {
	t.Helper()
	r := runCLI(t, append(slices.Clone(args), "--out", out, "--json")...)
	r.mustSucceed(t)
	var s scenario.Summary
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	return s
}

// DCQCN without PFC writes curves and events that Arrow reads with the
// documented columns; CNPs cut the rates; the same inputs give the same
// bytes.
func TestNetcalcDCQCNFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	s := ncRun(t, a, "--cca", "dcqcn", "--pfc", "off", "--horizon", "1ms")
	ncRun(t, b, "--cca", "dcqcn", "--pfc", "off", "--horizon", "1ms")
	if s.CNPs == 0 || s.Cuts < s.CNPs || s.FirstPauseNs != -1 || s.PeakBacklogBytes < 50e6 {
		t.Errorf("summary %+v", s)
	}
	curves := readArrow(t, filepath.Join(a, runfolder.CurvesFile))
	if curves.rows != s.CurveRows || curves.rows != 1001*32 {
		t.Errorf("curves: %d rows, summary says %d, want %d", curves.rows, s.CurveRows, 1001*32)
	}
	for _, c := range []string{"t_ns", "flow_id", "rtt_ns"} {
		if len(curves.i64[c]) != curves.rows {
			t.Errorf("curves: int64 column %s has %d values", c, len(curves.i64[c]))
		}
	}
	for _, c := range []string{"a_bytes", "ahat_bytes", "d_bytes", "d_lo_bytes", "d_hi_bytes", "backlog_bytes", "rate_bps", "window_bytes"} {
		if len(curves.f64[c]) != curves.rows {
			t.Errorf("curves: double column %s has %d values", c, len(curves.f64[c]))
		}
	}
	if len(curves.i32["epoch"]) != curves.rows || len(curves.b["paused"]) != curves.rows {
		t.Errorf("curves: epoch or paused missing")
	}
	if curves.i64["flow_id"][0] != -1 || curves.i64["t_ns"][32] != 1000 {
		t.Errorf("curves: first rows flow_id %v t_ns %v", curves.i64["flow_id"][:2], curves.i64["t_ns"][32])
	}
	events := readArrow(t, filepath.Join(a, runfolder.EventsFile))
	if events.rows != s.Events || len(events.i64["t_ns"]) != events.rows || len(events.f64["before"]) != events.rows {
		t.Fatalf("events: %d rows, summary %d", events.rows, s.Events)
	}
	for _, name := range []string{runfolder.CurvesFile, runfolder.EventsFile, runfolder.SummaryFile} {
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs of the same inputs", name)
		}
	}
	// The cnp kind is in the file (a dict column Arrow reads as strings).
	raw, _ := os.ReadFile(filepath.Join(a, runfolder.EventsFile))
	if !bytes.Contains(raw, []byte("cnp")) {
		t.Errorf("%s has no cnp event", runfolder.EventsFile)
	}
}

func TestNetcalcCSV(t *testing.T) {
	out := filepath.Join(t.TempDir(), "csv")
	r := runCLI(t, "netcalc", "--workload", "incast:n=2,size=1MB", "--cca", "aimd-window", "--horizon", "200us",
		"--format", "csv", "--out", out)
	r.mustSucceed(t)
	b, err := os.ReadFile(filepath.Join(out, runfolder.CurvesName+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if lines[0] != strings.Join(scenario.CurveColumns, ",") || len(lines) != 1+201*3 {
		t.Errorf("%s.csv: header %q, %d lines", runfolder.CurvesName, lines[0], len(lines))
	}
	if _, err := os.Stat(filepath.Join(out, runfolder.EventsName+".csv")); err != nil {
		t.Error(err)
	}
}

func TestNetcalcErrors(t *testing.T) {
	dir := t.TempDir()
	two := writeFile(t, dir, "two.csv", csvTrace("0,0,2,1000,0,-1,-1,,0", "1,1,3,1000,0,-1,-1,,0"))
	deps := writeFile(t, dir, "deps.csv", csvTrace("0,0,2,1000,0,-1,-1,,0", "1,1,2,1000,0,-1,-1,0,0"))
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--trace", two}, ExitBadInput, "no single bottleneck"},
		{[]string{"--trace", deps}, ExitBadInput, "depends on other messages"},
		{[]string{"--workload", smallWorkload, "--cca", "cubic"}, ExitBadInput, "unknown model congestion control"},
		{[]string{"--workload", smallWorkload, "--cca-param", "kmin=5KB", "--cca", "vegas"}, ExitBadInput, "unknown parameter of vegas"},
		{[]string{"--workload", smallWorkload, "--dt", "fast"}, ExitUsage, "--dt"},
		{[]string{"--workload", smallWorkload, "--dt", "0.5ns"}, ExitUsage, "--dt"},
		{[]string{"--workload", smallWorkload, "--record", "150ns"}, ExitUsage, "--record"},
		{[]string{"--workload", smallWorkload, "--pfc", "maybe"}, ExitUsage, "--pfc"},
		{[]string{"--workload", smallWorkload, "--cca", "vegas", "--compare"}, ExitUsage, "--compare: vegas has no packet counterpart"},
		{[]string{"--workload", smallWorkload, "--cca", "aimd-rate", "--compare"}, ExitUsage, "--compare"},
	} {
		r := runCLI(t, append([]string{"netcalc", "--out", out}, tc.args...)...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and one line with %q", tc.args, r.code, r.stderr, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed command left %s", out)
	}
}

// The flags parse into the options without running anything, and the
// options hold the factory and the flags given.
func TestNetcalcParseFlags(t *testing.T) {
	o, err := parseCmd(t, []string{"netcalc"}, NewCmdNetcalc, "--workload", "incast:n=2,size=1MB", "--cca", "vegas",
		"--cca-param", "w0=3000", "--cca-param", "low=1500", "--pfc", "on", "--dt", "50ns", "-o", "x", "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if o.f == nil || o.ctx == nil || !o.Set["pfc"] || o.Set["horizon"] {
		t.Errorf("factory %v, context %v, flags given %v", o.f, o.ctx, o.Set)
	}
	want := netcalcOptions{f: o.f, ctx: o.ctx, CommandOptions: scenario.CommandOptions{Set: o.Set, Registry: o.Registry,
		Workload: "incast:n=2,size=1MB", Seed: 1, CCA: "vegas",
		CCAParams: []string{"w0=3000", "low=1500"}, PFC: "on", Dt: "50ns", Horizon: "10ms", Record: "1us", Out: "x",
		Format: "csv", Figure: "png"}}
	if !reflect.DeepEqual(*o, want) {
		t.Errorf("parsed\n %+v\nwant %+v", *o, want)
	}
	req, err := o.Request(nil)
	if err != nil || !req.PFC || req.CC != "vegas" || len(req.Figures) != 1 || req.Registry == nil {
		t.Errorf("request %+v, %v", req, err)
	}
}
