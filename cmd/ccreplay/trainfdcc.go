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

	"github.com/ccreplay/ccreplay/cca/fdcc"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/rl/fdcctrain"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/units"
)

// trainFDCCOptions are `ccreplay train fdcc`'s flags.
type trainFDCCOptions struct {
	s          *streams
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

func newTrainFDCCCmd(s *streams) *cobra.Command {
	o := &trainFDCCOptions{s: s}
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
WebSearch mix on a small fat-tree; rl/heldout) and policy.json is the
checkpoint with the best goodput and fairness together: a scenario scores
min(goodput/0.85, min/max flow rate, 1), a checkpoint the mean
(DIR/evaluation.txt has every checkpoint's table, DIR/policy-final.json the
last actor).
Writes DIR/policy.json (use it with --cca fdcc --cca-param policy=DIR/policy.json)
and DIR/learning.parquet (one row per episode). The same flags and seed give
byte-identical files. Defaults not given by the thesis are listed in docs/FDCC.md.`,
		Example: `  # a smoke run (about a minute), then a replay under the policy it wrote
  ccreplay train fdcc --curriculum 2,4 --episodes-per-stage 2 --duration 2ms --updates 2 --batch 32 --seed 1 -o fdcc-policy --json
  ccreplay run --workload incast:n=4,size=2MB --topology dumbbell:n=4 --cca fdcc --cca-param policy=fdcc-policy/policy.json --out runs/fdcc`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context()) },
	}
	f := c.Flags()
	f.StringVar(&o.Curriculum, "curriculum", "2,4,8,16,32", "n-to-1 flow counts of the curriculum stages, comma-separated (Section 4.4: 2,4,8,16,32)")
	f.IntVar(&o.PerStage, "episodes-per-stage", 10000, "episodes per curriculum stage (Section 4.4: 10k)")
	f.Uint64Var(&o.Seed, "seed", 1, "seed of the networks, the replay buffer, the episodes and the exploration")
	f.StringVarP(&o.Out, "out", "o", "", "output folder for policy.json and learning.parquet")
	f.StringVar(&o.Duration, "duration", "10ms", "simulated time of one episode")
	f.StringVar(&o.Jitter, "jitter", "1ms", "window in which the flows start, Gaussian (Section 4.4: within 1 ms)")
	f.StringVar(&o.Size, "flow-size", "20MB", "payload of each flow")
	f.Float64Var(&o.Explore, "explore", 0.1, "standard deviation of the Gaussian exploration noise on the action o")
	f.IntVar(&o.Random, "random-episodes", 0, "first episodes acting uniformly at random instead of with the actor (TD3's start-up exploration)")
	f.Float64Var(&o.Gamma, "gamma", 0.99, "discount of the n-step return")
	f.IntVar(&o.NStep, "nstep", 5, "steps of the n-step return (Section 4.2)")
	f.IntVar(&o.Updates, "updates", 50, "TD3 gradient steps after each episode")
	f.IntVar(&o.Batch, "batch", 256, "minibatch size, transitions")
	f.IntVar(&o.Hidden, "hidden", 64, "LSTM width")
	f.StringVar(&o.Head, "head", "64,64", "hidden widths of the MLP heads, comma-separated")
	f.Float64Var(&o.LR, "lr", 3e-4, "Adam step size of the actor and the critics")
	f.StringVar(&o.Rescale, "rescale", "compound", "how the output becomes the window multiplier: compound (Section 4.2's text) or direct")
	f.StringVar(&o.Reward, "reward", "fdcc", "reading of Algorithm 1's reward: fdcc (THROUGHPUT over the fair share) or fdcc-literal (as printed); docs/FDCC.md")
	f.BoolVar(&o.JSON, "json", false, "print a JSON summary to stdout instead of the text one")
	f.IntVar(&o.Every, "checkpoint-every", 0, "also write the policy after every N episodes into DIR/checkpoints/ and score each by the training reward (0: none; held-out checks then come at the end of every stage)")
	f.StringVar(&o.SelectBy, "select-by", "heldout", "which policy DIR/policy.json holds: heldout (the checkpoint, or the final actor, with the best held-out goodput and fairness; rl/heldout; writes DIR/evaluation.json and .txt) or last (the final actor)")
	f.IntVarP(&o.Parallel, "parallel", "j", 1, "episodes replayed at once, each followed by its share of the updates; the same -j and seed give the same policy")
	f.StringVar(&o.ScoreFlows, "score-flows", "8,16,32", "checkpoint scores: the n-to-1 incasts they play, comma-separated")
	f.StringVar(&o.ScoreSeeds, "score-seeds", "1000001..1000002", "checkpoint scores: the episode seeds they play (A..B or a list; not seeds training draws)")
	return c
}

// checkpointScore is one line of DIR/checkpoints/scores.json.
type checkpointScore struct {
	Episode int     `json:"episode"`
	Policy  string  `json:"policy"`
	Score   float64 `json:"mean_reward"`
}

func (o *trainFDCCOptions) options() (fdcctrain.Options, error) {
	var t fdcctrain.Options
	if o.Out == "" {
		return t, usageErrorf("give the output folder: -o DIR")
	}
	for _, p := range strings.Split(o.Curriculum, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 64 {
			return t, usageErrorf("--curriculum: %q is not a flow count in 1..64", p)
		}
		t.Curriculum = append(t.Curriculum, n)
	}
	if o.PerStage < 1 {
		return t, usageErrorf("--episodes-per-stage: want at least 1, got %d", o.PerStage)
	}
	var err error
	if t.Duration, err = units.ParseDuration(o.Duration); err != nil || t.Duration <= 0 {
		return t, usageErrorf("--duration: want a positive time such as 10ms, got %q", o.Duration)
	}
	if t.Jitter, err = units.ParseDuration(o.Jitter); err != nil || t.Jitter <= 0 || t.Jitter%units.Nanosecond != 0 {
		return t, usageErrorf("--jitter: want a positive time in whole nanoseconds such as 1ms, got %q", o.Jitter)
	}
	if t.FlowBytes, err = units.ParseSize(o.Size); err != nil || t.FlowBytes <= 0 {
		return t, usageErrorf("--flow-size: want a positive size such as 20MB, got %q", o.Size)
	}
	switch {
	case !(o.Explore > 0 && o.Explore <= 1):
		return t, usageErrorf("--explore: want a standard deviation in (0, 1], got %v", o.Explore)
	case !(o.Gamma > 0 && o.Gamma <= 1):
		return t, usageErrorf("--gamma: want a discount in (0, 1], got %v", o.Gamma)
	case o.Random < 0:
		return t, usageErrorf("--random-episodes: want 0 or more, got %d", o.Random)
	case o.NStep < 1 || o.NStep > 64:
		return t, usageErrorf("--nstep: want 1..64, got %d", o.NStep)
	case o.Updates < 1:
		return t, usageErrorf("--updates: want at least 1, got %d", o.Updates)
	case o.Batch < 1 || o.Batch > 65536:
		return t, usageErrorf("--batch: want 1..65536, got %d", o.Batch)
	case o.Hidden < 1 || o.Hidden > 1024:
		return t, usageErrorf("--hidden: want 1..1024, got %d", o.Hidden)
	case !(o.LR > 0 && o.LR <= 1):
		return t, usageErrorf("--lr: want a step size in (0, 1], got %v", o.LR)
	}
	var head []int
	for _, p := range strings.Split(o.Head, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 1024 {
			return t, usageErrorf("--head: %q is not a layer width in 1..1024", p)
		}
		head = append(head, n)
	}
	switch fdcc.Rescale(o.Rescale) {
	case fdcc.RescaleCompound, fdcc.RescaleDirect:
		t.CCA.Rescale = fdcc.Rescale(o.Rescale)
	default:
		return t, usageErrorf("--rescale: want compound or direct, got %q", o.Rescale)
	}
	switch reward.FDCCReward(o.Reward) {
	case reward.FDCCNormalised, reward.FDCCAsPrinted:
		t.Reward = reward.FDCCReward(o.Reward)
	default:
		return t, usageErrorf("--reward: want %s or %s, got %q", reward.FDCCNormalised, reward.FDCCAsPrinted, o.Reward)
	}
	switch o.SelectBy {
	case "heldout":
		t.Heldout = heldout.FDCC
	case "last":
	default:
		return t, usageErrorf("--select-by: want heldout or last, got %q", o.SelectBy)
	}
	if o.Parallel < 1 || o.Parallel > 256 {
		return t, usageErrorf("--parallel: want 1..256 episodes at once, got %d", o.Parallel)
	}
	t.Parallel = o.Parallel
	t.EpisodesPerStage, t.Seed = o.PerStage, o.Seed
	t.RandomEpisodes = o.Random
	t.Explore, t.Gamma, t.NStep, t.UpdatesPerEpisode = o.Explore, o.Gamma, o.NStep, o.Updates
	t.TD3.Batch, t.TD3.Hidden, t.TD3.HeadHidden, t.TD3.ActorLR, t.TD3.CriticLR = o.Batch, o.Hidden, head, o.LR, o.LR
	t.ProducedBy = fmt.Sprintf("ccreplay train fdcc --curriculum %s --episodes-per-stage %d --seed %d --duration %s --jitter %s --flow-size %s --explore %v --random-episodes %d --gamma %v --nstep %d --updates %d --batch %d --hidden %d --head %s --lr %v --rescale %s --reward %s --select-by %s -j %d",
		o.Curriculum, o.PerStage, o.Seed, o.Duration, o.Jitter, o.Size, o.Explore, o.Random, o.Gamma, o.NStep, o.Updates, o.Batch, o.Hidden, o.Head, o.LR, o.Rescale, o.Reward, o.SelectBy, o.Parallel)
	return t, nil
}

// scoreSet parses --score-flows and --score-seeds.
func (o *trainFDCCOptions) scoreSet() ([]int, []uint64, error) {
	var flows []int
	for _, p := range strings.Split(o.ScoreFlows, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 64 {
			return nil, nil, usageErrorf("--score-flows: %q is not a flow count in 1..64", p)
		}
		flows = append(flows, n)
	}
	seeds, err := parseSeeds(o.ScoreSeeds)
	if err != nil {
		return nil, nil, usageErrorf("--score-seeds: %v", err)
	}
	return flows, seeds, nil
}

// trainFDCCSummary is `--json` output.
type trainFDCCSummary struct {
	Policy     string        `json:"policy"`
	Learning   string        `json:"learning"`
	Episodes   int           `json:"episodes"`
	Seed       uint64        `json:"seed"`
	ProducedBy string        `json:"produced_by"`
	First      fdcctrain.Row `json:"first"`
	Last       fdcctrain.Row `json:"last"`
	// Checkpoints are the checkpoints' scores (--checkpoint-every).
	Checkpoints []checkpointScore `json:"checkpoints,omitempty"`
	// Heldout are the held-out evaluations (--select-by heldout); Kept
	// the index of the one policy.json holds.
	Heldout []fdcctrain.Checkpoint `json:"heldout,omitempty"`
	Kept    int                    `json:"kept"`
	LastByN []fdcctrain.Row        `json:"last_by_flows"`
}

func (o *trainFDCCOptions) run(ctx context.Context) error {
	t, err := o.options()
	if err != nil {
		return err
	}
	t.Context = ctx
	total := len(t.Curriculum) * t.EpisodesPerStage
	var scores []checkpointScore
	if o.Every < 0 {
		return usageErrorf("--checkpoint-every: want 0 or more, got %d", o.Every)
	}
	if o.Every == 0 && len(t.Heldout) > 0 {
		t.CheckpointEvery = t.EpisodesPerStage
	}
	if o.Every > 0 {
		flows, seeds, err := o.scoreSet()
		if err != nil {
			return err
		}
		dir := filepath.Join(o.Out, "checkpoints")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return inputErrorf("output folder: %v", err)
		}
		t.CheckpointEvery = o.Every
		t.Checkpoint = func(ep int, p *fdcc.Policy) error {
			b, err := p.Marshal()
			if err != nil {
				return err
			}
			name := filepath.Join(dir, fmt.Sprintf("policy-ep%06d.json", ep))
			if err := output.WriteFileAtomic(name, b); err != nil {
				return err
			}
			sc, err := fdcctrain.Score(p, flows, seeds, t)
			if err != nil {
				return err
			}
			scores = append(scores, checkpointScore{Episode: ep, Policy: name, Score: sc})
			return output.WriteJSONAtomic(filepath.Join(dir, "scores.json"), scores)
		}
	}
	prog := o.s.newProgressLine()
	if prog != nil {
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
	sum := trainFDCCSummary{
		Policy: filepath.Join(o.Out, fdcctrain.PolicyFile), Learning: filepath.Join(o.Out, fdcctrain.LearningFile),
		Episodes: total, Seed: t.Seed, ProducedBy: t.ProducedBy,
		First: res.Curve[0], Last: res.Curve[len(res.Curve)-1], Checkpoints: scores,
		Heldout: res.Checkpoints, Kept: res.Selected,
	}
	seen := map[int32]bool{}
	for i := len(res.Curve) - 1; i >= 0 && len(seen) < len(t.Curriculum); i-- {
		if r := res.Curve[i]; !seen[r.Flows] {
			seen[r.Flows] = true
			sum.LastByN = append([]fdcctrain.Row{r}, sum.LastByN...)
		}
	}
	if o.JSON {
		enc := json.NewEncoder(o.s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(sum)
	}
	fmt.Fprintf(o.s.Out, "wrote %s and %s (%d episodes, seed %d)\n", sum.Policy, sum.Learning, total, t.Seed)
	if len(scores) > 0 {
		best := 0
		for i, sc := range scores {
			if sc.Score > scores[best].Score {
				best = i
			}
			fmt.Fprintf(o.s.Out, "checkpoint after %6d episodes: mean reward %10.4f  %s\n", sc.Episode, sc.Score, sc.Policy)
		}
		fmt.Fprintf(o.s.Out, "highest mean reward on the score incasts: after %d episodes (%s)\n", scores[best].Episode, scores[best].Policy)
	}
	if len(res.Checkpoints) > 0 {
		c := res.Checkpoints[res.Selected]
		fmt.Fprintf(o.s.Out, "policy.json is the checkpoint after %d episodes: held-out score %.4f of %d checkpoints (tables in %s; the final actor in %s)\n",
			c.Episode, c.Score, len(res.Checkpoints), filepath.Join(o.Out, fdcctrain.EvaluationText), filepath.Join(o.Out, fdcctrain.FinalFile))
		fmt.Fprint(o.s.Out, c.Table.Format("kept checkpoint"))
	}
	fmt.Fprintf(o.s.Out, "%-8s %10s %9s %9s %12s %12s\n", "last", "reward", "draining", "goodput", "max queue", "critic loss")
	for _, r := range sum.LastByN {
		fmt.Fprintf(o.s.Out, "%2d-to-1  %10.4f %9.3f %9.3f %8.2f BDP %12.4g\n", r.Flows, r.Reward, r.Draining, r.Goodput, r.MaxQLen, r.CriticLoss)
	}
	return nil
}
