package rlcc

import "math"

// The operating point of the reward of RL-CC-NIC (Fuhrer 2023), Eq. 1 and 2, that Conditions
// describes: package rl/reward's defaults RLCCTarget and RLCCBeta, repeated
// here so that the runtime does not import the training side's reward
// package (a test checks they agree).
const (
	condTarget = 0.064 // the inflation control parameter "target", dimensionless
	condBeta   = 1.5   // the congestion tolerance beta, an RTT inflation
)

// Condition is a system condition of RL-CC-NIC (Fuhrer 2023), Table VI, as the values of
// the observation it stands for.
type Condition struct {
	// Name is "under-utilized", "on target" or "congested".
	Name string
	// RateFrac is rate / line rate, RTTInflation RTT / base RTT, CNPs the
	// CNPs in one decision interval (count).
	RateFrac, RTTInflation, CNPs float64
}

// Conditions returns the three conditions of RL-CC-NIC (Fuhrer 2023), Table VI for n
// flows sharing one bottleneck (RL-CC-NIC, Fuhrer 2023 analyses 4 to 1):
//
//   - under-utilized: rate 0.4/n of line rate (less than the fair share),
//     RTT inflation 1 (empty queue), no CNP;
//   - on target: the fair share 1/n at the steady-state inflation of RL-CC-NIC (Fuhrer 2023),
//     Eq. 2, beta + target x sqrt(n) (line rate 1), no CNP;
//   - congested: 1.6/n of line rate, RTT inflation 2 beta + 1 (= 4 with
//     beta 1.5: a queue of 3 base RTTs), one CNP.
//
// with target and beta the defaults of package reward (0.064 and 1.5).
func Conditions(n int) [3]Condition {
	fair := 1 / float64(max(n, 1))
	onTarget := condBeta + condTarget*math.Sqrt(float64(max(n, 1)))
	return [3]Condition{
		{Name: "under-utilized", RateFrac: 0.4 * fair, RTTInflation: 1},
		{Name: "on target", RateFrac: fair, RTTInflation: onTarget},
		{Name: "congested", RateFrac: min(1.6*fair, 1), RTTInflation: 2*condBeta + 1, CNPs: 1},
	}
}

// ExplainRow is one cell of RL-CC-NIC (Fuhrer 2023), Table VI: the policy's action when
// the previous decision saw Prev and the current one sees Cur.
type ExplainRow struct {
	Prev, Cur Condition
	// Features is the observation given to the policy (FeatureNames order);
	// prev_action is 1 and nacks 0.
	Features [NumFeatures]float64
	// Action is the policy's rate multiplier.
	Action float64
}

// Explain evaluates p on the nine (previous, current) combinations of
// Conditions(n), previous condition major, in the order under-utilized,
// on target, congested.
func Explain(p *Policy, n int) []ExplainRow {
	conds := Conditions(n)
	work := make([]float64, p.WorkSize())
	var rows []ExplainRow
	for _, prev := range conds {
		for _, cur := range conds {
			r := ExplainRow{Prev: prev, Cur: cur}
			r.Features = [NumFeatures]float64{cur.RateFrac, cur.RTTInflation, cur.CNPs, 0, 1, prev.RateFrac, prev.RTTInflation}
			r.Action = p.Action(r.Features[:], work)
			rows = append(rows, r)
		}
	}
	return rows
}

// PaperTableVI is RL-CC-NIC (Fuhrer 2023), Table VI (rows: previous condition; columns:
// current condition; order under-utilized, on target, congested).
var PaperTableVI = [3][3]float64{
	{1.05, 0.92, 0.89},
	{1.1, 1, 0.9},
	{1.15, 1.07, 0.94},
}
