package swift

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
	"base_target": {
		Set: func(c *Config, v string) error { return parseDuration(v, &c.BaseTarget, false) },
		Get: func(c *Config) string { return keyval.FormatDuration(c.BaseTarget) }},
	"hop_scale": {
		Set: func(c *Config, v string) error { return parseDuration(v, &c.HopScale, true) },
		Get: func(c *Config) string { return keyval.FormatDuration(c.HopScale) }},
	"fs_range": {
		Set: func(c *Config, v string) error { return parseDuration(v, &c.FSRange, true) },
		Get: func(c *Config) string { return keyval.FormatDuration(c.FSRange) }},
	"fs_min_cwnd": {
		Set: func(c *Config, v string) error { return parseCwnd(v, &c.FSMinCwnd) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.FSMinCwnd) }},
	"fs_max_cwnd": {
		Set: func(c *Config, v string) error { return parseCwnd(v, &c.FSMaxCwnd) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.FSMaxCwnd) }},
	"ai": {
		Set: func(c *Config, v string) error { return parsePositive(v, &c.AI) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.AI) }},
	"beta": {
		Set: func(c *Config, v string) error { return parsePositive(v, &c.Beta) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.Beta) }},
	"max_mdf": {
		Set: func(c *Config, v string) error {
			f, err := keyval.ParseFloatIn(v, keyval.OpenUnit)
			if err != nil {
				return err
			}
			c.MaxMDF = f
			return nil
		},
		Get: func(c *Config) string { return keyval.FormatFloat(c.MaxMDF) }},
	"min_cwnd": {
		Set: func(c *Config, v string) error { return parseCwnd(v, &c.MinCwnd) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.MinCwnd) }},
	"max_cwnd": {
		Set: func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), "auto") {
				c.MaxCwnd = 0
				return nil
			}
			return parseCwnd(v, &c.MaxCwnd)
		},
		Get: func(c *Config) string {
			if c.MaxCwnd == 0 {
				return "auto"
			}
			return keyval.FormatFloat(c.MaxCwnd)
		}},
	"init_cwnd": {
		Set: func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), "bdp") {
				c.InitCwnd = 0
				return nil
			}
			return parseCwnd(v, &c.InitCwnd)
		},
		Get: func(c *Config) string {
			if c.InitCwnd == 0 {
				return "bdp"
			}
			return keyval.FormatFloat(c.InitCwnd)
		}},
	"retx_reset": {
		Set: func(c *Config, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return fmt.Errorf("want an integer >= 1, got %q", v)
			}
			c.RetxReset = n
			return nil
		},
		Get: func(c *Config) string { return strconv.Itoa(c.RetxReset) }},
}

// Keys lists the parameter keys Build accepts, in sorted order.
func Keys() []string { return params.Keys() }

// set applies one key=value override.
func (c *Config) set(key, value string) error { return params.Set(c, key, value) }

// Params returns every parameter's effective value, keyed as Build takes
// them; feeding the map back to Build reproduces the configuration.
func (c Config) Params() map[string]string { return params.Values(&c) }

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

// parsePositive parses a finite float > 0 with keyval's parser (NaN and
// the infinities are rejected).
func parsePositive(v string, dst *float64) error {
	f, err := keyval.ParseFloatIn(v, keyval.Positive)
	if err != nil {
		return err
	}
	*dst = f
	return nil
}

// parseCwnd parses a window in packets: a finite float in
// (0, CwndLimit].
func parseCwnd(v string, dst *float64) error {
	f, err := keyval.ParseFloatIn(v, keyval.Interval{Lo: 0, Hi: CwndLimit, OpenLo: true})
	if err != nil {
		return err
	}
	*dst = f
	return nil
}

// apply sets key=value overrides in sorted key order (the first error
// reported never depends on map order).
func (c *Config) apply(overrides map[string]string) error { return params.Apply(c, overrides) }
