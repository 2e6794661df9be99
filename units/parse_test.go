package units_test

import (
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// MaxDuration is written out in units because limits imports units; it
// must stay equal to limits.MaxTime, the documented bound on input times.
func TestMaxDurationIsLimitsMaxTime(t *testing.T) {
	if units.MaxDuration != limits.MaxTime {
		t.Fatalf("units.MaxDuration = %v, limits.MaxTime = %v: they must be equal", units.MaxDuration, limits.MaxTime)
	}
}

// Defect 1 (values that pass validation and fail later): ParseDuration
// accepted times up to 9e18 ps, beyond limits.MaxTime, so a timer, an
// interval or --max-time could pass parsing and overflow the clock later.
func TestParseDurationRejectsBeyondMaxTime(t *testing.T) {
	if d, err := units.ParseDuration("1000000s"); err != nil || d != limits.MaxTime {
		t.Fatalf("ParseDuration(1000000s) = %v, %v; want limits.MaxTime", d, err)
	}
	if d, err := units.ParseDuration("1e18ps"); err != nil || d != limits.MaxTime {
		t.Fatalf("ParseDuration(1e18ps) = %v, %v; want limits.MaxTime", d, err)
	}
	for _, s := range []string{"1000001s", "1e18ns", "8e18ps", "2000000000ms"} {
		_, err := units.ParseDuration(s)
		if err == nil {
			t.Errorf("ParseDuration(%q) accepted a time beyond limits.MaxTime", s)
			continue
		}
		if want := `duration "` + s + `" out of range (beyond the limit of 1000000s)`; err.Error() != want {
			t.Errorf("ParseDuration(%q): %q, want %q", s, err, want)
		}
	}
	if _, err := units.ParseDuration("-1us"); err == nil || err.Error() != `duration "-1us" out of range (must be >= 0)` {
		t.Errorf("ParseDuration(-1us): %v", err)
	}
}

// Defect 1: no parser returns NaN, an infinity or a value outside its
// documented range, whatever the spelling.
func TestParsersRejectNonFinite(t *testing.T) {
	for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "1e400", "-1e400"} {
		if r, err := units.ParseRate(v + "G"); err == nil {
			t.Errorf("ParseRate(%sG) = %v", v, r)
		}
		if d, err := units.ParseDuration(v + "us"); err == nil {
			t.Errorf("ParseDuration(%sus) = %v", v, d)
		}
		if b, err := units.ParseSize(v + "KB"); err == nil {
			t.Errorf("ParseSize(%sKB) = %v", v, b)
		}
	}
	if _, err := units.ParseSize("1.1e18"); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("ParseSize(1.1e18): %v, want out of range", err)
	}
	if _, err := units.ParseRate("1.1Pbps"); err == nil {
		t.Errorf("ParseRate(1.1Pbps) accepted")
	}
}

// The documented ranges hold for any input: ParseRate in [1, MaxRate],
// ParseDuration in [0, MaxDuration], ParseSize in [0, MaxSize].
func FuzzParseRanges(f *testing.F) {
	for _, s := range []string{"100G", "1us", "1MB", "1000000s", "1e18ps", "-0us", "NaNms", "1e400s", "0x1p60ps"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if r, err := units.ParseRate(s); err == nil && (r < 1 || r > units.MaxRate) {
			t.Fatalf("ParseRate(%q) = %d out of range", s, r)
		}
		if d, err := units.ParseDuration(s); err == nil && (d < 0 || d > units.MaxDuration) {
			t.Fatalf("ParseDuration(%q) = %d out of range", s, d)
		}
		if b, err := units.ParseSize(s); err == nil && (b < 0 || b > units.MaxSize) {
			t.Fatalf("ParseSize(%q) = %d out of range", s, b)
		}
	})
}
