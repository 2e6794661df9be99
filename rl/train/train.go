// Package train trains the RL-CC policy in the replay with the on-policy
// deterministic policy gradient of RL-CC (Tessler 2022), Section 6.1, Eq. 3:
// episodes of many-to-one scenarios with 2 to 128 flows in turn (its Section
// 8 uses 2, 4 and 8), every flow of an episode acting with the same MLP
// (RL-CC-NIC, Fuhrer 2023, Appendix A: two hidden layers of 12, ReLU, tanh
// output), one Adam ascent step on the Eq. 3 estimate after each episode,
// and optionally the checkpoint kept by a closed-loop fairness check.
//
// Training is deterministic: the same Options give a byte-identical
// policy and learning curve.
package train

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/batch/pool"
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/internal/splitmix"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/rl/eval"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/rl/nn"
	"github.com/ccreplay/ccreplay/rl/nn/learn"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/rl/scenario"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// Options configure a training run. Zero fields take the defaults their
// comments give (see Defaults).
type Options struct {
	// Episodes is the number of iterations (episode + gradient step).
	// Default 1400.
	Episodes int
	// Seed seeds the network's initialisation and every episode's replay
	// (ECN draws, start-time jitter).
	Seed uint64
	// Flows are the many-to-one flow counts, cycled episode by episode.
	// Default DefaultFlows.
	Flows []int
	// Duration is one episode's simulated time, picoseconds. Default 5 ms
	// (300 to 600 decisions per flow).
	Duration units.Time
	// Jitter spreads the flows' start times over [0, Jitter), picoseconds,
	// so that agents do not act in lockstep. Default 20 us.
	Jitter units.Time
	// StartMin spreads the flows' starting rates: each flow starts at a
	// fraction of line rate drawn log-uniformly from [StartMin, 1] (from the
	// episode's seed). 1 starts every flow at line rate, as the many-to-one
	// test of RL-CC (Tessler 2022) does. A spread shows the policy unequal
	// rates at the same RTT inflation, the signal that drives flows to the
	// fair share (RL-CC, Tessler 2022, Proposition 1). Dimensionless, in
	// (0, 1]; default (0) DefaultStartMin.
	StartMin float64
	// StartAround, when positive, makes every other episode of each flow
	// count start its N flows near the fair share instead: each at 1/N x
	// 10^(StartAround x (2u - 1)) of line rate (u uniform in [0, 1), at most
	// line rate), that is spread over StartAround decades either side of
	// 1/N. Those episodes spend their time near the fixed point of
	// RL-CC (Tessler 2022), Proposition 1, with unequal rates, instead of
	// recovering from an N-fold overload. Decades, >= 0; 0 = never.
	StartAround float64
	// around is set on the episodes StartAround applies to.
	around bool
	// BufferBytes is the switch's shared buffer during training, bytes.
	// Default (0) 5 MB, the buffer of the simulator of
	// RL-CC (Tessler 2022), Fig. 3, and of rl/eval.
	BufferBytes units.Bytes
	// Latency is the decision latency during training, picoseconds. Default
	// (0) 2 us (the simulator of RL-CC-NIC, Fuhrer 2023, Table III,
	// "emulates a decision latency of 2 us"); negative means none.
	Latency units.Time
	// Hidden are the hidden layer widths. Default 12, 12
	// (RL-CC-NIC, Fuhrer 2023, Appendix A).
	Hidden []int
	// LR is Adam's step size. Default 0.01.
	LR float64
	// Objective is the reward; default the target 0.064 and beta 1.5
	// of RL-CC-NIC (Fuhrer 2023), from package reward, with delta clipped
	// at -DefaultClip and the action penalty DefaultPenalty.
	Objective Objective
	// AMin and AMax are the action range (rate multipliers). Default
	// rlcc.AMin, rlcc.AMax.
	AMin, AMax float64
	// Init, when set, is the starting network (fine-tuning); otherwise a
	// fresh one from Seed with a small output layer (actions start near 1).
	Init *nn.MLP
	// SelectFlows, when set, picks the policy returned among checkpoints:
	// every SelectEvery iterations (and after the last) the current policy
	// replays many-to-one with each of these flow counts (rl/eval: 5 MB
	// buffer, flows starting at line rate together, measured over 5..10 ms,
	// the training latency) and the checkpoint with the highest smallest
	// fairness FR (RL-CC, Tessler 2022, Table 1) over them is kept, the
	// earlier on ties. Nil: the last iteration's policy. Use flow counts
	// other than the ones you report.
	SelectFlows []int
	// Heldout, when set, picks the policy returned among checkpoints
	// instead of SelectFlows: every SelectEvery iterations (and after the
	// last) the current policy plays these scenarios (rl/heldout, at the
	// training latency) and the checkpoint with the highest
	// heldout score (goodput and fairness together; the rule is
	// rl/heldout's) is kept, the earlier on ties.
	Heldout []heldout.Scenario
	// SelectEvery is the checkpoint interval, iterations. Default 50.
	SelectEvery int
	// Parallel is the number of episodes of one iteration, replayed at
	// once, each with its own flow count (the next ones of Flows) and seed;
	// the iteration's gradient is their mean, one Adam step per iteration.
	// Episodes counts episodes, so a run has ceil(Episodes / Parallel)
	// iterations. Default (<= 1) 1: one episode per iteration, RL-CC
	// (Tessler 2022), Section 6.1's loop. The same Parallel and Seed give
	// the same policy; another Parallel gives another one.
	Parallel int
	// ProducedBy is written into the policy file.
	ProducedBy string
	// Progress, when set, is called after every iteration.
	Progress func(row v2.LearningRow)
	// Context, when set, stops training when it is done: Train then
	// returns an error wrapping its error, within one episode's replay
	// slice (milliseconds). Nil means context.Background().
	Context context.Context
}

