package dolce

import (
	"fmt"
	"math"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/cca/dolce/drucb"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultPreset is the preset of both algorithms when none is named: the
// setup of the paper's simulations, which a simulator reproduces.
const DefaultPreset = "sim"

// TestbedPreset is Dolce-RC's preset of the paper's testbed.
const TestbedPreset = "testbed"

// dcqcnPreset is the DCQCN preset each Dolce-RC preset runs over: the
// paper's DCQCN baseline of the same setup.
var dcqcnPreset = map[string]string{DefaultPreset: "dolce-sim", TestbedPreset: "dolce-testbed"}

// inheritedDCQCN are the DCQCN keys Dolce-RC takes, from the DCQCN preset
// of the same setup (dcqcnPreset): everything but the alpha equations and
// the cut, which Dolce-RC replaces (see rcTable.Refused).
var inheritedDCQCN = []string{
	"ai_rate", "hai_rate", "min_rate", "increase_timer", "byte_counter", "fast_recovery",
	"increase_mode", "decrease_interval", "window", "kmin", "kmax", "pmax", "ecn_ref_rate",
	"cnp_interval",
}

// banditParams are the DR-UCB keys both algorithms take, with Dolce-RC (Ye 2023)
// Section V-A's values.
func banditParams[C any](gamma, epsilon, xi func(*C) *float64, fixed func(*C) *bool) []*keyval.Param[C] {
	return []*keyval.Param[C]{
		keyval.Real("gamma", gamma, keyval.OpenUnit).
			Default(units.FormatFloat(drucb.DefaultGamma)).DefaultIfZero().
			Doc("DR-UCB's discount factor (Section V-A)"),
		keyval.Real("epsilon", epsilon, keyval.OpenUnit).
			Default(units.FormatFloat(drucb.DefaultEpsilon)).DefaultIfZero().
			Doc("DR-UCB's exploration probability (Section V-A)"),
		keyval.Real("xi", xi, keyval.Above(0.5)).
			Default(units.FormatFloat(drucb.DefaultXi)).DefaultIfZero().
			Doc("DR-UCB's exploration constant (Section V-A)"),
		keyval.Bool("fixed_point", fixed).
			Default("false").
			Doc("keep the bandit in the paper's 20 bytes per connection (Section IV-B.2-3)"),
	}
}

// rcTable is Dolce-RC's parameters and its two presets, one per setup of
// Dolce-RC (Ye 2023), both with the DR-UCB of Section V-A (gamma 0.9998,
// epsilon 0.015, xi 0.5001), PaperArms and the slots estimator of the
// prototype (Section IV-B.1) in float64:
//
//   - sim (the default; alias paper): the ns-3 simulations of Section V-C
//     (Tables I and II), over dcqcn:dolce-sim: zhu2015's reaction point,
//     Kmin 7 KB, Kmax 500 KB (Section V-A), Pmax 1 %, and a 55 us CNP
//     interval, Section IV-A's "five times of the CNP interval (i.e.,
//     about one fast recovery phase)" with F = 5 and T = 55 us.
//   - testbed: the testbed of Section V-B (Fig. 5), ConnectX NICs, over
//     dcqcn:dolce-testbed: the NIC's increase settings (300 us timer,
//     32767 B byte counter, F = 1, 5/50 Mb/s steps, 1 Mb/s floor, 4 us
//     between cuts), the same marking, and the 1 us minimum CNP interval
//     of Section IV-B.1.
//
// The alias paper is the name of the single preset of earlier versions,
// which took the testbed's 1 us CNP interval onto the simulations'
// reaction point.
var rcTable = &keyval.Table[Config]{
	Name:    "dolce",
	Default: DefaultPreset,
	Presets: []cca.Preset{
		{Name: DefaultPreset, Aliases: []string{"paper"},
			Doc:        "Dolce-RC (Ye 2023), Section V-A's ns-3 settings: DR-UCB and arms from Theorem 2 over dcqcn:dolce-sim (CNP interval 55us, Section IV-A)",
			Reproduces: "Dolce-RC (Ye 2023), Tables I and II (the Dolce-RC rows)"},
		{Name: TestbedPreset,
			Doc:        "Dolce-RC (Ye 2023), Section V-B's testbed: DR-UCB and arms over dcqcn:dolce-testbed (ConnectX reaction point, CNP interval 1us, Section IV-B.1)",
			Reproduces: "Dolce-RC (Ye 2023), Fig. 5 (the Dolce-RC curve)"},
	},
	Params: append(append(banditParams(
		func(c *Config) *float64 { return &c.Gamma }, func(c *Config) *float64 { return &c.Epsilon },
		func(c *Config) *float64 { return &c.Xi }, func(c *Config) *bool { return &c.FixedPoint }),
		keyval.Custom("arms", "alpha:beta list", "alpha in [0, 1], beta > 0", setArms, func(c *Config) string { return formatArms(c.Arms) }).
			Default(formatArms(PaperArms())).
			Doc("the arm set of Definition 1: cuts set R_T = beta*R_C (Eq. (1)), R_C = (1-alpha/2)*R_C (Eq. (2))"),
		keyval.Enum("estimator", func(c *Config) *Estimator { return &c.Estimator }, EstimatorIdeal, EstimatorSlots).
			Default("slots").DefaultIfZero().
			Doc("ECN ratio of Eq. (4): ideal (CE-echoing ACKs per packet) or slots (CNPs per 1us Tx slot, the prototype's)"),
		keyval.Time("qualify_gap", func(c *Config) *units.Time { return &c.QualifyGap }).Zero("auto").
			Show(func(c *Config) string { return units.FormatDuration(c.gap()) }).
			Default("auto").
			Doc("least time between two qualified CNPs (auto: one fast recovery phase, fast_recovery x increase_timer)"),
	), inherited()...),
	Refused: map[string]string{
		"g":                 "alpha comes from the arm set (Dolce-RC, Ye 2023, Section IV-A: no alpha equations)",
		"alpha_init":        "alpha comes from the arm set (Dolce-RC, Ye 2023, Section IV-A: no alpha equations)",
		"alpha_mode":        "alpha comes from the arm set (Dolce-RC, Ye 2023, Section IV-A: no alpha equations)",
		"alpha_timer":       "alpha comes from the arm set (Dolce-RC, Ye 2023, Section IV-A: no alpha equations)",
		"cut":               "the cut is R_C = (1 - alpha/2)*R_C (Dolce-RC, Ye 2023, Eq. (2))",
		"clamp_target_rate": "every cut sets R_T = beta*R_C (Dolce-RC, Ye 2023, Eq. (1))",
	},
}

// inherited lifts the DCQCN keys Dolce-RC takes onto its Config.DCQCN,
// each preset with the values of its DCQCN preset (dcqcnPreset).
func inherited() []*keyval.Param[Config] {
	out := make([]*keyval.Param[Config], len(inheritedDCQCN))
	for i, k := range inheritedDCQCN {
		p := dcqcn.Table().Param(k)
		out[i] = keyval.Lift(p, dcqcnPreset[DefaultPreset], func(c *Config) *dcqcn.Config { return &c.DCQCN }).
			In(TestbedPreset, p.ValueIn(dcqcnPreset[TestbedPreset]))
	}
	return out
}

// plusTable is Dolce-RC+'s parameters and its one preset, sim (alias
// paper): the ns-3 simulation of Section VI-B, 4 rates C/8..C, DR-UCB as
// for Dolce-RC, RED Kmin 7 KB, Kmax 500 KB, Pmax 1 %, and the simulations'
// 55 us CNP interval (dcqcn:dolce-sim; Dolce-RC+ ignores CNPs, the
// interval matters to a comparison on the same network). The ECN and CNP
// keys parse and print as DCQCN's do.
var plusTable = &keyval.Table[PlusConfig]{
	Name:    "dolceplus",
	Default: DefaultPreset,
	Presets: []cca.Preset{{Name: DefaultPreset, Aliases: []string{"paper"},
		Doc:        "Dolce-RC (Ye 2023), Section VI: 4 rates C/8..C, DR-UCB of Section V-A, the simulations' marking and CNP interval (dcqcn:dolce-sim)",
		Reproduces: "Dolce-RC (Ye 2023), Section VI-B's dumbbell simulation (Fig. 8)"}},
	Params: append(banditParams(
		func(c *PlusConfig) *float64 { return &c.Gamma }, func(c *PlusConfig) *float64 { return &c.Epsilon },
		func(c *PlusConfig) *float64 { return &c.Xi }, func(c *PlusConfig) *bool { return &c.FixedPoint }),
		keyval.Int("arms", func(c *PlusConfig) *int { return &c.Arms }, keyval.Closed(1, 62)).
			Default("4").DefaultIfZero().
			Doc("K, the number of rates r_i = C/2^(K-1-i) (Definition 3)"),
		keyval.Size("kmin", func(c *PlusConfig) *units.Bytes { return &c.Kmin }).Zero("0B", "off", "none", "0").
			Default("7KB").
			Doc("RED threshold below which switches mark nothing (Section V-A)"),
		keyval.Size("kmax", func(c *PlusConfig) *units.Bytes { return &c.Kmax }).Zero("0B", "off", "none", "0").
			Default("500KB").
			Doc("RED threshold at which the marking probability reaches pmax (Section V-A)"),
		keyval.Real("pmax", func(c *PlusConfig) *float64 { return &c.Pmax }, keyval.Unit).
			Default("0.01").
			Doc("marking probability at kmax"),
		keyval.Rate("ecn_ref_rate", func(c *PlusConfig) *units.BitsPerSec { return &c.ECNRefRate }).Zero("off", "none", "0").
			Default("off").
			Doc("link rate kmin and kmax are given for, scaled linearly to other rates (off: the same at every rate)"),
		keyval.Time("cnp_interval", func(c *PlusConfig) *units.Time { return &c.CNPInterval }).Positive().
			Default("55us").DefaultIfZero().
			Doc("the receiver's minimum time between two CNPs (Dolce-RC+ ignores CNPs)"),
	),
}

// rc and plus register Dolce-RC as "dolce" and Dolce-RC+ as "dolceplus".
// Both mark and send CNPs as DCQCN does (Dolce-RC+ ignores the CNPs).
var (
	rc = &keyval.Algorithm[Config]{
		Table:    rcTable,
		Summary:  "Dolce-RC (Ye et al., Dolce-RC (Ye 2023), Alg. 2): DCQCN with bandit-chosen alpha/beta",
		Validate: (*Config).validate,
		Spec: func(c Config) cca.Spec {
			return c.DCQCN.Hints(cca.Spec{New: func() cca.Algorithm { return newRC(c) }})
		},
	}
	plus = &keyval.Algorithm[PlusConfig]{
		Table:    plusTable,
		Summary:  "Dolce-RC+ (Ye et al., Dolce-RC (Ye 2023), Alg. 3): per-message rate C/2^k chosen by a bandit",
		Validate: (*PlusConfig).validate,
		Spec: func(c PlusConfig) cca.Spec {
			return c.Hints(cca.Spec{New: func() cca.Algorithm { return newPlus(c) }})
		},
	}
)

// Register adds Dolce-RC as "dolce" and Dolce-RC+ as "dolceplus" to r.
func Register(r *cca.Registry) {
	rc.Register(r)
	plus.Register(r)
}

// Build is the cca.Builder of Dolce-RC: it resolves a preset, applies the
// key=value overrides (see rcTable) and validates the result.
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	return rc.Build(preset, overrides)
}

