package dctcp

import (
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultPreset is the preset used when none is named.
const DefaultPreset = "paper"

// table is DCTCP's parameters and presets: the one source of the preset
// configurations, `--cca-param` parsing, Spec.Params, help and docs.
//
// Presets:
//   - paper: Alizadeh et al. 2010. g = 1/16 (section 4). R_AI = one MTU
//     per base RTT, TCP's congestion-avoidance increase in rate form.
//     alpha starts at 1 (the paper gives no value; Linux and the HPCC
//     simulator use 1). K: the paper's guideline K > C*RTT/7 (section 3,
//     "Guidelines for choosing parameters") for a 100 Gb/s port and a
//     13 us RTT (the HPCC fat tree, topology preset hpcc-fattree, has
//     12.3 us) is 23.2 KB; we round up to 24 KB at 100 Gb/s and scale it
//     with the link rate, as C*RTT/7 scales. The paper's own K = 20
//     packets at 1 Gb/s and 65 at 10 Gb/s (section 4) were chosen for
//     ~100 us testbed RTTs and do not transfer to microsecond RTTs.
//     min_rate 100 Mb/s is the HPCC simulator's MIN_RATE. No window: pure
//     rate control.
//   - hpcc-repo: the HPCC simulator (CC_MODE 8) with its mix/config.txt
//     (../shared/data/hpcc_format/config.txt): EWMA_GAIN 0.00390625 -> g;
//     DCTCP_RATE_AI 1000Mb/s -> ai_rate; MIN_RATE 100Mb/s -> min_rate;
//     HAS_WIN 1 and VAR_WIN 1 -> window var; alpha starts at 1
//     (rdma-queue-pair.cc). K is not in config.txt (its KMIN/KMAX maps
//     are DCQCN's): we take the DCTCP settings of the HPCC repository's
//     run.py as we recall them, KMIN = KMAX = 30 KB per 10 Gb/s with PMAX
//     1, i.e. 30 KB at 10 Gb/s scaled with the link rate (300 KB at
//     100 Gb/s). NB: the same run.py sets DCTCP_RATE_AI to 615 Mb/s ("1
//     MTU per 13 us RTT"); config.txt's 1000 Mb/s is used here.
var table = &keyval.Table[Config]{
	Name:    "dctcp",
	Default: DefaultPreset,
	Presets: []cca.Preset{
		{Name: "paper", Aliases: []string{"alizadeh2010"}, Doc: "Alizadeh et al. 2010: g 1/16, one MTU per RTT, K > C*RTT/7 (24KB at 100Gbps)"},
		{Name: "hpcc-repo", Aliases: []string{"hpcc"}, Doc: "the HPCC simulator's mix/config.txt (CC_MODE 8) and run.py's K"},
	},
	Params: []*keyval.Param[Config]{
		keyval.Real("g", func(c *Config) *float64 { return &c.G }, keyval.UnitNonZero).
			Default("0.0625").In("hpcc-repo", "0.00390625").DefaultIfZero().
			Doc("g, the gain of alpha's EWMA (paper section 4: 1/16)"),
		keyval.Real("alpha_init", func(c *Config) *float64 { return &c.AlphaInit }, keyval.UnitNonZero).
			Default("1").DefaultIfZero().
			Doc("alpha at Start (a flow's first cut halves its rate)"),
		keyval.Rate("ai_rate", func(c *Config) *units.BitsPerSec { return &c.AIRate }).
			Word("mtu-per-rtt", func(c *Config) { c.AIRate, c.AIPerRTT = 0, true }, func(c *Config) bool { return c.AIPerRTT }).
			OnSet(func(c *Config) { c.AIPerRTT = false }).Alt("mtu-per-rtt").
			Default("mtu-per-rtt").In("hpcc-repo", "1Gbps").
			Doc("R_AI, the additive increase per window (mtu-per-rtt: MTU*8/base RTT)"),
		keyval.Rate("min_rate", func(c *Config) *units.BitsPerSec { return &c.MinRate }).
			Default("100Mbps").DefaultIfZero().
			Doc("floor of the rate (lowered to the line rate at Start)"),
		keyval.Enum("window", func(c *Config) *WindowMode { return &c.Window }, WindowNone, WindowBDP, WindowVar).
			Default("none").In("hpcc-repo", "var").DefaultIfZero().
			Doc("cap on bytes in flight: none, bdp (LineRate*BaseRTT) or var (BDP*R/LineRate)"),
		keyval.Size("k", func(c *Config) *units.Bytes { return &c.K }).Positive().
			Default("24KB").In("hpcc-repo", "30KB").
			Doc("marking threshold: switches mark above k (Kmin = Kmax = k, Pmax = 1)"),
		keyval.Rate("k_ref_rate", func(c *Config) *units.BitsPerSec { return &c.KRefRate }).Zero("off", "none", "0").
			Default("100Gbps").In("hpcc-repo", "10Gbps").
			Doc("link rate k is given for, scaled linearly to other rates (off: the same at every rate)"),
	},
}

// Keys lists the parameter keys Build accepts, in sorted order.
func Keys() []string { return table.Keys() }

// Presets lists the canonical preset names in sorted order.
func Presets() []string { return table.PresetNames() }

// Preset returns the configuration of a named preset ("" for the default,
// or an alias).
func Preset(name string) (Config, error) {
	c, _, err := table.Preset(name)
	return c, err
}

// Schema describes DCTCP's presets and parameters (help and docs).
func Schema() cca.Schema { return table.Schema((*Config).validate) }

// Register adds DCTCP to r under the name "dctcp".
func Register(r *cca.Registry) {
	r.Register("dctcp", "DCTCP (Alizadeh et al. 2010) in rate form, single-threshold ECN", Build, Schema)
}

// Build is the cca.Builder of DCTCP: it resolves a preset, applies the
// key=value overrides (see Keys) and validates the result. The Spec's ECN
// hint is DCTCP's single threshold: Kmin = Kmax = K with Pmax 1.
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	c, name, err := table.Build(preset, overrides, (*Config).validate)
	if err != nil {
		return cca.Spec{}, err
	}
	return cca.Spec{
		Name:   "dctcp:" + name,
		New:    func() cca.Algorithm { return newValid(c) },
		ECN:    &cca.ECNHint{KminBytes: c.K, KmaxBytes: c.K, Pmax: 1, RefRate: c.KRefRate},
		Params: table.Values(&c),
	}, nil
}
