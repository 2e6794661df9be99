package timely

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/units"
)

// param is one key=value override: how to parse it into a Config and how
// to print the effective value back in a form parse accepts.
type param struct {
	set func(c *Config, v string) error
	get func(c *Config) string
}

var params = map[string]param{
	"alpha": {
		func(c *Config, v string) error { return parseUnit(v, &c.Alpha) },
		func(c *Config) string { return formatFloat(c.Alpha) }},
	"beta": {
		func(c *Config, v string) error { return parseUnit(v, &c.Beta) },
		func(c *Config) string { return formatFloat(c.Beta) }},
	"t_low": {
		func(c *Config, v string) error { return parseThreshold(v, &c.TLow) },
		func(c *Config) string { return formatThreshold(c.TLow) }},
	"t_high": {
		func(c *Config, v string) error { return parseThreshold(v, &c.THigh) },
		func(c *Config) string { return formatThreshold(c.THigh) }},
	"delta": {
		func(c *Config, v string) error { return parseStep(v, &c.Delta) },
		func(c *Config) string { return formatStep(c.Delta) }},
	"hai_factor": {
		func(c *Config, v string) error { return parseCount(v, &c.HAIFactor) },
		func(c *Config) string { return strconv.Itoa(c.HAIFactor) }},
	"hai_after": {
		func(c *Config, v string) error { return parseCount(v, &c.HAIAfter) },
		func(c *Config) string { return strconv.Itoa(c.HAIAfter) }},
	"hai_mode": {
		func(c *Config, v string) error {
			switch m := HAIMode(strings.ToLower(strings.TrimSpace(v))); m {
			case HAIGradient, HAIIncrease:
				c.HAIMode = m
				return nil
			}
			return fmt.Errorf("want one of %s, %s, got %q", HAIGradient, HAIIncrease, v)
		},
		func(c *Config) string { return string(c.HAIMode) }},
	"segment": {
		func(c *Config, v string) error {
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
		func(c *Config) string {
			if c.PerRTT {
				return "rtt"
			}
			return formatSize(c.Segment)
		}},
	"min_rtt": {
		func(c *Config, v string) error {
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
		func(c *Config) string {
			if c.MinRTT == 0 {
				return "base"
			}
			return formatDuration(c.MinRTT)
		}},
	"min_rate": {
		func(c *Config, v string) error {
			r, err := units.ParseRate(v)
			if err != nil {
				return err
			}
			c.MinRate = r
			return nil
		},
		func(c *Config) string { return formatRate(c.MinRate) }},
}

// Keys lists the parameter keys Build accepts, in sorted order.
func Keys() []string {
	out := make([]string, 0, len(params))
	for k := range params {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// set applies one key=value override.
func (c *Config) set(key, value string) error {
	p, ok := params[key]
	if !ok {
		return fmt.Errorf("unknown parameter %q (known: %s)", key, strings.Join(Keys(), ", "))
	}
	if err := p.set(c, value); err != nil {
		return fmt.Errorf("parameter %s: %w", key, err)
	}
	return nil
}

// Params returns every parameter's effective value, keyed as Build takes
// them; feeding the map back to Build reproduces the configuration.
func (c Config) Params() map[string]string {
	out := make(map[string]string, len(params))
	for k, p := range params {
		out[k] = p.get(&c)
	}
	return out
}

// parseMultiple parses "2.5x" into 2.5; ok is false without the suffix.
func parseMultiple(v string) (f float64, ok bool, err error) {
	v = strings.ToLower(strings.TrimSpace(v))
	num, found := strings.CutSuffix(v, "x")
	if !found {
		return 0, false, nil
	}
	f, err = strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 {
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
		return formatFloat(t.BaseRTTs) + "x"
	}
	return formatDuration(t.Abs)
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
		return formatFloat(s.LineFrac) + "x"
	}
	return formatRate(s.Abs)
}

// parseUnit parses a float in (0, 1].
func parseUnit(v string, dst *float64) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) {
		return fmt.Errorf("want a number, got %q", v)
	}
	if f <= 0 || f > 1 {
		return fmt.Errorf("must be in (0, 1], got %v", f)
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

// formatRate prints r exactly in the largest unit that divides it.
func formatRate(r units.BitsPerSec) string {
	switch {
	case r != 0 && r%units.Gbps == 0:
		return fmt.Sprintf("%dGbps", r/units.Gbps)
	case r != 0 && r%units.Mbps == 0:
		return fmt.Sprintf("%dMbps", r/units.Mbps)
	case r != 0 && r%units.Kbps == 0:
		return fmt.Sprintf("%dKbps", r/units.Kbps)
	}
	return fmt.Sprintf("%dbps", int64(r))
}

// formatDuration prints t exactly in the largest unit that divides it.
func formatDuration(t units.Time) string {
	if t == 0 {
		return "0us"
	}
	for _, u := range []struct {
		d   units.Time
		suf string
	}{{units.Second, "s"}, {units.Millisecond, "ms"}, {units.Microsecond, "us"}, {units.Nanosecond, "ns"}} {
		if t%u.d == 0 {
			return fmt.Sprintf("%d%s", t/u.d, u.suf)
		}
	}
	return fmt.Sprintf("%dps", int64(t))
}

// formatSize prints b exactly in decimal units.
func formatSize(b units.Bytes) string {
	switch {
	case b != 0 && b%units.MB == 0:
		return fmt.Sprintf("%dMB", b/units.MB)
	case b != 0 && b%units.KB == 0:
		return fmt.Sprintf("%dKB", b/units.KB)
	}
	return fmt.Sprintf("%dB", int64(b))
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
