// Package distill distils an RL-CC policy (the teacher, usually the MLP that
// package rl/train produces) into gradient-boosted regression trees small
// enough for a NIC (RL-CC-NIC, Fuhrer 2023, Section V-C): it replays
// many-to-one scenarios with the teacher in control, records every
// decision's (observation, action) pair, fits at most 10 trees of depth at
// most 4 with package rl/gbt by minimising the squared error to the
// teacher's actions (RL-CC-NIC, Fuhrer 2023, Fig. 5), and reports the
// student's RMSE on pairs from held-out runs.
//
// A student fitted only on the teacher's own trajectories drifts, in
// closed loop, into states the teacher never visits (its small errors
// compound), and there it has no labels. So after the first fit further
// rounds replay the scenarios with the current student in control and
// label every state it visits with the teacher's action (dataset
// aggregation, DAgger: Ross, Gordon and Bagnell, AISTATS 2011), then refit
// on all pairs gathered so far.
//
// Distillation is deterministic: the same Options give the same trees,
// byte for byte.
package distill

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/rl/eval"
	"github.com/ccreplay/ccreplay/rl/gbt"
	"github.com/ccreplay/ccreplay/rl/gbt/fit"
	"github.com/ccreplay/ccreplay/rl/scenario"
	"github.com/ccreplay/ccreplay/units"
)

// The NIC's limits on the student (RL-CC-NIC, Fuhrer 2023, Section V-C: "up
// to 10 boosting trees of a maximal depth of four", about 150 operations).
const (
	MaxTrees = 10
	MaxDepth = 4
)

// Options configure a distillation. Zero fields take the defaults in
// their comments.
type Options struct {
	// Teacher is the policy to imitate; nil means rlcc.Default().
	Teacher *rlcc.Policy
	// Flows are the many-to-one flow counts the teacher is replayed on.
	// Default 2, 4, 8, 16, 32, 64, 128 (the training flow counts of
	// rl/train).
	Flows []int
	// Runs is the number of training runs (seeds) per flow count; one more
	// run per flow count, with its own seed, gives the held-out pairs.
	// Default 1.
	Runs int
	// Duration is each run's simulated time, picoseconds. Default 10 ms.
	Duration units.Time
	// Jitter spreads the flows' start times over [0, Jitter), picoseconds
	// (whole nanoseconds), so agents do not act in lockstep. Default 20 us.
	Jitter units.Time
	// Latency is the teacher's decision latency while collecting,
	// picoseconds. Default (0) 2 us, the simulated decision latency of
	// RL-CC-NIC (Fuhrer 2023), Table III; negative means none.
	Latency units.Time
	// MaxPairsPerRun caps the pairs kept from one run (evenly spaced over
	// the run's decisions, in decision order), so large fan-ins do not
	// dominate. Default 20000.
	MaxPairsPerRun int
	// Params are the booster's parameters. Default DefaultParams(): 10
	// trees of depth 4, shrinkage 0.8. Trees and MaxDepth may not exceed MaxTrees and
	// MaxDepth.
	Params gbt.Params
	// Rounds is the number of collection rounds: round 0 replays with the
	// teacher in control, each later round with the student fitted after
	// the round before (DAgger), every state labelled with the teacher's
	// action. Default 10.
	Rounds int
	// BufferBytes is the switch's shared buffer of the collection runs,
	// bytes. Default 5 MB (RL-CC, Tessler 2022, Fig. 3, the evaluation's
	// buffer).
	BufferBytes units.Bytes
	// StartMin spreads the collection runs' starting rates: each flow
	// starts at a fraction of line rate drawn log-uniformly from
	// [StartMin, 1], so that the pairs cover unequal rates. 1 starts every
	// flow at line rate. Default (0) DefaultStartMin. Dimensionless.
	StartMin float64
	// SelectFlows, when set, picks the student among the rounds' fits by a
	// closed-loop check: after each round the student replays many-to-one
	// with each of these flow counts (rl/eval, 5 MB buffer, every flow
	// starting at line rate, measured over 5..10 ms with the collection
	// latency) and the kept student is the one with the highest smallest
	// fairness FR (RL-CC, Tessler 2022, Table 1) over them, the earlier on
	// ties. A 10-tree student reproduces the teacher's actions to an RMSE of
	// about 0.01, but the small part of the action that falls with the
	// flow's rate, which decides fairness, comes out differently from one
	// fit to the next. Nil: the last round's student.
	SelectFlows []int
	// AugmentRates, when set, adds to every collected training pair one
	// copy per factor with rate_frac and prev_rate_frac multiplied by that
	// factor (copies whose rate_frac would leave (0, 1] are skipped), each
	// labelled by querying the teacher. The other features are kept: the
	// copy is a flow at another rate in the same congestion state. The
	// teacher's actions fall with the flow's own rate by a small amount
	// (what makes rates converge, RL-CC, Tessler 2022, Proposition 1), a
	// small share of the actions' variance along the recorded trajectories,
	// where flows in one state mostly share one rate; the copies make that
	// slope a larger share of what the trees fit. Held-out pairs are not
	// augmented. Nil: no copies.
	AugmentRates []float64
	// Seed seeds the collection runs (ECN draws, start jitter).
	Seed uint64
	// ProducedBy is recorded in the student's policy file.
	ProducedBy string
	// Context, when set, stops the work when it is done: the call returns
	// an error wrapping its error within milliseconds. Nil means
	// context.Background().
	Context context.Context
}

