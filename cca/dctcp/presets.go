package dctcp

import (
	"fmt"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultPreset is the preset used when none is named.
const DefaultPreset = "paper"

// presets maps each preset name to its configuration.
var presets = map[string]func() Config{
	// paper: Alizadeh et al. 2010. g = 1/16 (section 4). R_AI = one MTU per
	// base RTT, TCP's congestion-avoidance increase in rate form. alpha
	// starts at 1 (the paper gives no value; Linux and the HPCC simulator
	// use 1). K: the paper's guideline K > C*RTT/7 (section 3, "Guidelines
	// for choosing parameters") for a 100 Gb/s port and a 13 us RTT (the
	// HPCC fat tree, topology preset hpcc-fattree, has 12.3 us) is 23.2 KB;
	// we round up to 24 KB at 100 Gb/s and scale it with the link rate, as
	// C*RTT/7 scales. The paper's own K = 20 packets at 1 Gb/s and 65 at
	// 10 Gb/s (section 4) were chosen for ~100 us testbed RTTs and do not
	// transfer to microsecond RTTs. min_rate 100 Mb/s is the HPCC
	// simulator's MIN_RATE. No window: pure rate control.
	"paper": paper,

	// hpcc-repo: the HPCC simulator (CC_MODE 8) with its mix/config.txt
	// (../shared/data/hpcc_format/config.txt): EWMA_GAIN 0.00390625 ->
	// g; DCTCP_RATE_AI 1000Mb/s -> ai_rate; MIN_RATE 100Mb/s -> min_rate;
	// HAS_WIN 1 and VAR_WIN 1 -> window var; alpha starts at 1
	// (rdma-queue-pair.cc). K is not in config.txt (its KMIN/KMAX maps
	// are DCQCN's): we take the DCTCP settings of the HPCC repository's
	// run.py as we recall them, KMIN = KMAX = 30 KB per 10 Gb/s with PMAX
	// 1, i.e. 30 KB at 10 Gb/s scaled with the link rate (300 KB at
	// 100 Gb/s). NB: the same run.py sets DCTCP_RATE_AI to 615 Mb/s ("1 MTU
	// per 13 us RTT"); config.txt's 1000 Mb/s is used here.
	"hpcc-repo": func() Config {
		return Config{
			G:         0.00390625,
			AlphaInit: 1,
			AIRate:    1000 * units.Mbps,
			MinRate:   100 * units.Mbps,
			Window:    WindowVar,
			K:         30 * units.KB,
			KRefRate:  10 * units.Gbps,
		}
	},
}

// aliases are other names for the presets; Spec.Name always carries the
// canonical name.
var aliases = map[string]string{
	"alizadeh2010": "paper",
	"hpcc":         "hpcc-repo",
}

// Presets lists the canonical preset names in sorted order.
func Presets() []string { return keyval.SortedKeys(presets) }

// canonical resolves "" and aliases to a preset name.
func canonical(name string) (string, error) {
	if name == "" {
		name = DefaultPreset
	}
	if a, ok := aliases[name]; ok {
		name = a
	}
	if _, ok := presets[name]; !ok {
		return "", fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(Presets(), ", "))
	}
	return name, nil
}

// Preset returns the configuration of a named preset ("" for the default).
func Preset(name string) (Config, error) {
	name, err := canonical(name)
	if err != nil {
		return Config{}, err
	}
	return presets[name](), nil
}

// Register adds DCTCP to r under the name "dctcp".
func Register(r *cca.Registry) {
	r.Register("dctcp", "DCTCP (Alizadeh et al. 2010) in rate form, single-threshold ECN, presets "+strings.Join(Presets(), ", "), Build)
}

// Build is the cca.Builder of DCTCP: it resolves a preset, applies the
// key=value overrides (see Keys) and validates the result. The Spec's ECN
// hint is DCTCP's single threshold: Kmin = Kmax = K with Pmax 1.
func Build(preset string, params map[string]string) (cca.Spec, error) {
	name, err := canonical(preset)
	if err != nil {
		return cca.Spec{}, err
	}
	c := presets[name]()
	if err := c.apply(params); err != nil {
		return cca.Spec{}, err
	}
	if err := c.validate(); err != nil {
		return cca.Spec{}, err
	}
	return cca.Spec{
		Name:   "dctcp:" + name,
		New:    func() cca.Algorithm { return newValid(c) },
		ECN:    &cca.ECNHint{KminBytes: c.K, KmaxBytes: c.K, Pmax: 1, RefRate: c.KRefRate},
		Params: c.Params(),
	}, nil
}
