package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/rl/train"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

func init() { registerCommand(newTrainCmd) }

// trainOptions are `ccreplay train rlcc`'s flags.
type trainOptions struct {
	s        *streams
	Episodes int
	Seed     uint64
	Out      string
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
	return learnerGroupCmd("train", "Train a learned congestion controller in the replay", "train", newTrainRLCCCmd(s), NewCmdTrainFDCC(s, nil))
}

func newTrainRLCCCmd(s *streams) *cobra.Command {
	o := &trainOptions{s: s}
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
(DIR/evaluation.txt has every checkpoint's table). RL-CC (Tessler 2022) trains on 2, 4 and 8 flows
(--flows 2,4,8); policies trained so did not reach the fair share at 128
flows here (docs/RLCC.md). Writes DIR/policy.json (load it with
--cca rlcc --cca-param policy=DIR/policy.json) and DIR/learning.parquet (one row
per iteration). The same flags and seed give byte-identical files.`,
		Example: `  # a short training run (seconds), then a replay under the policy it wrote
  ccreplay train rlcc --episodes 60 --seed 7 -o policy --json
  ccreplay run --workload incast:n=8,size=2MB --cca rlcc --cca-param policy=policy/policy.json --out runs/rlcc

  # the recipe of the shipped policy (all defaults; about an hour on two cores)
  ccreplay train rlcc -o policy-full`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context()) },
	}
	f := c.Flags()
	f.IntVar(&o.Episodes, "episodes", 1400, "training iterations (one episode and one gradient step each)")
	f.Uint64Var(&o.Seed, "seed", 1, "seed of the network's initialisation and of every episode")
	f.StringVarP(&o.Out, "out", "o", "", "output folder for policy.json and learning.parquet")
	oldOutputFlag(f, &o.Out)
	f.StringVar(&o.Flows, "flows", "2,4,8,16,32,64,128", "many-to-one flow counts, cycled episode by episode (comma-separated; RL-CC (Tessler 2022) trains on 2,4,8)")
	f.StringVar(&o.Duration, "duration", "5ms", "simulated time of one episode")
	f.StringVar(&o.Latency, "latency", "2us", "decision latency during training (RL-CC-NIC, Fuhrer 2023, Table III: 2 us)")
	f.Float64Var(&o.LR, "lr", 0.01, "Adam step size")
	f.Float64Var(&o.StartMin, "start-min", train.DefaultStartMin, "start each flow at a rate drawn log-uniformly from [start-min, 1] x line rate (1: every flow at line rate)")
	f.Float64Var(&o.Around, "start-around", 0, "every other episode of each flow count, start the N flows spread over this many decades either side of the fair share 1/N instead (0: never)")
	f.StringVar(&o.Buffer, "buffer", "5MB", "switch shared buffer during training (RL-CC, Tessler 2022, Fig. 3: 5 MB)")
	f.Float64Var(&o.Penalty, "penalty", train.DefaultPenalty, "weight lambda of the action penalty -lambda (a - 1)^2 added to the reward of RL-CC-NIC (Fuhrer 2023) (0: none)")
	f.StringVar(&o.Select, "select-flows", "24,96", `with --select-by fr: every --select-every iterations replay the policy on many-to-one with these flow counts and keep the checkpoint with the highest smallest FR (comma-separated), or "none" for the last iteration's policy`)
	f.StringVar(&o.SelectBy, "select-by", "heldout", "how the kept checkpoint is chosen: heldout (the held-out scenarios of rl/heldout: goodput and fairness together; writes DIR/evaluation.json and .txt), fr (the smallest FR on --select-flows) or last (the last iteration's policy)")
	f.IntVarP(&o.Parallel, "parallel", "j", 1, "episodes of one iteration replayed at once (one gradient step on their mean); the same -j and seed give the same policy")
	f.IntVar(&o.Every, "select-every", 50, "checkpoint interval, iterations")
	f.StringVar(&o.Init, "init", "", "start from this MLP policy file instead of a fresh network")
	f.BoolVar(&o.JSON, "json", false, "print a JSON summary to stdout instead of the text one")
	return c
}

// trainSummary is `--json` output.
type trainSummary struct {
	Policy     string           `json:"policy"`
	Learning   string           `json:"learning"`
	Episodes   int              `json:"episodes"`
	Seed       uint64           `json:"seed"`
	ProducedBy string           `json:"produced_by"`
	First      v2.LearningRow   `json:"first"`
	Last       v2.LearningRow   `json:"last"`
	LastByN    []v2.LearningRow `json:"last_by_flows"`
	// Checkpoints and Selected: the --select-flows checks and the index of
	// the kept one.
	Checkpoints []train.Checkpoint `json:"checkpoints,omitempty"`
	Selected    int                `json:"selected"`
}

func (o *trainOptions) options() (train.Options, error) {
	var t train.Options
	if o.Out == "" {
		return t, usageErrorf("give the output folder: -o DIR")
	}
	if o.Episodes < 1 {
		return t, usageErrorf("--episodes: want at least 1, got %d", o.Episodes)
	}
	for _, p := range strings.Split(o.Flows, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 1024 {
			return t, usageErrorf("--flows: %q is not a flow count in 1..1024", p)
		}
		t.Flows = append(t.Flows, n)
	}
	d, err := units.ParseDuration(o.Duration)
	if err != nil || d <= 0 {
		return t, usageErrorf("--duration: want a positive time such as 5ms, got %q", o.Duration)
	}
	lat, err := units.ParseDuration(o.Latency)
	if err != nil || lat < 0 {
		return t, usageErrorf("--latency: want a time such as 2us, got %q", o.Latency)
	}
	if !(o.LR > 0) || o.LR > 1 {
		return t, usageErrorf("--lr: want a step size in (0, 1], got %v", o.LR)
	}
	if !(o.StartMin > 0 && o.StartMin <= 1) {
		return t, usageErrorf("--start-min: want a fraction in (0, 1], got %v", o.StartMin)
	}
	buf, err := units.ParseSize(o.Buffer)
	if err != nil || buf <= 0 {
		return t, usageErrorf("--buffer: want a positive size such as 5MB, got %q", o.Buffer)
	}
	t.Episodes, t.Seed, t.Duration, t.LR = o.Episodes, o.Seed, d, o.LR
	if !(o.Penalty >= 0) || o.Penalty > 100 {
		return t, usageErrorf("--penalty: want a weight in [0, 100], got %v", o.Penalty)
	}
	if !(o.Around >= 0 && o.Around <= 4) {
		return t, usageErrorf("--start-around: want 0 to 4 decades, got %v", o.Around)
	}
	t.StartMin, t.StartAround, t.BufferBytes = o.StartMin, o.Around, buf
	frFlows, err := parseFlowList("select-flows", o.Select, true)
	if err != nil {
		return t, err
	}
	switch o.SelectBy {
	case "heldout":
		t.Heldout = heldout.RLCC
	case "fr":
		t.SelectFlows = frFlows
	case "last":
	default:
		return t, usageErrorf("--select-by: want heldout, fr or last, got %q", o.SelectBy)
	}
	if o.Parallel < 1 || o.Parallel > 256 {
		return t, usageErrorf("--parallel: want 1..256 episodes at once, got %d", o.Parallel)
	}
	t.Parallel = o.Parallel
	if o.Every < 1 {
		return t, usageErrorf("--select-every: want at least 1 iteration, got %d", o.Every)
	}
	t.SelectEvery = o.Every
	t.Objective = train.Objective{Target: reward.RLCCTarget, Beta: reward.RLCCBeta, Clip: train.DefaultClip, Penalty: o.Penalty}
	t.Latency = lat
	if lat == 0 {
		t.Latency = -1 // train.Options: negative is none, 0 the default
	}
	if o.Init != "" {
		p, err := rlcc.LoadFile(o.Init)
		if err != nil {
			return t, inputErrorf("--init: %v", err)
		}
		if p.Kind != rlcc.KindMLP {
			return t, inputErrorf("--init %s: a %s policy; training needs an mlp", o.Init, p.Kind)
		}
		t.Init, t.AMin, t.AMax = p.MLP, p.AMin, p.AMax
	}
	t.ProducedBy = fmt.Sprintf("ccreplay train rlcc --episodes %d --seed %d --flows %s --duration %s --latency %s --lr %v --start-min %v --start-around %v --buffer %s --penalty %v --select-by %s --select-flows %s --select-every %d -j %d",
		o.Episodes, o.Seed, o.Flows, o.Duration, o.Latency, o.LR, o.StartMin, o.Around, o.Buffer, o.Penalty, o.SelectBy, o.Select, o.Every, o.Parallel)
	if o.Init != "" {
		t.ProducedBy += " --init " + filepath.Base(o.Init)
	}
	return t, nil
}

func (o *trainOptions) run(ctx context.Context) error {
	t, err := o.options()
	if err != nil {
		return err
	}
	t.Context = ctx
	prog := o.s.newProgressLine()
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
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return inputErrorf("output folder: %v", err)
	}
	if err := train.WriteOutputs(o.Out, res); err != nil {
		return err
	}
	sum := trainSummary{
		Policy: filepath.Join(o.Out, train.PolicyFile), Learning: filepath.Join(o.Out, train.LearningFile),
		Episodes: t.Episodes, Seed: t.Seed, ProducedBy: t.ProducedBy,
		First: res.Curve[0], Last: res.Curve[len(res.Curve)-1],
		Checkpoints: res.Checkpoints, Selected: res.Selected,
	}
	// The last iteration of each flow count, in the order of --flows.
	for i := max(len(res.Curve)-len(t.Flows), 0); i < len(res.Curve); i++ {
		sum.LastByN = append(sum.LastByN, res.Curve[i])
	}
	if o.JSON {
		enc := json.NewEncoder(o.s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(sum)
	}
	fmt.Fprintf(o.s.Out, "wrote %s and %s (%d episodes, seed %d)\n", sum.Policy, sum.Learning, t.Episodes, t.Seed)
	if len(res.Checkpoints) > 0 {
		c := res.Checkpoints[res.Selected]
		if c.Table != nil {
			fmt.Fprintf(o.s.Out, "kept the policy after episode %d: held-out score %.4f; %d checkpoints (tables in %s)\n",
				c.Episode+1, c.Score, len(res.Checkpoints), filepath.Join(o.Out, train.EvaluationText))
			fmt.Fprint(o.s.Out, c.Table.Format("kept checkpoint"))
		} else {
			fmt.Fprintf(o.s.Out, "kept the policy after episode %d: smallest FR %.0f on %s flows (SU %.0f %%); %d checkpoints\n",
				c.Episode+1, c.WorstFR, o.Select, c.SU, len(res.Checkpoints))
		}
	}
	fmt.Fprintf(o.s.Out, "%-16s %10s %10s %10s %8s %8s\n", "last episodes", "reward", "rate", "rtt infl", "util", "jain")
	for _, r := range sum.LastByN {
		fmt.Fprintf(o.s.Out, "%-16s %10.4f %10.4f %10.3f %8.3f %8.3f\n", r.Scenario, r.MeanReward, r.MeanRateFrac, r.MeanRTTInflation, r.Utilization, r.JainIndex)
	}
	return nil
}
