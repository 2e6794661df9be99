// Package reward holds the reward functions of the learned congestion
// controllers ccreplay studies, as pure functions of what a flow observes:
//
//   - Dolce-RC and Dolce-RC+ (Dolce-RC, Ye 2023, Eq. 4 and Eq. 5);
//   - RL-CC with congestion tolerance (RL-CC-NIC, Fuhrer 2023, Eq. 1)
//     and without it (RL-CC, Tessler 2022, Section 4, "Reward");
//   - FDCC's two-stage reward (FDCC, Zhang 2023, Algorithm 1) and its n-step
//     discounted sum (FDCC, Zhang 2023, Section 4.2, "Rewards").
//
// Inputs are dimensionless (fractions and ratios); each function documents
// the normalisation it expects. None of them panics: out-of-range inputs
// are clamped where the paper bounds the quantity, and NaN propagates.
package reward

import "math"

// DolceRC is Dolce-RC's reward (Dolce-RC, Ye 2023, Definition 2, Eq. 4):
//
//	X = 1 - num_ECNmarked_packets / num_packets_sent = 1 - ecnRatio
//
// ecnRatio is the fraction of data packets that were CE-marked over the
// measurement interval, clamped to [0, 1] so that X is in [0, 1].
func DolceRC(ecnRatio float64) float64 {
	return 1 - clamp01(ecnRatio)
}

// DolcePlusArms is the number of rate arms K of Dolce-RC+ assumed when an
// arm index is derived from a rate (DolcePlusArm): 4, the default of
// ccreplay's Dolce-RC+ (cca/dolce PlusConfig.Arms: C/8, C/4, C/2, C).
const DolcePlusArms = 4

// DolcePlus is Dolce-RC+'s reward for a message sent with arm i
// (Dolce-RC, Ye 2023, Definition 4, Eq. 5):
//
//	X = ideal_MCT / actual_MCT * (1 - ECN_Ratio)^i
//
// idealMCT and actualMCT are the message's ideal and measured completion
// times in the same unit (e.g. ns); their ratio is clamped to [0, 1] (the
// paper states X is in [0, 1]; a ratio above 1 can only come from rounding
// of the ideal). ecnRatio is the message's CE-marked fraction, clamped to
// [0, 1]; arm is the 0-based index of the rate arm r_i = C/2^(K-1-i)
// (Definition 3; negative arms count as 0). A non-positive actualMCT gives
// a ratio of 1.
func DolcePlus(idealMCT, actualMCT, ecnRatio float64, arm int) float64 {
	ratio := 1.0
	if actualMCT > 0 {
		ratio = clamp01(idealMCT / actualMCT)
	}
	return ratio * math.Pow(1-clamp01(ecnRatio), float64(max(arm, 0)))
}

// DolcePlusArm is the index of the Dolce-RC+ arm whose rate r_i =
// C/2^(K-1-i) (Dolce-RC, Ye 2023, Definition 3) is nearest to rateFrac =
// rate / C in log scale: round(K-1 + log2(rateFrac)), clamped to [0, K-1].
// It lets the Eq. 5 reward score any algorithm's rate. k < 1 is taken as 1;
// a non-positive rateFrac gives arm 0.
func DolcePlusArm(rateFrac float64, k int) int {
	k = max(k, 1)
	if !(rateFrac > 0) {
		return 0
	}
	i := math.Round(float64(k-1) + math.Log2(rateFrac))
	return int(math.Max(0, math.Min(float64(k-1), i)))
}

// RL-CC defaults: RL-CC-NIC (Fuhrer 2023), Section IV ("For our parameters,
// we used target=0.064, beta=1.5").
const (
	// RLCCTarget is the inflation control parameter "target", dimensionless.
	RLCCTarget = 0.064
	// RLCCBeta is the congestion tolerance beta, an RTT inflation.
	RLCCBeta = 1.5
)

// RLCC is the RL-CC reward with congestion tolerance
// (RL-CC-NIC, Fuhrer 2023, Eq. 1):
//
//	r = -(target - max(RTT-inflation - beta, 0) * sqrt(rate))^2
//
// rttInflation is RTT / base RTT, rateFrac the flow's rate as a fraction
// of line rate (negative values count as 0).
func RLCC(rttInflation, rateFrac, target, beta float64) float64 {
	d := target - math.Max(rttInflation-beta, 0)*math.Sqrt(math.Max(rateFrac, 0))
	return -d * d
}