// ctx returns o.Context or context.Background().
func (o *Options) ctx() context.Context { return cmp.Or(o.Context, context.Background()) }

// Defaults returns o with every zero field filled.
func (o Options) Defaults() Options {
	o.Episodes = cmp.Or(o.Episodes, 1400)
	if len(o.Flows) == 0 {
		o.Flows = DefaultFlows
	}
	o.StartMin = cmp.Or(o.StartMin, DefaultStartMin)
	o.BufferBytes = cmp.Or(o.BufferBytes, 5*units.MB)
	o.Duration = cmp.Or(o.Duration, 5*units.Millisecond)
	o.Jitter = cmp.Or(o.Jitter, 20*units.Microsecond)
	o.Latency = cmp.Or(o.Latency, 2*units.Microsecond)
	if len(o.Hidden) == 0 {
		o.Hidden = []int{12, 12}
	}
	o.LR = cmp.Or(o.LR, 0.01)
	if o.Objective == (Objective{}) {
		o.Objective = Objective{Target: reward.RLCCTarget, Beta: reward.RLCCBeta, Clip: DefaultClip, Penalty: DefaultPenalty}
	}
	o.AMin = cmp.Or(o.AMin, rlcc.AMin)
	o.SelectEvery = cmp.Or(o.SelectEvery, 50)
	o.AMax = cmp.Or(o.AMax, rlcc.AMax)
	return o
}

