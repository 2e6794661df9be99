package runconfig

import (
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// --compute-scale multiplies every gap (rounded to a picosecond), leaves
// releases alone, and refuses a gap it would push past the clock.
func TestScaleGaps(t *testing.T) {
	tr := &trace.Trace{Messages: []trace.Message{
		{ID: 0, Release: 10 * units.Microsecond},
		{ID: 1, Deps: []int64{0}, Gap: 3 * units.Microsecond},
	}}
	if err := scaleGaps(tr, 0.5); err != nil {
		t.Fatal(err)
	}
	if tr.Messages[1].Gap != 1500*units.Nanosecond || tr.Messages[0].Release != 10*units.Microsecond {
		t.Errorf("scaled: gap %v release %v", tr.Messages[1].Gap, tr.Messages[0].Release)
	}
	if err := scaleGaps(tr, 1e15); err == nil || !strings.Contains(err.Error(), "message 1") {
		t.Errorf("a gap beyond the clock: %v", err)
	}
	if _, _, err := LoadApp("x.meta", FormatDUMPI, AppOptions{ComputeScale: -1}); err == nil {
		t.Error("a negative scale must be refused")
	}
}

// Application traces are told by name, an OTF2 anchor also by content.
func TestAppFormatOf(t *testing.T) {
	for path, want := range map[string]AppFormat{
		"a.meta": FormatDUMPI, "r-0001.BIN": FormatDUMPI, "traces.otf2": FormatOTF2,
		"w.3.et": FormatChakra, "t.csv": "", "../../examples/otf2_halo8/traces.otf2": FormatOTF2,
	} {
		if got := AppFormatOf(path); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
}