// BuildPlus is the cca.Builder of Dolce-RC+ (see plusTable).
func BuildPlus(preset string, overrides map[string]string) (cca.Spec, error) {
	return plus.Build(preset, overrides)
}

// setArms parses arms=alpha:beta,alpha:beta,...
func setArms(c *Config, v string) error {
	var arms []Arm
	for i, s := range strings.Split(v, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(s), ":")
		if !ok {
			return fmt.Errorf("arm %d: want alpha:beta, got %q", i, s)
		}
		alpha, err1 := units.ParseFloat(a)
		beta, err2 := units.ParseFloat(b)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("arm %d: want alpha:beta numbers, got %q", i, s)
		}
		if err := checkArm(i, Arm{alpha, beta}); err != nil {
			return err
		}
		arms = append(arms, Arm{alpha, beta})
	}
	c.Arms = arms
	return nil
}

// checkArm is Definition 1's ranges: alpha in [0, 1], beta positive.
func checkArm(i int, a Arm) error {
	if !(a.Alpha >= 0 && a.Alpha <= 1) {
		return fmt.Errorf("arm %d: alpha must be in [0, 1], got %v", i, a.Alpha)
	}
	if !(a.Beta > 0) || math.IsInf(a.Beta, 1) {
		return fmt.Errorf("arm %d: beta must be a positive number, got %v", i, a.Beta)
	}
	return nil
}

// formatArms prints arms as setArms reads them, exactly.
func formatArms(arms []Arm) string {
	s := make([]string, len(arms))
	for i, a := range arms {
		s[i] = units.FormatFloat(a.Alpha) + ":" + units.FormatFloat(a.Beta)
	}
	return strings.Join(s, ",")
}