// RLCCBetaFree is the RL-CC reward without congestion tolerance
// (RL-CC, Tessler 2022, Section 4, "Reward"):
//
//	r_t = -(target - RTT_t/base-RTT * sqrt(rate_t))^2
//
// rttInflation is RTT / base RTT, rateFrac the rate as a fraction of line
// rate (negative values count as 0). It equals RLCC with beta = 0 when
// rttInflation >= 0.
func RLCCBetaFree(rttInflation, rateFrac, target float64) float64 {
	d := target - rttInflation*math.Sqrt(math.Max(rateFrac, 0))
	return -d * d
}

// FDCCStageThreshold is the tolerance of FDCC (Zhang 2023), Algorithm 1,
// line 2: a flow is in the queue-draining stage when SWITCHRATE + QLEN - 1
// exceeds it.
const FDCCStageThreshold = 0.5

// FDCCObs is what FDCC's reward (FDCC, Zhang 2023, Algorithm 1) reads from
// one step. The normalisations are the thesis' (Section 4.2,
// "Observations").
type FDCCObs struct {
	// SwitchRate is SWITCHRATE: the throughput of the most congested link
	// on the path divided by that link's bandwidth, a fraction.
	SwitchRate float64
	// QLen is QLEN: that link's queue length divided by its
	// bandwidth-delay product (link rate x base RTT), a fraction.
	QLen float64
	// RTT is the RTT normalised by the standalone (base) RTT, >= 1 in a
	// correct run.
	RTT float64
	// Throughput is THROUGHPUT: the flow's goodput over the step divided by
	// the bandwidth of the receiver's link, a fraction.
	Throughput float64
	// Flows is Total_flow_num: the number of flows competing on the most
	// congested link, this one included (values below 1 count as 1).
	Flows int
}

// FDCCDraining reports whether o is in FDCC's queue-draining stage
// (FDCC, Zhang 2023, Algorithm 1, line 2): SWITCHRATE + QLEN - 1 > 0.5.
func FDCCDraining(o FDCCObs) bool {
	return o.SwitchRate+o.QLen-1 > FDCCStageThreshold
}

// FDCC is the two-stage reward of FDCC (Zhang 2023), Algorithm 1, with
// THROUGHPUT normalised so that the fair share is 1 (ccreplay's reading,
// docs/FDCC.md "The reward"):
//
//	if SWITCHRATE + QLEN - 1 > 0.5:  reward = -RTT            (line 3)
//	else: x = Total_flow_num x THROUGHPUT
//	      reward = x + 1/RTT - (x - 1)^2                      (line 5)
//
// x is the flow's throughput over its fair share of the receiver's link
// (1 at the fair share 1/N), RTT the RTT over the base RTT. A starved flow
// at the base RTT earns 0 and a flow at its fair share 2, whatever N; with
// the RTT fixed the reward peaks at x = 3/2 and falls below the fair
// share's at x = 2. FDCCLiteral is the text as printed. A non-positive RTT
// in the second branch contributes 0 instead of 1/RTT (no sample). Without
// telemetry (SwitchRate or QLen NaN) the stage is unknown and the reward
// is NaN.
func FDCC(o FDCCObs) float64 {
	return fdccTwoStage(o, func(o FDCCObs) float64 {
		x := float64(max(o.Flows, 1)) * o.Throughput
		return x + invRTT(o.RTT) - (x-1)*(x-1)
	})
}

// fdccTwoStage is the frame of FDCC (Zhang 2023), Algorithm 1, that every
// reading of its reward shares: NaN without telemetry (SwitchRate or QLen
// NaN: the stage is unknown), -RTT while the bottleneck drains (line 3),
// line5(o) otherwise.
func fdccTwoStage(o FDCCObs, line5 func(FDCCObs) float64) float64 {
	if math.IsNaN(o.SwitchRate) || math.IsNaN(o.QLen) {
		return math.NaN()
	}
	if FDCCDraining(o) {
		return -o.RTT
	}
	return line5(o)
}

