// Package fdcctrain trains FDCC's policy (FDCC, Zhang 2023, Sections 4.3
// and 4.4) in the replay: memory-based TD3 (rl/td3) with one actor shared
// by every flow, on n-to-1 incasts of a 64-to-64 dumbbell with a
// curriculum of flow counts. The reward is Algorithm 1 (rl/reward.FDCC,
// THROUGHPUT over the fair share, or rl/reward.FDCCLiteral, as printed; see
// Options.Reward) of the observation that follows each action, summed over n steps
// (rl/reward.Discounted's n-step return, Section 4.2).
//
// Training is deterministic: the same Options give a byte-identical policy
// and learning curve.
package fdcctrain

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/batch/pool"
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/fdcc"
	"github.com/ccreplay/ccreplay/internal/splitmix"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/rl/td3"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// Options configure a training run. Zero fields take the defaults their
// comments give; every default is "not in paper 002" unless it says so.
type Options struct {
	// Curriculum are the flow counts of the stages: stage s trains on
	// Curriculum[0..s] in turn (earlier stages kept: our reading of
	// Section 4.4's "we add 4-to-1 fan-in traffic into training").
	// Default 2, 4, 8, 16, 32 (Section 4.4).
	Curriculum []int
	// EpisodesPerStage is the number of episodes of each stage. Default
	// 10000 (Section 4.4: "increases by 2 times every 10k episodes").
	EpisodesPerStage int
	// Seed seeds the networks, the replay buffer's sampling, the episodes'
	// start times and the exploration noise.
	Seed uint64
	// Duration is one episode's simulated time, picoseconds. Default 10 ms.
	Duration units.Time
	// Jitter is the window the flows start in (Gaussian, as Section 4.4's
	// "scheduled ... within 1 ms"), picoseconds. Default 1 ms.
	Jitter units.Time
	// FlowBytes is each flow's payload, bytes. Default 20 MB (the flows of
	// Table 6.2; the training flows' size is not stated).
	FlowBytes units.Bytes
	// Explore is the standard deviation of the Gaussian noise added to
	// the actor's output during episodes. Default 0.1.
	Explore float64
	// RandomEpisodes is the number of first episodes whose actions are
	// drawn uniformly from [-1, 1] instead of the actor's (TD3's usual
	// start-up exploration, Fujimoto et al. 2018): the window then walks
	// over the whole [1 packet, 1 BDP] range, which a young actor's
	// saturated output plus small noise never visits. Default 0.
	RandomEpisodes int
	// Gamma and NStep shape the n-step return R_t = sum_{i<n} gamma^i
	// r_{t+i} (Section 4.2; neither is given). Defaults 0.99 and 5, as
	// rl/dataset's return_fdcc_nstep.
	Gamma float64
	NStep int
	// UpdatesPerEpisode is the number of TD3 gradient steps after each
	// episode. Default 50.
	UpdatesPerEpisode int
	// Warmup is the number of transitions the buffer holds before the
	// first update. Default 2 x the batch.
	Warmup int
	// TD3 configures the learner; zero fields take td3's defaults, except
	// Inputs (fdcc.NumFeatures) and Seq (fdcc.History), which are fixed.
	TD3 td3.Config
	// Reward is the reading of Algorithm 1's line 5 the rewards use:
	// reward.FDCCNormalised (default, "fdcc": THROUGHPUT over the fair
	// share), reward.FDCCAsPrinted ("fdcc-literal") or reward.FDCCLinkShare
	// ("fdcc-link": the link's throughput, then the flow's over its share);
	// docs/FDCC.md, "The reward".
	Reward reward.FDCCReward
	// CCA is the controller's configuration during training (rescaling,
	// α, range, latency, flow count); its Policy is the learner's actor.
	CCA fdcc.Config
	// ProducedBy is written into the policy file.
	ProducedBy string
	// Progress, when set, is called after every episode.
	Progress func(Row)
	// CheckpointEvery, when > 0 and Checkpoint is set, hands Checkpoint
	// the actor as a policy after every CheckpointEvery episodes (episode
	// is the number of episodes done), so that a run can be judged at
	// several points of its training rather than only at its end.
	CheckpointEvery int
	Checkpoint      func(episode int, p *fdcc.Policy) error
	// Heldout, when set with CheckpointEvery, scores every checkpoint
	// (and the final actor) on these scenarios (rl/heldout, no exploration
	// noise) and Train returns the one with the highest score, the earlier
	// on ties: goodput and fairness together, not the training reward.
	Heldout []heldout.Scenario
	// Parallel is the number of episodes replayed at once, each with a
	// copy of the actor; their transitions enter the buffer in episode
	// order and the learner then takes Parallel x UpdatesPerEpisode steps.
	// Default (<= 1) 1: an update after every episode. The same Parallel
	// and Seed give the same policy; another Parallel another one.
	Parallel int
	// Context, when set, stops training when done.
	Context context.Context

	random bool // this episode acts at random (RandomEpisodes)
	greedy bool // this episode acts without noise (Score)
}

