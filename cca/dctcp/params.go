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
//   - hpcc-run (aliases hpcc-repo, hpcc): DCTCP as the HPCC paper's
//     experiments ran it, the HPCC repository's simulation/run.py with
//     `--cc dctcp` (lines 124-131): CC_MODE 8; EWMA_GAIN g=0.0625 -> g;
//     DCTCP_RATE_AI 615 Mb/s ("calculated from RTT=13us and MTU=1KB",
//     line 127) -> ai_rate; MIN_RATE 1000Mb/s (template line 28) ->
//     min_rate; HAS_WIN 1 and VAR_WIN 1 -> window var; KMIN_MAP = KMAX_MAP
//     = 30*bw/10 KB with PMAX 1.0 (lines 128-130): 300 KB at 100 Gb/s,
//     linear in the link rate; alpha starts at 1 (rdma-queue-pair.cc).
//     Earlier versions named hpcc-repo a mix of the sample mix/config.txt
//     (g 1/256, 1000 Mb/s, 100 Mb/s) with run.py's K; no experiment ran
//     that mix, so the names now mean run.py's settings.
var table = &keyval.Table[Config]{
	Name:    "dctcp",
	Default: DefaultPreset,
	Presets: []cca.Preset{
		{Name: "paper", Aliases: []string{"alizadeh2010"}, Doc: "Alizadeh et al. 2010: g 1/16, one MTU per RTT, K > C*RTT/7 (24KB at 100Gbps, our application of the guideline)",
			Reproduces: "none (the paper's rules applied to a 100G fabric; its experiments ran at 1 and 10 Gb/s)"},
		{Name: "hpcc-run", Aliases: []string{"hpcc-repo", "hpcc"},
			Doc:        "the HPCC repository's simulation/run.py, --cc dctcp (lines 124-131): g 0.0625, DCTCP_RATE_AI 615Mb/s, MIN_RATE 1Gb/s, K 30*bw/10 KB (300KB at 100G), variable window",
			Reproduces: "HPCC (Li 2019), Section 5's DCTCP (the simulations run.py generated)"},
	},
	Params: []*keyval.Param[Config]{
		keyval.Real("g", func(c *Config) *float64 { return &c.G }, keyval.UnitNonZero).
			Default("0.0625").DefaultIfZero().
			Doc("g, the gain of alpha's EWMA (paper section 4: 1/16)"),
		keyval.Real("alpha_init", func(c *Config) *float64 { return &c.AlphaInit }, keyval.UnitNonZero).
			Default("1").DefaultIfZero().
			Doc("alpha at Start (a flow's first cut halves its rate)"),
		keyval.Rate("ai_rate", func(c *Config) *units.BitsPerSec { return &c.AIRate }).
			Word("mtu-per-rtt", func(c *Config) { c.AIRate, c.AIPerRTT = 0, true }, func(c *Config) bool { return c.AIPerRTT }).
			OnSet(func(c *Config) { c.AIPerRTT = false }).Alt("mtu-per-rtt").
			Default("mtu-per-rtt").In("hpcc-run", "615Mbps").DefaultIfZero().
			Doc("R_AI, the additive increase per window (mtu-per-rtt: MTU*8/base RTT)"),
		keyval.Rate("min_rate", func(c *Config) *units.BitsPerSec { return &c.MinRate }).
			Default("100Mbps").In("hpcc-run", "1Gbps").DefaultIfZero().
			Doc("floor of the rate (lowered to the line rate at Start)"),
		keyval.Enum("window", func(c *Config) *WindowMode { return &c.Window }, WindowNone, WindowBDP, WindowVar).
			Default("none").In("hpcc-run", "var").DefaultIfZero().
			Doc("cap on bytes in flight: none, bdp (LineRate*BaseRTT) or var (BDP*R/LineRate)"),
		keyval.Size("k", func(c *Config) *units.Bytes { return &c.K }).Positive().
			Default("24KB").In("hpcc-run", "300KB").
			Doc("marking threshold: switches mark above k (Kmin = Kmax = k, Pmax = 1)"),
		keyval.Rate("k_ref_rate", func(c *Config) *units.BitsPerSec { return &c.KRefRate }).Zero("off", "none", "0").
			Default("100Gbps").
			Doc("link rate k is given for, scaled linearly to other rates (off: the same at every rate)"),
	},
}

// algorithm registers DCTCP under the name "dctcp". Its Spec's ECN hint
// is DCTCP's single threshold: Kmin = Kmax = K with Pmax 1.
var algorithm = &keyval.Algorithm[Config]{
	Table:    table,
	Summary:  "DCTCP (Alizadeh et al. 2010) in rate form, single-threshold ECN",
	Validate: (*Config).validate,
	Spec: func(c Config) cca.Spec {
		return cca.Spec{
			New: func() cca.Algorithm { return newValid(c) },
			ECN: &cca.ECNHint{KminBytes: c.K, KmaxBytes: c.K, Pmax: 1, RefRate: c.KRefRate},
		}
	},
}

// Register adds DCTCP to r under the name "dctcp".
func Register(r *cca.Registry) { algorithm.Register(r) }

// Build is the cca.Builder of DCTCP: it resolves a preset, applies the
// key=value overrides (see table) and validates the result.
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	return algorithm.Build(preset, overrides)
}
