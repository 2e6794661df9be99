package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/cca/fdcc"
	"github.com/ccreplay/ccreplay/rl/fdcctrain"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/units"
)

// trainFDCCOptions are `ccreplay train fdcc`'s flags.
type trainFDCCOptions struct {
	f          *Factory
	ctx        context.Context // the command's (set when it runs)
	Curriculum string
	PerStage   int
	Seed       uint64
	Out        string
	Duration   string
	Jitter     string
	Size       string
	Explore    float64
	Random     int
	Gamma      float64
	NStep      int
	Updates    int
	Batch      int
	Hidden     int
	Head       string
	LR         float64
	Rescale    string
	Reward     string
	JSON       bool
	// Every, ScoreFlows and ScoreSeeds: checkpoints and their scores.
	Every      int
	ScoreFlows string
	ScoreSeeds string
	// SelectBy and Parallel: held-out selection and parallel episodes.
	SelectBy string
	Parallel int
}

// NewCmdTrainFDCC is `ccreplay train fdcc`; runF, when not nil, is called with the
// parsed options instead of running (tests).
func NewCmdTrainFDCC(f *Factory, runF func(*trainFDCCOptions) error) *cobra.Command {
	o := &trainFDCCOptions{f: f}
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
WebSearch mix on a small fat-tree; rl/heldout) and ` + runfolder.PolicyFile + ` is the
checkpoint with the best goodput and fairness together: a scenario scores
min(goodput/0.85, min/max flow rate, 1), a checkpoint the mean
(DIR/` + runfolder.EvaluationText + ` has every checkpoint's table, DIR/` + runfolder.FinalPolicyFile + ` the
last actor).
Writes DIR/` + runfolder.PolicyFile + ` (use it with --cca fdcc --cca-param policy=DIR/` + runfolder.PolicyFile + `)
and DIR/` + runfolder.LearningFile + ` (one row per episode). The same flags and seed give
byte-identical files. Defaults not given by the thesis are listed in docs/FDCC.md.`,
		Example: `  # a smoke run (about a minute), then a replay under the policy it wrote
  ccreplay train fdcc --curriculum 2,4 --episodes-per-stage 2 --duration 2ms --updates 2 --batch 32 --seed 1 -o fdcc-policy --json
  ccreplay run --workload incast:n=4,size=2MB --topology dumbbell:n=4 --cca fdcc --cca-param policy=fdcc-policy/` + runfolder.PolicyFile + ` --out runs/fdcc`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ctx = commandContext(cmd)
			if runF != nil {
				return runF(o)
			}
			return trainFDCCRun(o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.Curriculum, "curriculum", "2,4,8,16,32", "n-to-1 flow counts of the curriculum stages, comma-separated (Section 4.4: 2,4,8,16,32)")
	fl.IntVar(&o.PerStage, "episodes-per-stage", 10000, "episodes per curriculum stage (Section 4.4: 10k)")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the networks, the replay buffer, the episodes and the exploration")
	fl.StringVarP(&o.Out, "out", "o", "", "output folder for "+runfolder.PolicyFile+" and "+runfolder.LearningFile)
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
	fl.StringVar(&o.Reward, "reward", "fdcc", "reading of Algorithm 1's reward: fdcc (THROUGHPUT over the fair share), fdcc-literal (as printed) or fdcc-link (the link's rate, the flow's share in the square; the shipped policy's); docs/FDCC.md")
	fl.BoolVar(&o.JSON, "json", false, "print a JSON summary to stdout instead of the text one")
	fl.IntVar(&o.Every, "checkpoint-every", 0, "also write the policy after every N episodes into DIR/checkpoints/ and score each by the training reward (0: none; held-out checks then come at the end of every stage)")
	fl.StringVar(&o.SelectBy, "select-by", "heldout", "which policy DIR/policy.json holds: heldout (the checkpoint, or the final actor, with the best held-out goodput and fairness; rl/heldout; writes DIR/evaluation.json and .txt) or last (the final actor)")
	fl.IntVarP(&o.Parallel, "parallel", "j", 1, "episodes replayed at once, each followed by its share of the updates; the same -j and seed give the same policy")
	fl.StringVar(&o.ScoreFlows, "score-flows", "8,16,32", "checkpoint scores: the n-to-1 incasts they play, comma-separated")
	fl.StringVar(&o.ScoreSeeds, "score-seeds", "1000001..1000002", "checkpoint scores: the episode seeds they play (A..B or a list; not seeds training draws)")
	return c
}

func (o *trainFDCCOptions) options() (fdcctrain.Options, error) {
	var t fdcctrain.Options
	if o.Out == "" {
		return t, usageErrorf("give the output folder: -o DIR")
	}
	var err error
	if t.Curriculum, err = parseCounts("curriculum", o.Curriculum, "flow count", 64); err != nil {
		return t, err
	}
	if o.PerStage < 1 {
		return t, usageErrorf("--episodes-per-stage: want at least 1, got %d", o.PerStage)
	}
	if t.Duration, err = units.ParseDuration(o.Duration); err != nil || t.Duration <= 0 {
		return t, usageErrorf("--duration: want a positive time such as 10ms, got %q", o.Duration)
	}
	if t.Jitter, err = units.ParseDuration(o.Jitter); err != nil || t.Jitter <= 0 || t.Jitter%units.Nanosecond != 0 {
		return t, usageErrorf("--jitter: want a positive time in whole nanoseconds such as 1ms, got %q", o.Jitter)
	}
	if t.FlowBytes, err = units.ParseSize(o.Size); err != nil || t.FlowBytes <= 0 {
		return t, usageErrorf("--flow-size: want a positive size such as 20MB, got %q", o.Size)
	}
	if err := o.check(); err != nil {
		return t, err
	}
	if t.TD3.HeadHidden, err = parseCounts("head", o.Head, "layer width", 1024); err != nil {
		return t, err
	}
	t.CCA.Rescale, t.Reward = fdcc.Rescale(o.Rescale), reward.FDCCReward(o.Reward)
	if o.SelectBy == "heldout" {
		t.Heldout = heldout.FDCC
	}
	t.Parallel, t.EpisodesPerStage, t.Seed, t.RandomEpisodes = o.Parallel, o.PerStage, o.Seed, o.Random
	t.Explore, t.Gamma, t.NStep, t.UpdatesPerEpisode = o.Explore, o.Gamma, o.NStep, o.Updates
	t.TD3.Batch, t.TD3.Hidden, t.TD3.ActorLR, t.TD3.CriticLR = o.Batch, o.Hidden, o.LR, o.LR
	t.ProducedBy = fmt.Sprintf("ccreplay train fdcc --curriculum %s --episodes-per-stage %d --seed %d --duration %s --jitter %s --flow-size %s --explore %v --random-episodes %d --gamma %v --nstep %d --updates %d --batch %d --hidden %d --head %s --lr %v --rescale %s --reward %s --select-by %s -j %d",
		o.Curriculum, o.PerStage, o.Seed, o.Duration, o.Jitter, o.Size, o.Explore, o.Random, o.Gamma, o.NStep, o.Updates, o.Batch, o.Hidden, o.Head, o.LR, o.Rescale, o.Reward, o.SelectBy, o.Parallel)
	return t, nil
}

// check checks the numeric and named flags, in the order they are
// reported.
func (o *trainFDCCOptions) check() error {
	rescale, rew := fdcc.Rescale(o.Rescale), reward.FDCCReward(o.Reward)
	return firstUsageError(
		usageCheck{!(o.Explore > 0 && o.Explore <= 1), fmt.Sprintf("--explore: want a standard deviation in (0, 1], got %v", o.Explore)},
		usageCheck{!(o.Gamma > 0 && o.Gamma <= 1), fmt.Sprintf("--gamma: want a discount in (0, 1], got %v", o.Gamma)},
		usageCheck{o.Random < 0, fmt.Sprintf("--random-episodes: want 0 or more, got %d", o.Random)},
		usageCheck{o.NStep < 1 || o.NStep > 64, fmt.Sprintf("--nstep: want 1..64, got %d", o.NStep)},
		usageCheck{o.Updates < 1, fmt.Sprintf("--updates: want at least 1, got %d", o.Updates)},
		usageCheck{o.Batch < 1 || o.Batch > 65536, fmt.Sprintf("--batch: want 1..65536, got %d", o.Batch)},
		usageCheck{o.Hidden < 1 || o.Hidden > 1024, fmt.Sprintf("--hidden: want 1..1024, got %d", o.Hidden)},
		usageCheck{!(o.LR > 0 && o.LR <= 1), fmt.Sprintf("--lr: want a step size in (0, 1], got %v", o.LR)},
		usageCheck{rescale != fdcc.RescaleCompound && rescale != fdcc.RescaleDirect, fmt.Sprintf("--rescale: want compound or direct, got %q", o.Rescale)},
		usageCheck{!rew.Known(), fmt.Sprintf("--reward: want one of %v, got %q", reward.FDCCReadings, o.Reward)},
		usageCheck{o.SelectBy != "heldout" && o.SelectBy != "last", fmt.Sprintf("--select-by: want heldout or last, got %q", o.SelectBy)},
		usageCheck{o.Parallel < 1 || o.Parallel > 256, fmt.Sprintf("--parallel: want 1..256 episodes at once, got %d", o.Parallel)},
		usageCheck{o.Every < 0, fmt.Sprintf("--checkpoint-every: want 0 or more, got %d", o.Every)},
	)
}

// checkpoints sets t's checkpoints: held-out ones at the end of every
// stage, or --checkpoint-every's, written to DIR/checkpoints and scored.
func (o *trainFDCCOptions) checkpoints(t *fdcctrain.Options) (*fdcctrain.CheckpointScorer, error) {
	if o.Every == 0 {
		if len(t.Heldout) > 0 {
			t.CheckpointEvery = t.EpisodesPerStage
		}
		return nil, nil
	}
	flows, err := parseCounts("score-flows", o.ScoreFlows, "flow count", 64)
	if err != nil {
		return nil, err
	}
	seeds, err := parseSeeds(o.ScoreSeeds)
	if err != nil {
		return nil, usageErrorf("--score-seeds: %v", err)
	}
	dir := filepath.Join(o.Out, fdcctrain.CheckpointsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, inputErrorf("output folder: %v", err)
	}
	t.CheckpointEvery = o.Every
	sc := fdcctrain.NewCheckpointScorer(dir, flows, seeds, *t)
	t.Checkpoint = sc.Checkpoint
	return sc, nil
}

func trainFDCCRun(o *trainFDCCOptions) error {
	t, err := o.options()
	if err != nil {
		return err
	}
	t.Context = o.ctx
	scorer, err := o.checkpoints(&t)
	if err != nil {
		return err
	}
	prog := o.f.newProgressLine()
	if prog != nil {
		total := len(t.Curriculum) * t.EpisodesPerStage
		t.Progress = func(r fdcctrain.Row) {
			prog.set(fmt.Sprintf("episode %d/%d  %2d-to-1  reward %8.4f  goodput %.3f  max queue %6.2f BDP  critic loss %.4g",
				r.Episode+1, total, r.Flows, r.Reward, r.Goodput, r.MaxQLen, r.CriticLoss))
		}
	}
	res, err := fdcctrain.Train(t)
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
	if err := fdcctrain.WriteOutputs(o.Out, res); err != nil {
		return err
	}
	sum := fdcctrain.Summarize(o.Out, t, res, scorer.Scores())
	if o.JSON {
		return writeJSON(o.f, sum)
	}
	return sum.WriteText(o.f.Out)
}