func (o *Options) validate() error {
	switch {
	case o.Episodes < 1:
		return fmt.Errorf("train: episodes must be >= 1, got %d", o.Episodes)
	case o.Duration <= 0 || o.Jitter < 0:
		return fmt.Errorf("train: episode duration must be positive and jitter non-negative")
	case o.SelectEvery < 1:
		return fmt.Errorf("train: checkpoint interval must be >= 1 iteration, got %d", o.SelectEvery)
	case !(o.StartAround >= 0 && o.StartAround <= 4):
		return fmt.Errorf("train: start spread around the fair share must be in [0, 4] decades, got %v", o.StartAround)
	case !(o.StartMin > 0 && o.StartMin <= 1):
		return fmt.Errorf("train: start-rate minimum must be in (0, 1], got %v", o.StartMin)
	case o.BufferBytes < 0:
		return fmt.Errorf("train: buffer must not be negative, got %d", int64(o.BufferBytes))
	case !(o.LR > 0) || math.IsInf(o.LR, 0):
		return fmt.Errorf("train: learning rate must be positive, got %v", o.LR)
	case !(o.Objective.Target > 0) || o.Objective.Beta < 0 || o.Objective.Clip < 0 || o.Objective.Penalty < 0:
		return fmt.Errorf("train: target must be positive, beta, clip and penalty non-negative, got %v, %v, %v and %v", o.Objective.Target, o.Objective.Beta, o.Objective.Clip, o.Objective.Penalty)
	case !(o.AMin > 0 && o.AMin < 1 && o.AMax > 1) || math.IsInf(o.AMax, 0):
		return fmt.Errorf("train: action range needs 0 < amin < 1 < amax, got [%v, %v]", o.AMin, o.AMax)
	}
	for _, f := range append(slices.Clone(o.Flows), o.SelectFlows...) {
		if f < 1 || f > MaxFlows {
			return fmt.Errorf("train: flow counts must be in 1..%d, got %d", MaxFlows, f)
		}
	}
	return nil
}

// MaxFlows is the largest many-to-one flow count of a training episode or
// checkpoint check: 2,048, the largest of RL-CC-NIC (Fuhrer 2023), Table III
// (an episode of 2,048 flows costs about twice one of 1,024 in CPU).
const MaxFlows = 2048

// DefaultFlows are the default training flow counts: the 2, 4 and 8 of
// RL-CC (Tessler 2022), Section 8, and 16 to 128. Trained on 2, 4 and 8
// only, our policies reached the fair share at 16 flows but not at 128 (FR
// 10, the slowest flow at 0.12 of the fair share: an action that depends too
// little on the rate at the inflations 128 flows see); see docs/RLCC.md.
var DefaultFlows = []int{2, 4, 8, 16, 32, 64, 128}

// DefaultStartMin is the default Options.StartMin: starting rates spread
// over two decades, from 1/100 of line rate to line rate.
const DefaultStartMin = 0.01

// DefaultClip is the default Objective.Clip (dimensionless): delta >= -1,
// about 15 times the largest positive delta (target = 0.064).
const DefaultClip = 1.0

// DefaultPenalty is the default Objective.Penalty (dimensionless): below
// beta the action settles near 1 + 0.064/2 = 1.03. With 0.3 (actions near
// 1.11 there, the size of the increases in
// RL-CC-NIC (Fuhrer 2023), Table VI) the policy cut hard (a near 0.5) after
// a run of increases and an RTT spike, and at 128 flows the flows that
// sample the queue rarely sank to 1/100 of the fair share; with 1.0 they
// stayed within 0.90-0.99 of it (docs/RLCC.md).
const DefaultPenalty = 1.0

// Result is a trained policy and its learning curve.
type Result struct {
	Policy *rlcc.Policy
	Curve  []v2.LearningRow
	// Checkpoints are the checks of Options.SelectFlows (empty without);
	// Selected is the index of the kept one.
	Checkpoints []Checkpoint
	Selected    int
}

// Checkpoint is one closed-loop check of the policy during training.
type Checkpoint struct {
	// Episode is the last episode before the policy was checked.
	Episode int `json:"episode"`
	// Score and Table are the held-out evaluation (Options.Heldout).
	Score float64        `json:"heldout_score,omitempty"`
	Table *heldout.Table `json:"heldout,omitempty"`
	// WorstFR is the smallest FR (RL-CC, Tessler 2022, Table 1) over the
	// check's flow counts; SU the bottleneck utilisation of that run,
	// percent.
	WorstFR float64 `json:"worst_fr"`
	SU      float64 `json:"su_pct"`
}

