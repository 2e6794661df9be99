// Package train trains the RL-CC policy in the replay with paper 004's
// on-policy deterministic policy gradient (Section 6.1, Eq. 3): episodes
// of many-to-one scenarios with 2, 4 and 8 flows in turn (paper 004
// Section 8), every flow of an episode acting with the same MLP (paper
// 001 Appendix A: two hidden layers of 12, ReLU, tanh output), one Adam
// ascent step on the Eq. 3 estimate after each episode.
//
// Training is deterministic: the same Options give a byte-identical
// policy and learning curve.
package train

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/rl/nn"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/rl/scenario"
	v1 "github.com/ccreplay/ccreplay/schema/v1"
	"github.com/ccreplay/ccreplay/units"
)

// Options configure a training run. Zero fields take the defaults their
// comments give (see Defaults).
type Options struct {
	// Episodes is the number of iterations (episode + gradient step).
	// Default 600.
	Episodes int
	// Seed seeds the network's initialisation and every episode's replay
	// (ECN draws, start-time jitter).
	Seed uint64
	// Flows are the many-to-one flow counts, cycled episode by episode.
	// Default 2, 4, 8 (paper 004 Section 8).
	Flows []int
	// Duration is one episode's simulated time, picoseconds. Default 5 ms
	// (300 to 600 decisions per flow).
	Duration units.Time
	// Jitter spreads the flows' start times over [0, Jitter), picoseconds,
	// so that agents do not act in lockstep. Default 20 us.
	Jitter units.Time
	// Latency is the decision latency during training, picoseconds.
	// Default (0) 2 us (paper 001 Table III's simulator "emulates a
	// decision latency of 2 us"); negative means none.
	Latency units.Time
	// Hidden are the hidden layer widths. Default 12, 12 (paper 001
	// Appendix A).
	Hidden []int
	// LR is Adam's step size. Default 0.01.
	LR float64
	// Objective is the reward; default paper 001's target 0.064 and beta
	// 1.5 (package reward) with delta clipped at -DefaultClip and the
	// action penalty DefaultPenalty.
	Objective Objective
	// AMin and AMax are the action range (rate multipliers). Default
	// rlcc.AMin, rlcc.AMax.
	AMin, AMax float64
	// Init, when set, is the starting network (fine-tuning); otherwise a
	// fresh one from Seed with a small output layer (actions start near 1).
	Init *nn.MLP
	// ProducedBy is written into the policy file.
	ProducedBy string
	// Progress, when set, is called after every iteration.
	Progress func(row v1.LearningRow)
}

// Defaults returns o with every zero field filled.
func (o Options) Defaults() Options {
	if o.Episodes == 0 {
		o.Episodes = 600
	}
	if len(o.Flows) == 0 {
		o.Flows = scenario.TrainingFlows
	}
	if o.Duration == 0 {
		o.Duration = 5 * units.Millisecond
	}
	if o.Jitter == 0 {
		o.Jitter = 20 * units.Microsecond
	}
	if o.Latency == 0 {
		o.Latency = 2 * units.Microsecond
	}
	if len(o.Hidden) == 0 {
		o.Hidden = []int{12, 12}
	}
	if o.LR == 0 {
		o.LR = 0.01
	}
	if o.Objective == (Objective{}) {
		o.Objective = Objective{Target: reward.RLCCTarget, Beta: reward.RLCCBeta, Clip: DefaultClip, Penalty: DefaultPenalty}
	}
	if o.AMin == 0 {
		o.AMin = rlcc.AMin
	}
	if o.AMax == 0 {
		o.AMax = rlcc.AMax
	}
	return o
}

func (o *Options) validate() error {
	switch {
	case o.Episodes < 1:
		return fmt.Errorf("train: episodes must be >= 1, got %d", o.Episodes)
	case o.Duration <= 0 || o.Jitter < 0:
		return fmt.Errorf("train: episode duration must be positive and jitter non-negative")
	case !(o.LR > 0) || math.IsInf(o.LR, 0):
		return fmt.Errorf("train: learning rate must be positive, got %v", o.LR)
	case !(o.Objective.Target > 0) || o.Objective.Beta < 0 || o.Objective.Clip < 0 || o.Objective.Penalty < 0:
		return fmt.Errorf("train: target must be positive, beta, clip and penalty non-negative, got %v, %v, %v and %v", o.Objective.Target, o.Objective.Beta, o.Objective.Clip, o.Objective.Penalty)
	case !(o.AMin > 0 && o.AMin < 1 && o.AMax > 1) || math.IsInf(o.AMax, 0):
		return fmt.Errorf("train: action range needs 0 < amin < 1 < amax, got [%v, %v]", o.AMin, o.AMax)
	}
	for _, f := range o.Flows {
		if f < 1 || f > 1024 {
			return fmt.Errorf("train: flow counts must be in 1..1024, got %d", f)
		}
	}
	return nil
}

