package main

import (
	"bytes"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/spf13/cobra"
)

// runOptionsOf recovers the *runOptions that newRunCmd bound its flags to.
//
// newRunCmd keeps its options struct in the RunE closure. pflag's scalar
// flag values are the bound variable itself (a *string is converted to
// *stringValue), so the address of o.Trace is the "trace" flag's Value; the
// struct starts Offsetof(Trace) bytes before it. Every other scalar flag's
// Value is then checked to be the address of its field, so a change of
// binding fails here with a clear message rather than reading garbage.
//
// (If newRunCmd grows a runF hook like the GitHub CLI's NewCmd* functions,
// this helper can go.)
func runOptionsOf(t *testing.T, c *cobra.Command) *runOptions {
	t.Helper()
	addr := func(name string) unsafe.Pointer {
		f := c.Flags().Lookup(name)
		if f == nil {
			t.Fatalf("run has no --%s flag", name)
		}
		v := reflect.ValueOf(f.Value)
		if v.Kind() != reflect.Pointer {
			t.Fatalf("--%s: flag value is a %s, not a pointer", name, v.Kind())
		}
		return v.UnsafePointer()
	}
	o := (*runOptions)(unsafe.Add(addr("trace"), -int(unsafe.Offsetof(runOptions{}.Trace))))
	for name, field := range map[string]unsafe.Pointer{
		"trace":    unsafe.Pointer(&o.Trace),
		"workload": unsafe.Pointer(&o.Workload),
		"cca":      unsafe.Pointer(&o.CCA),
		"topology": unsafe.Pointer(&o.Topology),
		"seed":     unsafe.Pointer(&o.Seed),
		"out":      unsafe.Pointer(&o.Out),
		"packets":  unsafe.Pointer(&o.Packets),
		"config":   unsafe.Pointer(&o.Config),
		"json":     unsafe.Pointer(&o.JSON),
		"max-time": unsafe.Pointer(&o.MaxTime),
		"check":    unsafe.Pointer(&o.Check),
		"stats":    unsafe.Pointer(&o.Stats),
	} {
		if addr(name) != field {
			t.Fatalf("--%s is not bound to its runOptions field", name)
		}
	}
	return o
}

// parseRun finds `run` under the root command and parses args into its
// options without running anything.
func parseRun(t *testing.T, args ...string) (*runOptions, error) {
	t.Helper()
	s := &streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	root := newRootCmd(s)
	c, rest, err := root.Find(append([]string{"run"}, args...))
	if err != nil {
		t.Fatalf("find run: %v", err)
	}
	if c.Name() != "run" {
		t.Fatalf("found %q, want run", c.Name())
	}
	o := runOptionsOf(t, c)
	if o.s != s {
		t.Fatalf("run options do not hold the injected streams")
	}
	return o, c.ParseFlags(rest)
}

func TestParseRunFlags(t *testing.T) {
	// defaults is what `ccreplay run` with no flags parses to.
	defaults := func() runOptions {
		return runOptions{CCA: "dcqcn", Seed: 1, Out: "out", Packets: "data", PPN: 1, Scale: 1, Threads: runtime.NumCPU()}
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
			*o = runOptions{
				Workload: smallWorkload, CCA: "dcqcn:dolce", CCAParams: []string{"kmin=10KB", "kmax=100KB"},
				Topology: "star:hosts=8", Seed: 9, Out: "o", Packets: "all", Config: "c.yaml",
				JSON: true, Stats: true, MaxTime: "1ms", Check: "5us", PPN: 1, Scale: 1, Threads: 4,
			}
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
			got.s, got.set = nil, nil
			if !reflect.DeepEqual(got, want) {
				t.Errorf("parse %q:\n got %+v\nwant %+v", tt.args, got, want)
			}
			if o.set != nil {
				t.Errorf("parsing alone filled o.set = %v; it is meant to be filled when run", o.set)
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
		{[]string{"--seed", "-1"}, `invalid argument "-1" for "--seed"`},
		{[]string{"--seed", "abc"}, `invalid argument "abc" for "--seed"`},
		{[]string{"--cca"}, "flag needs an argument"},
		{[]string{"--json=maybe"}, `invalid argument "maybe" for "--json"`},
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
		})
	}
}

// TestRunFlagsDocumented checks that every flag README.md's synopsis lists
// exists, with the documented default.
func TestRunFlagsDocumented(t *testing.T) {
	root := newRootCmd(&streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
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
