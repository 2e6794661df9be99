package dcqcn

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// CutWith (the hook Dolce-RC uses, Dolce-RC (Ye 2023), Eq. (1)-(2)): R_T = beta*R_C
// clamped to [min rate, line rate], R_C = (1 - alpha/2)*R_C, counters
// reset and fast recovery started, DCQCN's alpha untouched; the decrease
// interval applies as to OnCNP.
func TestCutWith(t *testing.T) {
	d, err := New(Config{DecreaseInterval: 4 * units.Microsecond})
	if err != nil {
		t.Fatal(err)
	}
	d.Start(0, cca.FlowInfo{LineRate: 100 * units.Gbps})
	var lastCut units.Time
	for _, s := range []struct {
		at          units.Time
		alpha, beta float64
		cut         bool
		rc, rt      units.BitsPerSec
	}{
		// 100G: R_T = 0.9*100G, R_C = 0.75*100G.
		{0, 0.5, 0.9, true, 75 * units.Gbps, 90 * units.Gbps},
		// 2 us later: inside the decrease interval, nothing happens.
		{2 * units.Microsecond, 0.5, 0.9, false, 75 * units.Gbps, 90 * units.Gbps},
		// beta 2 would give 150G: clamped to the line rate. alpha 0: no cut.
		{10 * units.Microsecond, 0, 2, true, 75 * units.Gbps, 100 * units.Gbps},
		// beta tiny: R_T floors at the 100 Mb/s min rate; R_C = 0.5*75G.
		{20 * units.Microsecond, 1, 1e-9, true, 37500 * units.Mbps, 100 * units.Mbps},
	} {
		if got := d.CutWith(s.at, s.alpha, s.beta); got != s.cut {
			t.Fatalf("t=%v: CutWith = %v, want %v", s.at, got, s.cut)
		}
		if d.Rate() != s.rc || d.TargetRate() != s.rt {
			t.Fatalf("t=%v: %s, want rc=%v rt=%v", s.at, d, s.rc, s.rt)
		}
		if s.cut {
			lastCut = s.at
		}
		if d.Alpha() != 1 || d.Stage() != StageFastRecovery || d.NextTimer() != lastCut+d.Config().IncreaseTimer {
			t.Fatalf("t=%v: %s next=%v", s.at, d, d.NextTimer())
		}
	}
	// Fast recovery walks R_C down to R_T when beta left R_T below R_C.
	d.OnTimer(d.NextTimer())
	if want := (100*units.Mbps + 37500*units.Mbps + 1) / 2; d.Rate() != want {
		t.Errorf("after one increase: rc=%v, want %v", d.Rate(), want)
	}
}
