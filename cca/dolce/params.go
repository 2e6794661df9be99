package dolce

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// param is one key=value override of a configuration of type C: how to
// parse it and how to print the effective value back in a form set takes.
type param[C any] struct {
	set func(c *C, v string) error
	get func(c *C) string
}

// banditParams are the DR-UCB keys both algorithms take.
func banditParams[C any](g func(*C) (*float64, *float64, *float64, *bool)) map[string]param[C] {
	return map[string]param[C]{
		"gamma": {
			func(c *C, v string) error { p, _, _, _ := g(c); return parseOpenUnit(v, p) },
			func(c *C) string { p, _, _, _ := g(c); return fmtExact(*p) }},
		"epsilon": {
			func(c *C, v string) error { _, p, _, _ := g(c); return parseOpenUnit(v, p) },
			func(c *C) string { _, p, _, _ := g(c); return fmtExact(*p) }},
		"xi": {
			func(c *C, v string) error {
				_, _, p, _ := g(c)
				f, err := parseFloat(v)
				if err != nil {
					return err
				}
				if !(f > 0.5) {
					return fmt.Errorf("must be a number > 0.5, got %v", f)
				}
				*p = f
				return nil
			},
			func(c *C) string { _, _, p, _ := g(c); return fmtExact(*p) }},
		"fixed_point": {
			func(c *C, v string) error {
				_, _, _, p := g(c)
				b, err := strconv.ParseBool(strings.TrimSpace(v))
				if err != nil {
					return fmt.Errorf("want true or false, got %q", v)
				}
				*p = b
				return nil
			},
			func(c *C) string { _, _, _, p := g(c); return strconv.FormatBool(*p) }},
	}
}

// inheritedDCQCN are the DCQCN keys Dolce-RC takes (dcqcn.Keys):
// everything but the alpha equations and the cut, which Dolce-RC replaces.
var inheritedDCQCN = []string{
	"ai_rate", "byte_counter", "cnp_interval", "decrease_interval", "ecn_ref_rate",
	"fast_recovery", "hai_rate", "increase_mode", "increase_timer", "kmax", "kmin",
	"min_rate", "pmax", "window",
}

// replaced are the DCQCN keys Dolce-RC rejects, with the reason.
var replaced = map[string]string{
	"g":                 "alpha comes from the arm set (paper 000 Section IV-A: no alpha equations)",
	"alpha_init":        "alpha comes from the arm set (paper 000 Section IV-A: no alpha equations)",
	"alpha_mode":        "alpha comes from the arm set (paper 000 Section IV-A: no alpha equations)",
	"alpha_timer":       "alpha comes from the arm set (paper 000 Section IV-A: no alpha equations)",
	"cut":               "the cut is R_C = (1 - alpha/2)*R_C (paper 000 Eq. (2))",
	"clamp_target_rate": "every cut sets R_T = beta*R_C (paper 000 Eq. (1))",
}

var rcParams = func() map[string]param[Config] {
	m := banditParams(func(c *Config) (*float64, *float64, *float64, *bool) {
		return &c.Gamma, &c.Epsilon, &c.Xi, &c.FixedPoint
	})
	m["arms"] = param[Config]{
		func(c *Config, v string) error {
			arms, err := parseArms(v)
			if err != nil {
				return err
			}
			c.Arms = arms
			return nil
		},
		func(c *Config) string { return formatArms(c.Arms) }}
	m["estimator"] = param[Config]{
		func(c *Config, v string) error {
			switch e := Estimator(strings.ToLower(strings.TrimSpace(v))); e {
			case EstimatorIdeal, EstimatorSlots:
				c.Estimator = e
				return nil
			}
			return fmt.Errorf("want one of ideal, slots, got %q", v)
		},
		func(c *Config) string { return string(c.Estimator) }}
	m["qualify_gap"] = param[Config]{
		func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), "auto") {
				c.QualifyGap = 0
				return nil
			}
			t, err := units.ParseDuration(v)
			if err != nil {
				return err
			}
			c.QualifyGap = t
			return nil
		},
		func(c *Config) string { return fmtDuration(c.gap()) }}
	for _, k := range inheritedDCQCN {
		m[k] = param[Config]{
			func(c *Config, v string) error { return unwrapParam(c.DCQCN.Set(k, v)) },
			func(c *Config) string { return c.DCQCN.Params()[k] }}
	}
	return m
}()