// Row is one episode's line of the learning curve, a row of
// learning.parquet (schema/v2).
type Row = v2.FDCCLearningRow

// Defaults returns o with every zero field filled.
func (o Options) Defaults() Options {
	if len(o.Curriculum) == 0 {
		o.Curriculum = []int{2, 4, 8, 16, 32}
	}
	o.EpisodesPerStage = cmp.Or(o.EpisodesPerStage, 10000)
	o.Duration = cmp.Or(o.Duration, 10*units.Millisecond)
	o.Jitter = cmp.Or(o.Jitter, units.Millisecond)
	o.FlowBytes = cmp.Or(o.FlowBytes, 20*units.MB)
	o.Explore = cmp.Or(o.Explore, 0.1)
	o.Gamma = cmp.Or(o.Gamma, 0.99)
	o.NStep = cmp.Or(o.NStep, 5)
	o.Reward = cmp.Or(o.Reward, reward.FDCCNormalised)
	o.CCA.Rescale = cmp.Or(o.CCA.Rescale, fdcc.RescaleCompound)
	o.UpdatesPerEpisode = cmp.Or(o.UpdatesPerEpisode, 50)
	t := td3.Defaults()
	c := o.TD3
	c.Inputs, c.Seq = fdcc.NumFeatures, fdcc.History
	c.Hidden = cmp.Or(c.Hidden, t.Hidden)
	if len(c.HeadHidden) == 0 {
		c.HeadHidden = t.HeadHidden
	}
	c.ActorLR = cmp.Or(c.ActorLR, t.ActorLR)
	c.CriticLR = cmp.Or(c.CriticLR, t.CriticLR)
	c.Batch = cmp.Or(c.Batch, t.Batch)
	c.Buffer = cmp.Or(c.Buffer, 200_000)
	c.Tau = cmp.Or(c.Tau, t.Tau)
	c.PolicyDelay = cmp.Or(c.PolicyDelay, t.PolicyDelay)
	c.TargetNoise = cmp.Or(c.TargetNoise, t.TargetNoise)
	c.NoiseClip = cmp.Or(c.NoiseClip, t.NoiseClip)
	c.Seed = o.Seed
	o.TD3 = c
	o.Warmup = cmp.Or(o.Warmup, 2*c.Batch)
	return o
}

