package dcqcn

import (
	"fmt"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultPreset is the preset used when none is named.
const DefaultPreset = "zhu2015"

// presets maps each user-facing preset name to its configuration.
var presets = map[string]func() Config{
	// zhu2015: paper 003 Table II ("Parameter setting for DCQCN from [5],
	// [46]", [5] = Zhu et al. 2015): Kmin 5 kB, Kmax 200 kB, Pmax 1 %,
	// g 1/256, T_gap 50 us, K = T = 55 us, B = 10 MB, R_AI 5 Mb/s,
	// R_HI 50 Mb/s; F = 5 from Table I. min_rate 100 Mb/s is our choice
	// (see Config.MinRate).
	"zhu2015": defaults,

	// hpcc: the HPCC simulator's mix/config.txt
	// (../shared/data/hpcc_format/config.txt) run through its Mellanox
	// DCQCN model (rdma-hw.cc, CC_MODE 1): RATE_AI 50Mb/s, RATE_HAI
	// 100Mb/s, MIN_RATE 100Mb/s, RP_TIMER 900 (us), ALPHA_RESUME_INTERVAL 1
	// (us), EWMA_GAIN 0.00390625, FAST_RECOVERY_TIMES 1,
	// RATE_DECREASE_INTERVAL 4 (us), CLAMP_TARGET_RATE 0, no byte counter;
	// KMIN_MAP/KMAX_MAP/PMAX_MAP 100 kB/400 kB/0.2 at 25 Gb/s, scaled
	// linearly with the link rate. The simulator has no CNP gap: every
	// ACK of a CE-marked packet carries the CNP flag. We choose a 1 us CNP
	// interval, the alpha slot K, so that every slot can still see a CNP;
	// cuts stay paced by decrease_interval.
	"hpcc": func() Config {
		c := defaults()
		c.AIRate = 50 * units.Mbps
		c.HAIRate = 100 * units.Mbps
		c.MinRate = 100 * units.Mbps
		c.IncreaseTimer = 900 * units.Microsecond
		c.AlphaMode = AlphaMlx
		c.AlphaTimer = 1 * units.Microsecond
		c.G = 0.00390625
		c.FastRecovery = 1
		c.IncreaseMode = IncreaseMlx
		c.DecreaseInterval = 4 * units.Microsecond
		c.KeepTargetRate = true
		c.ByteCounter = 0
		c.Kmin, c.Kmax, c.Pmax = 100*units.KB, 400*units.KB, 0.2
		c.ECNRefRate = 25 * units.Gbps
		c.CNPInterval = 1 * units.Microsecond
		return c
	},

	// dolce: the DCQCN baseline of paper 000 (Dolce-RC), section V-A:
	// zhu2015 with Kmin 7 KB and Kmax 500 KB, and a 1 us minimum CNP
	// interval (section IV-B, MIN_TIME_BETWEEN_CNPS = 1).
	"dolce": func() Config {
		c := defaults()
		c.Kmin, c.Kmax = 7*units.KB, 500*units.KB
		c.CNPInterval = 1 * units.Microsecond
		return c
	},
}

// aliases are the preset names the design notes (shared/DESIGN.md) use for
// the same settings; Spec.Name always carries the canonical name.
var aliases = map[string]string{
	"hpcc-repo":   "hpcc",
	"dolce-paper": "dolce",
}

// Presets lists the preset names in sorted order.
func Presets() []string { return keyval.SortedKeys(presets) }

// Preset returns the configuration of a named preset ("" for the default).
func Preset(name string) (Config, error) {
	if name == "" {
		name = DefaultPreset
	}
	if a, ok := aliases[name]; ok {
		name = a
	}
	p, ok := presets[name]
	if !ok {
		return Config{}, fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(Presets(), ", "))
	}
	return p(), nil
}

// Register adds DCQCN to r under the name "dcqcn".
func Register(r *cca.Registry) {
	r.Register("dcqcn", "DCQCN (Zhu et al. 2015), presets "+strings.Join(Presets(), ", "), Build)
}

// Build is the cca.Builder of DCQCN: it resolves a preset, applies the
// key=value overrides (see Keys) and validates the result.
func Build(preset string, params map[string]string) (cca.Spec, error) {
	name := preset
	if name == "" {
		name = DefaultPreset
	}
	if a, ok := aliases[name]; ok {
		name = a
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
		Name: "dcqcn:" + name,
		New:  func() cca.Algorithm { return newValid(c) },
		ECN: &cca.ECNHint{
			KminBytes: c.Kmin,
			KmaxBytes: c.Kmax,
			Pmax:      c.Pmax,
			RefRate:   c.ECNRefRate,
		},
		CNPInterval: c.CNPInterval,
		Params:      c.Params(),
	}, nil
}
