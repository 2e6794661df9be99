package hpcc

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
	// paper: Li et al. 2019. η = 0.95 and maxStage = 5 (section 3.3,
	// "Parameters"); W_AI from
	// the paper's rule W_AI = W_init*(1-η)/N (section 3.3) with N = 100
	// concurrent flows, our choice (about 26 B at 100 Gb/s and T = 4.2 us).
	// min_rate 100 Mb/s is the HPCC simulator's MIN_RATE (the paper has no
	// floor). T is each flow's own base RTT.
	"paper": paper,

	// hpcc-repo: the HPCC simulator's mix/config.txt
	// (../shared/data/hpcc_format/config.txt, CC_MODE 3): U_TARGET 0.95
	// -> eta; MI_THRESH 0 -> max_stage 0 (every update multiplicative,
	// Alg. 1 line 12 always true); RATE_AI 50Mb/s -> W_AI = 50Mb/s * T;
	// MIN_RATE 100Mb/s -> min_rate; FAST_REACT 1 -> fast_react; HAS_WIN 1
	// and VAR_WIN 1 -> the window W = R*T that Window returns; INT_MULTI,
	// MULTI_RATE 0 and SAMPLE_FEEDBACK 0 are the single-rate, full-INT
	// behaviour modelled here. GLOBAL_T 1 (T = the network's largest base
	// RTT) is not known to an algorithm: T stays the flow's own base RTT
	// unless base_rtt is given.
	"hpcc-repo": func() Config {
		return Config{
			Eta:      0.95,
			MaxStage: 0,
			AIRate:   50 * units.Mbps,
			MinRate:  100 * units.Mbps,
		}
	},
}

// aliases are other names for the presets; Spec.Name always carries the
// canonical name.
var aliases = map[string]string{
	"li2019": "paper",
	"hpcc":   "hpcc-repo",
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

// Register adds HPCC to r under the name "hpcc".
func Register(r *cca.Registry) {
	r.Register("hpcc", "HPCC (Li et al. 2019), INT-based window control, presets "+strings.Join(Presets(), ", "), Build)
}

// Build is the cca.Builder of HPCC: it resolves a preset, applies the
// key=value overrides (see Keys) and validates the result. The Spec asks
// switches to stamp INT and leaves their ECN marking alone (HPCC ignores
// ECN echoes and CNPs).
func Build(preset string, params map[string]string) (cca.Spec, error) {
	name, err := canonical(preset)
	if err != nil {
		return cca.Spec{}, err
	}
	c := presets[name]()
	keys := keyval.SortedKeys(params) // NB: the first error must not depend on map order.
	var ai []string
	for _, k := range keys {
		if err := c.set(k, params[k]); err != nil {
			return cca.Spec{}, err
		}
		for _, a := range aiKeys {
			if k == a && !isOff(params[k]) {
				ai = append(ai, k)
			}
		}
	}
	if len(ai) > 1 {
		return cca.Spec{}, fmt.Errorf("parameters %s each set W_AI: give only one", strings.Join(ai, " and "))
	}
	if err := c.validate(); err != nil {
		return cca.Spec{}, err
	}
	return cca.Spec{
		Name:     "hpcc:" + name,
		New:      func() cca.Algorithm { return newValid(c) },
		NeedsINT: true,
		Params:   c.Params(),
	}, nil
}
