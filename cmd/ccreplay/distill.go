package main

import (
	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/rl/cli"
	"github.com/ccreplay/ccreplay/rl/distill"
	"github.com/ccreplay/ccreplay/rl/gbt"
	"github.com/ccreplay/ccreplay/runfolder"
)

func init() { registerCommand(newDistillCmd) }

// distillOptions are `ccreplay distill rlcc`'s flags (cli.Distill).
type distillOptions struct {
	learnBase
	cli.Distill
}

func newDistillCmd(s *Factory) *cobra.Command {
	return learnerGroupCmd("distill", "Distil a learned congestion controller into small trees", "distil", NewCmdDistillRLCC(s, nil))
}

// NewCmdDistillRLCC is `ccreplay distill rlcc`; runF, when not nil, is
// called with the parsed options instead of running (tests).
func NewCmdDistillRLCC(f *Factory, runF func(*distillOptions) error) *cobra.Command {
	o := &distillOptions{learnBase: learnBase{f: f}}
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
		RunE: learnRunE(&o.learnBase, o, runF),
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
	fl.StringVar(&o.Augment, "augment-rates", "none", `add to every fitted pair copies with rate_frac and prev_rate_frac times each of these factors (comma-separated), labelled by the teacher, or "none"`)
	fl.StringVar(&o.Select, "select-flows", "24,48,96,192", `keep the round's student whose smallest many-to-one FR over these flow counts is highest (comma-separated), or "none" for the last round's`)
	fl.BoolVar(&o.KeepRounds, "keep-rounds", false, "also write every round's student, kept or not, to DIR/"+cli.RoundsDir+"/round-NN.json (NN from 00), for a selection of your own")
	fl.BoolVar(&o.JSON, "json", false, "print "+runfolder.DistillFile+" to stdout instead of the text summary")
	return c
}