// Train runs o.Episodes iterations and returns the final policy.
func Train(o Options) (*Result, error) {
	o = o.Defaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	net := o.Init
	if net == nil {
		sizes := append(append([]int{rlcc.NumFeatures}, o.Hidden...), 1)
		var err error
		if net, err = learn.Init(sizes, o.Seed, 0.1); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
	} else {
		net = net.Clone()
	}
	pol, err := rlcc.NewMLPPolicy(net, o.AMin, o.AMax, o.ProducedBy)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	opt, err := learn.NewAdam(net.NumParams(), o.LR)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	grad := make([]float64, net.NumParams())
	work := make([]float64, pol.WorkSize())
	res := &Result{Policy: pol}
	var best *nn.MLP
	par := max(o.Parallel, 1)
	selecting := len(o.SelectFlows) > 0 || len(o.Heldout) > 0
	for it := 0; it*par < o.Episodes; it++ {
		if err := o.ctx().Err(); err != nil {
			return nil, fmt.Errorf("train: interrupted after %d of %d episodes: %w", it*par, o.Episodes, err)
		}
		first := it * par
		k := min(par, o.Episodes-first)
		batch, err := rollouts(pol, net, first, k, o)
		if err != nil {
			return nil, err
		}
		// The iteration's gradient: the mean of its episodes' Eq. 3
		// estimates, added in episode order.
		g := grad
		if k > 1 {
			g = make([]float64, len(grad))
			clear(grad)
		}
		for i := range batch {
			o.Objective.Gradient(pol, batch[i].steps, g, work)
			if k > 1 {
				for j, v := range g {
					grad[j] += v / float64(k)
				}
			}
		}
		norm := 0.0
		for _, v := range grad {
			norm += v * v
		}
		for i := range batch {
			row := batch[i].row
			row.Episode, row.GradNorm = int32(first+i), math.Sqrt(norm)
			summarize(&row, batch[i].steps, o.Objective)
			res.Curve = append(res.Curve, row)
			if o.Progress != nil {
				o.Progress(row)
			}
		}
		opt.Ascend(net.Params, grad)
		last := first + k - 1
		if selecting && ((it+1)%o.SelectEvery == 0 || last == o.Episodes-1) {
			c, err := check(pol, last, o)
			if err != nil {
				return nil, err
			}
			res.Checkpoints = append(res.Checkpoints, c)
			if best == nil || c.better(res.Checkpoints[res.Selected]) {
				best, res.Selected = net.Clone(), len(res.Checkpoints)-1
			}
		}
	}
	if best != nil {
		if res.Policy, err = rlcc.NewMLPPolicy(best, o.AMin, o.AMax, o.ProducedBy); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
	}
	return res, nil
}

// rollout is one episode of an iteration.
type rollout struct {
	steps [][]Step
	row   v2.LearningRow
}

