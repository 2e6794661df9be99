package keyval

import (
	"fmt"
	"math"

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

// AtLeast is [lo, +Inf): a count of at least lo.
func AtLeast(lo float64) Interval { return Interval{Lo: lo, Hi: math.Inf(1), OpenHi: true} }

// Above is (lo, +Inf).
func Above(lo float64) Interval { return Interval{Lo: lo, Hi: math.Inf(1), OpenLo: true, OpenHi: true} }

// Closed is [lo, hi].
func Closed(lo, hi float64) Interval { return Interval{Lo: lo, Hi: hi} }

// Contains reports whether f is a finite number in r. It is false for NaN
// and for the infinities.
func (r Interval) Contains(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return false
	}
	return (f > r.Lo || (!r.OpenLo && f == r.Lo)) && (f < r.Hi || (!r.OpenHi && f == r.Hi))
}

// String writes r as in docs and errors: "[0, 1]", "(0, 1]", "> 0", ">= 1".
func (r Interval) String() string {
	if math.IsInf(r.Hi, 1) {
		if r.OpenLo {
			return "> " + units.FormatFloat(r.Lo)
		}
		return ">= " + units.FormatFloat(r.Lo)
	}
	lo, hi := "[", "]"
	if r.OpenLo {
		lo = "("
	}
	if r.OpenHi {
		hi = ")"
	}
	return lo + units.FormatFloat(r.Lo) + ", " + units.FormatFloat(r.Hi) + hi
}

// outside says that the number f is not in r: "must be in (0, 1], got
// 1.5", "must be positive, got -1", "must be a number > 0.5, got 0.5".
func (r Interval) outside(f float64) string {
	switch {
	case r == Positive:
		return fmt.Sprintf("must be positive, got %v", f)
	case math.IsInf(r.Hi, 1):
		return fmt.Sprintf("must be a number %s, got %v", r, f)
	}
	return fmt.Sprintf("must be in %s, got %v", r, f)
}

// ParseFloatIn parses a finite number in r with units.ParseFloat.
func ParseFloatIn(v string, r Interval) (float64, error) {
	f, err := units.ParseFloat(v)
	if err != nil {
		return 0, err
	}
	if !r.Contains(f) {
		return 0, fmt.Errorf("%s", r.outside(f))
	}
	return f, nil
}

// checkFloat is a validator's check of a float field named key: nil when f
// is a finite number in r, else `key must be in (0, 1], got NaN`.
func checkFloat(key string, f float64, r Interval) error {
	if r.Contains(f) {
		return nil
	}
	return fmt.Errorf("%s %s", key, r.outside(f))
}