// ctx returns o.Context or context.Background().
func (o *Options) ctx() context.Context { return cmp.Or(o.Context, context.Background()) }

// Defaults returns o with every zero field filled.
func (o Options) Defaults() Options {
	if len(o.Flows) == 0 {
		o.Flows = []int{2, 4, 8, 16, 32, 64, 128}
	}
	o.Runs = cmp.Or(o.Runs, 1)
	o.Duration = cmp.Or(o.Duration, 10*units.Millisecond)
	o.Jitter = cmp.Or(o.Jitter, 20*units.Microsecond)
	o.Latency = cmp.Or(o.Latency, 2*units.Microsecond)
	o.Rounds = cmp.Or(o.Rounds, 10)
	o.BufferBytes = cmp.Or(o.BufferBytes, 5*units.MB)
	o.MaxPairsPerRun = cmp.Or(o.MaxPairsPerRun, 20000)
	if o.Params.Trees == 0 && o.Params.MaxDepth == 0 && o.Params.LearningRate == 0 {
		o.Params = DefaultParams()
	}
	o.StartMin = cmp.Or(o.StartMin, DefaultStartMin)
	return o
}

func (o *Options) validate() error {
	switch {
	case o.Runs < 1:
		return fmt.Errorf("distill: runs %d must be >= 1", o.Runs)
	case o.Duration <= 0:
		return fmt.Errorf("distill: duration %v must be positive", o.Duration)
	case o.Jitter < 0:
		return fmt.Errorf("distill: jitter %v must not be negative", o.Jitter)
	case o.Rounds < 1:
		return fmt.Errorf("distill: rounds %d must be >= 1", o.Rounds)
	case o.BufferBytes < 0:
		return fmt.Errorf("distill: buffer %d bytes must not be negative", int64(o.BufferBytes))
	case !(o.StartMin > 0 && o.StartMin <= 1):
		return fmt.Errorf("distill: start-rate minimum %v must be in (0, 1]", o.StartMin)
	case o.MaxPairsPerRun < 1:
		return fmt.Errorf("distill: max pairs per run %d must be >= 1", o.MaxPairsPerRun)
	case o.Params.Trees > MaxTrees || o.Params.MaxDepth > MaxDepth:
		return fmt.Errorf("distill: %d trees of depth %d exceed the NIC limit of %d trees of depth %d (RL-CC-NIC, Fuhrer 2023, Section V-C)",
			o.Params.Trees, o.Params.MaxDepth, MaxTrees, MaxDepth)
	}
	for _, f := range o.AugmentRates {
		if !(f > 0) || math.IsInf(f, 0) || f == 1 {
			return fmt.Errorf("distill: rate augmentation factor %v must be positive, finite and not 1", f)
		}
	}
	for _, n := range append(slices.Clone(o.Flows), o.SelectFlows...) {
		if n < 1 || n > scenario.MaxFlows {
			return fmt.Errorf("distill: flow count %d must be in 1..%d", n, scenario.MaxFlows)
		}
	}
	return nil
}

