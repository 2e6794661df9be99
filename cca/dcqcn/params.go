package dcqcn

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
	"ai_rate": {
		Set: func(c *Config, v string) error { return parseRate(v, &c.AIRate) },
		Get: func(c *Config) string { return keyval.FormatRate(c.AIRate) }},
	"hai_rate": {
		Set: func(c *Config, v string) error { return parseRate(v, &c.HAIRate) },
		Get: func(c *Config) string { return keyval.FormatRate(c.HAIRate) }},
	"min_rate": {
		Set: func(c *Config, v string) error { return parseRate(v, &c.MinRate) },
		Get: func(c *Config) string { return keyval.FormatRate(c.MinRate) }},
	"g": {
		Set: func(c *Config, v string) error { return parseUnit(v, &c.G, false) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.G) }},
	"alpha_init": {
		Set: func(c *Config, v string) error { return parseUnit(v, &c.AlphaInit, false) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.AlphaInit) }},
	"alpha_mode": {
		Set: func(c *Config, v string) error {
			return parseEnum(v, &c.AlphaMode, AlphaZhu, AlphaMlx)
		},
		Get: func(c *Config) string { return string(c.AlphaMode) }},
	"alpha_timer": {
		Set: func(c *Config, v string) error { return parseDuration(v, &c.AlphaTimer, false) },
		Get: func(c *Config) string { return keyval.FormatDuration(c.AlphaTimer) }},
	"increase_timer": {
		Set: func(c *Config, v string) error { return parseDuration(v, &c.IncreaseTimer, false) },
		Get: func(c *Config) string { return keyval.FormatDuration(c.IncreaseTimer) }},
	"byte_counter": {
		Set: func(c *Config, v string) error { return parseSize(v, &c.ByteCounter) },
		Get: func(c *Config) string { return keyval.FormatSizeOr(c.ByteCounter, "off") }},
	"fast_recovery": {
		Set: func(c *Config, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return fmt.Errorf("want an integer >= 1, got %q", v)
			}
			c.FastRecovery = n
			return nil
		},
		Get: func(c *Config) string { return strconv.Itoa(c.FastRecovery) }},
	"increase_mode": {
		Set: func(c *Config, v string) error {
			return parseEnum(v, &c.IncreaseMode, IncreaseZhu, IncreaseMlx)
		},
		Get: func(c *Config) string { return string(c.IncreaseMode) }},
	"decrease_interval": {
		Set: func(c *Config, v string) error { return parseDuration(v, &c.DecreaseInterval, true) },
		Get: func(c *Config) string { return keyval.FormatDuration(c.DecreaseInterval) }},
	"cut": {
		Set: func(c *Config, v string) error { return parseEnum(v, &c.Cut, CutHalfAlpha, CutAlpha) },
		Get: func(c *Config) string { return string(c.Cut) }},
	"clamp_target_rate": {
		Set: func(c *Config, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("want true or false, got %q", v)
			}
			c.KeepTargetRate = !b
			return nil
		},
		Get: func(c *Config) string { return strconv.FormatBool(!c.KeepTargetRate) }},
	"window": {
		Set: func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), "bdp") {
				c.Window, c.WindowBDP = 0, true
				return nil
			}
			c.WindowBDP = false
			return parseSize(v, &c.Window)
		},
		Get: func(c *Config) string {
			if c.WindowBDP {
				return "bdp"
			}
			return keyval.FormatSizeOr(c.Window, "none")
		}},
	"kmin": {
		Set: func(c *Config, v string) error { return parseSize(v, &c.Kmin) },
		Get: func(c *Config) string { return keyval.FormatSizeOr(c.Kmin, "0B") }},
	"kmax": {
		Set: func(c *Config, v string) error { return parseSize(v, &c.Kmax) },
		Get: func(c *Config) string { return keyval.FormatSizeOr(c.Kmax, "0B") }},
	"pmax": {
		Set: func(c *Config, v string) error { return parseUnit(v, &c.Pmax, true) },
		Get: func(c *Config) string { return keyval.FormatFloat(c.Pmax) }},
	"ecn_ref_rate": {
		Set: func(c *Config, v string) error {
			if isOff(v) {
				c.ECNRefRate = 0
				return nil
			}
			return parseRate(v, &c.ECNRefRate)
		},
		Get: func(c *Config) string {
			if c.ECNRefRate == 0 {
				return "off"
			}
			return keyval.FormatRate(c.ECNRefRate)
		}},
	"cnp_interval": {
		Set: func(c *Config, v string) error { return parseDuration(v, &c.CNPInterval, false) },
		Get: func(c *Config) string { return keyval.FormatDuration(c.CNPInterval) }},
}

// Keys lists the parameter keys Build accepts, in sorted order.
func Keys() []string { return params.Keys() }

// set applies one key=value override.
func (c *Config) set(key, value string) error { return params.Set(c, key, value) }

// Set applies one key=value override as Build does (see Keys), for
// algorithms that build on a DCQCN configuration; the result is checked
// when the configuration is passed to New.
func (c *Config) Set(key, value string) error { return c.set(key, value) }

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

func parseRate(v string, dst *units.BitsPerSec) error {
	r, err := units.ParseRate(v)
	if err != nil {
		return err
	}
	*dst = r
	return nil
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

// parseSize parses a size; "off", "none" and "0" mean zero.
func parseSize(v string, dst *units.Bytes) error {
	if isOff(v) {
		*dst = 0
		return nil
	}
	b, err := units.ParseSize(v)
	if err != nil {
		return err
	}
	*dst = b
	return nil
}

// parseUnit parses a float in (0, 1], or in [0, 1] when zeroOK, with
// keyval's parser (NaN and the infinities are rejected).
func parseUnit(v string, dst *float64, zeroOK bool) error {
	r := keyval.UnitNonZero
	if zeroOK {
		r = keyval.Unit
	}
	f, err := keyval.ParseFloatIn(v, r)
	if err != nil {
		return err
	}
	*dst = f
	return nil
}

func parseEnum[T ~string](v string, dst *T, allowed ...T) error {
	v = strings.ToLower(strings.TrimSpace(v))
	names := make([]string, len(allowed))
	for i, a := range allowed {
		if string(a) == v {
			*dst = a
			return nil
		}
		names[i] = string(a)
	}
	return fmt.Errorf("want one of %s, got %q", strings.Join(names, ", "), v)
}

// apply sets key=value overrides in sorted key order (the first error
// reported never depends on map order).
func (c *Config) apply(overrides map[string]string) error { return params.Apply(c, overrides) }