func (o *Options) validate() error {
	switch {
	case o.EpisodesPerStage < 1:
		return fmt.Errorf("train fdcc: episodes per stage must be >= 1, got %d", o.EpisodesPerStage)
	case o.Duration <= 0 || o.Jitter < 0 || o.Jitter%units.Nanosecond != 0:
		return fmt.Errorf("train fdcc: the episode must last a positive time and the start window be whole nanoseconds >= 0")
	case o.FlowBytes <= 0:
		return fmt.Errorf("train fdcc: flow size must be positive, got %d B", int64(o.FlowBytes))
	case !(o.Explore >= 0 && o.Explore <= 1):
		return fmt.Errorf("train fdcc: exploration noise must be in [0, 1], got %v", o.Explore)
	case !(o.Gamma > 0 && o.Gamma <= 1):
		return fmt.Errorf("train fdcc: gamma must be in (0, 1], got %v", o.Gamma)
	case o.NStep < 1 || o.NStep > 64:
		return fmt.Errorf("train fdcc: n-step must be in 1..64, got %d", o.NStep)
	case !o.Reward.Known():
		return fmt.Errorf("train fdcc: reward must be one of %v, got %q", reward.FDCCReadings, o.Reward)
	case o.UpdatesPerEpisode < 0 || o.Warmup < 0 || o.RandomEpisodes < 0:
		return fmt.Errorf("train fdcc: updates per episode and warm-up must not be negative")
	}
	for _, n := range o.Curriculum {
		if n < 1 || n > 64 {
			return fmt.Errorf("train fdcc: curriculum flow counts must be in 1..64 (one flow per sender of the 64-to-64 dumbbell), got %d", n)
		}
	}
	return nil
}

func (o *Options) ctx() context.Context { return cmp.Or(o.Context, context.Background()) }

// Result is a trained policy and its learning curve.
type Result struct {
	// Policy is the kept checkpoint (Options.Heldout) or else Final.
	Policy *fdcc.Policy
	// Final is the actor after the last episode.
	Final *fdcc.Policy
	Curve []Row
	// Checkpoints are the held-out evaluations; Selected the index of the
	// kept one.
	Checkpoints []Checkpoint
	Selected    int
}

// Train runs the curriculum and returns the final actor as a policy, or,
// with Options.Heldout, the checkpoint with the best held-out score.
func Train(o Options) (*Result, error) {
	o = o.Defaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	ag, err := td3.New(o.TD3)
	if err != nil {
		return nil, fmt.Errorf("train fdcc: %w", err)
	}
	// The episodes' flow counts and stages, in order.
	var plan []struct{ stage, flows int }
	for stage := range o.Curriculum {
		for i := range o.EpisodesPerStage {
			plan = append(plan, struct{ stage, flows int }{stage, o.Curriculum[i%(stage+1)]})
		}
	}
	res := &Result{}
	par := max(o.Parallel, 1)
	var best *fdcc.Policy
	for first := 0; first < len(plan); first += par {
		if err := o.ctx().Err(); err != nil {
			return nil, fmt.Errorf("train fdcc: interrupted after %d episodes: %w", first, err)
		}
		k := min(par, len(plan)-first)
		eps := make([]*EpisodeResult, k)
		// Each of k > 1 episodes runs with its own copy of the actor.
		errs := pool.RunAll(context.Background(), k, pool.Options{Parallel: k, KeepGoing: true}, func(_ context.Context, i int) error {
			ep, net := first+i, ag.Actor()
			if k > 1 {
				net = net.Clone()
			}
			pol, err := fdcc.NewPolicy(net, o.CCA.Rescale, "training")
			if err != nil {
				return fmt.Errorf("train fdcc: %w", err)
			}
			eo := o
			eo.random = ep < o.RandomEpisodes
			if eps[i], err = Episode(pol, plan[ep].flows, splitmix.Derive(o.Seed, ep), eo); err != nil {
				return fmt.Errorf("train fdcc: episode %d (%d-to-1): %w", ep, plan[ep].flows, err)
			}
			return nil
		})
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		// Transitions enter the buffer in episode order; the updates of the
		// k episodes follow the last of them.
		rows := make([]Row, k)
		for i, e := range eps {
			ep := first + i
			rows[i] = e.Row
			rows[i].Episode, rows[i].Stage, rows[i].Flows, rows[i].Seed = int32(ep), int32(plan[ep].stage), int32(plan[ep].flows), int64(splitmix.Derive(o.Seed, ep))
			for _, t := range e.Transitions(o.Gamma, o.NStep) {
				if err := ag.Add(t); err != nil {
					return nil, fmt.Errorf("train fdcc: episode %d (%d-to-1): %w", ep, plan[ep].flows, err)
				}
				rows[i].Added++
			}
		}
		if ag.Len() >= o.Warmup && o.UpdatesPerEpisode > 0 {
			if err := update(ag, &o, k, &rows[k-1]); err != nil {
				return nil, fmt.Errorf("train fdcc: interrupted in the updates after episode %d: %w", first+k-1, err)
			}
		}
		for _, row := range rows {
			res.Curve = append(res.Curve, row)
			if o.Progress != nil {
				o.Progress(row)
			}
		}
		done := first + k
		if o.CheckpointEvery > 0 && (done/o.CheckpointEvery > first/o.CheckpointEvery || done == len(plan) && len(o.Heldout) > 0) {
			cp, err := fdcc.NewPolicy(ag.Actor().Clone(), o.CCA.Rescale, fmt.Sprintf("%s (checkpoint after %d episodes)", o.ProducedBy, done))
			if err != nil {
				return nil, fmt.Errorf("train fdcc: %w", err)
			}
			if len(o.Heldout) > 0 {
				c, err := heldoutCheck(cp, done, &o)
				if err != nil {
					return nil, err
				}
				res.Checkpoints = append(res.Checkpoints, c)
				if best == nil || c.Score > res.Checkpoints[res.Selected].Score {
					best, res.Selected = cp, len(res.Checkpoints)-1
				}
			}
			if o.Checkpoint != nil {
				if err := o.Checkpoint(done, cp); err != nil {
					return nil, fmt.Errorf("train fdcc: checkpoint after episode %d: %w", done, err)
				}
			}
		}
	}
	net := ag.Actor().Clone()
	if res.Final, err = fdcc.NewPolicy(net, o.CCA.Rescale, o.ProducedBy); err != nil {
		return nil, fmt.Errorf("train fdcc: %w", err)
	}
	res.Policy = res.Final
	if best != nil {
		if res.Policy, err = fdcc.NewPolicy(best.Net.Clone(), o.CCA.Rescale, fmt.Sprintf("%s (kept: checkpoint after %d episodes)", o.ProducedBy, res.Checkpoints[res.Selected].Episode)); err != nil {
			return nil, fmt.Errorf("train fdcc: %w", err)
		}
	}
	return res, nil
}

