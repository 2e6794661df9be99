package fdcc

import "math"

// NumFeatures is the width of one observation (FDCC, Zhang 2023,
// Section 4.2, "Observations": eight features).
const NumFeatures = 8

// History is the most past observations the policy reads, the current one
// included (FDCC, Zhang 2023, Section 4.3: "max K <= 8").
const History = 8

// Feature indices, in FeatureNames order.
const (
	FeatRTT        = iota // RTT / standalone RTT
	FeatQLen              // QLEN of the most congested hop / (its rate x base RTT)
	FeatSwitchRate        // SWITCHRATE of that hop / its rate
	FeatGoodput           // GOODPUT / line rate (sender-side proxy, see the package comment)
	FeatDRTT              // ΔRTT: change of the RTT feature per millisecond
	FeatDQLen             // ΔQLEN: change of the QLEN feature per millisecond
	FeatInsRate           // INSRATE / line rate
	FeatLastAction        // the policy's previous output o, in [-1, 1]
)

// FeatureNames are the observation's features in input order, the names
// policy files list.
var FeatureNames = [NumFeatures]string{
	"rtt_norm", "qlen_frac", "switchrate_frac", "goodput_frac",
	"d_rtt_per_ms", "d_qlen_per_ms", "insrate_frac", "last_action",
}

// InputTransform names the pre-processing applied to every feature before
// the network: x -> sign(x) ln(1 + |x|). The thesis pre-processes
// observations (Section 4.1) without saying how; ΔRTT and ΔQLEN per
// millisecond reach the hundreds in an incast while the other features
// stay near 1, and the log compresses them without clipping. Not in
// paper 002.
const InputTransform = "symlog"

// symlog is InputTransform.
func symlog(x float64) float64 {
	if x < 0 {
		return -math.Log1p(-x)
	}
	return math.Log1p(x)
}

// Transform applies InputTransform to one observation into dst.
func Transform(dst []float64, x *[NumFeatures]float64) {
	for i, v := range x {
		dst[i] = symlog(v)
	}
}
