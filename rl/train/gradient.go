package train

import (
	"math"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/rl/nn/learn"
	"github.com/ccreplay/ccreplay/rl/reward"
)

// Step is one decision of one flow with its outcome: the observation the
// policy saw, and the RTT inflation and rate fraction that followed the
// action (those the flow observed at its next decision: rate_{t+1} =
// a_t x rate_t and the RTT of a packet sent at that rate).
type Step struct {
	X        [rlcc.NumFeatures]float64
	Action   float64 // the action taken, a rate multiplier
	Infl     float64 // RTT inflation after the action
	RateFrac float64 // rate / line rate after the action
	CNPs     float64 // CNPs in the interval that followed
}

// Steps pairs each decision of one flow's trajectory with the next one's
// observation; the last decision has no outcome and is dropped.
func Steps(traj []rlcc.Decision) []Step {
	if len(traj) < 2 {
		return nil
	}
	out := make([]Step, len(traj)-1)
	for t := range out {
		next := &traj[t+1].Features
		out[t] = Step{X: traj[t].Features, Action: traj[t].Action,
			Infl: next[rlcc.FRTTInflation], RateFrac: next[rlcc.FRateFrac], CNPs: next[rlcc.FCNPs]}
	}
	return out
}

// Objective is the reward of training: target and beta of
// RL-CC-NIC (Fuhrer 2023), Eq. 1 (Beta = 0 with BetaFree gives the reward of
// RL-CC, Tessler 2022, Section 4).
type Objective struct {
	// Target is the inflation control parameter, dimensionless.
	Target float64
	// Beta is the congestion tolerance, an RTT inflation; ignored when
	// BetaFree.
	Beta float64
	// BetaFree selects the reward of RL-CC (Tessler 2022), without beta.
	BetaFree bool
	// Clip, when positive, bounds the gradient weight delta below at -Clip
	// (dimensionless). RL-CC-NIC (Fuhrer 2023) leaves delta unbounded below;
	// a bound keeps the first episodes' huge RTT inflations (hundreds, while
	// every flow starts at line rate) from swamping the rest of the
	// estimate.
	Clip float64
	// Penalty is lambda of an action penalty -lambda (a - 1)^2 added to
	// the reward (dimensionless; 0 = none). Not in the papers: the Eq. 3
	// weights alone push a tanh policy to the ends of the action range
	// wherever delta keeps one sign, giving a bang-bang controller; the
	// penalty makes the action where delta is small and steady (e.g.
	// below beta, delta = target) 1 + delta / (2 lambda) instead.
	Penalty float64
}

// Delta is the gradient weight of RL-CC-NIC (Fuhrer 2023), Eq. 4,
//
//	delta = target - max(rtt_inflation - beta, 0) x sqrt(rate),
//
// or target - rtt_inflation x sqrt(rate) (RL-CC, Tessler 2022, Eq. 3) when
// BetaFree. Its sign says whether the action should have been larger (> 0)
// or smaller (< 0); the reward is -delta^2.
func (o Objective) Delta(infl, rateFrac float64) float64 {
	rate := math.Sqrt(math.Max(rateFrac, 0))
	var d float64
	if o.BetaFree {
		d = o.Target - infl*rate
	} else {
		d = o.Target - math.Max(infl-o.Beta, 0)*rate
	}
	if o.Clip > 0 && d < -o.Clip {
		d = -o.Clip
	}
	return d
}

// Reward is the per-decision reward (package reward): that of
// RL-CC-NIC (Fuhrer 2023), Eq. 1, or, when BetaFree, that of
// RL-CC (Tessler 2022), Section 4.
func (o Objective) Reward(infl, rateFrac float64) float64 {
	if o.BetaFree {
		return reward.RLCCBetaFree(infl, rateFrac, o.Target)
	}
	return reward.RLCC(infl, rateFrac, o.Target, o.Beta)
}

// Gradient is the estimate of the policy's value gradient of
// RL-CC (Tessler 2022), Eq. 3, for a set of flows that share the policy:
//
//	g = 1/F sum_f 1/T_f sum_t delta_t nabla_theta pi_theta(s_t)
//
// with delta_t of Objective.Delta at step t's outcome (the reward's
// sign structure replaces a critic: nabla_a of rtt_inflation x sqrt(rate)
// is non-negative and approximated by a constant absorbed into the
// learning rate). Flows without steps are left out of the mean F. grad
// (len = the MLP's NumParams) is overwritten; work holds the policy's
// WorkSize floats. It returns the number of flows used.
func (o Objective) Gradient(p *rlcc.Policy, flows [][]Step, grad, work []float64) int {
	clear(grad)
	used := 0
	for _, steps := range flows {
		if len(steps) > 0 {
			used++
		}
	}
	if used == 0 {
		return 0
	}
	for _, steps := range flows {
		if len(steps) == 0 {
			continue
		}
		w := 1 / (float64(len(steps)) * float64(used))
		for i := range steps {
			s := &steps[i]
			d := o.Delta(s.Infl, s.RateFrac) - 2*o.Penalty*(s.Action-1)
			actionGrad(p, s.X[:], w*d, grad, work)
		}
	}
	return used
}

// actionGrad adds scale x d a / d theta (the gradient of an MLP policy's
// action at observation x with respect to the network's parameters, in the
// layout of MLP.Params) to grad and returns the action. It is the
// nabla_theta pi_theta(s) of RL-CC (Tessler 2022), Eq. 3: with a = mid +
// half x tanh(.) the factor half = (AMax - AMin)/2 multiplies the network's
// gradient. work holds the policy's WorkSize floats.
func actionGrad(p *rlcc.Policy, x []float64, scale float64, grad, work []float64) float64 {
	if p.Kind != rlcc.KindMLP {
		panic("train: actionGrad needs an mlp policy")
	}
	z := work[:rlcc.NumFeatures]
	rlcc.Transform(x, z)
	y := learn.Backward(p.MLP, z, scale*(p.AMax-p.AMin)/2, grad, work[rlcc.NumFeatures:])
	return p.FromTanh(y)
}
