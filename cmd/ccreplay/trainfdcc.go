package main

import (
	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/rl/cli"
	"github.com/ccreplay/ccreplay/runfolder"
)

// trainFDCCOptions are `ccreplay train fdcc`'s flags (cli.TrainFDCC).
type trainFDCCOptions struct {
	learnBase
	cli.TrainFDCC
}

// NewCmdTrainFDCC is `ccreplay train fdcc`; runF, when not nil, is called with the
// parsed options instead of running (tests).
func NewCmdTrainFDCC(f *Factory, runF func(*trainFDCCOptions) error) *cobra.Command {
	o := &trainFDCCOptions{learnBase: learnBase{f: f}}
	c := &cobra.Command{
		Use:   "fdcc -o DIR",
		Short: "Train the FDCC policy (FDCC, Zhang 2023, Sections 4.3-4.4) with memory-based TD3 on a curriculum of n-to-1 incasts",
		Long: `Trains FDCC's actor (an LSTM over up to 8 past observations and an MLP head,
tanh output) with TD3: twin critics, delayed actor updates, target policy
smoothing (FDCC, Zhang 2023, Section 4.3, Eqs. 4.1-4.3). Each episode replays
an n-to-1 incast on the 64-to-64 dumbbell (100 Gb/s, 1 us links, flows of
--flow-size starting Gaussian within --jitter, one-BDP windows), every flow
acting with the same actor plus Gaussian exploration noise; the rewards are
Algorithm 1's, summed over --nstep steps; after each episode the learner takes
--updates gradient steps. The curriculum (Section 4.4) trains stage s on the
first s+1 flow counts in turn, --episodes-per-stage episodes each (-j N: N
episodes at once, then their updates). At the end of every stage (or every
--checkpoint-every episodes) the actor plays held-out scenarios (incasts of
other sizes and flow counts with Gaussian start jitter, staggered starts, a
WebSearch mix on a small fat-tree, a lone flow; rl/heldout) and ` + runfolder.PolicyFile + ` is the
checkpoint with the best goodput, fairness and queueing together: a scenario
scores min(goodput/0.85, 1) x min/max flow rate x min(10us/mean queueing
delay, 1), a checkpoint the mean
(DIR/` + runfolder.EvaluationText + ` has every checkpoint's table, DIR/` + runfolder.FinalPolicyFile + ` the
last actor).
Writes DIR/` + runfolder.PolicyFile + ` (use it with --cca fdcc --cca-param policy=DIR/` + runfolder.PolicyFile + `)
and DIR/` + runfolder.LearningFile + ` (one row per episode). The same flags and seed give
byte-identical files. Defaults not given by the thesis are listed in docs/FDCC.md.`,
		Example: `  # a smoke run (about a minute), then a replay under the policy it wrote
  ccreplay train fdcc --curriculum 2,4 --episodes-per-stage 2 --duration 2ms --updates 2 --batch 32 --seed 1 -o fdcc-policy --json
  ccreplay run --workload incast:n=4,size=2MB --topology dumbbell:n=4 --cca fdcc --cca-param policy=fdcc-policy/` + runfolder.PolicyFile + ` --out runs/fdcc`,
		Args: usageArgs(cobra.NoArgs),
		RunE: learnRunE(&o.learnBase, o, runF),
	}
	fl := c.Flags()
	fl.StringVar(&o.Curriculum, "curriculum", "2,4,8,16,32", "n-to-1 flow counts of the curriculum stages, comma-separated (Section 4.4: 2,4,8,16,32)")
	fl.IntVar(&o.PerStage, "episodes-per-stage", 10000, "episodes per curriculum stage (Section 4.4: 10k)")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the networks, the replay buffer, the episodes and the exploration")
	fl.StringVarP(&o.Out, "out", "o", "", "output folder for "+runfolder.PolicyFile+" and "+runfolder.LearningFile)
	fl.BoolVar(&o.Force, "force", false, "replace a previous training or distillation folder at -o")
	fl.StringVar(&o.Duration, "duration", "10ms", "simulated time of one episode")
	fl.StringVar(&o.Jitter, "jitter", "1ms", "window in which the flows start, Gaussian (Section 4.4: within 1 ms)")
	fl.StringVar(&o.Size, "flow-size", "20MB", "payload of each flow")
	fl.Float64Var(&o.Explore, "explore", 0.1, "standard deviation of the Gaussian exploration noise on the action o")
	fl.IntVar(&o.Random, "random-episodes", 0, "first episodes acting uniformly at random instead of with the actor (TD3's start-up exploration)")
	fl.Float64Var(&o.Gamma, "gamma", 0.99, "discount of the n-step return")
	fl.IntVar(&o.NStep, "nstep", 5, "steps of the n-step return (Section 4.2)")
	fl.IntVar(&o.Updates, "updates", 50, "TD3 gradient steps after each episode")
	fl.IntVar(&o.Batch, "batch", 256, "minibatch size, transitions")
	fl.IntVar(&o.Hidden, "hidden", 64, "LSTM width")
	fl.StringVar(&o.Head, "head", "64,64", "hidden widths of the MLP heads, comma-separated")
	fl.Float64Var(&o.LR, "lr", 3e-4, "Adam step size of the actor and the critics")
	fl.StringVar(&o.Rescale, "rescale", "compound", "how the output becomes the window multiplier: compound (Section 4.2's text) or direct")
	fl.StringVar(&o.Reward, "reward", "fdcc", "reading of Algorithm 1's reward: fdcc (THROUGHPUT over the fair share; the shipped policy's), fdcc-literal (as printed) or fdcc-link (the link's rate, the flow's share in the square); docs/FDCC.md")
	fl.BoolVar(&o.JSON, "json", false, "print a JSON summary to stdout instead of the text one")
	fl.IntVar(&o.Every, "checkpoint-every", 0, "also write the policy after every N episodes into DIR/checkpoints/ and score each by the training reward (0: none; held-out checks then come at the end of every stage)")
	fl.StringVar(&o.SelectBy, "select-by", "heldout", "which policy DIR/"+runfolder.PolicyFile+" holds: heldout (the checkpoint, or the final actor, with the best held-out goodput and fairness; rl/heldout; writes DIR/"+runfolder.EvaluationFile+" and .txt) or last (the final actor)")
	fl.IntVarP(&o.Parallel, "parallel", "j", 1, "episodes replayed at once, each followed by its share of the updates; the same -j and seed give the same policy")
	fl.StringVar(&o.ScoreFlows, "score-flows", "8,16,32", "checkpoint scores: the n-to-1 incasts they play, comma-separated")
	fl.StringVar(&o.ScoreSeeds, "score-seeds", "1000001..1000002", "checkpoint scores: the episode seeds they play (A..B or a list; not seeds training draws)")
	return c
}
