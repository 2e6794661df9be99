package keyval

import (
	"math"
	"testing"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// Defect 1: the one float parser of every algorithm rejects NaN and the
// infinities in any spelling, so no range check downstream can let them
// through.
func TestParseFloat(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{"NaN", `want a number, got "NaN"`}, {" nan ", `want a number, got " nan "`},
		{"Inf", `want a finite number, got "Inf"`}, {"-inf", `want a finite number, got "-inf"`},
		{"+Infinity", `want a finite number, got "+Infinity"`}, {"1e400", `want a finite number, got "1e400"`},
		{"x", `want a number, got "x"`}, {"", `want a number, got ""`},
	} {
		if f, err := ParseFloat(tc.in); err == nil || err.Error() != tc.err {
			t.Errorf("ParseFloat(%q) = %v, %v; want error %q", tc.in, f, err, tc.err)
		}
	}
	if f, err := ParseFloat(" 0.25 "); err != nil || f != 0.25 {
		t.Errorf("ParseFloat(0.25) = %v, %v", f, err)
	}
}

func TestIntervals(t *testing.T) {
	for _, tc := range []struct {
		r    Interval
		in   []float64
		out  []float64
		name string
	}{
		{Unit, []float64{0, 0.5, 1}, []float64{-1e-300, 1.0000001, math.NaN(), math.Inf(1)}, "[0, 1]"},
		{UnitNonZero, []float64{1e-300, 1}, []float64{0, 2, math.NaN()}, "(0, 1]"},
		{OpenUnit, []float64{0.5}, []float64{0, 1, math.NaN()}, "(0, 1)"},
		{Positive, []float64{1e-300, 1e300}, []float64{0, -1, math.NaN(), math.Inf(1)}, "> 0"},
	} {
		for _, f := range tc.in {
			if !tc.r.Contains(f) {
				t.Errorf("%s does not contain %v", tc.name, f)
			}
		}
		for _, f := range tc.out {
			if tc.r.Contains(f) {
				t.Errorf("%s contains %v", tc.name, f)
			}
		}
		if tc.r.String() != tc.name {
			t.Errorf("String() = %q, want %q", tc.r.String(), tc.name)
		}
	}
	if _, err := ParseFloatIn("1.5", UnitNonZero); err == nil || err.Error() != "must be in (0, 1], got 1.5" {
		t.Errorf("ParseFloatIn(1.5, (0, 1]): %v", err)
	}
	if _, err := ParseFloatIn("-1", Positive); err == nil || err.Error() != "must be positive, got -1" {
		t.Errorf("ParseFloatIn(-1, > 0): %v", err)
	}
	if err := CheckFloat("g", math.NaN(), UnitNonZero); err == nil || err.Error() != "g must be in (0, 1], got NaN" {
		t.Errorf("CheckFloat(g, NaN): %v", err)
	}
}

// The validators' bounds: times up to limits.MaxTime, rates up to 1 Pb/s,
// sizes up to 10^18 bytes, nothing negative.
func TestChecks(t *testing.T) {
	if CheckDuration("t", limits.MaxTime) != nil || CheckDuration("t", limits.MaxTime+1) == nil || CheckDuration("t", -1) == nil {
		t.Error("CheckDuration bounds")
	}
	if CheckRate("r", units.MaxRate) != nil || CheckRate("r", units.MaxRate+1) == nil || CheckRate("r", -1) == nil {
		t.Error("CheckRate bounds")
	}
	if CheckSize("s", units.MaxSize) != nil || CheckSize("s", units.MaxSize+1) == nil || CheckSize("s", -1) == nil {
		t.Error("CheckSize bounds")
	}
	if err := CheckRate("min_rate", -1); err == nil || err.Error() != "min_rate must be in [0, 1Pbps], got -1 bps" {
		t.Errorf("CheckRate message: %v", err)
	}
}
