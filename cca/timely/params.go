package timely

import (
	"fmt"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/units"
)

// param is one key=value override: how to parse it into a Config and how
// to print the effective value back in a form parse accepts.
type param = keyval.Field[Config]

var params = keyval.Table[Config]{
	"alpha": {
		Set: func(c *Config, v string) error { return parseUnit(v, &c.Alpha) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.Alpha) }},
	"beta": {
		Set: func(c *Config, v string) error { return parseUnit(v, &c.Beta) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.Beta) }},
	"t_low": {
		Set: func(c *Config, v string) error { return parseThreshold(v, &c.TLow) },
		Get: func(c *Config) string { return formatThreshold(c.TLow) }},
	"t_high": {
		Set: func(c *Config, v string) error { return parseThreshold(v, &c.THigh) },
		Get: func(c *Config) string { return formatThreshold(c.THigh) }},
	"delta": {
		Set: func(c *Config, v string) error { return parseStep(v, &c.Delta) },
		Get: func(c *Config) string { return formatStep(c.Delta) }},
	"hai_factor": {
		Set: func(c *Config, v string) error { return parseCount(v, &c.HAIFactor) },
		Get: func(c *Config) string { return strconv.Itoa(c.HAIFactor) }},
	"hai_after": {
		Set: func(c *Config, v string) error { return parseCount(v, &c.HAIAfter) },
		Get: func(c *Config) string { return strconv.Itoa(c.HAIAfter) }},
	"hai_mode": {
		Set: func(c *Config, v string) error {
			switch m := HAIMode(strings.ToLower(strings.TrimSpace(v))); m {
			case HAIGradient, HAIIncrease:
				c.HAIMode = m
				return nil
			}
			return fmt.Errorf("want one of %s, %s, got %q", HAIGradient, HAIIncrease, v)
		},
		Get: func(c *Config) string { return string(c.HAIMode) }},
	"segment": {
		Set: func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), "rtt") {
				c.Segment, c.PerRTT = 0, true
				return nil
			}
			b, err := units.ParseSize(v)
			if err != nil {
				return err
			}
			if b <= 0 {
				return fmt.Errorf("must be positive, got %q", v)
			}
			c.Segment, c.PerRTT = b, false
			return nil
		},
		Get: func(c *Config) string {
			if c.PerRTT {
				return "rtt"
			}
			return keyval.FormatSize(c.Segment)
		}},
	"min_rtt": {
		Set: func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), "base") {
				c.MinRTT = 0
				return nil
			}
			t, err := units.ParseDuration(v)
			if err != nil {
				return err
			}
			if t <= 0 {
				return fmt.Errorf("must be positive or base, got %q", v)
			}
			c.MinRTT = t
			return nil
		},
		Get: func(c *Config) string {
			if c.MinRTT == 0 {
				return "base"
			}
			return keyval.FormatDuration(c.MinRTT)
		}},
	"min_rate": {
		Set: func(c *Config, v string) error {
			r, err := units.ParseRate(v)
			if err != nil {
				return err
			}
			c.MinRate = r
			return nil
		},
		Get: func(c *Config) string { return keyval.FormatRate(c.MinRate) }},
}

// Keys lists the parameter keys Build accepts, in sorted order.
func Keys() []string { return params.Keys() }

// set applies one key=value override.
func (c *Config) set(key, value string) error { return params.Set(c, key, value) }

// Params returns every parameter's effective value, keyed as Build takes
// them; feeding the map back to Build reproduces the configuration.
func (c Config) Params() map[string]string { return params.Values(&c) }

// parseMultiple parses "2.5x" into 2.5; ok is false without the suffix.
func parseMultiple(v string) (f float64, ok bool, err error) {
	v = strings.ToLower(strings.TrimSpace(v))
	num, found := strings.CutSuffix(v, "x")
	if !found {
		return 0, false, nil
	}
	f, err = keyval.ParseFloatIn(num, keyval.Positive)
	if err != nil {
		return 0, true, fmt.Errorf("want a positive multiple such as 2.5x, got %q", v)
	}
	return f, true, nil
}

// parseThreshold parses a time ("50us") or a multiple of the base RTT
// ("2.5x").
func parseThreshold(v string, dst *Threshold) error {
	if f, ok, err := parseMultiple(v); ok {
		if err != nil {
			return err
		}
		if f > MaxBaseRTTs {
			return fmt.Errorf("a multiple of the base RTT must be at most %.0fx, got %q", MaxBaseRTTs, v)
		}
		*dst = Threshold{BaseRTTs: f}
		return nil
	}
	t, err := units.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("%w, or a multiple of the base RTT such as 2.5x", err)
	}
	if t <= 0 {
		return fmt.Errorf("must be positive, got %q", v)
	}
	*dst = Threshold{Abs: t}
	return nil
}

func formatThreshold(t Threshold) string {
	if t.BaseRTTs > 0 {
		return keyval.FormatFloat(t.BaseRTTs) + "x"
	}
	return keyval.FormatDuration(t.Abs)
}

// parseStep parses a rate ("10Mbps") or a fraction of the line rate
// ("0.001x").
func parseStep(v string, dst *Step) error {
	if f, ok, err := parseMultiple(v); ok {
		if err != nil {
			return err
		}
		if f > 1 {
			return fmt.Errorf("a fraction of the line rate must be at most 1x, got %q", v)
		}
		*dst = Step{LineFrac: f}
		return nil
	}
	r, err := units.ParseRate(v)
	if err != nil {
		return fmt.Errorf("%w, or a fraction of the line rate such as 0.001x", err)
	}
	*dst = Step{Abs: r}
	return nil
}

func formatStep(s Step) string {
	if s.LineFrac > 0 {
		return keyval.FormatFloat(s.LineFrac) + "x"
	}
	return keyval.FormatRate(s.Abs)
}

// parseUnit parses a float in (0, 1] with keyval's parser (NaN and the
// infinities are rejected).
func parseUnit(v string, dst *float64) error {
	f, err := keyval.ParseFloatIn(v, keyval.UnitNonZero)
	if err != nil {
		return err
	}
	*dst = f
	return nil
}

func parseCount(v string, dst *int) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 {
		return fmt.Errorf("want an integer >= 1, got %q", v)
	}
	*dst = n
	return nil
}

// apply sets key=value overrides in sorted key order (the first error
// reported never depends on map order).
func (c *Config) apply(overrides map[string]string) error { return params.Apply(c, overrides) }
