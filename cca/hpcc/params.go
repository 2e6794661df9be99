package hpcc

import (
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultPreset is the preset used when none is named.
const DefaultPreset = "paper"

// table is HPCC's parameters and presets: the one source of the preset
// configurations, `--cca-param` parsing, Spec.Params, help and docs.
//
// Presets:
//   - paper: Li et al. 2019. η = 0.95 and maxStage = 5 (section 3.3,
//     "Parameters"); W_AI from the paper's rule W_AI = W_init*(1-η)/N
//     (section 3.3) with N = 100 concurrent flows, our choice (about 26 B
//     at 100 Gb/s and T = 4.2 us). min_rate 100 Mb/s is the HPCC
//     simulator's MIN_RATE (the paper has no floor). T is each flow's own
//     base RTT.
//   - hpcc-run (alias hpcc): HPCC as the HPCC paper's experiments ran it,
//     the HPCC repository's simulation/run.py with `--cc hp` (lines
//     111-123) at its defaults (--utgt 95, --mi 0, --hpai 0): CC_MODE 3;
//     U_TARGET 0.95 -> eta; MI_THRESH 0 -> max_stage 0 (every update
//     multiplicative, Alg. 1 line 12 always true); RATE_AI = 10*bw/25 Mb/s
//     for a bw Gb/s NIC (line 112), 40 Mb/s at 100 Gb/s -> ai_rate 40Mbps
//     with ai_ref_rate 100Gbps (W_AI = RATE_AI*T); MIN_RATE 1000Mb/s
//     (template line 28) -> min_rate; FAST_REACT 1 (us=1) -> fast_react;
//     HAS_WIN 1 and VAR_WIN 1 -> the window W = R*T that Window returns.
//     INT_MULTI = bw/25 only widens the INT fields; MULTI_RATE 0 and
//     SAMPLE_FEEDBACK 0 are the single-rate, full-INT behaviour modelled
//     here. GLOBAL_T 1 (T = the network's largest base RTT) is not known to
//     an algorithm: T stays the flow's own base RTT unless base_rtt is
//     given. NB: the paper's text gives maxStage = 5 (section 3.3) where
//     run.py's default MI_THRESH is 0; the paper preset keeps the text's.
//   - hpcc-config (alias hpcc-repo): the HPCC repository's sample
//     simulation/mix/config.txt (CC_MODE 3): as hpcc-run but RATE_AI
//     50Mb/s at every rate and MIN_RATE 100Mb/s. A sample file: run.py
//     overwrites both.
var table = &keyval.Table[Config]{
	Name:    "hpcc",
	Default: DefaultPreset,
	Presets: []cca.Preset{
		{Name: "paper", Aliases: []string{"li2019"}, Doc: "Li et al. 2019 section 3.3: eta 0.95, maxStage 5, W_AI = W_init*(1-eta)/100 (N = 100 is ours)",
			Reproduces: "none (the algorithm as the paper's text states it; its experiments ran hpcc-run)"},
		{Name: "hpcc-run", Aliases: []string{"hpcc"},
			Doc:        "the HPCC repository's simulation/run.py, --cc hp at its defaults (lines 111-123): eta 0.95, MI_THRESH 0, RATE_AI 10*bw/25 Mb/s (40 at 100G), MIN_RATE 1Gb/s, FAST_REACT 1",
			Reproduces: "HPCC (Li 2019), Section 5's HPCC (the simulations run.py generated)"},
		{Name: "hpcc-config", Aliases: []string{"hpcc-repo"},
			Doc:        "the HPCC repository's sample simulation/mix/config.txt (CC_MODE 3): RATE_AI 50Mb/s, MIN_RATE 100Mb/s",
			Reproduces: "none (a sample file; run.py overwrites its values)"},
	},
	Params: []*keyval.Param[Config]{
		keyval.Real("eta", func(c *Config) *float64 { return &c.Eta }, keyval.UnitNonZero).
			Default("0.95").DefaultIfZero().
			Doc("η, the target utilization"),
		keyval.Int("max_stage", func(c *Config) *int { return &c.MaxStage }, keyval.AtLeast(0)).
			Default("5").In("hpcc-run", "0").In("hpcc-config", "0").
			Doc("per-RTT additive-increase stages before a multiplicative update (Alg. 1 line 12)"),
		keyval.Size("w_ai", func(c *Config) *units.Bytes { return &c.WAI }).Positive().Zero("off", "none", "0").
			OnSet(func(c *Config) {
				if c.WAI != 0 {
					c.AIRate, c.AIFlows = 0, 0
				}
			}).
			Default("off").
			Doc("W_AI, the additive increase per update (Alg. 1 lines 13 and 17)"),
		keyval.Rate("ai_rate", func(c *Config) *units.BitsPerSec { return &c.AIRate }).Zero("off", "none", "0").
			OnSet(func(c *Config) {
				if c.AIRate != 0 {
					c.WAI, c.AIFlows = 0, 0
				}
			}).
			Default("off").In("hpcc-run", "40Mbps").In("hpcc-config", "50Mbps").
			Doc("W_AI as a rate: W_AI = ai_rate*T/8 (the HPCC simulator's RATE_AI)"),
		keyval.Rate("ai_ref_rate", func(c *Config) *units.BitsPerSec { return &c.AIRefRate }).Zero("off", "none", "0").
			Default("off").In("hpcc-run", "100Gbps").
			Doc("line rate ai_rate is given for, scaled linearly to a flow's line rate (off: the same at every rate)"),
		keyval.Int("ai_flows", func(c *Config) *int { return &c.AIFlows }, keyval.AtLeast(1)).Zero("off", "none", "0").
			OnSet(func(c *Config) {
				if c.AIFlows != 0 {
					c.WAI, c.AIRate = 0, 0
				}
			}).
			Default("100").In("hpcc-run", "off").In("hpcc-config", "off").
			Doc("W_AI as N in W_AI = W_init*(1-η)/N (paper section 3.3)"),
		keyval.Rate("min_rate", func(c *Config) *units.BitsPerSec { return &c.MinRate }).
			Default("100Mbps").In("hpcc-run", "1Gbps").DefaultIfZero().
			Doc("floor of the rate W/T (lowered to the line rate at Start)"),
		keyval.Time("base_rtt", func(c *Config) *units.Time { return &c.BaseRTT }).Positive().Zero("path").
			Default("path").
			Doc("T (path: the flow's own base RTT; the network's largest is HPCC's GLOBAL_T 1)"),
		keyval.BoolNot("fast_react", func(c *Config) *bool { return &c.NoFastReact }).
			Default("true").
			Doc("react to every ACK (false: once per RTT, the HPCC simulator's FAST_REACT 0)"),
	},
	Exclusive: []keyval.Exclusive{{What: "W_AI", Keys: []string{"ai_flows", "ai_rate", "w_ai"}}},
}

// algorithm registers HPCC under the name "hpcc". Its Spec asks switches
// to stamp INT and leaves their ECN marking alone (HPCC ignores ECN echoes
// and CNPs).
var algorithm = &keyval.Algorithm[Config]{
	Table:    table,
	Summary:  "HPCC (Li et al. 2019), INT-based window control",
	Validate: (*Config).validate,
	Spec: func(c Config) cca.Spec {
		return cca.Spec{New: func() cca.Algorithm { return newValid(c) }, NeedsINT: true}
	},
}

// Register adds HPCC to r under the name "hpcc".
func Register(r *cca.Registry) { algorithm.Register(r) }

// Build is the cca.Builder of HPCC: it resolves a preset, applies the
// key=value overrides (see table; at most one of w_ai, ai_rate, ai_flows)
// and validates the result.
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	return algorithm.Build(preset, overrides)
}
