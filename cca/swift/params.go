package swift

import (
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultPreset is the preset used when none is named.
const DefaultPreset = "kumar2020"

// cwnd is the range of a window parameter, packets (see CwndLimit).
var cwnd = keyval.Interval{Lo: 0, Hi: CwndLimit, OpenLo: true}

// table is Swift's parameters and presets: the one source of the preset
// configurations, `--cca-param` parsing, Spec.Params, help and docs.
//
// The one preset, kumar2020: Algorithm 1's constants ai = 1 packet per
// RTT, beta = 0.8, max_mdf = 0.5, with min_cwnd = 0.001 packets (Swift
// paces down to a thousandth of a packet per RTT) and the flow-scaling
// range fs_min_cwnd = 0.1 to fs_max_cwnd = 100 packets: the values we
// recall from the paper and that public Swift models use (e.g. the UEC
// htsim fork: ai 1, beta 0.8, max_mdf 0.5, fs 0.1..100). The paper text is
// not in this repository; check them against it before relying on them.
// The target-delay constants are our choices for a datacenter fabric:
// base_target = 25 us, h = 1 us per hop and fs_range = 5 x base_target =
// 125 us. The target must exceed the path's base RTT or the window only
// shrinks: 25 us is above the default 100G star's 4.2 us and a 6-link
// fat-tree path's 12.5 us (1 us links). RETX_RESET_THRESHOLD = 5 is our
// choice (Algorithm 1 names it without a value).
var table = &keyval.Table[Config]{
	Name:    "swift",
	Default: DefaultPreset,
	Presets: []cca.Preset{
		{Name: "kumar2020", Doc: "Algorithm 1's constants (Kumar et al. 2020) and our target delays for a datacenter fabric",
			Reproduces: "none (the paper's constants with our targets; RL-CC, Tessler 2022, Table 1 gives its SWIFT no settings)"},
	},
	Params: []*keyval.Param[Config]{
		keyval.Time("base_target", func(c *Config) *units.Time { return &c.BaseTarget }).Positive().
			Default("25us").DefaultIfZero().
			Doc("target delay of a one-hop path with few flows"),
		keyval.Time("hop_scale", func(c *Config) *units.Time { return &c.HopScale }).
			Default("1us").
			Doc("h, the target added per hop of the forward path"),
		keyval.Time("fs_range", func(c *Config) *units.Time { return &c.FSRange }).
			Default("125us").
			Doc("largest flow-based scaling term, reached at fs_min_cwnd (section 3.5)"),
		keyval.Real("fs_min_cwnd", func(c *Config) *float64 { return &c.FSMinCwnd }, cwnd).Unit("packets").
			Default("0.1").DefaultIfZero().
			Doc("window at and below which the flow-based term is fs_range"),
		keyval.Real("fs_max_cwnd", func(c *Config) *float64 { return &c.FSMaxCwnd }, cwnd).Unit("packets").
			Default("100").DefaultIfZero().
			Doc("window at and above which the flow-based term is 0"),
		keyval.Real("ai", func(c *Config) *float64 { return &c.AI }, keyval.Positive).Unit("packets/RTT").
			Default("1").DefaultIfZero().
			Doc("additive increment per RTT below the target delay"),
		keyval.Real("beta", func(c *Config) *float64 { return &c.Beta }, keyval.Positive).
			Default("0.8").DefaultIfZero().
			Doc("multiplicative-decrease constant: cut by beta*(delay-target)/delay"),
		keyval.Real("max_mdf", func(c *Config) *float64 { return &c.MaxMDF }, keyval.OpenUnit).
			Default("0.5").DefaultIfZero().
			Doc("largest multiplicative decrease in one step"),
		keyval.Real("min_cwnd", func(c *Config) *float64 { return &c.MinCwnd }, cwnd).Unit("packets").
			Default("0.001").DefaultIfZero().
			Doc("floor of the window (below 1 packet, Swift paces)"),
		keyval.Real("max_cwnd", func(c *Config) *float64 { return &c.MaxCwnd }, cwnd).Unit("packets").Zero("auto").
			Default("auto").
			Doc("ceiling of the window (auto: line rate x the highest target)"),
		keyval.Real("init_cwnd", func(c *Config) *float64 { return &c.InitCwnd }, cwnd).Unit("packets").Zero("bdp").
			Default("bdp").
			Doc("window at Start (bdp: the path's bandwidth-delay product, at least 1)"),
		keyval.Int("retx_reset", func(c *Config) *int { return &c.RetxReset }, keyval.AtLeast(1)).
			Default("5").DefaultIfZero().
			Doc("RETX_RESET_THRESHOLD: consecutive timeouts that drop the window to min_cwnd"),
	},
}

// algorithm registers Swift under the name "swift". Swift needs no ECN
// marking, CNPs or INT: its Spec leaves the switch and NIC defaults.
var algorithm = &keyval.Algorithm[Config]{
	Table:    table,
	Summary:  "Swift delay-based window AIMD (Kumar et al. 2020)",
	Validate: (*Config).validate,
	Spec:     func(c Config) cca.Spec { return cca.Spec{New: func() cca.Algorithm { return newValid(c) }} },
}

// Register adds Swift to r under the name "swift".
func Register(r *cca.Registry) { algorithm.Register(r) }

// Build is the cca.Builder of Swift: it resolves a preset, applies the
// key=value overrides (see table) and validates the result.
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	return algorithm.Build(preset, overrides)
}
