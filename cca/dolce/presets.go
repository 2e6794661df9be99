package dolce

import (
	"fmt"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/dcqcn"
)

// DefaultPreset is the preset of both algorithms when none is named.
const DefaultPreset = "paper"

// Preset returns Dolce-RC's configuration of a named preset ("" for the
// default). "paper" is paper 000's: DR-UCB with gamma 0.9998, epsilon
// 0.015, xi 0.5001 (Section V-A), PaperArms, the slots estimator of the
// prototype (Section IV-B.1) in float64, over the dcqcn:dolce preset (Kmin
// 7 KB, Kmax 500 KB, Pmax 1 %, CNP interval 1 us).
func Preset(name string) (Config, error) {
	if name != "" && name != DefaultPreset {
		return Config{}, fmt.Errorf("unknown preset %q (known: %s)", name, DefaultPreset)
	}
	d, err := dcqcn.Preset("dolce")
	if err != nil {
		return Config{}, err
	}
	c := Config{DCQCN: d}
	if err := c.validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// PlusPreset returns Dolce-RC+'s configuration of a named preset ("" for
// the default). "paper": 4 rates C/8..C, DR-UCB as for Dolce-RC, RED
// Kmin 7 KB, Kmax 500 KB, Pmax 1 %, CNP interval 1 us (see PlusConfig).
func PlusPreset(name string) (PlusConfig, error) {
	if name != "" && name != DefaultPreset {
		return PlusConfig{}, fmt.Errorf("unknown preset %q (known: %s)", name, DefaultPreset)
	}
	var c PlusConfig
	if err := c.validate(); err != nil {
		return PlusConfig{}, err
	}
	return c, nil
}

// Register adds Dolce-RC as "dolce" and Dolce-RC+ as "dolceplus" to r.
func Register(r *cca.Registry) {
	r.Register("dolce", "Dolce-RC (Ye et al., paper 000 Alg. 2): DCQCN with bandit-chosen alpha/beta, preset paper", Build)
	r.Register("dolceplus", "Dolce-RC+ (Ye et al., paper 000 Alg. 3): per-message rate C/2^k chosen by a bandit, preset paper", BuildPlus)
}

// Build is the cca.Builder of Dolce-RC: it resolves a preset, applies the
// key=value overrides (see Keys) and validates the result.
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	c, err := Preset(preset)
	if err != nil {
		return cca.Spec{}, err
	}
	if err := apply(&c, rcParams, overrides, replaced); err != nil {
		return cca.Spec{}, err
	}
	if err := c.validate(); err != nil {
		return cca.Spec{}, err
	}
	d := c.DCQCN
	return cca.Spec{
		Name: "dolce:" + DefaultPreset,
		New:  func() cca.Algorithm { return newRC(c) },
		ECN: &cca.ECNHint{
			KminBytes: d.Kmin, KmaxBytes: d.Kmax, Pmax: d.Pmax, RefRate: d.ECNRefRate,
		},
		CNPInterval: d.CNPInterval,
		Params:      params(&c, rcParams),
	}, nil
}

// BuildPlus is the cca.Builder of Dolce-RC+ (see PlusKeys).
func BuildPlus(preset string, overrides map[string]string) (cca.Spec, error) {
	c, err := PlusPreset(preset)
	if err != nil {
		return cca.Spec{}, err
	}
	if err := apply(&c, plusParams, overrides, nil); err != nil {
		return cca.Spec{}, err
	}
	if err := c.validate(); err != nil {
		return cca.Spec{}, err
	}
	return cca.Spec{
		Name: "dolceplus:" + DefaultPreset,
		New:  func() cca.Algorithm { return newPlus(c) },
		ECN: &cca.ECNHint{
			KminBytes: c.Kmin, KmaxBytes: c.Kmax, Pmax: c.Pmax, RefRate: c.ECNRefRate,
		},
		CNPInterval: c.CNPInterval,
		Params:      params(&c, plusParams),
	}, nil
}
