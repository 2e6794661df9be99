package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ccreplay/ccreplay/cca/fdcc"
	"github.com/ccreplay/ccreplay/compare"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/rl/fdcctrain"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/units"
)

// TrainFDCC are `ccreplay train fdcc`'s flag values.
type TrainFDCC struct {
	Curriculum string
	PerStage   int
	Seed       uint64
	Out        string
	Force      bool
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

// Options checks the flag values and turns them into the trainer's
// options, the provenance set (the checkpoints are Run's).
func (o *TrainFDCC) Options() (fdcctrain.Options, error) {
	var t fdcctrain.Options
	if o.Out == "" {
		return t, clierr.Usagef("give the output folder: -o DIR")
	}
	var err error
	if t.Curriculum, err = parseCounts("curriculum", o.Curriculum, "flow count", 64); err != nil {
		return t, err
	}
	if o.PerStage < 1 {
		return t, clierr.Usagef("--episodes-per-stage: want at least 1, got %d", o.PerStage)
	}
	if t.Duration, err = parseDuration("duration", o.Duration, false); err != nil {
		return t, err
	}
	if t.Jitter, err = units.ParseDuration(o.Jitter); err != nil || t.Jitter <= 0 || t.Jitter%units.Nanosecond != 0 {
		return t, clierr.Usagef("--jitter: want a positive time in whole nanoseconds such as 1ms, got %q", o.Jitter)
	}
	if t.FlowBytes, err = units.ParseSize(o.Size); err != nil || t.FlowBytes <= 0 {
		return t, clierr.Usagef("--flow-size: want a positive size such as 20MB, got %q", o.Size)
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
func (o *TrainFDCC) check() error {
	rescale, rew := fdcc.Rescale(o.Rescale), reward.FDCCReward(o.Reward)
	return firstUsageError(
		check{!(o.Explore > 0 && o.Explore <= 1), fmt.Sprintf("--explore: want a standard deviation in (0, 1], got %v", o.Explore)},
		check{!(o.Gamma > 0 && o.Gamma <= 1), fmt.Sprintf("--gamma: want a discount in (0, 1], got %v", o.Gamma)},
		check{o.Random < 0, fmt.Sprintf("--random-episodes: want 0 or more, got %d", o.Random)},
		check{o.NStep < 1 || o.NStep > 64, fmt.Sprintf("--nstep: want 1..64, got %d", o.NStep)},
		check{o.Updates < 1, fmt.Sprintf("--updates: want at least 1, got %d", o.Updates)},
		check{o.Batch < 1 || o.Batch > 65536, fmt.Sprintf("--batch: want 1..65536, got %d", o.Batch)},
		check{o.Hidden < 1 || o.Hidden > 1024, fmt.Sprintf("--hidden: want 1..1024, got %d", o.Hidden)},
		check{!(o.LR > 0 && o.LR <= 1), fmt.Sprintf("--lr: want a step size in (0, 1], got %v", o.LR)},
		check{rescale != fdcc.RescaleCompound && rescale != fdcc.RescaleDirect, fmt.Sprintf("--rescale: want compound or direct, got %q", o.Rescale)},
		check{!rew.Known(), fmt.Sprintf("--reward: want one of %v, got %q", reward.FDCCReadings, o.Reward)},
		check{o.SelectBy != "heldout" && o.SelectBy != "last", fmt.Sprintf("--select-by: want heldout or last, got %q", o.SelectBy)},
		check{o.Parallel < 1 || o.Parallel > 256, fmt.Sprintf("--parallel: want 1..256 episodes at once, got %d", o.Parallel)},
		check{o.Every < 0, fmt.Sprintf("--checkpoint-every: want 0 or more, got %d", o.Every)},
	)
}

// scores parses --score-flows and --score-seeds, the incasts and seeds
// --checkpoint-every's checkpoints are scored on (nil without it).
func (o *TrainFDCC) scores() ([]int, []uint64, error) {
	if o.Every == 0 {
		return nil, nil, nil
	}
	flows, err := parseCounts("score-flows", o.ScoreFlows, "flow count", 64)
	if err != nil {
		return nil, nil, err
	}
	seeds, err := compare.ParseSeeds(o.ScoreSeeds)
	if err != nil {
		return nil, nil, clierr.Usagef("--score-seeds: %v", err)
	}
	return flows, seeds, nil
}

// checkpoints sets t's checkpoints: held-out ones at the end of every
// stage, or --checkpoint-every's, written to dir/checkpoints (dir is the
// staged folder; scores.json names them in -o) and scored on flows x
// seeds.
func (o *TrainFDCC) checkpoints(t *fdcctrain.Options, dir string, flows []int, seeds []uint64) (*fdcctrain.CheckpointScorer, error) {
	if o.Every == 0 {
		if len(t.Heldout) > 0 {
			t.CheckpointEvery = t.EpisodesPerStage
		}
		return nil, nil
	}
	cdir := filepath.Join(dir, fdcctrain.CheckpointsDir)
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		return nil, clierr.Inputf("output folder: %v", err)
	}
	t.CheckpointEvery = o.Every
	sc := fdcctrain.NewCheckpointScorer(cdir, flows, seeds, *t)
	sc.Shown = filepath.Join(o.Out, fdcctrain.CheckpointsDir)
	t.Checkpoint = sc.Checkpoint
	return sc, nil
}

// Run trains into -o, staged like `train rlcc` (the checkpoints too: the
// folder appears complete or not at all, training.json last), and prints
// the summary, as text or JSON.
func (o *TrainFDCC) Run(env Env) error {
	t, err := o.Options()
	if err != nil {
		return err
	}
	t.Context = env.Ctx
	flows, seeds, err := o.scores()
	if err != nil {
		return err
	}
	st, err := stageTraining(o.Out, o.Force)
	if err != nil {
		return err
	}
	defer st.Abort()
	scorer, err := o.checkpoints(&t, st.Dir, flows, seeds)
	if err != nil {
		return err
	}
	if env.Progress != nil {
		total := len(t.Curriculum) * t.EpisodesPerStage
		t.Progress = func(r fdcctrain.Row) {
			env.Progress.Set(fmt.Sprintf("episode %d/%d  %2d-to-1  reward %8.4f  goodput %.3f  max queue %6.2f BDP  critic loss %.4g",
				r.Episode+1, total, r.Flows, r.Reward, r.Goodput, r.MaxQLen, r.CriticLoss))
		}
	}
	res, err := fdcctrain.Train(t)
	env.Progress.Clear()
	if err := interrupted(err, "written to "+o.Out); err != nil {
		return err
	}
	if err := fdcctrain.WriteOutputs(st.Dir, res); err != nil {
		return err
	}
	if err := commitTraining(st, "train fdcc", t.Seed); err != nil {
		return err
	}
	sum := fdcctrain.Summarize(o.Out, t, res, scorer.Scores())
	if o.JSON {
		return env.PrintJSON(sum)
	}
	return sum.WriteText(env.Out)
}
