package main

import (
	"bytes"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runconfig"
)

// parseRun runs `ccreplay run ARGS` through the root command with a runF
// that keeps the parsed options and runs nothing.
func parseRun(t *testing.T, args ...string) (*runOptions, error) {
	t.Helper()
	f := &Factory{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	var got *runOptions
	root := newRootCmd(f)
	for _, c := range root.Commands() {
		if c.Name() == "run" {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(NewCmdRun(f, func(o *runOptions) error { got = o; return nil }))
	root.SetArgs(append([]string{"run"}, args...))
	if err := root.Execute(); err != nil {
		return nil, err
	}
	if got == nil {
		t.Fatalf("run %q: runF was not called", args)
	}
	if got.f != f {
		t.Fatalf("run options do not hold the injected factory")
	}
	return got, nil
}

func TestParseRunFlags(t *testing.T) {
	// defaults is what `ccreplay run` with no flags parses to.
	defaults := func() runOptions {
		return runOptions{Flags: runconfig.Flags{CCA: "dcqcn", Seed: 1, Out: "out", Packets: "data", PPN: 1, Scale: 1, Threads: runtime.NumCPU()}}
	}
	tests := []struct {
		name string
		args []string
		want func(o *runOptions)
	}{
		{"defaults", nil, func(o *runOptions) {}},
		{"workload", []string{"--workload", smallWorkload}, func(o *runOptions) { o.Workload = smallWorkload }},
		{"workload equals form", []string{"--workload=" + smallWorkload}, func(o *runOptions) { o.Workload = smallWorkload }},
		{"trace", []string{"--trace", "t.csv"}, func(o *runOptions) { o.Trace = "t.csv" }},
		{"both trace and workload parse (rejected when run)", []string{"--trace", "t.csv", "--workload", "incast:n=2,size=1KB"},
			func(o *runOptions) { o.Trace, o.Workload = "t.csv", "incast:n=2,size=1KB" }},
		{"cca with preset", []string{"--cca", "dcqcn:hpcc"}, func(o *runOptions) { o.CCA = "dcqcn:hpcc" }},
		{"cca linerate", []string{"--cca=linerate"}, func(o *runOptions) { o.CCA = "linerate" }},
		{"one cca-param", []string{"--cca-param", "ai_rate=40Mbps"},
			func(o *runOptions) { o.CCAParams = []string{"ai_rate=40Mbps"} }},
		{"repeated cca-param keeps order and repeats", []string{"--cca-param", "ai_rate=40Mbps", "--cca-param", "g=0.5", "--cca-param=ai_rate=10Mbps"},
			func(o *runOptions) { o.CCAParams = []string{"ai_rate=40Mbps", "g=0.5", "ai_rate=10Mbps"} }},
		{"cca-param value with comma is not split", []string{"--cca-param", "cut=a,b"},
			func(o *runOptions) { o.CCAParams = []string{"cut=a,b"} }},
		{"topology", []string{"--topology", "leafspine:leaves=2,hosts=4"}, func(o *runOptions) { o.Topology = "leafspine:leaves=2,hosts=4" }},
		{"seed", []string{"--seed", "42"}, func(o *runOptions) { o.Seed = 42 }},
		{"seed zero", []string{"--seed=0"}, func(o *runOptions) { o.Seed = 0 }},
		{"seed max uint64", []string{"--seed", "18446744073709551615"}, func(o *runOptions) { o.Seed = 18446744073709551615 }},
		{"out", []string{"--out", "runs/x"}, func(o *runOptions) { o.Out = "runs/x" }},
		{"packets none", []string{"--packets", "none"}, func(o *runOptions) { o.Packets = "none" }},
		{"packets all", []string{"--packets=all"}, func(o *runOptions) { o.Packets = "all" }},
		{"packets bad value parses (rejected when run)", []string{"--packets", "lots"}, func(o *runOptions) { o.Packets = "lots" }},
		{"config", []string{"--config", "run.yaml"}, func(o *runOptions) { o.Config = "run.yaml" }},
		{"json", []string{"--json"}, func(o *runOptions) { o.JSON = true }},
		{"stats", []string{"--stats"}, func(o *runOptions) { o.Stats = true }},
		{"max-time and check", []string{"--max-time", "10ms", "--check", "10us"},
			func(o *runOptions) { o.MaxTime, o.Check = "10ms", "10us" }},
		{"everything", []string{
			"--workload", smallWorkload, "--cca", "dcqcn:dolce", "--cca-param", "kmin=10KB", "--cca-param", "kmax=100KB",
			"--topology", "star:hosts=8", "--seed", "9", "--out", "o", "--packets", "all", "--config", "c.yaml",
			"--json", "--stats", "--max-time", "1ms", "--check", "5us", "--threads", "4",
		}, func(o *runOptions) {
			*o = runOptions{Flags: runconfig.Flags{
				Workload: smallWorkload, CCA: "dcqcn:dolce", CCAParams: []string{"kmin=10KB", "kmax=100KB"},
				Topology: "star:hosts=8", Seed: 9, Out: "o", Packets: "all", Config: "c.yaml",
				JSON: true, Stats: true, MaxTime: "1ms", Check: "5us", PPN: 1, Scale: 1, Threads: 4,
			}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := parseRun(t, tt.args...)
			if err != nil {
				t.Fatalf("parse %q: %v", tt.args, err)
			}
			want := defaults()
			tt.want(&want)
			got := *o
			got.f, got.ctx, got.Set = nil, nil, nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("parse %q:\n got %+v\nwant %+v", tt.args, got, want)
			}
			if o.ctx == nil {
				t.Errorf("parse %q: the options hold no context", tt.args)
			}
			for name := range o.Set {
				if !slices.ContainsFunc(tt.args, func(a string) bool { return a == "--"+name || strings.HasPrefix(a, "--"+name+"=") }) {
					t.Errorf("parse %q: o.Set names --%s, which was not given", tt.args, name)
				}
			}
		})
	}
}

func TestParseRunFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string // substring of the error
	}{
		{[]string{"--bogus"}, "unknown flag: --bogus"},
		{[]string{"--seed", "-1"}, `--seed: "-1" is not a whole number >= 0`},
		{[]string{"--seed", "abc"}, `--seed: "abc" is not a whole number >= 0`},
		{[]string{"--cca"}, "flag needs an argument"},
		{[]string{"--json=maybe"}, `--json: "maybe" is not true or false`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := parseRun(t, tt.args...)
			if err == nil {
				t.Fatalf("parse %q: no error", tt.args)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("parse %q: error %q, want it to contain %q", tt.args, err, tt.want)
			}
			if code := exitCode(err); code != ExitUsage {
				t.Errorf("parse %q: exit %d, want %d", tt.args, code, ExitUsage)
			}
		})
	}
}

