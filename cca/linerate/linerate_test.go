package linerate

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestRate checks that the rate is the line rate, or the configured rate
// when lower, and that no event, timer or window ever changes it.
func TestRate(t *testing.T) {
	for _, tc := range []struct {
		params map[string]string
		line   units.BitsPerSec
		want   units.BitsPerSec
		shown  string
	}{
		{nil, 100 * units.Gbps, 100 * units.Gbps, "line"},
		{map[string]string{"rate": "line"}, 25 * units.Gbps, 25 * units.Gbps, "line"},
		{map[string]string{"rate": "10Gbps"}, 100 * units.Gbps, 10 * units.Gbps, "10Gbps"},
		{map[string]string{"rate": "1.5G"}, 100 * units.Gbps, 1500 * units.Mbps, "1500Mbps"},
		{map[string]string{"rate": "400G"}, 100 * units.Gbps, 100 * units.Gbps, "400Gbps"},
	} {
		s, err := Build("", tc.params)
		if err != nil {
			t.Fatal(err)
		}
		if s.Name != "linerate" || s.ECN != nil || s.CNPInterval != 0 || s.NeedsINT {
			t.Errorf("spec %+v", s)
		}
		if s.Params["rate"] != tc.shown {
			t.Errorf("Params = %v, want rate=%s", s.Params, tc.shown)
		}
		a := s.New()
		a.Start(0, cca.FlowInfo{LineRate: tc.line, BaseRTT: units.Microsecond, MTU: 1000})
		check := func(when string) {
			if a.Rate() != tc.want || a.Window() != 0 || a.NextTimer() != units.Never {
				t.Errorf("%v %s: rate %v window %d timer %v, want rate %v", tc.params, when, a.Rate(), a.Window(), a.NextTimer(), tc.want)
			}
		}
		check("after Start")
		a.OnCNP(units.Microsecond)
		a.OnSend(2*units.Microsecond, 1<<30)
		a.OnAck(3*units.Microsecond, &cca.Ack{ECE: true, AckedBytes: 1000})
		a.OnNack(4 * units.Microsecond)
		a.OnTimer(5 * units.Microsecond)
		check("after events")
	}
}

// TestBuildErrors checks that presets and unknown keys are rejected.
func TestBuildErrors(t *testing.T) {
	ccatest.CheckBuildErrors(t, Build, []ccatest.BuildError{
		{Preset: "fast", Want: `unknown preset "fast"`},
		{Params: map[string]string{"g": "0.5"}, Want: `unknown parameter "g" (known: rate)`},
		{Params: map[string]string{"rate": "-1G"}, Want: `parameter rate: rate "-1G" out of range`},
		{Params: map[string]string{"rate": "quick"}, Want: "parameter rate: invalid rate"},
	})
}

// TestRegister checks the registry wiring.
func TestRegister(t *testing.T) {
	r := cca.NewRegistry()
	Register(r)
	s, err := r.Build("linerate", map[string]string{"rate": "5Gbps"})
	if err != nil || s.Name != "linerate" {
		t.Fatalf("Build = %+v, %v", s, err)
	}
	if _, err := r.Build("linerate:x", nil); err == nil {
		t.Error("preset accepted")
	}
	if s.New().Name() != "linerate" {
		t.Error("wrong name")
	}
}
