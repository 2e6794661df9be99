package dctcp

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

// mtuPerRTT is the ai_rate value that selects Config.AIPerRTT.
const mtuPerRTT = "mtu-per-rtt"

var params = map[string]param{
	"g": {
		func(c *Config, v string) error { return parseUnit(v, &c.G) },
		func(c *Config) string { return formatFloat(c.G) }},
	"alpha_init": {
		func(c *Config, v string) error { return parseUnit(v, &c.AlphaInit) },
		func(c *Config) string { return formatFloat(c.AlphaInit) }},
	"ai_rate": {
		func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), mtuPerRTT) {
				c.AIRate, c.AIPerRTT = 0, true
				return nil
			}
			r, err := units.ParseRate(v)
			if err != nil {
				return fmt.Errorf("%w, or %s", err, mtuPerRTT)
			}
			c.AIRate, c.AIPerRTT = r, false
			return nil
		},
		func(c *Config) string {
			if c.AIPerRTT {
				return mtuPerRTT
			}
			return formatRate(c.AIRate)
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
	"window": {
		func(c *Config, v string) error {
			v = strings.ToLower(strings.TrimSpace(v))
			for _, m := range []WindowMode{WindowNone, WindowBDP, WindowVar} {
				if v == string(m) {
					c.Window = m
					return nil
				}
			}
			return fmt.Errorf("want one of none, bdp, var, got %q", v)
		},
		func(c *Config) string { return string(c.Window) }},
	"k": {
		func(c *Config, v string) error {
			b, err := units.ParseSize(v)
			if err != nil {
				return err
			}
			if b == 0 {
				return fmt.Errorf("must be at least 1 byte, got %q", v)
			}
			c.K = b
			return nil
		},
		func(c *Config) string { return formatSize(c.K) }},
	"k_ref_rate": {
		func(c *Config, v string) error {
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "off", "none", "0":
				c.KRefRate = 0
				return nil
			}
			r, err := units.ParseRate(v)
			if err != nil {
				return err
			}
			c.KRefRate = r
			return nil
		},
		func(c *Config) string {
			if c.KRefRate == 0 {
				return "off"
			}
			return formatRate(c.KRefRate)
		}},
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