// DefaultParams are the booster's parameters for distillation:
// gbt.DefaultParams() (10 trees of depth 4, 20 pairs per leaf, lambda 1)
// with shrinkage 0.8. With 0.5 the ten trees left more of the action's
// rate dependence unfitted (docs/DISTILL.md).
func DefaultParams() gbt.Params {
	p := gbt.DefaultParams()
	p.LearningRate = 0.8
	return p
}

// DefaultStartMin is the default Options.StartMin.
const DefaultStartMin = 0.01

// Pairs are (observation, action) pairs: X[i] in rlcc.FeatureNames order,
// Y[i] the teacher's action (clamped to its action range).
type Pairs struct {
	X [][]float64
	Y []float64
}

// Collect replays the many-to-one scenario with flows flows with policy
// control acting and returns the states it visits as pairs labelled with
// teacher's actions (control's own when teacher is nil or control), at
// most o.MaxPairsPerRun of them (evenly spaced in decision order when
// there are more).
func Collect(control, teacher *rlcc.Policy, flows int, seed uint64, o Options) (Pairs, error) {
	o = o.Defaults()
	sc, err := scenario.ManyToOne(flows, scenario.Options{Duration: o.Duration, Jitter: o.Jitter, BufferBytes: o.BufferBytes}, seed)
	if err != nil {
		return Pairs{}, fmt.Errorf("distill: %w", err)
	}
	spec, err := rlcc.NewSpec("rlcc:collect", rlcc.Config{Policy: control, PolicyPath: "collect", Latency: max(o.Latency, 0)})
	if err != nil {
		return Pairs{}, fmt.Errorf("distill: %w", err)
	}
	cfg := sc.Config(spec, seed)
	var all []rlcc.Decision
	start := scenario.StartRates(len(sc.Trace.Messages), o.StartMin, seed)
	cfg.WrapCC = func(id int32, a cca.Algorithm) cca.Algorithm {
		ag, ok := a.(*rlcc.Agent)
		if !ok {
			return a
		}
		ag.SetHook(func(d *rlcc.Decision) { all = append(all, *d) })
		ag.StartAt(start[id])
		return a
	}
	if _, err := replay.RunContext(o.ctx(), cfg, sc.Trace); err != nil {
		return Pairs{}, fmt.Errorf("distill: %s: %w", sc.Name, err)
	}
	keep := len(all)
	if keep > o.MaxPairsPerRun {
		keep = o.MaxPairsPerRun
	}
	p := Pairs{X: make([][]float64, 0, keep), Y: make([]float64, 0, keep)}
	var work []float64
	if teacher != nil && teacher != control {
		work = make([]float64, teacher.WorkSize())
	}
	for k := 0; k < keep; k++ {
		d := &all[k*len(all)/keep]
		y := d.Action
		if work != nil {
			y = teacher.Action(d.Features[:], work)
		}
		p.X = append(p.X, append([]float64(nil), d.Features[:]...))
		p.Y = append(p.Y, y)
	}
	return p, nil
}

