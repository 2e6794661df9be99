package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/rl/cli"
	"github.com/ccreplay/ccreplay/rl/train"
	"github.com/ccreplay/ccreplay/runfolder"
)

func init() { registerCommand(newTrainCmd) }

// trainOptions are `ccreplay train rlcc`'s flags (cli.TrainRLCC).
type trainOptions struct {
	learnBase
	cli.TrainRLCC
}

func newTrainCmd(s *Factory) *cobra.Command {
	return learnerGroupCmd("train", "Train a learned congestion controller in the replay", "train", NewCmdTrainRLCC(s, nil), NewCmdTrainFDCC(s, nil))
}

// NewCmdTrainRLCC is `ccreplay train rlcc`; runF, when not nil, is called
// with the parsed options instead of running (tests).
func NewCmdTrainRLCC(f *Factory, runF func(*trainOptions) error) *cobra.Command {
	o := &trainOptions{learnBase: learnBase{f: f}}
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
staggered starts, a WebSearch mix on a small fat-tree, a lone flow;
rl/heldout) and the checkpoint with the best goodput, fairness and queueing
together is kept: a scenario scores min(goodput/0.85, 1) x min/max flow rate
x min(10us/mean queueing delay, 1), a checkpoint the mean
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
		RunE: learnRunE(&o.learnBase, o, runF),
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
	fl.StringVar(&o.SelectBy, "select-by", "heldout", "how the kept checkpoint is chosen: heldout (the held-out scenarios of rl/heldout: goodput and fairness together; writes DIR/"+runfolder.EvaluationFile+" and .txt), fr (the smallest FR on --select-flows) or last (the last iteration's policy)")
	fl.IntVarP(&o.Parallel, "parallel", "j", 1, "episodes of one iteration replayed at once (one gradient step on their mean); the same -j and seed give the same policy")
	fl.IntVar(&o.Every, "select-every", 50, "checkpoint interval, iterations")
	fl.StringVar(&o.Init, "init", "", "start from this MLP policy file instead of a fresh network")
	fl.BoolVar(&o.JSON, "json", false, "print a JSON summary to stdout instead of the text one")
	return c
}

// learnEnv is what the learning commands' runs (rl/cli) take from f: its
// streams, the command's context, the status line on a terminal and the
// algorithms.
func (f *Factory) learnEnv(ctx context.Context) cli.Env {
	return cli.Env{Streams: f.ioStreams(), Ctx: ctx, Progress: f.newProgressLine().line(), Registry: f.registry()}
}

// learnBase is what the learning commands' options hold besides their
// rl/cli options: the factory and the command's context.
type learnBase struct {
	f   *Factory
	ctx context.Context // the command's (set when it runs)
}

// learnRunE is a learning command's RunE: it records the command's
// context in b, then calls runF with o when runF is not nil (tests) and
// otherwise runs o with f's learning environment.
func learnRunE[O interface{ Run(cli.Env) error }](b *learnBase, o O, runF func(O) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		b.ctx = commandContext(cmd)
		if runF != nil {
			return runF(o)
		}
		return o.Run(b.f.learnEnv(b.ctx))
	}
}
