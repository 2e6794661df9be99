package swift

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
	"base_target": {
		func(c *Config, v string) error { return parseDuration(v, &c.BaseTarget, false) },
		func(c *Config) string { return formatDuration(c.BaseTarget) }},
	"hop_scale": {
		func(c *Config, v string) error { return parseDuration(v, &c.HopScale, true) },
		func(c *Config) string { return formatDuration(c.HopScale) }},
	"fs_range": {
		func(c *Config, v string) error { return parseDuration(v, &c.FSRange, true) },
		func(c *Config) string { return formatDuration(c.FSRange) }},
	"fs_min_cwnd": {
		func(c *Config, v string) error { return parsePositive(v, &c.FSMinCwnd) },
		func(c *Config) string { return formatFloat(c.FSMinCwnd) }},
	"fs_max_cwnd": {
		func(c *Config, v string) error { return parsePositive(v, &c.FSMaxCwnd) },
		func(c *Config) string { return formatFloat(c.FSMaxCwnd) }},
	"ai": {
		func(c *Config, v string) error { return parsePositive(v, &c.AI) },
		func(c *Config) string { return formatFloat(c.AI) }},
	"beta": {
		func(c *Config, v string) error { return parsePositive(v, &c.Beta) },
		func(c *Config) string { return formatFloat(c.Beta) }},
	"max_mdf": {
		func(c *Config, v string) error {
			if err := parsePositive(v, &c.MaxMDF); err != nil {
				return err
			}
			if c.MaxMDF >= 1 {
				return fmt.Errorf("must be in (0, 1), got %v", c.MaxMDF)
			}
			return nil
		},
		func(c *Config) string { return formatFloat(c.MaxMDF) }},
	"min_cwnd": {
		func(c *Config, v string) error { return parsePositive(v, &c.MinCwnd) },
		func(c *Config) string { return formatFloat(c.MinCwnd) }},
	"max_cwnd": {
		func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), "auto") {
				c.MaxCwnd = 0
				return nil
			}
			return parsePositive(v, &c.MaxCwnd)
		},
		func(c *Config) string {
			if c.MaxCwnd == 0 {
				return "auto"
			}
			return formatFloat(c.MaxCwnd)
		}},
	"init_cwnd": {
		func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), "bdp") {
				c.InitCwnd = 0
				return nil
			}
			return parsePositive(v, &c.InitCwnd)
		},
		func(c *Config) string {
			if c.InitCwnd == 0 {
				return "bdp"
			}
			return formatFloat(c.InitCwnd)
		}},
	"retx_reset": {
		func(c *Config, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return fmt.Errorf("want an integer >= 1, got %q", v)
			}
			c.RetxReset = n
			return nil
		},
		func(c *Config) string { return strconv.Itoa(c.RetxReset) }},
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

// parseDuration parses a time; zero is accepted only when zeroOK.
func parseDuration(v string, dst *units.Time, zeroOK bool) error {
	t, err := units.ParseDuration(v)
	if err != nil {
		return err
	}
	if t == 0 && !zeroOK {
		return fmt.Errorf("must be positive, got %q", v)
	}
	*dst = t
	return nil
}

// parsePositive parses a finite float > 0.
func parsePositive(v string, dst *float64) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("want a number, got %q", v)
	}
	if f <= 0 {
		return fmt.Errorf("must be positive, got %v", f)
	}
	*dst = f
	return nil
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

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