// AugmentRates returns p with, after its pairs, one copy of each pair per
// factor with rate_frac and prev_rate_frac multiplied by the factor,
// labelled by teacher (Options.AugmentRates); a copy whose rate_frac or
// prev_rate_frac would leave (0, 1] is skipped. No factors: p unchanged.
func AugmentRates(p Pairs, teacher *rlcc.Policy, factors []float64) Pairs {
	if len(factors) == 0 {
		return p
	}
	work := make([]float64, teacher.WorkSize())
	n := len(p.Y)
	for _, f := range factors {
		for i := 0; i < n; i++ {
			x := p.X[i]
			c, ok := withRates(x, x[rlcc.FRateFrac]*f, x[rlcc.FPrevRateFrac]*f)
			if !ok {
				continue
			}
			p.X = append(p.X, c)
			p.Y = append(p.Y, teacher.Action(c, work))
		}
	}
	return p
}

// slopeFactor is the rate change over which RateSlopeRMSE compares slopes.
const slopeFactor = 1.25

// RateSlope is the action's change when a state's rate_frac and
// prev_rate_frac are multiplied by 1.25 instead of 0.8 (the part of the
// action that makes flows' rates converge), and ok false when a scaled
// rate leaves (0, 1].
func RateSlope(p *rlcc.Policy, x, work []float64) (slope float64, ok bool) {
	r, pr := x[rlcc.FRateFrac], x[rlcc.FPrevRateFrac]
	hi, okHi := withRates(x, r*slopeFactor, pr*slopeFactor)
	lo, okLo := withRates(x, r/slopeFactor, pr/slopeFactor)
	if !okHi || !okLo {
		return 0, false
	}
	return p.Action(hi, work) - p.Action(lo, work), true
}

// withRates is a copy of the observation x with rate_frac r and
// prev_rate_frac pr, and ok false (no copy) when either is outside (0, 1].
func withRates(x []float64, r, pr float64) (c []float64, ok bool) {
	if !(r > 0 && r <= 1 && pr > 0 && pr <= 1) {
		return nil, false
	}
	c = append([]float64(nil), x...)
	c[rlcc.FRateFrac], c[rlcc.FPrevRateFrac] = r, pr
	return c, true
}

// rateSlopeFit is the RMSE of the student's RateSlope against the
// teacher's over the pairs of p where it is defined, and the teacher's
// slopes' root mean square, for scale; both 0 when it is defined on no
// pair.
func rateSlopeFit(student, teacher *rlcc.Policy, p Pairs) (rmse, rms float64) {
	ws, wt := make([]float64, student.WorkSize()), make([]float64, teacher.WorkSize())
	var se, ss float64
	var n int
	for _, x := range p.X {
		t, ok := RateSlope(teacher, x, wt)
		if !ok {
			continue
		}
		s, _ := RateSlope(student, x, ws)
		se += (s - t) * (s - t)
		ss += t * t
		n++
	}
	if n == 0 {
		return 0, 0
	}
	return math.Sqrt(se / float64(n)), math.Sqrt(ss / float64(n))
}

// worstFR is the smallest FR (RL-CC, Tessler 2022, Table 1) of student
// over the many-to-one runs of o.SelectFlows.
func worstFR(student *rlcc.Policy, o Options) (float64, error) {
	spec, err := rlcc.NewSpec("rlcc:select", rlcc.Config{Policy: student, PolicyPath: "select", Latency: max(o.Latency, 0)})
	if err != nil {
		return 0, fmt.Errorf("distill: %w", err)
	}
	r, err := eval.Fairest(spec, o.SelectFlows, eval.Options{Duration: 10 * units.Millisecond, BufferBytes: o.BufferBytes, Seed: o.Seed, Context: o.Context})
	if err != nil {
		return 0, fmt.Errorf("distill: selection: %w", err)
	}
	return r.FR, nil
}

// ScenarioFit is the held-out fit on one flow count.
type ScenarioFit struct {
	Flows      int     `json:"flows"`
	TrainPairs int     `json:"train_pairs"`
	TestPairs  int     `json:"test_pairs"`
	TestRMSE   float64 `json:"test_rmse"`
}