// Checkpoint is one held-out evaluation during training.
type Checkpoint struct {
	// Episode is the number of episodes done.
	Episode int           `json:"episode"`
	Score   float64       `json:"heldout_score"`
	Table   heldout.Table `json:"heldout"`
}

// heldoutCheck plays pol on o.Heldout without exploration.
func heldoutCheck(pol *fdcc.Policy, ep int, o *Options) (Checkpoint, error) {
	c := Checkpoint{Episode: ep}
	cc := o.CCA
	cc.Policy, cc.PolicyPath = pol, "checkpoint"
	spec, err := fdcc.NewSpec("fdcc:check", cc)
	if err != nil {
		return c, fmt.Errorf("train fdcc: %w", err)
	}
	t, err := heldout.Evaluate(spec, o.Heldout, heldout.Options{Seed: o.Seed, Parallel: o.Parallel, Context: o.Context})
	if err != nil {
		return c, fmt.Errorf("train fdcc: checkpoint after episode %d: %w", ep, err)
	}
	c.Score, c.Table = t.Score, t
	return c, nil
}

// Flow is one flow's decisions in an episode.
type Flow struct {
	Decisions []fdcc.Decision
	// Active is Total_flow_num at each decision: the flows toward the
	// destination that have started and not finished (flow_count=dst), or
	// the switch's count (flow_count=switch).
	Active []int
	// Finished reports whether the flow completed within the episode (its
	// last transition is then terminal).
	Finished bool
}

// EpisodeResult is what one episode leaves for learning.
type EpisodeResult struct {
	Flows []Flow
	Row   Row
	// Reading is the reward reading of Row.Reward and of Transitions.
	Reading reward.FDCCReward
}

