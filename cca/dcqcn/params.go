package dcqcn

import (
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultPreset is the preset used when none is named.
const DefaultPreset = "hpcc"

// table is DCQCN's parameters and presets: the one source of the preset
// configurations, `--cca-param` parsing, Spec.Params, help and docs.
//
// Presets:
//   - zhu2015: CC-NetCalc (Lehal 2024), Table II ("Parameter setting for DCQCN from [5],
//     [46]", [5] = Zhu et al. 2015): Kmin 5 kB, Kmax 200 kB, Pmax 1 %,
//     g 1/256, T_gap 50 us, K = T = 55 us, B = 10 MB, R_AI 5 Mb/s,
//     R_HI 50 Mb/s; F = 5 from Table I. min_rate 100 Mb/s is our choice
//     (the HPCC simulator's MinRate default; neither Zhu 2015 nor CC-NetCalc (Lehal 2024),
//     gives one).
//   - hpcc: the HPCC simulator's mix/config.txt
//     (../shared/data/hpcc_format/config.txt) run through its Mellanox
//     DCQCN model (rdma-hw.cc, CC_MODE 1): RATE_AI 50Mb/s, RATE_HAI
//     100Mb/s, MIN_RATE 100Mb/s, RP_TIMER 900 (us), ALPHA_RESUME_INTERVAL
//     1 (us), EWMA_GAIN 0.00390625, FAST_RECOVERY_TIMES 1,
//     RATE_DECREASE_INTERVAL 4 (us), CLAMP_TARGET_RATE 0, no byte
//     counter; KMIN_MAP/KMAX_MAP/PMAX_MAP 100 kB/400 kB/0.2 at 25 Gb/s,
//     scaled linearly with the link rate. The simulator has no CNP gap:
//     every ACK of a CE-marked packet carries the CNP flag. We choose a
//     1 us CNP interval, the alpha slot K, so that every slot can still
//     see a CNP; cuts stay paced by decrease_interval.
//   - dolce: the DCQCN baseline of Dolce-RC (Ye 2023) (Dolce-RC), Section V-A:
//     zhu2015 with Kmin 7 KB and Kmax 500 KB, and a 1 us minimum CNP
//     interval (Section IV-B, MIN_TIME_BETWEEN_CNPS = 1).
//
// The aliases are the names the project's first design notes used;
// Spec.Name always carries the canonical name.
var table = &keyval.Table[Config]{
	Name:    "dcqcn",
	Default: DefaultPreset,
	Base:    "zhu2015", // a Config built in Go is DCQCN (Zhu 2015)'s where it is zero
	Presets: []cca.Preset{
		{Name: "zhu2015", Doc: "CC-NetCalc (Lehal 2024), Table II, the settings of Zhu et al. 2015"},
		{Name: "hpcc", Aliases: []string{"hpcc-repo"}, Doc: "the HPCC simulator's 100 Gb/s DCQCN settings (its mix/config.txt through its Mellanox DCQCN model, rdma-hw.cc), what most published 100G simulation results use"},
		{Name: "dolce", Aliases: []string{"dolce-paper"}, Doc: "Dolce-RC (Ye 2023), Section V-A's DCQCN baseline: zhu2015 with Kmin 7KB, Kmax 500KB, CNP interval 1us"},
	},
	Params: []*keyval.Param[Config]{
		keyval.Rate("ai_rate", func(c *Config) *units.BitsPerSec { return &c.AIRate }).
			Default("5Mbps").In("hpcc", "50Mbps").DefaultIfZero().
			Doc("R_AI, the additive-increase step of the target rate"),
		keyval.Rate("hai_rate", func(c *Config) *units.BitsPerSec { return &c.HAIRate }).
			Default("50Mbps").In("hpcc", "100Mbps").DefaultIfZero().
			Doc("R_HI, the hyper-increase step of the target rate"),
		keyval.Rate("min_rate", func(c *Config) *units.BitsPerSec { return &c.MinRate }).
			Default("100Mbps").DefaultIfZero().
			Doc("floor of R_C and R_T (lowered to the line rate at Start)"),
		keyval.Real("g", func(c *Config) *float64 { return &c.G }, keyval.UnitNonZero).
			Default("0.00390625").DefaultIfZero().
			Doc("g, the gain of alpha's EWMA"),
		keyval.Real("alpha_init", func(c *Config) *float64 { return &c.AlphaInit }, keyval.UnitNonZero).
			Default("1").DefaultIfZero().
			Doc("alpha at Start (CC-NetCalc, Lehal 2024 section V: alpha is set to 1)"),
		keyval.Enum("alpha_mode", func(c *Config) *AlphaMode { return &c.AlphaMode }, AlphaZhu, AlphaMlx).
			Default("zhu").In("hpcc", "mlx").DefaultIfZero().
			Doc("alpha update: zhu (every cut and every K without a CNP) or mlx (a clock of period K)"),
		keyval.Enum("decrease_mode", func(c *Config) *DecreaseMode { return &c.DecreaseMode }, DecreaseImmediate, DecreaseTick).
			Default("immediate").In("hpcc", "tick").DefaultIfZero().
			Doc("when a CNP cuts: immediate (at most once per decrease_interval) or tick (a clock of period decrease_interval from the first CNP, the HPCC simulator's Mellanox model)"),
		keyval.Time("alpha_timer", func(c *Config) *units.Time { return &c.AlphaTimer }).Positive().
			Default("55us").In("hpcc", "1us").DefaultIfZero().
			Doc("K, the alpha update period"),
		keyval.Time("increase_timer", func(c *Config) *units.Time { return &c.IncreaseTimer }).Positive().
			Default("55us").In("hpcc", "900us").DefaultIfZero().
			Doc("T, the rate-increase timer period"),
		keyval.Size("byte_counter", func(c *Config) *units.Bytes { return &c.ByteCounter }).Zero("off", "none", "0").
			Default("10MB").In("hpcc", "off").
			Doc("B, bytes sent per byte-counter increase event (off: i_B follows i_T)"),
		keyval.Int("fast_recovery", func(c *Config) *int { return &c.FastRecovery }, keyval.AtLeast(1)).
			Default("5").In("hpcc", "1").DefaultIfZero().
			Doc("F, increase events of fast recovery before additive or hyper increase"),
		keyval.Enum("increase_mode", func(c *Config) *IncreaseMode { return &c.IncreaseMode }, IncreaseZhu, IncreaseMlx).
			Default("zhu").In("hpcc", "mlx").DefaultIfZero().
			Doc("how the counters pick the increase phase: zhu (count, then compare) or mlx"),
		keyval.Time("decrease_interval", func(c *Config) *units.Time { return &c.DecreaseInterval }).
			Default("0us").In("hpcc", "4us").
			Doc("minimum time between two cuts (0: every CNP cuts)"),
		keyval.Enum("cut", func(c *Config) *CutMode { return &c.Cut }, CutHalfAlpha, CutAlpha).
			Default("half-alpha").DefaultIfZero().
			Doc("the decrease: half-alpha R_C*(1-alpha/2) (Zhu 2015 Eq. (1)) or alpha (1-alpha)*R_C (CC-NetCalc, Lehal 2024)"),
		keyval.BoolNot("clamp_target_rate", func(c *Config) *bool { return &c.KeepTargetRate }).
			Default("true").In("hpcc", "false").
			Doc("every cut sets R_T = R_C (false: only after an increase event, HPCC's CLAMP_TARGET_RATE 0)"),
		keyval.Size("window", func(c *Config) *units.Bytes { return &c.Window }).Zero("none", "off", "0").
			Word("bdp", func(c *Config) { c.Window, c.WindowBDP = 0, true }, func(c *Config) bool { return c.WindowBDP }).
			OnSet(func(c *Config) { c.WindowBDP = false }).
			Default("none").
			Doc("cap on bytes in flight (bdp: the path's bandwidth-delay product at Start)"),
		keyval.Size("kmin", func(c *Config) *units.Bytes { return &c.Kmin }).Zero("0B", "off", "none", "0").
			Default("5KB").In("hpcc", "100KB").In("dolce", "7KB").
			Doc("RED threshold below which switches mark nothing"),
		keyval.Size("kmax", func(c *Config) *units.Bytes { return &c.Kmax }).Zero("0B", "off", "none", "0").
			Default("200KB").In("hpcc", "400KB").In("dolce", "500KB").
			Doc("RED threshold at which the marking probability reaches pmax"),
		keyval.Real("pmax", func(c *Config) *float64 { return &c.Pmax }, keyval.Unit).
			Default("0.01").In("hpcc", "0.2").
			Doc("marking probability at kmax"),
		keyval.Rate("ecn_ref_rate", func(c *Config) *units.BitsPerSec { return &c.ECNRefRate }).Zero("off", "none", "0").
			Default("off").In("hpcc", "25Gbps").
			Doc("link rate kmin and kmax are given for, scaled linearly to other rates (off: the same at every rate)"),
		keyval.Time("cnp_interval", func(c *Config) *units.Time { return &c.CNPInterval }).Positive().
			Default("50us").In("hpcc", "1us").In("dolce", "1us").DefaultIfZero().
			Doc("T_gap, the receiver's minimum time between two CNPs of a queue pair"),
	},
}

// Keys lists the parameter keys Build accepts, in sorted order.
func Keys() []string { return table.Keys() }

// Presets lists the preset names in sorted order.
func Presets() []string { return table.PresetNames() }

// Preset returns the configuration of a named preset ("" for the default,
// or an alias).
func Preset(name string) (Config, error) {
	c, _, err := table.Preset(name)
	return c, err
}

// Schema describes DCQCN's presets and parameters (help and docs).
func Schema() cca.Schema { return table.Schema((*Config).validate) }

// Register adds DCQCN to r under the name "dcqcn".
func Register(r *cca.Registry) { r.Register("dcqcn", "DCQCN (Zhu et al. 2015)", Build, Schema) }

// Build is the cca.Builder of DCQCN: it resolves a preset, applies the
// key=value overrides (see Keys) and validates the result.
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	c, name, err := table.Build(preset, overrides, (*Config).validate)
	if err != nil {
		return cca.Spec{}, err
	}
	return cca.Spec{
		Name:        "dcqcn:" + name,
		New:         func() cca.Algorithm { return newValid(c) },
		ECN:         &cca.ECNHint{KminBytes: c.Kmin, KmaxBytes: c.Kmax, Pmax: c.Pmax, RefRate: c.ECNRefRate},
		CNPInterval: c.CNPInterval,
		Params:      table.Values(&c),
	}, nil
}

// Table is DCQCN's parameter table, for algorithms that take DCQCN's keys
// (Dolce-RC lifts them with keyval.Lift).
func Table() *keyval.Table[Config] { return table }