// Result is a distillation's outcome.
type Result struct {
	// Student is the tree policy (kind "trees", the teacher's action range).
	Student *rlcc.Policy `json:"-"`
	// Trees and Depth are the student's tree count and depth.
	Trees int `json:"trees"`
	Depth int `json:"depth"`
	// Nodes is the student's node count (internal and leaves).
	Nodes int `json:"nodes"`
	// TrainPairs and TestPairs count the pairs fitted and held out.
	TrainPairs int `json:"train_pairs"`
	TestPairs  int `json:"test_pairs"`
	// TrainRMSE and TestRMSE are sqrt(mean (teacher - student)^2) over the
	// fitted and held-out pairs (the loss L(y, g(x)) of
	// RL-CC-NIC, Fuhrer 2023, Fig. 5).
	TrainRMSE float64 `json:"train_rmse"`
	TestRMSE  float64 `json:"test_rmse"`
	// TestStd is the standard deviation of the teacher's held-out actions:
	// the RMSE of the best constant student, for scale.
	TestStd float64 `json:"test_std"`
	// Rounds is the number of collection rounds (1 + DAgger rounds).
	Rounds int `json:"rounds"`
	// ClosedLoopRMSE is the RMSE over held-out runs with the student in
	// control, against the teacher's action in each state the student
	// visited; ClosedLoopPairs counts those states.
	ClosedLoopRMSE  float64 `json:"closed_loop_rmse"`
	ClosedLoopPairs int     `json:"closed_loop_pairs"`
	// RoundFR is each round's student's smallest FR over Options.SelectFlows
	// and SelectedRound the round kept (0-based); both empty without
	// selection.
	RoundFR       []float64 `json:"round_fr,omitempty"`
	SelectedRound int       `json:"selected_round"`
	// RoundStudents is every round's student, round 0 first, whichever is
	// kept: for a selection of one's own (`distill rlcc --keep-rounds`
	// writes them). Not in distill.json.
	RoundStudents []*rlcc.Policy `json:"-"`
	// AugmentedPairs counts the fitted pairs that are rate copies
	// (Options.AugmentRates), included in TrainPairs.
	AugmentedPairs int `json:"augmented_pairs,omitempty"`
	// RateSlopeRMSE is the RMSE, over the held-out pairs, of the student's
	// RateSlope (the action at 1.25 x the state's rates minus the action at
	// 0.8 x) against the teacher's; RateSlopeRMS is the teacher's slopes'
	// root mean square, for scale. Both 0 when no held-out pair has rates
	// that stay in (0, 1] when scaled.
	RateSlopeRMSE float64 `json:"rate_slope_rmse"`
	RateSlopeRMS  float64 `json:"rate_slope_rms"`
	// PerFlows breaks TestRMSE down by flow count.
	PerFlows []ScenarioFit `json:"per_flows"`
}

