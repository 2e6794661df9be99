package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/rl/train"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
	"github.com/ccreplay/ccreplay/version"
)

func init() { registerCommand(newTrainCmd) }

// trainOptions are `ccreplay train rlcc`'s flags.
type trainOptions struct {
	f        *Factory
	ctx      context.Context // the command's (set when it runs)
	Episodes int
	Seed     uint64
	Out      string
	Force    bool
	Flows    string
	Duration string
	Latency  string
	LR       float64
	StartMin float64
	Around   float64
	Penalty  float64
	Buffer   string
	Select   string
	SelectBy string
	Parallel int
	Every    int
	Init     string
	JSON     bool
}

func newTrainCmd(s *streams) *cobra.Command {
	return learnerGroupCmd("train", "Train a learned congestion controller in the replay", "train", NewCmdTrainRLCC(s, nil), NewCmdTrainFDCC(s, nil))
}

// NewCmdTrainRLCC is `ccreplay train rlcc`; runF, when not nil, is called
// with the parsed options instead of running (tests).
func NewCmdTrainRLCC(f *Factory, runF func(*trainOptions) error) *cobra.Command {
	o := &trainOptions{f: f}
	c := &cobra.Command{
		Use:   "rlcc -o DIR",
		Short: "Train the RL-CC policy (RL-CC, Tessler 2022, Eq. 3) on many-to-one 2 to 128 flows",
		Long: `Trains the RL-CC agent's MLP policy (7 features -> 12 -> 12 -> 1, ReLU, tanh)
with the on-policy deterministic policy gradient of RL-CC (Tessler 2022), Eq. 3,
and the reward of RL-CC-NIC (Fuhrer 2023), Eq. 1 (target 0.064, beta 1.5), plus
an action penalty --penalty (a-1)^2:
each iteration replays one many-to-one episode (2, 4, 8, 16, 32, 64 and 128
flows in turn, 100 Gb/s star, 5 MB buffer, flows starting at rates spread
from --start-min to 1 x line rate), every flow acting with the same policy,
then takes one Adam ascent step (-j N: N episodes at once, one step on their
mean gradient). Every --select-every iterations the policy plays held-out
scenarios (incasts of other sizes and flow counts with Gaussian start jitter,
staggered starts, a WebSearch mix on a small fat-tree; rl/heldout) and the
checkpoint with the best goodput and fairness together is kept: a scenario
scores min(goodput/0.85, min/max flow rate, 1), a checkpoint the mean
(DIR/` + runfolder.EvaluationText + ` has every checkpoint's table). RL-CC (Tessler 2022) trains on 2, 4 and 8 flows
(--flows 2,4,8); policies trained so did not reach the fair share at 128
flows here (docs/RLCC.md). Writes DIR/` + runfolder.PolicyFile + ` (load it with
--cca rlcc --cca-param policy=DIR/` + runfolder.PolicyFile + `) and DIR/` + runfolder.LearningFile + ` (one row
per iteration). The same flags and seed give byte-identical files.`,
		Example: `  # a short training run (seconds), then a replay under the policy it wrote
  ccreplay train rlcc --episodes 60 --seed 7 -o policy --json
  ccreplay run --workload incast:n=8,size=2MB --cca rlcc --cca-param policy=policy/` + runfolder.PolicyFile + ` --out runs/rlcc

  # the recipe of the shipped policy (all defaults; about an hour on two cores)
  ccreplay train rlcc -o policy-full`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ctx = commandContext(cmd)
			if runF != nil {
				return runF(o)
			}
			return trainRLCCRun(o)
		},
	}
	fl := c.Flags()
	fl.IntVar(&o.Episodes, "episodes", 1400, "training iterations (one episode and one gradient step each)")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the network's initialisation and of every episode")
	fl.StringVarP(&o.Out, "out", "o", "", "output folder for "+runfolder.PolicyFile+" and "+runfolder.LearningFile)
	oldOutputFlag(fl, &o.Out)
	fl.BoolVar(&o.Force, "force", false, "replace a previous training or distillation folder at -o")
	fl.StringVar(&o.Flows, "flows", "2,4,8,16,32,64,128", "many-to-one flow counts, cycled episode by episode (comma-separated; RL-CC (Tessler 2022) trains on 2,4,8)")
	fl.StringVar(&o.Duration, "duration", "5ms", "simulated time of one episode")
	fl.StringVar(&o.Latency, "latency", "2us", "decision latency during training (RL-CC-NIC, Fuhrer 2023, Table III: 2 us)")
	fl.Float64Var(&o.LR, "lr", 0.01, "Adam step size")
	fl.Float64Var(&o.StartMin, "start-min", train.DefaultStartMin, "start each flow at a rate drawn log-uniformly from [start-min, 1] x line rate (1: every flow at line rate)")
	fl.Float64Var(&o.Around, "start-around", 0, "every other episode of each flow count, start the N flows spread over this many decades either side of the fair share 1/N instead (0: never)")
	fl.StringVar(&o.Buffer, "buffer", "5MB", "switch shared buffer during training (RL-CC, Tessler 2022, Fig. 3: 5 MB)")
	fl.Float64Var(&o.Penalty, "penalty", train.DefaultPenalty, "weight lambda of the action penalty -lambda (a - 1)^2 added to the reward of RL-CC-NIC (Fuhrer 2023) (0: none)")
	fl.StringVar(&o.Select, "select-flows", "24,96", `with --select-by fr: every --select-every iterations replay the policy on many-to-one with these flow counts and keep the checkpoint with the highest smallest FR (comma-separated), or "none" for the last iteration's policy`)
	fl.StringVar(&o.SelectBy, "select-by", "heldout", "how the kept checkpoint is chosen: heldout (the held-out scenarios of rl/heldout: goodput and fairness together; writes DIR/evaluation.json and .txt), fr (the smallest FR on --select-flows) or last (the last iteration's policy)")
	fl.IntVarP(&o.Parallel, "parallel", "j", 1, "episodes of one iteration replayed at once (one gradient step on their mean); the same -j and seed give the same policy")
	fl.IntVar(&o.Every, "select-every", 50, "checkpoint interval, iterations")
	fl.StringVar(&o.Init, "init", "", "start from this MLP policy file instead of a fresh network")
	fl.BoolVar(&o.JSON, "json", false, "print a JSON summary to stdout instead of the text one")
	return c
}