// rollouts replays episodes first..first+k-1 (flow counts and seeds by
// episode index) with the current network, k at once when k > 1, each
// with a copy of the network.
func rollouts(pol *rlcc.Policy, net *nn.MLP, first, k int, o Options) ([]rollout, error) {
	out := make([]rollout, k)
	one := func(i int, p *rlcc.Policy) error {
		ep := first + i
		flows := o.Flows[ep%len(o.Flows)]
		seed := splitmix.Derive(o.Seed, ep)
		eo := o
		eo.around = o.StartAround > 0 && (ep/len(o.Flows))%2 == 1
		trajs, row, err := Episode(p, flows, seed, eo)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return fmt.Errorf("train: interrupted in episode %d of %d: %w", ep, o.Episodes, err)
			}
			return fmt.Errorf("train: episode %d: %w", ep, err)
		}
		out[i].row = row
		out[i].steps = make([][]Step, len(trajs))
		for j, t := range trajs {
			out[i].steps[j] = Steps(t)
		}
		return nil
	}
	errs := pool.RunAll(context.Background(), k, pool.Options{Parallel: k, KeepGoing: true}, func(_ context.Context, i int) error {
		if k == 1 {
			return one(i, pol)
		}
		p, err := rlcc.NewMLPPolicy(net.Clone(), o.AMin, o.AMax, o.ProducedBy)
		if err != nil {
			return fmt.Errorf("train: %w", err)
		}
		return one(i, p)
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// better reports whether c beats the kept checkpoint b: a higher held-out
// score when scored so, else a higher smallest FR.
func (c Checkpoint) better(b Checkpoint) bool {
	if c.Table != nil {
		return c.Score > b.Score
	}
	return c.WorstFR > b.WorstFR
}

// check replays pol on o.Heldout (the held-out score) or else on
// o.SelectFlows (the smallest FR).
func check(pol *rlcc.Policy, ep int, o Options) (Checkpoint, error) {
	c := Checkpoint{Episode: ep}
	spec, err := rlcc.NewSpec("rlcc:check", rlcc.Config{Policy: pol, PolicyPath: "checkpoint", Latency: max(o.Latency, 0), AMin: o.AMin, AMax: o.AMax})
	if err != nil {
		return c, fmt.Errorf("train: %w", err)
	}
	if len(o.Heldout) > 0 {
		t, err := heldout.Evaluate(spec, o.Heldout, heldout.Options{Seed: o.Seed, Parallel: o.Parallel, Context: o.Context})
		if err != nil {
			return c, fmt.Errorf("train: checkpoint after episode %d: %w", ep, err)
		}
		c.Score, c.Table = t.Score, &t
		return c, nil
	}
	r, err := eval.Fairest(spec, o.SelectFlows, eval.Options{Duration: 10 * units.Millisecond, BufferBytes: o.BufferBytes, Seed: o.Seed, Context: o.Context})
	if err != nil {
		return c, fmt.Errorf("train: checkpoint after iteration %d: %w", ep, err)
	}
	c.WorstFR, c.SU = r.FR, r.SU
	return c, nil
}

// Episode replays one many-to-one scenario of the given flow count with
// policy pol and returns every flow's decisions (indexed by flow id) and
// a learning row with the network-side figures (utilization, fairness,
// drops) filled in.
func Episode(pol *rlcc.Policy, flows int, seed uint64, o Options) ([][]rlcc.Decision, v2.LearningRow, error) {
	var row v2.LearningRow
	sc, err := scenario.ManyToOne(flows, scenario.Options{Duration: o.Duration, Jitter: o.Jitter, BufferBytes: o.BufferBytes}, seed)
	if err != nil {
		return nil, row, err
	}
	spec, err := rlcc.NewSpec("rlcc:train", rlcc.Config{Policy: pol, PolicyPath: "training", Latency: max(o.Latency, 0), AMin: o.AMin, AMax: o.AMax})
	if err != nil {
		return nil, row, err
	}
	cfg := sc.Config(spec, seed)
	trajs := make([][]rlcc.Decision, len(sc.Trace.Messages))
	acked := make([]float64, len(sc.Trace.Messages))
	start := scenario.StartRates(len(sc.Trace.Messages), o.StartMin, seed)
	if o.around {
		start = scenario.StartRatesAround(len(sc.Trace.Messages), o.StartAround, seed)
	}
	cfg.WrapCC = func(id int32, a cca.Algorithm) cca.Algorithm {
		ag := a.(*rlcc.Agent)
		ag.SetHook(func(d *rlcc.Decision) { trajs[id] = append(trajs[id], *d) })
		ag.StartAt(start[id])
		return &ackCounter{Agent: ag, bytes: &acked[id]}
	}
	res, err := replay.RunContext(o.ctx(), cfg, sc.Trace)
	if err != nil {
		return nil, row, err
	}
	total, sq := 0.0, 0.0
	for _, b := range acked {
		total += b
		sq += b * b
	}
	row.Scenario, row.Flows, row.Seed = sc.Name, int32(flows), int64(seed)
	row.Utilization = total * 8 / (float64(sc.Rate) * float64(sc.Duration) / float64(units.Second))
	if sq > 0 {
		row.JainIndex = total * total / (float64(len(acked)) * sq)
	}
	row.DropsPkts = metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).DropsPkts
	return trajs, row, nil
}

// ackCounter adds up a flow's newly acknowledged payload bytes.
type ackCounter struct {
	*rlcc.Agent
	bytes *float64
}

func (c *ackCounter) OnAck(now units.Time, a *cca.Ack) {
	*c.bytes += float64(a.AckedBytes)
	c.Agent.OnAck(now, a)
}

// summarize fills the per-decision means of row.
func summarize(row *v2.LearningRow, flows [][]Step, obj Objective) {
	var n, r, d, rate, infl, act, cnp float64
	for _, steps := range flows {
		for i := range steps {
			s := &steps[i]
			n++
			r += obj.Reward(s.Infl, s.RateFrac)
			d += obj.Delta(s.Infl, s.RateFrac)
			rate += s.RateFrac
			infl += s.Infl
			act += s.Action
			cnp += s.CNPs
		}
	}
	row.Decisions = int64(n)
	if n == 0 {
		return
	}
	row.MeanReward, row.MeanDelta = r/n, d/n
	row.MeanRateFrac, row.MeanRTTInflation = rate/n, infl/n
	row.MeanAction, row.MeanCNPs = act/n, cnp/n
}

// Evaluation is runfolder.EvaluationFile's content.
type Evaluation struct {
	// Rule states how the kept checkpoint was chosen.
	Rule        string       `json:"rule"`
	Scenarios   []string     `json:"scenarios"`
	Checkpoints []Checkpoint `json:"checkpoints"`
	// Selected is the index of the checkpoint policy.json holds.
	Selected int `json:"selected"`
}

// SelectionRule is the rule Evaluation.Rule states.
const SelectionRule = "every checkpoint plays the held-out scenarios; " + heldout.Rule + "; the highest is kept, the earlier on ties (rl/heldout)"

// WriteOutputs writes dir/policy.json and dir/learning.parquet, and with
// held-out checkpoints dir/evaluation.json and dir/evaluation.txt, each
// atomically.
func WriteOutputs(dir string, res *Result) error {
	if err := output.WriteJSONAtomic(filepath.Join(dir, runfolder.PolicyFile), res.Policy.File()); err != nil {
		return err
	}
	if len(res.Checkpoints) > 0 && res.Checkpoints[0].Table != nil {
		ev := Evaluation{Rule: SelectionRule, Checkpoints: res.Checkpoints, Selected: res.Selected}
		for _, r := range res.Checkpoints[0].Table.Rows {
			ev.Scenarios = append(ev.Scenarios, r.Scenario)
		}
		if err := output.WriteJSONAtomic(filepath.Join(dir, runfolder.EvaluationFile), ev); err != nil {
			return err
		}
		if err := output.WriteFileAtomic(filepath.Join(dir, runfolder.EvaluationText), []byte(ev.Text())); err != nil {
			return err
		}
	}
	return output.WriteRows(filepath.Join(dir, runfolder.LearningFile), res.Curve)
}

// Text is the evaluation as text: the rule, then each checkpoint's table,
// the kept one marked.
func (e Evaluation) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rule: %s\n\n", e.Rule)
	for i, c := range e.Checkpoints {
		if c.Table == nil {
			continue
		}
		mark := ""
		if i == e.Selected {
			mark = " (kept: " + runfolder.PolicyFile + ")"
		}
		b.WriteString(c.Table.Format(fmt.Sprintf("checkpoint after episode %d%s", c.Episode+1, mark)))
		b.WriteString("\n")
	}
	return b.String()
}