// scenario is the training incast's network: the 64-to-64 dumbbell
// (100 Gb/s, 1 us links; FDCC, Zhang 2023, Section 5.3) with the switch's
// defaults, every flow with the one-BDP window (Section 5.3), stopped at
// the episode's duration.
func scenario(seed uint64, o *Options) (replay.Config, error) {
	topo, err := topology.Parse("dumbbell:n=64,rate=100G,bottleneck=100G,delay=1us", 0)
	if err != nil {
		return replay.Config{}, err
	}
	cfg := replay.Config{
		Topology: topo, Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig(),
		Seed: seed, Packets: replay.PacketsNone, MaxTime: o.Duration,
	}
	cfg.NIC.WindowBDP = true
	return cfg, nil
}

// Episode replays one flows-to-1 incast under pol with exploration noise
// and returns every flow's decisions.
func Episode(pol *fdcc.Policy, flows int, seed uint64, o Options) (*EpisodeResult, error) {
	o = o.Defaults()
	spec := fmt.Sprintf("incast:n=%d,size=%d,jitter=%dns,dist=gaussian,dst=64", flows, int64(o.FlowBytes), int64(o.Jitter/units.Nanosecond))
	tr, err := gen.Parse(spec, int64(seed))
	if err != nil {
		return nil, err
	}
	cfg, err := scenario(seed, &o)
	if err != nil {
		return nil, err
	}
	cc := o.CCA
	cc.Policy, cc.PolicyPath = pol, "training"
	cs, err := fdcc.NewSpec("fdcc:train", cc)
	if err != nil {
		return nil, err
	}
	cfg.CC = cs
	cfg.ApplyCCHints()
	n := len(tr.Messages)
	er := &EpisodeResult{Flows: make([]Flow, n), Reading: o.Reward}
	release := make([]units.Time, n)
	size := make([]units.Bytes, n)
	for i, m := range tr.Messages {
		release[i], size[i] = m.Release, units.Bytes(m.Bytes)
	}
	acked := make([]units.Bytes, n)
	done := make([]units.Time, n)
	for i := range done {
		done[i] = units.Never
	}
	active := func(now units.Time) int {
		k := 0
		for i := range n {
			if release[i] <= now && now < done[i] {
				k++
			}
		}
		return k
	}
	useSwitch := cc.FlowCount == fdcc.FlowCountSwitch

	cfg.WrapCC = func(id int32, a cca.Algorithm) cca.Algorithm {
		ag := a.(*fdcc.Agent)
		rng := rand.New(rand.NewPCG(seed, uint64(id)+1))
		switch {
		case o.random:
			ag.SetExplore(func(float64, *[fdcc.NumFeatures]float64) float64 { return 2*rng.Float64() - 1 })
		case o.Explore > 0 && !o.greedy:
			ag.SetExplore(func(x float64, _ *[fdcc.NumFeatures]float64) float64 { return x + rng.NormFloat64()*o.Explore })
		}
		f := &er.Flows[id]
		ag.SetHook(func(d *fdcc.Decision) {
			f.Decisions = append(f.Decisions, *d)
			k := d.Flows
			if !useSwitch {
				k = active(d.Time)
			}
			f.Active = append(f.Active, k)
		})
		return &tracker{Agent: ag, acked: &acked[id], size: size[id], done: &done[id]}
	}
	res, err := replay.RunContext(o.ctx(), cfg, tr)
	if err != nil {
		return nil, err
	}
	// The learning row: decisions, rewards, goodput.
	var total units.Bytes
	first := units.Never
	var rsum, drain, osum float64
	var nr int
	for i := range er.Flows {
		f := &er.Flows[i]
		f.Finished = done[i] != units.Never
		total += acked[i]
		first = min(first, release[i])
		for k := range f.Decisions {
			d := &f.Decisions[k]
			er.Row.Steps++
			osum += d.Output
			er.Row.MaxQLen = max(er.Row.MaxQLen, d.Obs[fdcc.FeatQLen])
			if r := Reward(o.Reward, d, f.Active[k]); !math.IsNaN(r) {
				rsum += r
				nr++
				if reward.FDCCDraining(Obs(d, f.Active[k])) {
					drain++
				}
			}
		}
	}
	if nr > 0 {
		er.Row.Reward, er.Row.Draining = rsum/float64(nr), drain/float64(nr)
	}
	if er.Row.Steps > 0 {
		er.Row.MeanOutput = osum / float64(er.Row.Steps)
	}
	end := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).SimDurationNs
	if span := float64(end)*1e3 - float64(first); span > 0 {
		er.Row.Goodput = float64(total) * 8 / (span / float64(units.Second)) / 100e9
	}
	return er, nil
}

