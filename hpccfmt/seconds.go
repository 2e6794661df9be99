package hpccfmt

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/units"
)

// maxSeconds is the largest time in seconds a units.Time holds (about
// 106 days), rounded down.
const maxSeconds = 9_000_000

// parseSeconds parses a non-negative time in seconds, as the simulator's
// `>> double` does, into picoseconds. Plain decimals ("2", "0.0000015")
// are converted exactly; exponent forms ("2e-3") go through float64 and
// are rounded to the nearest picosecond.
func parseSeconds(s string) (units.Time, error) {
	orig := s
	outOfRange := fmt.Errorf("%q is out of range (want seconds from 0 to %d)", orig, maxSeconds)
	s = strings.TrimPrefix(s, "+")
	if s == "" || s[0] == '-' {
		return 0, errors.New("want a time in seconds >= 0")
	}
	if strings.ContainsAny(s, "eE") {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(v) || v < 0 {
			return 0, errors.New("want a time in seconds >= 0")
		}
		if v > maxSeconds {
			return 0, outOfRange
		}
		return units.Time(math.Round(v * 1e12)), nil
	}
	whole, frac, _ := strings.Cut(s, ".")
	if (whole == "" && frac == "") || !digits(whole) || !digits(frac) {
		return 0, errors.New("want a time in seconds >= 0")
	}
	var sec int64
	if whole != "" {
		if len(strings.TrimLeft(whole, "0")) > 7 {
			return 0, outOfRange
		}
		sec, _ = strconv.ParseInt(whole, 10, 64)
		if sec > maxSeconds {
			return 0, outOfRange
		}
	}
	// The first 12 fraction digits are picoseconds; the 13th rounds.
	round := len(frac) > 12 && frac[12] >= '5'
	frac = (frac + strings.Repeat("0", 12))[:12]
	ps, _ := strconv.ParseInt(frac, 10, 64)
	if round {
		ps++
	}
	return units.Time(sec)*units.Second + units.Time(ps), nil
}

// digits reports whether s is empty or all ASCII digits.
func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// formatSeconds prints t (>= 0) in seconds exactly, with no trailing
// zeros: 2s is "2", 1.5us is "0.0000015".
func formatSeconds(t units.Time) string {
	sec, ps := int64(t/units.Second), int64(t%units.Second)
	if ps == 0 {
		return strconv.FormatInt(sec, 10)
	}
	f := strconv.FormatInt(ps+1e12, 10)[1:] // 12 digits, zero-padded
	return strconv.FormatInt(sec, 10) + "." + strings.TrimRight(f, "0")
}

// ns3Start is the start time the simulator gives a flow whose flow.txt
// field is s (already checked by parseSeconds, whose exact value is
// exact): s read as a double, then converted to whole nanoseconds with
// truncation, as ns-3's Seconds(double) does at its default nanosecond
// resolution. The product is taken exactly (big.Float), so a double just
// below a whole nanosecond is truncated as in the simulator.
func ns3Start(s string, exact units.Time) units.Time {
	v, err := strconv.ParseFloat(strings.TrimPrefix(s, "+"), 64)
	if err != nil || math.IsInf(v, 0) || v < 0 {
		return exact / units.Nanosecond * units.Nanosecond
	}
	ns, _ := new(big.Float).SetPrec(200).Mul(new(big.Float).SetFloat64(v), big.NewFloat(1e9)).Int64()
	return units.Time(ns) * units.Nanosecond
}

// ns3Seconds prints t in seconds so that ns3Start reads it back as t
// truncated to the nanosecond: the exact decimal when the simulator's
// double conversion keeps it (1.5us), else the time half a nanosecond
// later (1us is 9.99999999999999955e-7 as a double, which the simulator
// truncates to 999 ns, so it is written 0.0000010005).
func ns3Seconds(t units.Time) string {
	t = t / units.Nanosecond * units.Nanosecond
	s := formatSeconds(t)
	if ns3Start(s, t) == t {
		return s
	}
	return formatSeconds(t + units.Nanosecond/2)
}