// FDCCLiteral is the two-stage reward of FDCC (Zhang 2023), Algorithm 1,
// as printed, with THROUGHPUT the flow's share of the receiver's link:
//
//	if SWITCHRATE + QLEN - 1 > 0.5:  reward = -RTT                      (line 3)
//	else: reward = THROUGHPUT + 1/RTT - (THROUGHPUT - 1/Total_flow_num)^2 (line 5)
//
// It pays a starved flow at the base RTT 1 and one at its fair share
// 1 + 1/N + 1/N^2 at most, so it barely pays for using the link
// (TestFDCCRewardIncentives, docs/FDCC.md). NaN and RTT as FDCC.
func FDCCLiteral(o FDCCObs) float64 {
	return fdccTwoStage(o, func(o FDCCObs) float64 {
		d := o.Throughput - 1/float64(max(o.Flows, 1))
		return o.Throughput + invRTT(o.RTT) - d*d
	})
}

// FDCCLink is the two-stage reward of FDCC (Zhang 2023), Algorithm 1,
// with the two uses of THROUGHPUT in line 5 read as the two throughputs
// Section 4.2 defines (ccreplay's third reading, docs/FDCC.md "The
// reward"): the first term is SWITCHRATE, "Throughput of the most
// congested link" over its bandwidth, for "force flow to fully utilize the
// bottleneck link"; the square compares the flow's GOODPUT with its fair
// share, in units of the share, for "while remaining fairness":
//
//	if SWITCHRATE + QLEN - 1 > 0.5:  reward = -RTT            (line 3)
//	else: x = Total_flow_num x THROUGHPUT
//	      reward = SWITCHRATE + 1/RTT - (x - 1)^2             (line 5)
//
// On a full link at the base RTT a fair flow earns 2, a starved one 1 and
// one at 3/2 of its share 1.75; with the link and the RTT fixed the reward
// is highest at exactly the fair share, and it pays every flow for the
// link's utilisation whatever its own share. SWITCHRATE is used as
// measured (not clamped). NaN and RTT as FDCC.
func FDCCLink(o FDCCObs) float64 {
	return fdccTwoStage(o, func(o FDCCObs) float64 {
		x := float64(max(o.Flows, 1)) * o.Throughput
		return o.SwitchRate + invRTT(o.RTT) - (x-1)*(x-1)
	})
}

// FDCCReward names one reading of Algorithm 1's line 5.
type FDCCReward string

// The readings of FDCC's reward.
const (
	// FDCCNormalised is FDCC: THROUGHPUT over the fair share.
	FDCCNormalised FDCCReward = "fdcc"
	// FDCCAsPrinted is FDCCLiteral: THROUGHPUT as a share of the link.
	FDCCAsPrinted FDCCReward = "fdcc-literal"
	// FDCCLinkShare is FDCCLink: the link's throughput in the first term,
	// the flow's over its fair share in the square.
	FDCCLinkShare FDCCReward = "fdcc-link"
)

// FDCCReadings lists the readings of Algorithm 1's reward by name, in the
// order docs/FDCC.md gives them.
var FDCCReadings = []FDCCReward{FDCCNormalised, FDCCAsPrinted, FDCCLinkShare}

// Known reports whether r names a reading in FDCCReadings.
func (r FDCCReward) Known() bool {
	for _, k := range FDCCReadings {
		if r == k {
			return true
		}
	}
	return false
}

// Func returns the reward function of the reading r (FDCC for "" or an
// unknown name).
func (r FDCCReward) Func() func(FDCCObs) float64 {
	switch r {
	case FDCCAsPrinted:
		return FDCCLiteral
	case FDCCLinkShare:
		return FDCCLink
	}
	return FDCC
}

// invRTT is 1/rtt, or 0 without a sample (rtt <= 0).
func invRTT(rtt float64) float64 {
	if rtt > 0 {
		return 1 / rtt
	}
	return 0
}

// Discounted returns, for each step t of one episode's rewards r, the
// n-step discounted sum of FDCC (Zhang 2023), Section 4.2:
//
//	R_t = sum_{i=0}^{n-1} gamma^i * r_{t+i}
//
// truncated at the end of the episode (terms with t+i >= len(r) are
// absent). n <= 0 sums to the end of the episode (the Monte Carlo return).
// The result has len(r) entries; r is not modified.
func Discounted(r []float64, gamma float64, n int) []float64 {
	out := make([]float64, len(r))
	if n <= 0 {
		acc := 0.0
		for t := len(r) - 1; t >= 0; t-- {
			acc = r[t] + gamma*acc
			out[t] = acc
		}
		return out
	}
	for t := range r {
		acc, g := 0.0, 1.0
		for i := 0; i < n && t+i < len(r); i++ {
			acc += g * r[t+i]
			g *= gamma
		}
		out[t] = acc
	}
	return out
}

func clamp01(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}
