package rlcc

import "math"

// FeatureNames are the RL-CC agent's observation features, in the order a
// policy receives them (RL-CC, Tessler 2022, Section 6 "Observations": the flow's
// rate, RTT, CNP and NACK counts; RL-CC-NIC (Fuhrer 2023), Appendix A: current and past
// state concatenated, a short history window in place of an LSTM). They
// are also columns of decisions.parquet, so ensembles trained elsewhere on
// that dataset can be loaded as policies.
//
//   - rate_frac: the flow's current rate / line rate, in (0, 1].
//   - rtt_inflation: the latest RTT sample / the path's base RTT (>= 1
//     without clock error).
//   - cnps: CNPs received since the previous decision (count).
//   - nacks: NACKs received since the previous decision (count).
//   - prev_action: the action taken at the previous decision (1 before the
//     first).
//   - prev_rate_frac, prev_rtt_inflation: rate_frac and rtt_inflation at the
//     previous decision (1 and 1 before the first: flows start at line rate
//     on an empty path).
var FeatureNames = []string{"rate_frac", "rtt_inflation", "cnps", "nacks", "prev_action", "prev_rate_frac", "prev_rtt_inflation"}

// Feature indices into an observation.
const (
	FRateFrac = iota
	FRTTInflation
	FCNPs
	FNACKs
	FPrevAction
	FPrevRateFrac
	FPrevRTTInflation
	// NumFeatures is len(FeatureNames).
	NumFeatures
)

// The action range (RL-CC, Tessler 2022, Section 6 "Actions": rate_{t+1} = a_t x
// rate_t). RL-CC (Tessler 2022) does not state its range (its PPO baseline used
// [0.8, 1.2], Appendix C.2) and RL-CC-NIC (Fuhrer 2023), Table VI shows actions from 0.89
// to 1.15. We use [0.5, 1.5] (our choice, centred on 1 so that a tanh
// output of 0 keeps the rate): the agent acts once per RTT and flows start
// at line rate, so with 8 flows the RTT grows about 8 x 0.8^k-fold in the
// k-th RTT under a = 0.8, and in our measurements 8-flow training episodes
// stayed at RTT inflations near 140 for milliseconds; with 0.5 the queue
// is under control after three RTTs.
const (
	// AMin is the smallest action, a rate multiplier.
	AMin = 0.5
	// AMax is the largest action, a rate multiplier.
	AMax = 1.5
)

// InputTransform names the fixed preprocessing an MLP policy applies to
// the observation before its first layer (written in policy files as
// "input_transform"). Version 1 maps the seven features to
//
//	sqrt(rate_frac), 4 ln(rtt_inflation), ln(1 + cnps), ln(1 + nacks),
//	2 (prev_action - 1), sqrt(prev_rate_frac), 4 ln(prev_rtt_inflation)
//
// with rates clamped to [0, 1], inflations to [1e-3, e^5] and counts to
// >= 0: every input is of order 1 in the region the reward cares about
// (rates from 1/8192 to 1, inflations from 1 to a few tens), and the
// square root matches the reward's sqrt(rate) (RL-CC, Tessler 2022, Section 6).
const InputTransform = "rlcc-v1"

// Transform writes the InputTransform of observation x into z (both of
// length NumFeatures).
func Transform(x, z []float64) {
	rate := func(v float64) float64 { return math.Sqrt(min(max(v, 0), 1)) }
	infl := func(v float64) float64 { return 4 * math.Log(min(max(v, 1e-3), math.Exp(5))) }
	count := func(v float64) float64 { return math.Log1p(max(v, 0)) }
	z[FRateFrac] = rate(x[FRateFrac])
	z[FRTTInflation] = infl(x[FRTTInflation])
	z[FCNPs] = count(x[FCNPs])
	z[FNACKs] = count(x[FNACKs])
	z[FPrevAction] = 2 * (x[FPrevAction] - 1)
	z[FPrevRateFrac] = rate(x[FPrevRateFrac])
	z[FPrevRTTInflation] = infl(x[FPrevRTTInflation])
	for i, v := range z[:NumFeatures] {
		if math.IsNaN(v) {
			z[i] = 0
		}
	}
}
