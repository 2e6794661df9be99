package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/rl/cli"
	"github.com/ccreplay/ccreplay/units"
)

// parseCmd runs the root command on args with the command at path (e.g.
// "train", "fdcc") replaced by mk(f, runF), where runF keeps the parsed
// options and runs nothing; it returns them, or the command's error.
func parseCmd[T any](t *testing.T, path []string, mk func(*Factory, func(*T) error) *cobra.Command, args ...string) (*T, error) {
	t.Helper()
	f := &Factory{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	root := newRootCmd(f)
	parent := root
	for _, name := range path[:len(path)-1] {
		for _, c := range parent.Commands() {
			if c.Name() == name {
				parent = c
			}
		}
	}
	for _, c := range parent.Commands() {
		if c.Name() == path[len(path)-1] {
			parent.RemoveCommand(c)
		}
	}
	var got *T
	parent.AddCommand(mk(f, func(o *T) error { got = o; return nil }))
	root.SetArgs(append(append([]string{}, path...), args...))
	if err := root.Execute(); err != nil {
		return nil, err
	}
	if got == nil {
		t.Fatalf("%v %q: runF was not called", path, args)
	}
	return got, nil
}

// The learning commands' flags parse into their options, defaults
// included, without training or evaluating anything.
func TestParseLearnerFlags(t *testing.T) {
	fd, err := parseCmd(t, []string{"train", "fdcc"}, NewCmdTrainFDCC, "-o", "x", "--curriculum", "2,4", "--nstep", "3", "-j", "2")
	if err != nil {
		t.Fatal(err)
	}
	if fd.f == nil || fd.ctx == nil || fd.Out != "x" || fd.Curriculum != "2,4" || fd.NStep != 3 || fd.Parallel != 2 ||
		fd.PerStage != 10000 || fd.SelectBy != "heldout" || fd.ScoreSeeds != "1000001..1000002" {
		t.Errorf("train fdcc: %+v", *fd)
	}
	opts, err := fd.Options()
	if err != nil || len(opts.Curriculum) != 2 || opts.NStep != 3 || len(opts.Heldout) == 0 || len(opts.TD3.HeadHidden) != 2 {
		t.Errorf("train fdcc options %+v, %v", opts, err)
	}
	tr, err := parseCmd(t, []string{"train", "rlcc"}, NewCmdTrainRLCC, "-o", "x", "--flows", "2,4", "--select-by", "fr", "--select-flows", "24")
	if err != nil {
		t.Fatal(err)
	}
	if tr.f == nil || tr.ctx == nil || tr.Episodes != 1400 || tr.Flows != "2,4" || tr.SelectBy != "fr" {
		t.Errorf("train rlcc: %+v", *tr)
	}
	if topts, err := tr.Options(); err != nil || len(topts.Flows) != 2 || len(topts.SelectFlows) != 1 || topts.Heldout != nil || topts.Latency != 2*units.Microsecond {
		t.Errorf("train rlcc options %+v, %v", topts, err)
	}
	di, err := parseCmd(t, []string{"distill", "rlcc"}, NewCmdDistillRLCC, "-o", "x", "--teacher", "teacher", "--latency", "0", "--monotone", "none")
	if err != nil {
		t.Fatal(err)
	}
	if dopts, evalFlows, eo, err := di.Options(); err != nil || dopts.Latency != -1 || dopts.Teacher == nil || len(evalFlows) != 3 || eo.BufferBytes != dopts.BufferBytes {
		t.Errorf("distill rlcc options %+v %v %+v, %v", dopts, evalFlows, eo, err)
	}
	ev, err := parseCmd(t, []string{"eval", "rlcc"}, NewCmdEvalRLCC, "--flows", "4", "--lossy", "--baselines", "none")
	if err != nil {
		t.Fatal(err)
	}
	if ev.f == nil || ev.Flows != "4" || !ev.Lossy || ev.Baselines != "none" || ev.Policy != "default" || ev.Buffer != "5MB" {
		t.Errorf("eval rlcc: %+v", *ev)
	}
	ho, err := parseCmd(t, []string{"eval", "heldout"}, NewCmdEvalHeldout, "--set", "rlcc", "--policy", "teacher", "-j", "1", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if ho.f == nil || ho.Set != "rlcc" || ho.Policy != "teacher" || ho.Parallel != 1 || !ho.JSON || ho.Baselines != "dcqcn,hpcc" {
		t.Errorf("eval heldout: %+v", *ho)
	}
	if _, _, err := ho.Learned(); err != nil {
		t.Errorf("eval heldout --set rlcc --policy teacher: %v", err)
	}
	if specs, err := cli.BaselineSpecs(ho.f.registry(), "dcqcn, hpcc"); err != nil || len(specs) != 2 {
		t.Errorf("baselines: %v, %v", specs, err)
	}
	if _, err := cli.BaselineSpecs(ho.f.registry(), "nope"); err == nil || !strings.Contains(err.Error(), "--baselines") {
		t.Errorf("an unknown baseline: %v", err)
	}
}
