// Package keyval is what every algorithm package uses for its
// `--cca-param key=value` overrides: a table of typed parameters that
// parses values, rejects unknown keys with the list of known ones, and
// writes every effective value back in a form that parses to the same
// configuration; the canonical text forms of rates, times and sizes; the
// one float parser of every parameter (ParseFloat, ParseFloatIn: NaN and
// the infinities are errors); and the validators' range checks
// (CheckFloat, CheckDuration, CheckRate, CheckSize).
package keyval

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/units"
)

// Field is one parameter of a configuration C: how to set it from text and
// how to write its effective value.
type Field[C any] struct {
	Set func(c *C, v string) error
	Get func(c *C) string
}

// Table maps parameter keys to their fields.
type Table[C any] map[string]Field[C]

// Keys lists the table's keys in sorted order.
func (t Table[C]) Keys() []string {
	out := make([]string, 0, len(t))
	for k := range t {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Set applies one key=value override to c. Errors are lowercase and name
// the key: `unknown parameter "x" (known: a, b)`, `parameter a: ...`.
func (t Table[C]) Set(c *C, key, value string) error {
	f, ok := t[key]
	if !ok {
		return fmt.Errorf("unknown parameter %q (known: %s)", key, strings.Join(t.Keys(), ", "))
	}
	if err := f.Set(c, value); err != nil {
		return fmt.Errorf("parameter %s: %w", key, err)
	}
	return nil
}

// Values returns every parameter's effective value in c, keyed as Set
// takes them: feeding them back through Set reproduces c.
func (t Table[C]) Values(c *C) map[string]string {
	out := make(map[string]string, len(t))
	for k, f := range t {
		out[k] = f.Get(c)
	}
	return out
}

// FormatRate writes r in the largest whole unit: "5Mbps", "100Gbps", "7bps".
func FormatRate(r units.BitsPerSec) string {
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

// FormatRateOr is FormatRate with a word for zero (e.g. "off").
func FormatRateOr(r units.BitsPerSec, zero string) string {
	if r == 0 {
		return zero
	}
	return FormatRate(r)
}

// FormatDuration writes t in the largest whole unit: "55us", "4ms", "0us".
func FormatDuration(t units.Time) string {
	if t == 0 {
		return "0us"
	}
	return FormatDurationOr(t, "0us")
}

// FormatDurationOr is FormatDuration with a word for zero.
func FormatDurationOr(t units.Time, zero string) string {
	if t == 0 {
		return zero
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

// FormatSize writes b in the largest whole decimal unit: "10MB", "5KB", "1048B".
func FormatSize(b units.Bytes) string { return FormatSizeOr(b, "0B") }

// FormatSizeOr is FormatSize with a word for zero (e.g. "off").
func FormatSizeOr(b units.Bytes, zero string) string {
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

// FormatFloat writes f exactly, in the shortest form that parses back.
func FormatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// SortedKeys returns m's keys in sorted order (preset names, parameter keys).
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Apply sets every override on c in sorted key order, so that the first
// error reported never depends on map iteration order.
func (t Table[C]) Apply(c *C, overrides map[string]string) error {
	for _, k := range SortedKeys(overrides) {
		if err := t.Set(c, k, overrides[k]); err != nil {
			return err
		}
	}
	return nil
}

// Preset returns a fresh configuration of the named preset ("" names def):
// `unknown preset "x" (known: a, b)` otherwise.
func Preset[C any](presets map[string]func() C, name, def string) (C, error) {
	if name == "" {
		name = def
	}
	p, ok := presets[name]
	if !ok {
		var zero C
		return zero, fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(SortedKeys(presets), ", "))
	}
	return p(), nil
}
