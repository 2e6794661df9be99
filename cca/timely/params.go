package timely

import (
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultPreset is the preset used when none is named: "scaled", because
// ccreplay's default fabric is 100 Gb/s and the paper's own thresholds
// (mittal2015, for its 10 Gb/s testbed) make four long flows collapse to
// about 1.8 Gb/s in total there (replay_test.go). timely:mittal2015 keeps
// the paper's values.
const DefaultPreset = "scaled"

// table is TIMELY's parameters and presets: the one source of the preset
// configurations, `--cca-param` parsing, Spec.Params, help and docs.
//
// Presets:
//   - mittal2015: the paper's section 6 ("Unless mentioned otherwise, we
//     use the following parameters for TIMELY: segment size of 16 KB, Tlow
//     of 50 us, Thigh of 500 us, additive increment of 10 Mbps, and a
//     multiplicative decrement factor (beta) of 0.8"), for its 10 Gb/s
//     testbed; HAI N = 5 after five negative-gradient events (Algorithm
//     1). KB is decimal as in units (the paper's "serialization of 64 KB
//     takes 51 us" at 10 Gb/s is 64000 B). That sentence gives no EWMA
//     weight: alpha = 0.875 is the HPCC simulator's TimelyAlpha default
//     (rdma-hw.cc). min_rtt is the path's base RTT; min_rate 100 Mb/s is
//     our choice (the HPCC simulator's MinRate attribute default).
//   - hpcc-run (alias hpcc): TIMELY as the HPCC paper's experiments ran
//     it, the HPCC simulator (alibaba-edu/High-Precision-Congestion-
//     Control) driven by its simulation/run.py with `--cc timely` (lines
//     132-135): CC_MODE 7; rdma-hw.cc attribute defaults TimelyAlpha
//     0.875, TimelyBeta 0.8, TimelyTLow 50 us, TimelyTHigh 500 us,
//     TimelyMinRtt 20 us (lines 142-166; run.py does not override them);
//     RATE_AI = 10*bw/10 and RATE_HAI = 50*bw/10 Mb/s for a bw Gb/s NIC
//     (lines 133-134: delta = 0.001 of the line rate, N = 5), MIN_RATE
//     1000 Mb/s (template line 28), no window (has_win=0); one update per
//     round trip (HandleAckTimely: ack_seq > m_lastUpdateSeq) and HAI
//     after five consecutive increases of any kind (m_incStage < 5).
//   - scaled: mittal2015 moved to the flow's own fabric (our derivation).
//     The thresholds keep their ratios to the 20 us minimum RTT that Zhu
//     et al. (CoNEXT 2016) and the HPCC simulator use with them:
//     T_low = 2.5 and T_high = 25 base RTTs. delta keeps its ratio to the
//     paper's 10 Gb/s line rate, 0.001 of the line rate (100 Mb/s at
//     100 Gb/s, as run.py scales RATE_AI). Updates come once per round
//     trip: the paper's 16 KB segment lasts 13 us at 10 Gb/s, about one
//     RTT of its testbed, whereas at 100 Gb/s it lasts 1.3 us, and at a
//     throttled rate far longer than an RTT. Per-RTT updates keep the
//     paper's ratio of update interval to RTT at any rate (and are the
//     HPCC simulator's rule).
var table = &keyval.Table[Config]{
	Name:    "timely",
	Default: DefaultPreset,
	Base:    "mittal2015", // a Config built in Go is the paper's where it is zero
	Presets: []cca.Preset{
		{Name: "scaled", Doc: "mittal2015 moved to the flow's fabric: thresholds 2.5 and 25 base RTTs, delta 0.001 of the line rate, per-RTT updates (our derivation)",
			Reproduces: "none (the paper's settings moved to other rates)"},
		{Name: "mittal2015", Doc: "Mittal et al. 2015 section 6, for its 10Gbps testbed",
			Reproduces: "TIMELY (Mittal 2015), Section 6's testbed experiments (10 Gb/s)"},
		{Name: "hpcc-run", Aliases: []string{"hpcc"},
			Doc:        "the HPCC repository's simulation/run.py, --cc timely (lines 132-135): RATE_AI bw Mb/s and RATE_HAI 5*bw Mb/s for bw Gb/s, MIN_RATE 1Gb/s; rdma-hw.cc's TIMELY defaults",
			Reproduces: "HPCC (Li 2019), Section 5's TIMELY (the simulations run.py generated)"},
	},
	Params: []*keyval.Param[Config]{
		keyval.Real("alpha", func(c *Config) *float64 { return &c.Alpha }, keyval.UnitNonZero).
			Default("0.875").DefaultIfZero().
			Doc("EWMA weight of a new RTT difference (the HPCC simulator's TimelyAlpha)"),
		keyval.Real("beta", func(c *Config) *float64 { return &c.Beta }, keyval.UnitNonZero).
			Default("0.8").DefaultIfZero().
			Doc("multiplicative-decrement factor (section 6)"),
		keyval.Value("t_low", "time or Nx", "> 0, Nx up to 1000000x", func(c *Config) *Threshold { return &c.TLow }, parseThreshold, formatThreshold).
			Default("50us").In("scaled", "2.5x").DefaultIfZero().
			Doc("RTT below which the rate always increases additively (Nx: N base RTTs)"),
		keyval.Value("t_high", "time or Nx", "> 0, Nx up to 1000000x", func(c *Config) *Threshold { return &c.THigh }, parseThreshold, formatThreshold).
			Default("500us").In("scaled", "25x").DefaultIfZero().
			Doc("RTT above which the rate always decreases (Nx: N base RTTs)"),
		keyval.Value("delta", "rate or Nx", "> 0, Nx up to 1x", func(c *Config) *Step { return &c.Delta }, parseStep, formatStep).
			Default("10Mbps").In("hpcc-run", "0.001x").In("scaled", "0.001x").DefaultIfZero().
			Doc("additive increment step (Nx: N times the line rate)"),
		keyval.Int("hai_factor", func(c *Config) *int { return &c.HAIFactor }, keyval.AtLeast(1)).
			Default("5").DefaultIfZero().
			Doc("N, increments per event in hyperactive increase (Algorithm 1)"),
		keyval.Int("hai_after", func(c *Config) *int { return &c.HAIAfter }, keyval.AtLeast(1)).
			Default("5").DefaultIfZero().
			Doc("consecutive events that switch hyperactive increase on"),
		keyval.Enum("hai_mode", func(c *Config) *HAIMode { return &c.HAIMode }, HAIGradient, HAIIncrease).
			Default("gradient").In("hpcc-run", "increase").DefaultIfZero().
			Doc("what counts for HAI: gradient (negative gradients, the paper) or increase (any increase, the HPCC simulator)"),
		keyval.Bool("first_record_only", func(c *Config) *bool { return &c.FirstRecordOnly }).
			Default("false").In("hpcc-run", "true").
			Doc("the first completion event only records its RTT (the HPCC simulator's first round trip)"),
		keyval.Size("segment", func(c *Config) *units.Bytes { return &c.Segment }).Positive().
			Word("rtt", func(c *Config) { c.Segment, c.PerRTT = 0, true }, func(c *Config) bool { return c.PerRTT }).
			OnSet(func(c *Config) { c.PerRTT = false }).
			Default("16KB").In("hpcc-run", "rtt").In("scaled", "rtt").DefaultIfZero().
			Doc("bytes acknowledged per completion event (rtt: one event per round trip)"),
		keyval.Time("min_rtt", func(c *Config) *units.Time { return &c.MinRTT }).Positive().Zero("base").
			Default("base").In("hpcc-run", "20us").
			Doc("RTT that normalizes the gradient (base: the path's base RTT)"),
		keyval.Rate("min_rate", func(c *Config) *units.BitsPerSec { return &c.MinRate }).
			Default("100Mbps").In("hpcc-run", "1Gbps").DefaultIfZero().
			Doc("floor of the rate (lowered to the line rate at Start)"),
	},
}

// algorithm registers TIMELY under the name "timely". TIMELY needs no ECN
// marking, CNPs or INT: its Spec leaves the switch and NIC defaults.
var algorithm = &keyval.Algorithm[Config]{
	Table:    table,
	Summary:  "TIMELY RTT-gradient rate control (Mittal et al. 2015)",
	Validate: (*Config).validate,
	Spec:     func(c Config) cca.Spec { return cca.Spec{New: func() cca.Algorithm { return newValid(c) }} },
}

// Register adds TIMELY to r under the name "timely".
func Register(r *cca.Registry) { algorithm.Register(r) }

// Build is the cca.Builder of TIMELY: it resolves a preset, applies the
// key=value overrides (see table) and validates the result.
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	return algorithm.Build(preset, overrides)
}

