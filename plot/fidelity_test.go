package plot

import (
	"testing"

	"github.com/ccreplay/ccreplay/fidelity"
)

func fidelityReport(t *testing.T) *fidelity.Report {
	t.Helper()
	a, err := fidelity.Load("../fidelity/testdata/ns3_fct.txt", "ns-3")
	if err != nil {
		t.Fatal(err)
	}
	b, err := fidelity.Load("../fidelity/testdata/other_fct.txt", "ccreplay")
	if err != nil {
		t.Fatal(err)
	}
	r, err := fidelity.Compare(a, b, fidelity.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestFidelityFigures(t *testing.T) {
	r := fidelityReport(t)
	figs := Fidelity(r)
	if len(figs) != 3 || figs[0].Name != FidelityScatterName || figs[1].Name != FidelitySlowdownName || figs[2].Name != FidelityCDFName {
		t.Fatalf("figures %v", figs)
	}
	// Scatter: one glyph per matched flow (x = reference FCT in us), and
	// the y = x line spanning both sides' FCTs.
	sc := figs[0].Panels[0].Series
	if len(sc) != 2 || !sc[0].Scatter || len(sc[0].X) != len(r.Flows) || sc[0].X[0] != float64(r.Flows[0].FCTRefNs)/1e3 || sc[0].Y[0] != float64(r.Flows[0].FCTOtherNs)/1e3 {
		t.Errorf("scatter series %+v", sc[0])
	}
	if l := sc[1]; l.Scatter || len(l.X) != 2 || l.X[0] != l.Y[0] || l.X[1] != l.Y[1] || !figs[0].LogX || !figs[0].LogY {
		t.Errorf("y = x line %+v", l)
	}
	// Slowdown per bucket: p50 and p99 of both sides, one point per bucket.
	sd := figs[1].Panels[0].Series
	if len(sd) != 4 || len(sd[0].X) != len(r.Buckets.Buckets) || sd[0].Y[0] != r.Buckets.Buckets[0].SlowdownRef.P50 || sd[3].Y[0] != r.Buckets.Buckets[0].SlowdownOther.P99 {
		t.Errorf("slowdown series %+v", sd)
	}
	// CDF: ends at 1 on both sides.
	for _, s := range figs[2].Panels[0].Series {
		if s.Y[len(s.Y)-1] != 1 || s.Y[0] != 0 {
			t.Errorf("CDF %s: %v", s.Label, s.Y)
		}
	}
	for _, f := range figs {
		for _, format := range Formats {
			b, err := Render(f, format)
			if err != nil || len(b) < 1000 {
				t.Errorf("%s.%s: %d bytes, %v", f.Name, format, len(b), err)
			}
		}
	}
}