// runSeed derives the seed of run r (r = Runs is the held-out run) of
// flow count index i.
func runSeed(seed uint64, i, r int) uint64 {
	z := seed + uint64(i)*0x9e3779b97f4a7c15 + uint64(r+1)*0xbf58476d1ce4e5b9
	z = (z ^ (z >> 30)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Distill collects the teacher's pairs, fits the student and measures it.
func Distill(o Options) (*Result, error) {
	o = o.Defaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	teacher := o.Teacher
	if teacher == nil {
		p, err := rlcc.Default()
		if err != nil {
			return nil, fmt.Errorf("distill: %w", err)
		}
		teacher = p
	}
	var train Pairs
	tests := make([]Pairs, len(o.Flows))
	res := &Result{PerFlows: make([]ScenarioFit, len(o.Flows)), Rounds: o.Rounds}
	for i, n := range o.Flows {
		res.PerFlows[i].Flows = n
		p, err := Collect(teacher, nil, n, runSeed(o.Seed, i, o.Runs), o)
		if err != nil {
			return nil, err
		}
		if len(p.Y) == 0 {
			return nil, fmt.Errorf("distill: the teacher took no decisions in the held-out run of %d flows", n)
		}
		tests[i] = p
		res.PerFlows[i].TestPairs = len(p.Y)
	}
	var student, kept *rlcc.Policy
	var e, keptE *gbt.Ensemble
	bestFR := math.Inf(-1)
	for round := 0; round < o.Rounds; round++ {
		control := teacher
		if round > 0 {
			control = student
		}
		for i, n := range o.Flows {
			for r := 0; r < o.Runs; r++ {
				p, err := Collect(control, teacher, n, runSeed(o.Seed, i, round*(o.Runs+1)+r), o)
				if err != nil {
					return nil, err
				}
				real := len(p.Y)
				p = AugmentRates(p, teacher, o.AugmentRates)
				res.AugmentedPairs += len(p.Y) - real
				train.X = append(train.X, p.X...)
				train.Y = append(train.Y, p.Y...)
				res.PerFlows[i].TrainPairs += len(p.Y)
			}
		}
		if len(train.Y) == 0 {
			return nil, fmt.Errorf("distill: the teacher took no decisions in %d runs", len(o.Flows)*o.Runs)
		}
		var err error
		if e, err = fit.Fit(train.X, train.Y, rlcc.FeatureNames, o.Params); err != nil {
			return nil, fmt.Errorf("distill: %w", err)
		}
		if err := e.CheckLimits(MaxTrees, MaxDepth); err != nil {
			return nil, fmt.Errorf("distill: %w", err)
		}
		if student, err = rlcc.NewTreePolicy(e, teacher.AMin, teacher.AMax, o.ProducedBy); err != nil {
			return nil, fmt.Errorf("distill: %w", err)
		}
		res.RoundStudents = append(res.RoundStudents, student)
		if len(o.SelectFlows) == 0 {
			kept, keptE = student, e
			continue
		}
		fr, err := worstFR(student, o)
		if err != nil {
			return nil, err
		}
		res.RoundFR = append(res.RoundFR, fr)
		if fr > bestFR {
			bestFR, kept, keptE, res.SelectedRound = fr, student, e, round
		}
	}
	student, e = kept, keptE
	// Closed loop: the final student in control on held-out seeds, every
	// state labelled by the teacher.
	var closed Pairs
	for i, n := range o.Flows {
		p, err := Collect(student, teacher, n, runSeed(o.Seed, i, -1), o)
		if err != nil {
			return nil, err
		}
		closed.X = append(closed.X, p.X...)
		closed.Y = append(closed.Y, p.Y...)
	}
	res.ClosedLoopPairs = len(closed.Y)
	res.ClosedLoopRMSE = RMSE(student, closed)
	res.Student = student
	res.Trees, res.Depth, res.Nodes = e.NumTrees(), e.MaxDepth(), e.NumNodes()
	res.TrainPairs = len(train.Y)
	res.TrainRMSE = RMSE(student, train)
	var all Pairs
	for i, p := range tests {
		res.PerFlows[i].TestRMSE = RMSE(student, p)
		all.X = append(all.X, p.X...)
		all.Y = append(all.Y, p.Y...)
	}
	res.TestPairs = len(all.Y)
	res.TestRMSE = RMSE(student, all)
	res.TestStd = std(all.Y)
	res.RateSlopeRMSE, res.RateSlopeRMS = rateSlopeFit(student, teacher, all)
	return res, nil
}

// RMSE is sqrt(mean over pairs of (teacher action - student action)^2),
// the student's action clamped to its range as the agent clamps it
// (RL-CC-NIC, Fuhrer 2023, Fig. 5). It is NaN for no pairs.
func RMSE(student *rlcc.Policy, p Pairs) float64 {
	if len(p.Y) == 0 {
		return math.NaN()
	}
	work := make([]float64, student.WorkSize())
	var se float64
	for i, x := range p.X {
		d := p.Y[i] - student.Action(x, work)
		se += d * d
	}
	return math.Sqrt(se / float64(len(p.Y)))
}

func std(y []float64) float64 {
	if len(y) == 0 {
		return math.NaN()
	}
	var m float64
	for _, v := range y {
		m += v
	}
	m /= float64(len(y))
	var s float64
	for _, v := range y {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(y)))
}