// TestRunFlagsDocumented checks that every flag README.md's synopsis lists
// exists, with the documented default.
func TestRunFlagsDocumented(t *testing.T) {
	root := newRootCmd(&Factory{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	c, _, err := root.Find([]string{"run"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"trace": "", "workload": "", "cca": "dcqcn", "cca-param": "[]", "topology": "", "seed": "1",
		"out": "out", "packets": "data", "config": "", "json": "false", "max-time": "", "check": "", "stats": "false",
	}
	var names []string
	c.Flags().VisitAll(func(f *pflagFlag) { names = append(names, f.Name) })
	for name, def := range want {
		f := c.Flags().Lookup(name)
		if f == nil {
			t.Errorf("run has no --%s flag (flags: %v)", name, names)
			continue
		}
		if f.DefValue != def {
			t.Errorf("--%s default %q, want %q", name, f.DefValue, def)
		}
	}
	if !slices.Contains(names, "cca-param") || c.Flags().Lookup("cca-param").Value.Type() != "stringArray" {
		t.Errorf("--cca-param must be a repeatable string array (values may hold commas)")
	}
}

// TestParseCompareFlags parses `ccreplay compare` through the root command
// with a runF and checks the options and the flags it records as given.
func TestParseCompareFlags(t *testing.T) {
	f := &Factory{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	root := newRootCmd(f)
	for _, c := range root.Commands() {
		if c.Name() == "compare" {
			root.RemoveCommand(c)
		}
	}
	var got *compareOptions
	root.AddCommand(NewCmdCompare(f, func(o *compareOptions) error { got = o; return nil }))
	root.SetArgs([]string{"compare", "--workload", smallWorkload, "--cca", "dcqcn,dolce", "--seeds", "1..3", "--same-network", "-j", "2"})
	err := root.Execute()
	if err == nil || exitCode(err) != ExitUsage || got != nil {
		t.Fatalf("-j is no flag of compare: err %v, runF called %v", err, got != nil)
	}
	root.SetArgs([]string{"compare", "--workload", smallWorkload, "--cca", "dcqcn,dolce", "--seeds", "1..3", "--same-network", "--parallel", "2"})
	if err := root.Execute(); err != nil || got == nil {
		t.Fatalf("parse: %v (runF called: %v)", err, got != nil)
	}
	if got.CCAs != "dcqcn,dolce" || got.Seeds != "1..3" || got.Parallel != 2 || got.SameNetwork != " " || got.Out != "compare" || got.Packets != "none" {
		t.Errorf("parsed %+v", *got)
	}
	for _, name := range []string{"workload", "cca", "seeds", "same-network", "parallel"} {
		if !got.Set[name] {
			t.Errorf("--%s given but not recorded in set %v", name, got.Set)
		}
	}
	if got.Set["out"] || got.f != f || got.ctx == nil {
		t.Errorf("set %v, factory injected %v, context %v", got.Set, got.f == f, got.ctx)
	}
}
