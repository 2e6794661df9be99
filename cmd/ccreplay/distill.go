package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/rl/distill"
	"github.com/ccreplay/ccreplay/rl/eval"
	"github.com/ccreplay/ccreplay/rl/gbt"
	"github.com/ccreplay/ccreplay/runfolder"
)

func init() { registerCommand(newDistillCmd) }

// Files `ccreplay distill rlcc` writes into its output folder.
const (
	distillPolicyFile = runfolder.PolicyFile
	distillReportFile = runfolder.DistillFile
)

// distillOptions are `ccreplay distill rlcc`'s flags.
type distillOptions struct {
	f            *Factory
	ctx          context.Context // the command's (set when it runs)
	Teacher      string
	Seed         uint64
	Out          string
	Force        bool
	Trees, Depth int
	LR, Lambda   float64
	MinLeaf      int
	Flows        string
	Duration     string
	Latency      string
	EvalFlows    string
	EvalDuration string
	Lossy        bool
	Buffer       string
	Rounds       int
	StartMin     float64
	Monotone     string
	Select       string
	JSON         bool
}

func newDistillCmd(s *streams) *cobra.Command {
	return learnerGroupCmd("distill", "Distil a learned congestion controller into small trees", "distil", NewCmdDistillRLCC(s, nil))
}