func (o *trainOptions) options() (train.Options, error) {
	var t train.Options
	if o.Out == "" {
		return t, usageErrorf("give the output folder: -o DIR")
	}
	if o.Episodes < 1 {
		return t, usageErrorf("--episodes: want at least 1, got %d", o.Episodes)
	}
	var err error
	if t.Flows, err = parseCounts("flows", o.Flows, "flow count", train.MaxFlows); err != nil {
		return t, err
	}
	if t.Duration, err = units.ParseDuration(o.Duration); err != nil || t.Duration <= 0 {
		return t, usageErrorf("--duration: want a positive time such as 5ms, got %q", o.Duration)
	}
	if t.Latency, err = units.ParseDuration(o.Latency); err != nil || t.Latency < 0 {
		return t, usageErrorf("--latency: want a time such as 2us, got %q", o.Latency)
	}
	if t.BufferBytes, err = units.ParseSize(o.Buffer); err != nil || t.BufferBytes <= 0 {
		return t, usageErrorf("--buffer: want a positive size such as 5MB, got %q", o.Buffer)
	}
	if err := o.check(); err != nil {
		return t, err
	}
	frFlows, err := parseFlowList("select-flows", o.Select, true)
	if err != nil {
		return t, err
	}
	switch o.SelectBy {
	case "heldout":
		t.Heldout = heldout.RLCC
	case "fr":
		t.SelectFlows = frFlows
	}
	if t.Latency == 0 {
		t.Latency = -1 // train.Options: negative is none, 0 the default
	}
	t.Episodes, t.Seed, t.LR, t.StartMin, t.StartAround = o.Episodes, o.Seed, o.LR, o.StartMin, o.Around
	t.Parallel, t.SelectEvery = o.Parallel, o.Every
	t.Objective = train.Objective{Target: reward.RLCCTarget, Beta: reward.RLCCBeta, Clip: train.DefaultClip, Penalty: o.Penalty}
	if err := o.init(&t); err != nil {
		return t, err
	}
	t.ProducedBy = fmt.Sprintf("ccreplay train rlcc --episodes %d --seed %d --flows %s --duration %s --latency %s --lr %v --start-min %v --start-around %v --buffer %s --penalty %v --select-by %s --select-flows %s --select-every %d -j %d",
		o.Episodes, o.Seed, o.Flows, o.Duration, o.Latency, o.LR, o.StartMin, o.Around, o.Buffer, o.Penalty, o.SelectBy, o.Select, o.Every, o.Parallel)
	if o.Init != "" {
		t.ProducedBy += " --init " + filepath.Base(o.Init)
	}
	return t, nil
}