// parseRelative parses v as a multiple "Nx" (N in (0, maxMult]) of what
// of names, or else as an absolute value with parseAbs; example is a
// multiple the error of a bad absolute value suggests. Exactly one of mult
// and abs is set.
func parseRelative[T any](v string, maxMult float64, of, example string, parseAbs func(string) (T, error)) (mult float64, abs T, err error) {
	lower := strings.ToLower(strings.TrimSpace(v))
	if num, found := strings.CutSuffix(lower, "x"); found {
		f, err := keyval.ParseFloatIn(num, keyval.Positive)
		switch {
		case err != nil:
			return 0, abs, fmt.Errorf("want a positive multiple such as 2.5x, got %q", lower)
		case f > maxMult:
			return 0, abs, fmt.Errorf("%s must be at most %.0fx, got %q", of, maxMult, v)
		}
		return f, abs, nil
	}
	abs, err = parseAbs(v)
	if err != nil {
		return 0, abs, fmt.Errorf("%w, or %s such as %s", err, of, example)
	}
	return 0, abs, nil
}

// formatRelative is mult as "Nx" when it is set, else abs.
func formatRelative(mult float64, abs string) string {
	if mult > 0 {
		return units.FormatFloat(mult) + "x"
	}
	return abs
}

// parseThreshold parses a time ("50us") or a multiple of the base RTT
// ("2.5x").
func parseThreshold(v string) (Threshold, error) {
	f, t, err := parseRelative(v, MaxBaseRTTs, "a multiple of the base RTT", "2.5x", units.ParseDuration)
	switch {
	case err != nil:
		return Threshold{}, err
	case f == 0 && t <= 0:
		return Threshold{}, fmt.Errorf("must be positive, got %q", v)
	}
	return Threshold{Abs: t, BaseRTTs: f}, nil
}

func formatThreshold(t Threshold) string {
	return formatRelative(t.BaseRTTs, units.FormatDuration(t.Abs))
}

// parseStep parses a rate ("10Mbps") or a fraction of the line rate
// ("0.001x").
func parseStep(v string) (Step, error) {
	f, r, err := parseRelative(v, 1, "a fraction of the line rate", "0.001x", units.ParseRate)
	if err != nil {
		return Step{}, err
	}
	return Step{Abs: r, LineFrac: f}, nil
}

func formatStep(s Step) string { return formatRelative(s.LineFrac, units.FormatRate(s.Abs)) }