// NewCmdDistillRLCC is `ccreplay distill rlcc`; runF, when not nil, is
// called with the parsed options instead of running (tests).
func NewCmdDistillRLCC(f *Factory, runF func(*distillOptions) error) *cobra.Command {
	o := &distillOptions{f: f}
	c := &cobra.Command{
		Use:   "rlcc --teacher FILE -o DIR",
		Short: "Distil an RL-CC policy into <= 10 gradient-boosted trees of depth <= 4 (RL-CC-NIC, Fuhrer 2023, Section V-C)",
		Long: `Replays many-to-one scenarios with the teacher policy in control, records every
decision's (observation, action) pair, fits gradient-boosted regression trees
(at most 10 trees of depth at most 4, RL-CC-NIC (Fuhrer 2023), Section V-C) to the teacher's
actions, then (--rounds) replays again with the student in control, labels the
states it visits with the teacher's actions and refits on everything gathered
(DAgger). Reports the student's RMSE on pairs from held-out runs, with the
teacher and with the student in control. Then, as
RL-CC-NIC (Fuhrer 2023), Table III does, it replays teacher and student on many-to-one 64,
512 and 2048 flows with the same 2 us decision latency and prints goodput
(normalised to line rate) and latency (us) for both.

Writes DIR/` + runfolder.PolicyFile + ` (a "trees" policy: load it with --cca rlcc --cca-param
policy=DIR/` + runfolder.PolicyFile + `) and DIR/` + runfolder.DistillFile + ` (fit and comparison figures). The
same flags and seed give byte-identical files. --teacher default distils the
embedded default policy.`,
		Example: `  # a quick distillation of the embedded MLP teacher (under a second), then a replay
  ccreplay distill rlcc --teacher teacher --flows 2,4,8 --rounds 2 --duration 2ms --eval-flows none --select-flows none -o student
  ccreplay run --workload incast:n=8,size=2MB --cca rlcc --cca-param policy=student/` + runfolder.PolicyFile + ` --out runs/student

  # the shipped trees' recipe, with the teacher/student comparison of RL-CC-NIC (Fuhrer 2023), Table III
  ccreplay distill rlcc --teacher teacher --seed 3 --trees 6 --depth 3 -o student-full --eval-flows 64 --json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ctx = commandContext(cmd)
			if runF != nil {
				return runF(o)
			}
			return distillRun(o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.Teacher, "teacher", "", `teacher policy file (any file --cca-param policy= loads), or "teacher" / "default" for the embedded MLP teacher / default trees`)
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the collection runs (ECN draws, start jitter)")
	fl.StringVarP(&o.Out, "out", "o", "", "output folder for "+runfolder.PolicyFile+" and "+runfolder.DistillFile)
	oldOutputFlag(fl, &o.Out)
	fl.BoolVar(&o.Force, "force", false, "replace a previous training or distillation folder at -o")
	fl.IntVar(&o.Trees, "trees", distill.MaxTrees, "boosting rounds (trees), at most 10")
	fl.IntVar(&o.Depth, "depth", distill.MaxDepth, "maximum tree depth, at most 4")
	fl.Float64Var(&o.LR, "learning-rate", distill.DefaultParams().LearningRate, "shrinkage of each tree, in (0, 1]")
	fl.Float64Var(&o.Lambda, "lambda", gbt.DefaultParams().Lambda, "L2 penalty on leaf values (>= 0)")
	fl.IntVar(&o.MinLeaf, "min-leaf", gbt.DefaultParams().MinLeaf, "minimum number of pairs in a leaf")
	fl.StringVar(&o.Flows, "flows", "2,4,8,16,32,64,128", "many-to-one flow counts the teacher is replayed on (comma-separated)")
	fl.StringVar(&o.Duration, "duration", "10ms", "simulated time of each collection run")
	fl.StringVar(&o.Latency, "latency", "2us", "decision latency of teacher and student, collecting and evaluating (RL-CC-NIC, Fuhrer 2023, Table III: 2 us)")
	fl.StringVar(&o.EvalFlows, "eval-flows", "64,512,2048", `flow counts of the teacher/student comparison (RL-CC-NIC, Fuhrer 2023, Table III), or "none"`)
	fl.StringVar(&o.EvalDuration, "eval-duration", "10ms", "simulated time of each comparison run (measured over its second half)")
	fl.BoolVar(&o.Lossy, "lossy", false, "compare on a lossy fabric (PFC off) instead of a lossless one")
	fl.StringVar(&o.Buffer, "buffer", "5MB", "switch shared buffer of the collection and comparison runs (RL-CC, Tessler 2022, Fig. 3: 5 MB)")
	fl.IntVar(&o.Rounds, "rounds", 10, "collection rounds: the first with the teacher in control, each later one with the student fitted so far (DAgger), all labelled by the teacher")
	fl.Float64Var(&o.StartMin, "start-min", distill.DefaultStartMin, "start each collection flow at a rate drawn log-uniformly from [start-min, 1] x line rate (1: line rate)")
	fl.StringVar(&o.Monotone, "monotone", "none", `monotone constraints of the trees, FEATURE=-1 (action never rises with it) or =1, comma-separated, or "none"`)
	fl.StringVar(&o.Select, "select-flows", "24,48,96,192", `keep the round's student whose smallest many-to-one FR over these flow counts is highest (comma-separated), or "none" for the last round's`)
	fl.BoolVar(&o.JSON, "json", false, "print "+runfolder.DistillFile+" to stdout instead of the text summary")
	return c
}

func (o *distillOptions) options() (distill.Options, []int, eval.Options, error) {
	var d distill.Options
	var e eval.Options
	if err := o.check(); err != nil {
		return d, nil, e, err
	}
	flows, err := parseFlowList("flows", o.Flows, false)
	if err != nil {
		return d, nil, e, err
	}
	evalFlows, err := parseFlowList("eval-flows", o.EvalFlows, true)
	if err != nil {
		return d, nil, e, err
	}
	dur, err := parseDurationFlag("duration", o.Duration, false)
	if err != nil {
		return d, nil, e, err
	}
	edur, err := parseDurationFlag("eval-duration", o.EvalDuration, false)
	if err != nil {
		return d, nil, e, err
	}
	if d.Latency, err = parseDurationFlag("latency", o.Latency, true); err != nil {
		return d, nil, e, err
	}
	if d.Teacher, err = rlcc.Named(o.Teacher); err != nil {
		return d, nil, e, inputErrorf("--teacher: %v", err)
	}
	if err := o.more(&d); err != nil {
		return d, nil, e, err
	}
	d.Flows, d.Duration, d.Seed = flows, dur, o.Seed
	e = eval.Options{Duration: edur, Lossy: o.Lossy, Seed: o.Seed, BufferBytes: d.BufferBytes}
	return d, evalFlows, e, nil
}

// check checks the flags that need no parsing, in the order they are
// reported.
func (o *distillOptions) check() error {
	return firstUsageError(
		usageCheck{o.Out == "", "give the output folder: -o DIR"},
		usageCheck{o.Teacher == "", "give the teacher: --teacher FILE (or --teacher default)"},
		usageCheck{o.Trees < 1 || o.Trees > distill.MaxTrees, fmt.Sprintf("--trees: want 1..%d (RL-CC-NIC, Fuhrer 2023, Section V-C), got %d", distill.MaxTrees, o.Trees)},
		usageCheck{o.Depth < 1 || o.Depth > distill.MaxDepth, fmt.Sprintf("--depth: want 1..%d (RL-CC-NIC, Fuhrer 2023, Section V-C), got %d", distill.MaxDepth, o.Depth)},
		usageCheck{!(o.LR > 0 && o.LR <= 1), fmt.Sprintf("--learning-rate: want a value in (0, 1], got %v", o.LR)},
		usageCheck{!(o.Lambda >= 0), fmt.Sprintf("--lambda: want a value >= 0, got %v", o.Lambda)},
		usageCheck{o.MinLeaf < 1, fmt.Sprintf("--min-leaf: want at least 1, got %d", o.MinLeaf)},
		usageCheck{o.Rounds < 1 || o.Rounds > 20, fmt.Sprintf("--rounds: want 1..20, got %d", o.Rounds)},
		usageCheck{!(o.StartMin > 0 && o.StartMin <= 1), fmt.Sprintf("--start-min: want a fraction in (0, 1], got %v", o.StartMin)},
	)
}

// more sets the booster, the collection runs and the student's selection
// from their flags, and the provenance.
func (o *distillOptions) more(d *distill.Options) error {
	d.Params = gbt.Params{Trees: o.Trees, MaxDepth: o.Depth, LearningRate: o.LR, MinLeaf: o.MinLeaf, Lambda: o.Lambda}
	if d.Latency == 0 {
		d.Latency = -1 // distill.Options: negative is none, 0 the default
	}
	var err error
	if d.BufferBytes, err = parseBufferFlag(o.Buffer); err != nil {
		return err
	}
	if d.Params.Monotone, err = distill.ParseMonotone(o.Monotone); err != nil {
		return usageErrorf("--monotone: %v", err)
	}
	if d.SelectFlows, err = parseFlowList("select-flows", o.Select, true); err != nil {
		return err
	}
	teacherName := o.Teacher
	if teacherName != "default" && teacherName != "teacher" {
		teacherName = filepath.Base(teacherName)
	}
	d.Rounds, d.StartMin = o.Rounds, o.StartMin
	d.ProducedBy = fmt.Sprintf("ccreplay distill rlcc --teacher %s --seed %d --trees %d --depth %d --learning-rate %v --lambda %v --min-leaf %d --flows %s --duration %s --latency %s --rounds %d --start-min %v --buffer %s --monotone %s --select-flows %s",
		teacherName, o.Seed, o.Trees, o.Depth, o.LR, o.Lambda, o.MinLeaf, o.Flows, o.Duration, o.Latency, o.Rounds, o.StartMin, o.Buffer, o.Monotone, o.Select)
	return nil
}

// distillRun distils into -o, staged, compares teacher and student
// (Table III) and prints the report.
func distillRun(o *distillOptions) error {
	d, evalFlows, eo, err := o.options()
	if err != nil {
		return err
	}
	d.Context, eo.Context = o.ctx, o.ctx
	st, err := stageTraining(o.Out, o.Force)
	if err != nil {
		return err
	}
	defer st.Abort()
	if o.f.ErrIsTerminal {
		fmt.Fprintf(o.f.Err, "collecting the teacher's decisions on %s flows and fitting %d trees of depth %d ...\n", o.Flows, o.Trees, o.Depth)
	}
	res, err := distill.Distill(d)
	if errors.Is(err, context.Canceled) {
		return interrupted("%v; nothing written to %s", err, o.Out)
	}
	if err != nil {
		return err
	}
	rep := distill.NewReport(filepath.Join(o.Out, distillPolicyFile), o.Teacher, d, res)
	if len(evalFlows) > 0 {
		err := rep.CompareTableIII(d, evalFlows, eo, o.progress())
		if errors.Is(err, context.Canceled) {
			return interrupted("interrupted while evaluating the student; nothing written to %s", o.Out)
		}
		if err != nil {
			return err
		}
	}
	if err := output.WriteJSONAtomic(filepath.Join(st.Dir, distillPolicyFile), res.Student.File()); err != nil {
		return err
	}
	if err := output.WriteJSONAtomic(filepath.Join(st.Dir, distillReportFile), rep); err != nil {
		return err
	}
	if err := commitTraining(st, "distill rlcc", o.Seed); err != nil {
		return err
	}
	if o.JSON {
		enc := json.NewEncoder(o.f.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.WriteText(o.f.Out, filepath.Join(o.Out, distillReportFile), o.Buffer)
}

// progress prints each comparison run's figures on a terminal.
func (o *distillOptions) progress() func(eval.Result) {
	if !o.f.ErrIsTerminal {
		return nil
	}
	start := time.Now()
	return func(r eval.Result) {
		fmt.Fprintf(o.f.Err, "%s on %d to 1: GP %.2f latency %.2f us (%v)\n", r.Label, r.Flows, r.Goodput, r.Latency, time.Since(start).Round(time.Second))
	}
}
