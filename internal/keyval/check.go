package keyval

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// Interval is a range of real numbers between Lo and Hi; OpenLo and OpenHi
// exclude the bounds themselves. An infinite bound means no bound on that
// side. NaN and the infinities are in no interval, so a value an Interval
// contains is always finite.
type Interval struct {
	Lo, Hi         float64
	OpenLo, OpenHi bool
}

// The intervals the algorithms' parameters use.
var (
	// Unit is [0, 1] (a probability).
	Unit = Interval{Lo: 0, Hi: 1}
	// UnitNonZero is (0, 1] (a gain or a weight).
	UnitNonZero = Interval{Lo: 0, Hi: 1, OpenLo: true}
	// OpenUnit is (0, 1) (a discount factor, an exploration probability).
	OpenUnit = Interval{Lo: 0, Hi: 1, OpenLo: true, OpenHi: true}
	// Positive is every finite number > 0.
	Positive = Interval{Lo: 0, Hi: math.Inf(1), OpenLo: true, OpenHi: true}
)

// Contains reports whether f is a finite number in r. It is false for NaN
// and for the infinities.
func (r Interval) Contains(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return false
	}
	return (f > r.Lo || (!r.OpenLo && f == r.Lo)) && (f < r.Hi || (!r.OpenHi && f == r.Hi))
}

// String writes r as in the error messages: "[0, 1]", "(0, 1]", "> 0".
func (r Interval) String() string {
	if math.IsInf(r.Hi, 1) {
		if r.OpenLo {
			return "> " + FormatFloat(r.Lo)
		}
		return ">= " + FormatFloat(r.Lo)
	}
	lo, hi := "[", "]"
	if r.OpenLo {
		lo = "("
	}
	if r.OpenHi {
		hi = ")"
	}
	return lo + FormatFloat(r.Lo) + ", " + FormatFloat(r.Hi) + hi
}

// outside says that f is not in r: "must be in (0, 1], got 1.5", "must be
// positive, got -1".
func (r Interval) outside(f float64) string {
	if r == Positive {
		return fmt.Sprintf("must be positive, got %v", f)
	}
	return fmt.Sprintf("must be in %s, got %v", r, f)
}

// ParseFloat is the one float parser of every algorithm's parameters: it
// parses a finite number and rejects anything else, NaN and the infinities
// included (`want a number, got "NaN"`, `want a finite number, got
// "Inf"`), so that a range check written in any form cannot let them
// through.
func ParseFloat(v string) (float64, error) {
	s := strings.TrimSpace(v)
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case math.IsInf(f, 0):
		// Also "1e400": strconv returns an infinity with ErrRange.
		return 0, fmt.Errorf("want a finite number, got %q", v)
	case err != nil || math.IsNaN(f):
		return 0, fmt.Errorf("want a number, got %q", v)
	}
	return f, nil
}

// ParseFloatIn parses a finite number in r.
func ParseFloatIn(v string, r Interval) (float64, error) {
	f, err := ParseFloat(v)
	if err != nil {
		return 0, err
	}
	if !r.Contains(f) {
		return 0, fmt.Errorf("%s", r.outside(f))
	}
	return f, nil
}

// CheckFloat is the validators' check of a float field named key: nil when
// f is a finite number in r, else `key must be in (0, 1], got NaN`.
func CheckFloat(key string, f float64, r Interval) error {
	if r.Contains(f) {
		return nil
	}
	return fmt.Errorf("%s %s", key, r.outside(f))
}

// CheckDuration is the validators' check of a time field named key,
// picoseconds: nil when 0 <= t <= limits.MaxTime, else an error naming key
// and value.
func CheckDuration(key string, t units.Time) error {
	switch {
	case t < 0:
		return fmt.Errorf("%s must not be negative, got %v", key, t)
	case t > limits.MaxTime:
		return fmt.Errorf("%s %v is beyond the limit of %v", key, t, limits.MaxTime)
	}
	return nil
}

// CheckRate is the validators' check of a rate field named key, bits per
// second: nil when 0 <= r <= units.MaxRate (1 Pb/s, what ParseRate
// accepts), else an error naming key and value.
func CheckRate(key string, r units.BitsPerSec) error {
	if r < 0 || r > units.MaxRate {
		return fmt.Errorf("%s must be in [0, 1Pbps], got %d bps", key, int64(r))
	}
	return nil
}

// CheckSize is the validators' check of a size field named key, bytes: nil
// when 0 <= b <= units.MaxSize (10^18 bytes, what ParseSize accepts), else
// an error naming key and value.
func CheckSize(key string, b units.Bytes) error {
	if b < 0 || b > units.MaxSize {
		return fmt.Errorf("%s must be in [0, 10^18] bytes, got %d B", key, int64(b))
	}
	return nil
}

// FirstError returns the first non-nil error, for validators that list
// their checks.
func FirstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
