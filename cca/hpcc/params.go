package hpcc

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

// aiKeys are the three ways to give W_AI; setting one clears the others.
var aiKeys = []string{"ai_flows", "ai_rate", "w_ai"}

var params = keyval.Table[Config]{
	"eta": {
		Set: func(c *Config, v string) error { return parseUnit(v, &c.Eta) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.Eta) }},
	"max_stage": {
		Set: func(c *Config, v string) error { return parseInt(v, &c.MaxStage, 0) },
		Get: func(c *Config) string { return strconv.Itoa(c.MaxStage) }},
	"w_ai": {
		Set: func(c *Config, v string) error {
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
		Get: func(c *Config) string { return keyval.FormatSizeOr(c.WAI, "off") }},
	"ai_rate": {
		Set: func(c *Config, v string) error {
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
		Get: func(c *Config) string { return keyval.FormatRateOr(c.AIRate, "off") }},
	"ai_flows": {
		Set: func(c *Config, v string) error {
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
		Get: func(c *Config) string {
			if c.AIFlows == 0 {
				return "off"
			}
			return strconv.Itoa(c.AIFlows)
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
		Get: func(c *Config) string { return keyval.FormatRateOr(c.MinRate, "0bps") }},
	"base_rtt": {
		Set: func(c *Config, v string) error {
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
		Get: func(c *Config) string {
			if c.BaseRTT == 0 {
				return "path"
			}
			return keyval.FormatDurationOr(c.BaseRTT, "0s")
		}},
	"fast_react": {
		Set: func(c *Config, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("want true or false, got %q", v)
			}
			c.NoFastReact = !b
			return nil
		},
		Get: func(c *Config) string { return strconv.FormatBool(!c.NoFastReact) }},
}

// Keys lists the parameter keys Build accepts, in sorted order.
func Keys() []string { return params.Keys() }

// set applies one key=value override.
func (c *Config) set(key, value string) error { return params.Set(c, key, value) }

// Params returns every parameter's effective value, keyed as Build takes
// them; feeding the map back to Build reproduces the configuration.
func (c Config) Params() map[string]string { return params.Values(&c) }

func isOff(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "off", "none", "0":
		return true
	}
	return false
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

// parseInt parses an integer >= lo.
func parseInt(v string, dst *int, lo int) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo {
		return fmt.Errorf("want an integer >= %d, got %q", lo, v)
	}
	*dst = n
	return nil
}
