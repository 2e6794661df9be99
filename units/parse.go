package units

// This file is the one place that reads and writes the text forms of
// rates, times, sizes and plain numbers: the parsers below, and the
// canonical forms (FormatRate, FormatDuration, FormatSize, FormatFloat)
// that parse back to the same value. Algorithm parameters, their
// effective values in summary.json and their generated docs all use them.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The documented ranges of the parsers. Every value a parser accepts lies
// in its range, so that validators and the simulator can rely on them.
const (
	// MaxRate is the largest rate ParseRate accepts: 10^15 bit/s (1 Pb/s).
	MaxRate BitsPerSec = 1_000_000_000_000_000
	// MaxSize is the largest size ParseSize accepts: 10^18 bytes.
	MaxSize Bytes = 1_000_000_000_000_000_000
	// MaxDuration is the largest duration ParseDuration accepts: 10^6 s =
	// 10^18 ps (about 11.6 days). It equals limits.MaxTime, the bound on
	// every time an input may give; it is written out here because package
	// limits imports units, and a test asserts that the two are equal.
	MaxDuration Time = 1_000_000 * Second
)

// ParseRate parses a rate such as "100G", "100Gbps", "25Gb/s", "50Mb/s",
// "400000000000" (bits per second when no unit is given).
func ParseRate(s string) (BitsPerSec, error) {
	orig := s
	s = strings.TrimSpace(strings.ToLower(s))
	for _, suf := range []string{"bps", "b/s", "bit/s"} {
		s = strings.TrimSuffix(s, suf)
	}
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "t"):
		mult, s = 1e12, s[:len(s)-1]
	case strings.HasSuffix(s, "g"):
		mult, s = 1e9, s[:len(s)-1]
	case strings.HasSuffix(s, "m"):
		mult, s = 1e6, s[:len(s)-1]
	case strings.HasSuffix(s, "k"):
		mult, s = 1e3, s[:len(s)-1]
	}
	_, r, ok := scaled(s, mult)
	if !ok {
		return 0, fmt.Errorf("invalid rate %q (want e.g. 100Gbps, 25G, 50Mb/s)", orig)
	}
	if r < 1 || r > float64(MaxRate) {
		return 0, fmt.Errorf("rate %q out of range (must be >= 1bps and <= 1Pbps)", orig)
	}
	return BitsPerSec(r), nil
}

// ParseDuration parses a time such as "1us", "0.001ms", "55us", "900ns",
// "640ps", "2s". A bare number is rejected (the unit must be explicit),
// except zero, which is zero in any unit. The result is in [0,
// MaxDuration]: a negative time, NaN, an infinity or a time beyond
// MaxDuration is an error.
func ParseDuration(s string) (Time, error) {
	orig := s
	s = strings.TrimSpace(strings.ToLower(s))
	if v, err := strconv.ParseFloat(s, 64); err == nil && v == 0 {
		return 0, nil
	}
	units := []struct {
		suf  string
		mult float64
	}{{"ps", 1}, {"ns", 1e3}, {"us", 1e6}, {"µs", 1e6}, {"ms", 1e9}, {"s", 1e12}}
	for _, u := range units {
		if strings.HasSuffix(s, u.suf) {
			v, t, ok := scaled(strings.TrimSuffix(s, u.suf), u.mult)
			if !ok {
				break
			}
			switch {
			case v < 0:
				return 0, fmt.Errorf("duration %q out of range (must be >= 0)", orig)
			case t > float64(MaxDuration):
				return 0, fmt.Errorf("duration %q out of range (beyond the limit of %v)", orig, MaxDuration)
			}
			return Time(t), nil
		}
	}
	return 0, fmt.Errorf("invalid duration %q (want e.g. 1us, 0.5ms, 900ns)", orig)
}

