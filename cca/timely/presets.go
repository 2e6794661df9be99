package timely

import (
	"github.com/ccreplay/ccreplay/internal/keyval"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultPreset is the preset used when none is named: "scaled", because
// ccreplay's default fabric is 100 Gb/s and the paper's own thresholds
// (mittal2015, for its 10 Gb/s testbed) make four long flows collapse to
// about 1.8 Gb/s in total there (replay_test.go). timely:mittal2015 keeps
// the paper's values.
const DefaultPreset = "scaled"

// presets maps each preset name to its configuration.
var presets = map[string]func() Config{
	// mittal2015: the paper's section 6 ("Unless mentioned otherwise, we
	// use the following parameters for TIMELY: segment size of 16 KB, Tlow
	// of 50 us, Thigh of 500 us, additive increment of 10 Mbps, and a
	// multiplicative decrement factor (beta) of 0.8"), for its 10 Gb/s
	// testbed; HAI N = 5 after five negative-gradient events (Algorithm
	// 1). KB is decimal as in units (the paper's "serialization of 64 KB
	// takes 51 us" at 10 Gb/s is 64000 B). That sentence gives no EWMA
	// weight: alpha = 0.875 is the HPCC simulator's TimelyAlpha default
	// (rdma-hw.cc). min_rtt is the path's base RTT; min_rate 100 Mb/s is
	// our choice (the HPCC simulator's MinRate attribute default).
	"mittal2015": defaults,

	// hpcc: the HPCC simulator (alibaba-edu/High-Precision-Congestion-
	// Control) running TIMELY, CC_MODE 7: rdma-hw.cc attribute defaults
	// TimelyAlpha 0.875, TimelyBeta 0.8, TimelyTLow 50 us, TimelyTHigh
	// 500 us, TimelyMinRtt 20 us (run.py's config does not override them);
	// run.py's "timely" settings RATE_AI = bw Mb/s and RATE_HAI = 5*bw Mb/s
	// for a bw Gb/s NIC (delta = 0.001 of the line rate, N = 5), MIN_RATE
	// 1000 Mb/s; one update per round trip (HandleAckTimely: ack_seq >
	// m_lastUpdateSeq) and HAI after five consecutive increases of any
	// kind (m_incStage).
	"hpcc": func() Config {
		c := defaults()
		c.Delta = Step{LineFrac: 0.001}
		c.HAIMode = HAIIncrease
		c.Segment, c.PerRTT = 0, true
		c.MinRTT = 20 * units.Microsecond
		c.MinRate = 1000 * units.Mbps
		return c
	},

	// scaled: mittal2015 moved to the flow's own fabric (our derivation).
	// The thresholds keep their ratios to the 20 us minimum RTT that Zhu
	// et al. (CoNEXT 2016) and the HPCC simulator use with them:
	// T_low = 2.5 and T_high = 25 base RTTs. delta keeps its ratio to the
	// paper's 10 Gb/s line rate, 0.001 of the line rate (100 Mb/s at
	// 100 Gb/s, as run.py scales RATE_AI). Updates come once per round
	// trip: the paper's 16 KB segment lasts 13 us at 10 Gb/s, about one
	// RTT of its testbed, whereas at 100 Gb/s it lasts 1.3 us, and at a
	// throttled rate far longer than an RTT. Per-RTT updates keep the
	// paper's ratio of update interval to RTT at any rate (and are the
	// HPCC simulator's rule).
	"scaled": func() Config {
		c := defaults()
		c.TLow = Threshold{BaseRTTs: 2.5}
		c.THigh = Threshold{BaseRTTs: 25}
		c.Delta = Step{LineFrac: 0.001}
		c.Segment, c.PerRTT = 0, true
		return c
	},
}

// Presets lists the preset names in sorted order.
func Presets() []string { return keyval.SortedKeys(presets) }

// Preset returns the configuration of a named preset ("" for the default).
func Preset(name string) (Config, error) { return keyval.Preset(presets, name, DefaultPreset) }

// Register adds TIMELY to r under the name "timely".
func Register(r *cca.Registry) {
	r.Register("timely", "TIMELY RTT-gradient rate control (Mittal et al. 2015), presets "+strings.Join(Presets(), ", "), Build)
}

// Build is the cca.Builder of TIMELY: it resolves a preset, applies the
// key=value overrides (see Keys) and validates the result. TIMELY needs no
// ECN marking, CNPs or INT: the Spec leaves the switch and NIC defaults.
func Build(preset string, params map[string]string) (cca.Spec, error) {
	name := preset
	if name == "" {
		name = DefaultPreset
	}
	c, err := Preset(name)
	if err != nil {
		return cca.Spec{}, err
	}
	if err := c.apply(params); err != nil {
		return cca.Spec{}, err
	}
	if err := c.validate(); err != nil {
		return cca.Spec{}, err
	}
	return cca.Spec{
		Name:   "timely:" + name,
		New:    func() cca.Algorithm { return newValid(c) },
		Params: c.Params(),
	}, nil
}