var plusParams = func() map[string]param[PlusConfig] {
	m := banditParams(func(c *PlusConfig) (*float64, *float64, *float64, *bool) {
		return &c.Gamma, &c.Epsilon, &c.Xi, &c.FixedPoint
	})
	m["arms"] = param[PlusConfig]{
		func(c *PlusConfig, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 || n > 62 {
				return fmt.Errorf("want an integer in [1, 62], got %q", v)
			}
			c.Arms = n
			return nil
		},
		func(c *PlusConfig) string { return strconv.Itoa(c.Arms) }}
	// The ECN and CNP keys parse and print as DCQCN's do.
	for _, k := range []string{"kmin", "kmax", "pmax", "ecn_ref_rate", "cnp_interval"} {
		m[k] = param[PlusConfig]{
			func(c *PlusConfig, v string) error {
				d := c.dcqcnView()
				if err := d.Set(k, v); err != nil {
					return unwrapParam(err)
				}
				c.Kmin, c.Kmax, c.Pmax, c.ECNRefRate, c.CNPInterval = d.Kmin, d.Kmax, d.Pmax, d.ECNRefRate, d.CNPInterval
				return nil
			},
			func(c *PlusConfig) string { d := c.dcqcnView(); return d.Params()[k] }}
	}
	return m
}()

// unwrapParam strips the "parameter KEY: " that DCQCN's Set puts on its
// errors, which apply adds itself.
func unwrapParam(err error) error {
	if inner := errors.Unwrap(err); inner != nil {
		return inner
	}
	return err
}

// dcqcnView carries the ECN and CNP fields in a DCQCN configuration, to
// reuse its parsing and printing.
func (c *PlusConfig) dcqcnView() dcqcn.Config {
	return dcqcn.Config{Kmin: c.Kmin, Kmax: c.Kmax, Pmax: c.Pmax, ECNRefRate: c.ECNRefRate, CNPInterval: c.CNPInterval}
}

// keys lists a parameter table's keys in sorted order.
func keys[C any](m map[string]param[C]) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Keys lists the parameter keys Build accepts for Dolce-RC, sorted.
func Keys() []string { return keys(rcParams) }

// PlusKeys lists the parameter keys BuildPlus accepts, sorted.
func PlusKeys() []string { return keys(plusParams) }

// apply sets the overrides in sorted key order, so that the first error
// reported does not depend on map order.
func apply[C any](c *C, table map[string]param[C], overrides map[string]string, why map[string]string) error {
	ks := make([]string, 0, len(overrides))
	for k := range overrides {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		p, ok := table[k]
		if !ok {
			if r, ok := why[k]; ok {
				return fmt.Errorf("parameter %q does not apply: %s", k, r)
			}
			return fmt.Errorf("unknown parameter %q (known: %s)", k, strings.Join(keys(table), ", "))
		}
		if err := p.set(c, overrides[k]); err != nil {
			return fmt.Errorf("parameter %s: %w", k, err)
		}
	}
	return nil
}

// params prints every key's effective value.
func params[C any](c *C, table map[string]param[C]) map[string]string {
	out := make(map[string]string, len(table))
	for k, p := range table {
		out[k] = p.get(c)
	}
	return out
}

// parseArms parses "alpha:beta,alpha:beta,...".
func parseArms(v string) ([]Arm, error) {
	var arms []Arm
	for i, s := range strings.Split(v, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(s), ":")
		if !ok {
			return nil, fmt.Errorf("arm %d: want alpha:beta, got %q", i, s)
		}
		alpha, err1 := parseFloat(a)
		beta, err2 := parseFloat(b)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("arm %d: want alpha:beta numbers, got %q", i, s)
		}
		if !(alpha >= 0 && alpha <= 1) {
			return nil, fmt.Errorf("arm %d: alpha must be in [0, 1], got %v", i, alpha)
		}
		if !(beta > 0) {
			return nil, fmt.Errorf("arm %d: beta must be a positive number, got %v", i, beta)
		}
		arms = append(arms, Arm{alpha, beta})
	}
	return arms, nil
}

// formatArms prints arms as parseArms reads them, exactly.
func formatArms(arms []Arm) string {
	s := make([]string, len(arms))
	for i, a := range arms {
		s[i] = fmtExact(a.Alpha) + ":" + fmtExact(a.Beta)
	}
	return strings.Join(s, ",")
}

// parseFloat parses a finite number with keyval's parser (NaN and the
// infinities are rejected).
func parseFloat(v string) (float64, error) { return keyval.ParseFloat(v) }

// parseOpenUnit parses a number in (0, 1).
func parseOpenUnit(v string, dst *float64) error {
	f, err := keyval.ParseFloatIn(v, keyval.OpenUnit)
	if err != nil {
		return err
	}
	*dst = f
	return nil
}

func fmtExact(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// fmtDuration prints t exactly in the largest unit that divides it.
func fmtDuration(t units.Time) string {
	for _, u := range []struct {
		d   units.Time
		suf string
	}{{units.Second, "s"}, {units.Millisecond, "ms"}, {units.Microsecond, "us"}, {units.Nanosecond, "ns"}} {
		if t != 0 && t%u.d == 0 {
			return fmt.Sprintf("%d%s", t/u.d, u.suf)
		}
	}
	return fmt.Sprintf("%dps", int64(t))
}