// ParseSize parses a size such as "1MB" (10^6 bytes), "64KB", "1MiB",
// "1000", "9.5KB". A bare number is bytes. The result is in [0, MaxSize]
// and must be a whole number of bytes ("1.5" and "0.0015KB" are refused).
func ParseSize(s string) (Bytes, error) {
	orig := s
	s = strings.TrimSpace(strings.ToLower(s))
	mult := 1.0
	for _, u := range []struct {
		suf  string
		mult float64
	}{{"kib", 1024}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"k", 1e3}, {"m", 1e6}, {"g", 1e9}, {"b", 1}} {
		if strings.HasSuffix(s, u.suf) {
			mult, s = u.mult, strings.TrimSuffix(s, u.suf)
			break
		}
	}
	v, b, ok := scaled(s, mult)
	if !ok {
		return 0, fmt.Errorf("invalid size %q (want e.g. 1MB, 64KB, 1MiB, 1000)", orig)
	}
	if v < 0 || b > float64(MaxSize) {
		return 0, fmt.Errorf("size %q out of range (must be >= 0 and <= 10^18 bytes)", orig)
	}
	if math.Abs(v*mult-b) > 1e-9*max(1, b) {
		// 1.5 bytes, 0.0015KB: a size is a whole number of bytes (the
		// tolerance takes 1.1KB's 1100.0000000000002 as 1100).
		return 0, fmt.Errorf("size %q is not a whole number of bytes", orig)
	}
	return Bytes(b), nil
}

// scaled reads the number of a rate, duration or size whose unit suffix
// has been cut off, and its value in the base unit, v*mult rounded to a
// whole number; ok is false for text that is not a finite number.
func scaled(num string, mult float64) (v, rounded float64, ok bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, 0, false
	}
	return v, math.Round(v * mult), true
}

// ParseFloat parses a finite number: NaN and the infinities are errors in
// any spelling (`want a number, got "NaN"`, `want a finite number, got
// "Inf"`; also "1e400", which overflows to an infinity), so that a range
// check written in any form cannot let them through.
func ParseFloat(s string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	switch {
	case math.IsInf(f, 0):
		return 0, fmt.Errorf("want a finite number, got %q", s)
	case err != nil || math.IsNaN(f):
		return 0, fmt.Errorf("want a number, got %q", s)
	}
	return f, nil
}

// FormatRate writes r exactly in the largest whole unit, as ParseRate
// reads it back: "5Mbps", "100Gbps", "1500bps", "0bps" (BitsPerSec.String
// rounds instead).
func FormatRate(r BitsPerSec) string {
	for _, u := range []struct {
		r   BitsPerSec
		suf string
	}{{Gbps, "Gbps"}, {Mbps, "Mbps"}, {Kbps, "Kbps"}} {
		if r != 0 && r%u.r == 0 {
			return strconv.FormatInt(int64(r/u.r), 10) + u.suf
		}
	}
	return strconv.FormatInt(int64(r), 10) + "bps"
}

// FormatDuration writes t exactly in the largest whole unit, as
// ParseDuration reads it back: "55us", "4ms", "12500ns", "7ps"; zero is
// "0us".
func FormatDuration(t Time) string {
	if t == 0 {
		return "0us"
	}
	for _, u := range []struct {
		d   Time
		suf string
	}{{Second, "s"}, {Millisecond, "ms"}, {Microsecond, "us"}, {Nanosecond, "ns"}} {
		if t%u.d == 0 {
			return strconv.FormatInt(int64(t/u.d), 10) + u.suf
		}
	}
	return strconv.FormatInt(int64(t), 10) + "ps"
}

// FormatSize writes b exactly in the largest whole decimal unit, as
// ParseSize reads it back: "10MB", "5KB", "1048B", "0B".
func FormatSize(b Bytes) string {
	switch {
	case b != 0 && b%MB == 0:
		return strconv.FormatInt(int64(b/MB), 10) + "MB"
	case b != 0 && b%KB == 0:
		return strconv.FormatInt(int64(b/KB), 10) + "KB"
	}
	return strconv.FormatInt(int64(b), 10) + "B"
}

// FormatFloat writes f exactly, in the shortest form ParseFloat reads
// back: "0.00390625", "1e+09".
func FormatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