// DefaultClip is the default Objective.Clip (dimensionless): delta >= -1,
// about 15 times the largest positive delta (target = 0.064).
const DefaultClip = 1.0

// DefaultPenalty is the default Objective.Penalty (dimensionless): below
// beta the action settles near 1 + 0.064/0.6 = 1.11, the size of paper 001
// Table VI's increases (1.05 to 1.15).
const DefaultPenalty = 0.3

// Result is a trained policy and its learning curve.
type Result struct {
	Policy *rlcc.Policy
	Curve  []v1.LearningRow
}

// episodeSeed mixes the run seed and the episode index (splitmix64).
func episodeSeed(seed uint64, ep int) uint64 {
	x := seed*0x9e3779b97f4a7c15 + uint64(ep) + 1
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
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
		if net, err = nn.New(sizes, o.Seed, 0.1); err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
	} else {
		net = net.Clone()
	}
	pol, err := rlcc.NewMLPPolicy(net, o.AMin, o.AMax, o.ProducedBy)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	opt, err := nn.NewAdam(net.NumParams(), o.LR)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	grad := make([]float64, net.NumParams())
	work := make([]float64, pol.WorkSize())
	res := &Result{Policy: pol}
	for ep := range o.Episodes {
		flows := o.Flows[ep%len(o.Flows)]
		seed := episodeSeed(o.Seed, ep)
		trajs, row, err := Episode(pol, flows, seed, o)
		if err != nil {
			return nil, fmt.Errorf("train: episode %d: %w", ep, err)
		}
		steps := make([][]Step, len(trajs))
		for i, t := range trajs {
			steps[i] = Steps(t)
		}
		o.Objective.Gradient(pol, steps, grad, work)
		norm := 0.0
		for _, g := range grad {
			norm += g * g
		}
		row.Episode, row.GradNorm = int32(ep), math.Sqrt(norm)
		summarize(&row, steps, o.Objective)
		opt.Ascend(net.Params, grad)
		res.Curve = append(res.Curve, row)
		if o.Progress != nil {
			o.Progress(row)
		}
	}
	return res, nil
}

// Episode replays one many-to-one scenario of the given flow count with
// policy pol and returns every flow's decisions (indexed by flow id) and
// a learning row with the network-side figures (utilization, fairness,
// drops) filled in.
func Episode(pol *rlcc.Policy, flows int, seed uint64, o Options) ([][]rlcc.Decision, v1.LearningRow, error) {
	var row v1.LearningRow
	sc, err := scenario.ManyToOne(flows, scenario.Options{Duration: o.Duration, Jitter: o.Jitter}, seed)
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
	cfg.WrapCC = func(id int32, a cca.Algorithm) cca.Algorithm {
		ag := a.(*rlcc.Agent)
		ag.SetHook(func(d *rlcc.Decision) { trajs[id] = append(trajs[id], *d) })
		return &ackCounter{Agent: ag, bytes: &acked[id]}
	}
	res, err := replay.Run(cfg, sc.Trace, "")
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
	row.DropsPkts = res.Summary.DropsPkts
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
func summarize(row *v1.LearningRow, flows [][]Step, obj Objective) {
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

// File names WriteOutputs uses.
const (
	PolicyFile   = "policy.json"
	LearningFile = "learning.parquet"
)

// WriteOutputs writes dir/policy.json and dir/learning.parquet, each
// atomically.
func WriteOutputs(dir string, res *Result) error {
	if err := output.WriteJSONAtomic(filepath.Join(dir, PolicyFile), res.Policy.File()); err != nil {
		return err
	}
	return output.WriteRows(filepath.Join(dir, LearningFile), res.Curve)
}