// tracker records a flow's acknowledged bytes and when it completes.
type tracker struct {
	*fdcc.Agent
	acked *units.Bytes
	size  units.Bytes
	done  *units.Time
}

func (t *tracker) OnAck(now units.Time, a *cca.Ack) {
	*t.acked += a.AckedBytes
	if *t.acked >= t.size && *t.done == units.Never {
		*t.done = now
	}
	t.Agent.OnAck(now, a)
}

// Obs is Algorithm 1's input from a decision's observation: SWITCHRATE,
// QLEN and RTT are the features, THROUGHPUT the goodput feature (the
// flow's goodput over the step / line rate), Total_flow_num is flows.
// Without telemetry yet, SWITCHRATE and QLEN are NaN.
func Obs(d *fdcc.Decision, flows int) reward.FDCCObs {
	o := reward.FDCCObs{
		SwitchRate: d.Obs[fdcc.FeatSwitchRate], QLen: d.Obs[fdcc.FeatQLen], RTT: d.Obs[fdcc.FeatRTT],
		Throughput: d.Obs[fdcc.FeatGoodput], Flows: flows,
	}
	if !d.INT {
		o.SwitchRate, o.QLen = math.NaN(), math.NaN()
	}
	return o
}

// Reward is Algorithm 1's reward, in the reading r, of the observation d
// (the outcome of the previous decision's action).
func Reward(r reward.FDCCReward, d *fdcc.Decision, flows int) float64 {
	return r.Func()(Obs(d, flows))
}

// Transitions turns the episode into TD3 transitions: for each flow and
// decision t with a later decision, the history of up to fdcc.History
// transformed observations ending at t, the output o_t, the n-step return
// of the rewards of observations t+1..t+m (m = min(n, decisions after t);
// FDCC, Zhang 2023, Section 4.2), and the history ending at t+m with
// discount gamma^m, or 0 when the flow finished and t+m is its last
// decision. Steps whose rewards are not all defined (no telemetry yet) are
// skipped.
func (e *EpisodeResult) Transitions(gamma float64, n int) []td3.Transition {
	var out []td3.Transition
	for i := range e.Flows {
		f := &e.Flows[i]
		k := len(f.Decisions)
		if k < 2 {
			continue
		}
		xs := make([]float64, k*fdcc.NumFeatures)
		r := make([]float64, k) // r[t] = reward of the action at t (observation t+1)
		for t := range k {
			fdcc.Transform(xs[t*fdcc.NumFeatures:(t+1)*fdcc.NumFeatures], &f.Decisions[t].Obs)
			if t > 0 {
				r[t-1] = Reward(e.Reading, &f.Decisions[t], f.Active[t])
			}
		}
		hist := func(t int) ([]float64, int) {
			lo := max(0, t-fdcc.History+1)
			return xs[lo*fdcc.NumFeatures : (t+1)*fdcc.NumFeatures], t - lo + 1
		}
		for t := 0; t < k-1; t++ {
			m := min(n, k-1-t)
			ret, g, ok := 0.0, 1.0, true
			for j := range m {
				if math.IsNaN(r[t+j]) {
					ok = false
					break
				}
				ret += g * r[t+j]
				g *= gamma
			}
			if !ok {
				continue
			}
			if f.Finished && t+m == k-1 {
				g = 0
			}
			obs, steps := hist(t)
			next, nsteps := hist(t + m)
			out = append(out, td3.Transition{
				Obs: slices.Clone(obs), Steps: steps, Action: f.Decisions[t].Output, Reward: ret,
				Next: slices.Clone(next), NextSteps: nsteps, Discount: g,
			})
		}
	}
	return out
}

