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

// ParseFloat is the one float parser of every algorithm parameter: it
// rejects NaN and the infinities in any spelling (defect 1), so no range
// check downstream can let them through.
func TestParseFloat(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{"NaN", `want a number, got "NaN"`}, {" nan ", `want a number, got " nan "`},
		{"Inf", `want a finite number, got "Inf"`}, {"-inf", `want a finite number, got "-inf"`},
		{"+Infinity", `want a finite number, got "+Infinity"`}, {"1e400", `want a finite number, got "1e400"`},
		{"x", `want a number, got "x"`}, {"", `want a number, got ""`},
	} {
		if f, err := units.ParseFloat(tc.in); err == nil || err.Error() != tc.err {
			t.Errorf("ParseFloat(%q) = %v, %v; want error %q", tc.in, f, err, tc.err)
		}
	}
	if f, err := units.ParseFloat(" 0.25 "); err != nil || f != 0.25 {
		t.Errorf("ParseFloat(0.25) = %v, %v", f, err)
	}
}

// The canonical text forms are exact and parse back to the same value.
func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{units.FormatRate(5 * units.Mbps), "5Mbps"}, {units.FormatRate(100 * units.Gbps), "100Gbps"},
		{units.FormatRate(1500), "1500bps"}, {units.FormatRate(0), "0bps"}, {units.FormatRate(25 * units.Kbps), "25Kbps"},
		{units.FormatDuration(55 * units.Microsecond), "55us"}, {units.FormatDuration(0), "0us"},
		{units.FormatDuration(1500 * units.Nanosecond), "1500ns"}, {units.FormatDuration(7), "7ps"},
		{units.FormatDuration(2 * units.Second), "2s"}, {units.FormatDuration(4 * units.Millisecond), "4ms"},
		{units.FormatSize(10 * units.MB), "10MB"}, {units.FormatSize(1048), "1048B"}, {units.FormatSize(0), "0B"},
		{units.FormatSize(5 * units.KB), "5KB"}, {units.FormatFloat(0.00390625), "0.00390625"}, {units.FormatFloat(1e9), "1e+09"},
	} {
		if c.got != c.want {
			t.Errorf("got %q want %q", c.got, c.want)
		}
	}
	for _, r := range []units.BitsPerSec{1, 999, 1000, 1500, 25 * units.Gbps, units.MaxRate} {
		if back, err := units.ParseRate(units.FormatRate(r)); err != nil || back != r {
			t.Errorf("rate %d: %q parses to %d, %v", r, units.FormatRate(r), back, err)
		}
	}
	for _, d := range []units.Time{0, 1, 999, 12500 * units.Nanosecond, units.MaxDuration} {
		if back, err := units.ParseDuration(units.FormatDuration(d)); err != nil || back != d {
			t.Errorf("time %d: %q parses to %d, %v", d, units.FormatDuration(d), back, err)
		}
	}
	for _, b := range []units.Bytes{0, 1, 1048, 97500, units.MaxSize} {
		if back, err := units.ParseSize(units.FormatSize(b)); err != nil || back != b {
			t.Errorf("size %d: %q parses to %d, %v", b, units.FormatSize(b), back, err)
		}
	}
}
