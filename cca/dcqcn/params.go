package dcqcn

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
	"ai_rate": {
		func(c *Config, v string) error { return parseRate(v, &c.AIRate) },
		func(c *Config) string { return formatRate(c.AIRate) }},
	"hai_rate": {
		func(c *Config, v string) error { return parseRate(v, &c.HAIRate) },
		func(c *Config) string { return formatRate(c.HAIRate) }},
	"min_rate": {
		func(c *Config, v string) error { return parseRate(v, &c.MinRate) },
		func(c *Config) string { return formatRate(c.MinRate) }},
	"g": {
		func(c *Config, v string) error { return parseUnit(v, &c.G, false) },
		func(c *Config) string { return formatFloat(c.G) }},
	"alpha_init": {
		func(c *Config, v string) error { return parseUnit(v, &c.AlphaInit, false) },
		func(c *Config) string { return formatFloat(c.AlphaInit) }},
	"alpha_mode": {
		func(c *Config, v string) error {
			return parseEnum(v, &c.AlphaMode, AlphaZhu, AlphaMlx)
		},
		func(c *Config) string { return string(c.AlphaMode) }},
	"alpha_timer": {
		func(c *Config, v string) error { return parseDuration(v, &c.AlphaTimer, false) },
		func(c *Config) string { return formatDuration(c.AlphaTimer) }},
	"increase_timer": {
		func(c *Config, v string) error { return parseDuration(v, &c.IncreaseTimer, false) },
		func(c *Config) string { return formatDuration(c.IncreaseTimer) }},
	"byte_counter": {
		func(c *Config, v string) error { return parseSize(v, &c.ByteCounter) },
		func(c *Config) string { return formatSize(c.ByteCounter, "off") }},
	"fast_recovery": {
		func(c *Config, v string) error {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return fmt.Errorf("want an integer >= 1, got %q", v)
			}
			c.FastRecovery = n
			return nil
		},
		func(c *Config) string { return strconv.Itoa(c.FastRecovery) }},
	"increase_mode": {
		func(c *Config, v string) error {
			return parseEnum(v, &c.IncreaseMode, IncreaseZhu, IncreaseMlx)
		},
		func(c *Config) string { return string(c.IncreaseMode) }},
	"decrease_interval": {
		func(c *Config, v string) error { return parseDuration(v, &c.DecreaseInterval, true) },
		func(c *Config) string { return formatDuration(c.DecreaseInterval) }},
	"cut": {
		func(c *Config, v string) error { return parseEnum(v, &c.Cut, CutHalfAlpha, CutAlpha) },
		func(c *Config) string { return string(c.Cut) }},
	"clamp_target_rate": {
		func(c *Config, v string) error {
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("want true or false, got %q", v)
			}
			c.KeepTargetRate = !b
			return nil
		},
		func(c *Config) string { return strconv.FormatBool(!c.KeepTargetRate) }},
	"window": {
		func(c *Config, v string) error {
			if strings.EqualFold(strings.TrimSpace(v), "bdp") {
				c.Window, c.WindowBDP = 0, true
				return nil
			}
			c.WindowBDP = false
			return parseSize(v, &c.Window)
		},
		func(c *Config) string {
			if c.WindowBDP {
				return "bdp"
			}
			return formatSize(c.Window, "none")
		}},
	"kmin": {
		func(c *Config, v string) error { return parseSize(v, &c.Kmin) },
		func(c *Config) string { return formatSize(c.Kmin, "0B") }},
	"kmax": {
		func(c *Config, v string) error { return parseSize(v, &c.Kmax) },
		func(c *Config) string { return formatSize(c.Kmax, "0B") }},
	"pmax": {
		func(c *Config, v string) error { return parseUnit(v, &c.Pmax, true) },
		func(c *Config) string { return formatFloat(c.Pmax) }},
	"ecn_ref_rate": {
		func(c *Config, v string) error {
			if isOff(v) {
				c.ECNRefRate = 0
				return nil
			}
			return parseRate(v, &c.ECNRefRate)
		},
		func(c *Config) string {
			if c.ECNRefRate == 0 {
				return "off"
			}
			return formatRate(c.ECNRefRate)
		}},
	"cnp_interval": {
		func(c *Config, v string) error { return parseDuration(v, &c.CNPInterval, false) },
		func(c *Config) string { return formatDuration(c.CNPInterval) }},
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

// Set applies one key=value override as Build does (see Keys), for
// algorithms that build on a DCQCN configuration; the result is checked
// when the configuration is passed to New.
func (c *Config) Set(key, value string) error { return c.set(key, value) }

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

// parseUnit parses a float in (0, 1], or in [0, 1] when zeroOK.
func parseUnit(v string, dst *float64, zeroOK bool) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) {
		return fmt.Errorf("want a number, got %q", v)
	}
	if f > 1 || f < 0 || (f == 0 && !zeroOK) {
		if zeroOK {
			return fmt.Errorf("must be in [0, 1], got %v", f)
		}
		return fmt.Errorf("must be in (0, 1], got %v", f)
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