// check checks the numeric and named flags, in the order they are
// reported.
func (o *trainOptions) check() error {
	return firstUsageError(
		usageCheck{!(o.LR > 0) || o.LR > 1, fmt.Sprintf("--lr: want a step size in (0, 1], got %v", o.LR)},
		usageCheck{!(o.StartMin > 0 && o.StartMin <= 1), fmt.Sprintf("--start-min: want a fraction in (0, 1], got %v", o.StartMin)},
		usageCheck{!(o.Penalty >= 0) || o.Penalty > 100, fmt.Sprintf("--penalty: want a weight in [0, 100], got %v", o.Penalty)},
		usageCheck{!(o.Around >= 0 && o.Around <= 4), fmt.Sprintf("--start-around: want 0 to 4 decades, got %v", o.Around)},
		usageCheck{o.SelectBy != "heldout" && o.SelectBy != "fr" && o.SelectBy != "last", fmt.Sprintf("--select-by: want heldout, fr or last, got %q", o.SelectBy)},
		usageCheck{o.Parallel < 1 || o.Parallel > 256, fmt.Sprintf("--parallel: want 1..256 episodes at once, got %d", o.Parallel)},
		usageCheck{o.Every < 1, fmt.Sprintf("--select-every: want at least 1 iteration, got %d", o.Every)},
	)
}

// init sets the network --init starts from (an MLP policy file).
func (o *trainOptions) init(t *train.Options) error {
	if o.Init == "" {
		return nil
	}
	p, err := rlcc.LoadFile(o.Init)
	if err != nil {
		return inputErrorf("--init: %v", err)
	}
	if p.Kind != rlcc.KindMLP {
		return inputErrorf("--init %s: a %s policy; training needs an mlp", o.Init, p.Kind)
	}
	t.Init, t.AMin, t.AMax = p.MLP, p.AMin, p.AMax
	return nil
}

// trainRLCCRun trains into -o, staged, and prints the summary.
func trainRLCCRun(o *trainOptions) error {
	t, err := o.options()
	if err != nil {
		return err
	}
	t.Context = o.ctx
	st, err := stageTraining(o.Out, o.Force)
	if err != nil {
		return err
	}
	defer st.Abort()
	prog := o.f.newProgressLine()
	if prog != nil {
		t.Progress = func(r v2.LearningRow) {
			prog.set(fmt.Sprintf("episode %d/%d  %-16s reward %9.4f  utilization %.3f  rtt inflation %6.3f",
				r.Episode+1, t.Episodes, r.Scenario, r.MeanReward, r.Utilization, r.MeanRTTInflation))
		}
	}
	res, err := train.Train(t)
	prog.clear()
	if errors.Is(err, context.Canceled) {
		return interrupted("%v; nothing written to %s", err, o.Out)
	}
	if err != nil {
		return err
	}
	if err := train.WriteOutputs(st.Dir, res); err != nil {
		return err
	}
	if err := commitTraining(st, "train rlcc", t.Seed); err != nil {
		return err
	}
	sum := train.Summarize(o.Out, t, res)
	if o.JSON {
		return writeJSON(o.f, sum)
	}
	return sum.WriteText(o.f.Out)
}

// stageTraining checks that out may be written (new, empty, or with force
// a previous ccreplay training folder) and stages it, before the training
// starts: a refusal costs no training time.
func stageTraining(out string, force bool) (*runfolder.Staged, error) {
	st, err := runfolder.Stage(out, runfolder.StageOptions{Force: force, Flag: "-o"})
	if errors.Is(err, runfolder.ErrRefused) {
		return nil, clierr.Usage(err)
	}
	return st, err
}

// commitTraining writes the staged folder's manifest (training.json, its
// files listed) and moves the folder into place.
func commitTraining(st *runfolder.Staged, command string, seed uint64) error {
	ents, err := os.ReadDir(st.Dir)
	if err != nil {
		return err
	}
	m := runfolder.Training{Tool: "ccreplay " + version.Version, Command: command, Seed: seed}
	for _, e := range ents {
		m.Files = append(m.Files, e.Name())
	}
	m.Files = append(m.Files, runfolder.TrainingFile)
	if err := runfolder.WriteTraining(st.Dir, &m); err != nil {
		return err
	}
	return st.Commit()
}