// Evaluation is runfolder.EvaluationFile's content.
type Evaluation struct {
	Rule        string       `json:"rule"`
	Checkpoints []Checkpoint `json:"checkpoints"`
	// Selected is the index of the checkpoint policy.json holds.
	Selected int `json:"selected"`
}

// SelectionRule states how policy.json is chosen among checkpoints.
const SelectionRule = "every checkpoint (the actor at the end of each stage or every --checkpoint-every episodes, and the final one) plays the held-out scenarios without exploration; " + heldout.Rule + "; the highest is kept, the earlier on ties (rl/heldout)"

// WriteOutputs writes dir/policy.json and dir/learning.parquet and, with
// held-out checkpoints, dir/policy-final.json, dir/evaluation.json and
// dir/evaluation.txt, each atomically.
func WriteOutputs(dir string, res *Result) error {
	b, err := res.Policy.Marshal()
	if err != nil {
		return err
	}
	if err := output.WriteFileAtomic(filepath.Join(dir, runfolder.PolicyFile), b); err != nil {
		return err
	}
	if len(res.Checkpoints) > 0 {
		fb, err := res.Final.Marshal()
		if err != nil {
			return err
		}
		if err := output.WriteFileAtomic(filepath.Join(dir, runfolder.FinalPolicyFile), fb); err != nil {
			return err
		}
		ev := Evaluation{Rule: SelectionRule, Checkpoints: res.Checkpoints, Selected: res.Selected}
		if err := output.WriteJSONAtomic(filepath.Join(dir, runfolder.EvaluationFile), ev); err != nil {
			return err
		}
		var t strings.Builder
		fmt.Fprintf(&t, "rule: %s\n\n", ev.Rule)
		for i, c := range ev.Checkpoints {
			mark := ""
			if i == ev.Selected {
				mark = " (kept: " + runfolder.PolicyFile + ")"
			}
			t.WriteString(c.Table.Format(fmt.Sprintf("checkpoint after %d episodes%s", c.Episode, mark)))
			t.WriteString("\n")
		}
		if err := output.WriteFileAtomic(filepath.Join(dir, runfolder.EvaluationText), []byte(t.String())); err != nil {
			return err
		}
	}
	return output.WriteRows(filepath.Join(dir, runfolder.LearningFile), res.Curve)
}

// Score is a policy's mean Algorithm 1 reward (reading o.Reward) per decision, acting without
// exploration noise, over one episode of each flows-to-1 incast for each
// seed: the training objective measured on scenarios the training did not
// draw (give seeds it did not use), to choose among checkpoints by the
// paper's reward rather than by a test's metrics.
func Score(pol *fdcc.Policy, flows []int, seeds []uint64, o Options) (float64, error) {
	o = o.Defaults()
	o.greedy, o.random = true, false
	var sum float64
	var n int64
	for _, f := range flows {
		for _, seed := range seeds {
			eps, err := Episode(pol, f, seed, o)
			if err != nil {
				return 0, fmt.Errorf("score: %d-to-1, seed %d: %w", f, seed, err)
			}
			sum += eps.Row.Reward * float64(eps.Row.Steps)
			n += eps.Row.Steps
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("score: no decisions")
	}
	return sum / float64(n), nil
}

// update takes the episode's gradient steps one at a time, so that a
// cancelled context stops training within one step, and fills row with
// their mean statistics.
func update(ag *td3.Agent, o *Options, episodes int, row *Row) error {
	var closs, obj, q float64
	actor := 0
	steps := o.UpdatesPerEpisode * episodes
	for range steps {
		if err := o.ctx().Err(); err != nil {
			return err
		}
		st := ag.Update(1)
		closs += st.CriticLoss
		q += st.MeanQ
		if st.ActorSteps > 0 {
			obj += st.ActorObjective
			actor++
		}
	}
	n := float64(steps)
	row.CriticLoss, row.MeanQ, row.Updates = closs/n, q/n, int32(steps)
	if actor > 0 {
		row.ActorObj = obj / float64(actor)
	}
	return nil
}
