package hpcc

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

// aiKeys are the three ways to give W_AI; setting one clears the others.
var aiKeys = []string{"ai_flows", "ai_rate", "w_ai"}

var params = map[string]param{
	"eta": {
		func(c *Config, v string) error { return parseUnit(v, &c.Eta) },
		func(c *Config) string { return formatFloat(c.Eta) }},
	"max_stage": {
		func(c *Config, v string) error { return parseInt(v, &c.MaxStage, 0) },
		func(c *Config) string { return strconv.Itoa(c.MaxStage) }},
	"w_ai": {
		func(c *Config, v string) error {
			if isOff(v) {
				c.WAI = 0
				return nil
			}
			b, err := units.ParseSize(v)
			if err != nil {
				return err
			}
			if b == 0 {
				return fmt.Errorf("must be at least 1 byte or off, got %q", v)
			}
			c.WAI, c.AIRate, c.AIFlows = b, 0, 0
			return nil
		},
		func(c *Config) string { return formatSize(c.WAI, "off") }},
	"ai_rate": {
		func(c *Config, v string) error {
			if isOff(v) {
				c.AIRate = 0
				return nil
			}
			r, err := units.ParseRate(v)
			if err != nil {
				return err
			}
			c.WAI, c.AIRate, c.AIFlows = 0, r, 0
			return nil
		},
		func(c *Config) string { return formatRate(c.AIRate, "off") }},
	"ai_flows": {
		func(c *Config, v string) error {
			if isOff(v) {
				c.AIFlows = 0
				return nil
			}
			var n int
			if err := parseInt(v, &n, 1); err != nil {
				return err
			}
			c.WAI, c.AIRate, c.AIFlows = 0, 0, n
			return nil
		},
		func(c *Config) string {
			if c.AIFlows == 0 {
				return "off"
			}
			return strconv.Itoa(c.AIFlows)
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
		func(c *Config) string { return formatRate(c.MinRate, "0bps") }},
	"base_rtt": {
		func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), "path") {
				c.BaseRTT = 0
				return nil
			}
			t, err := units.ParseDuration(v)
			if err != nil {
				return err
			}
			if t == 0 {
				return fmt.Errorf("must be positive or \"path\", got %q", v)
			}
			c.BaseRTT = t
			return nil
		},
		func(c *Config) string {
			if c.BaseRTT == 0 {
				return "path"
			}
			return formatDuration(c.BaseRTT)
		}},
	"fast_react": {
		func(c *Config, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("want true or false, got %q", v)
			}
			c.NoFastReact = !b
			return nil
		},
		func(c *Config) string { return strconv.FormatBool(!c.NoFastReact) }},
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

func isOff(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "off", "none", "0":
		return true
	}
	return false
}

// parseUnit parses a float in (0, 1].
func parseUnit(v string, dst *float64) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) {
		return fmt.Errorf("want a number, got %q", v)
	}
	if !(f > 0 && f <= 1) {
		return fmt.Errorf("must be in (0, 1], got %v", f)
	}
	*dst = f
	return nil
}

// parseInt parses an integer >= lo.
func parseInt(v string, dst *int, lo int) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo {
		return fmt.Errorf("want an integer >= %d, got %q", lo, v)
	}
	*dst = n
	return nil
}

// formatRate prints r exactly in the largest unit that divides it.
func formatRate(r units.BitsPerSec, zero string) string {
	switch {
	case r == 0:
		return zero
	case r%units.Gbps == 0:
		return fmt.Sprintf("%dGbps", r/units.Gbps)
	case r%units.Mbps == 0:
		return fmt.Sprintf("%dMbps", r/units.Mbps)
	case r%units.Kbps == 0:
		return fmt.Sprintf("%dKbps", r/units.Kbps)
	}
	return fmt.Sprintf("%dbps", int64(r))
}

// formatDuration prints t exactly in the largest unit that divides it.
func formatDuration(t units.Time) string {
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

// formatSize prints b exactly in decimal units, and zero as zero.
func formatSize(b units.Bytes, zero string) string {
	switch {
	case b == 0:
		return zero
	case b%units.MB == 0:
		return fmt.Sprintf("%dMB", b/units.MB)
	case b%units.KB == 0:
		return fmt.Sprintf("%dKB", b/units.KB)
	}
	return fmt.Sprintf("%dB", int64(b))
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
