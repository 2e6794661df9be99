package dctcp

import (
	"fmt"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"strings"

	"github.com/ccreplay/ccreplay/units"
)

// param is one key=value override: how to parse it into a Config and how
// to print the effective value back in a form parse accepts.
type param = keyval.Field[Config]

// mtuPerRTT is the ai_rate value that selects Config.AIPerRTT.
const mtuPerRTT = "mtu-per-rtt"

var params = keyval.Table[Config]{
	"g": {
		Set: func(c *Config, v string) error { return parseUnit(v, &c.G) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.G) }},
	"alpha_init": {
		Set: func(c *Config, v string) error { return parseUnit(v, &c.AlphaInit) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.AlphaInit) }},
	"ai_rate": {
		Set: func(c *Config, v string) error {
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
		Get: func(c *Config) string {
			if c.AIPerRTT {
				return mtuPerRTT
			}
			return keyval.FormatRate(c.AIRate)
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
	"window": {
		Set: func(c *Config, v string) error {
			v = strings.ToLower(strings.TrimSpace(v))
			for _, m := range []WindowMode{WindowNone, WindowBDP, WindowVar} {
				if v == string(m) {
					c.Window = m
					return nil
				}
			}
			return fmt.Errorf("want one of none, bdp, var, got %q", v)
		},
		Get: func(c *Config) string { return string(c.Window) }},
	"k": {
		Set: func(c *Config, v string) error {
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
		Get: func(c *Config) string { return keyval.FormatSize(c.K) }},
	"k_ref_rate": {
		Set: func(c *Config, v string) error {
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
		Get: func(c *Config) string {
			if c.KRefRate == 0 {
				return "off"
			}
			return keyval.FormatRate(c.KRefRate)
		}},
}

// Keys lists the parameter keys Build accepts, in sorted order.
func Keys() []string { return params.Keys() }

// set applies one key=value override.
func (c *Config) set(key, value string) error { return params.Set(c, key, value) }

// Params returns every parameter's effective value, keyed as Build takes
// them; feeding the map back to Build reproduces the configuration.
func (c Config) Params() map[string]string { return params.Values(&c) }

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

// apply sets key=value overrides in sorted key order (the first error
// reported never depends on map order).
func (c *Config) apply(overrides map[string]string) error { return params.Apply(c, overrides) }
