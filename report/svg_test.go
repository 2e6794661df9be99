package report

import (
	"math"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/plot"
)

// TestTicks: 1-2-5 steps on a linear axis, decades on a log one, and a
// range lost in its values' precision still ends (it once looped
// forever: a step below the values' last bit).
func TestTicks(t *testing.T) {
	lin := ticks(span{lo: 0, hi: 1})
	if len(lin) != 6 || lin[1].label != "0.2" || lin[5].label != "1" {
		t.Errorf("0..1: %v", lin)
	}
	lg := ticks(span{lo: 0, hi: 3, log: true})
	labels := []string{}
	for _, x := range lg {
		if x.label != "" {
			labels = append(labels, x.label)
		}
	}
	if strings.Join(labels, ",") != "1,10,100,1000" {
		t.Errorf("log 1..1000 labels %v", labels)
	}
	if n := len(ticks(span{lo: 1e5, hi: 1e5 + 1e-10})); n > 50 {
		t.Errorf("%d ticks", n)
	}
	fig := plot.Figure{Panels: []plot.Panel{{Series: []plot.Series{{X: []float64{1, 2}, Y: []float64{1e5, 1e5 * (1 + 1e-15)}}}}}}
	if r := axisRange(&fig, -1, false); !(r.hi > r.lo) {
		t.Errorf("y range %+v", r)
	}
}

// TestThin: a million-point staircase keeps at most four points per pixel
// column, with each column's lowest and highest, in order.
func TestThin(t *testing.T) {
	var ps []pt
	for i := range 1_000_000 {
		x := round1(float64(i) / 1_000_000 * 500)
		ps = append(ps, pt{x, round1(300 * math.Sin(float64(i)/1000))})
	}
	out := thin(ps)
	if len(out) > 4*502 {
		t.Fatalf("%d points after thinning", len(out))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, q := range out {
		lo, hi = min(lo, q.y), max(hi, q.y)
	}
	if lo != -300 || hi != 300 {
		t.Errorf("extremes %v %v lost", lo, hi)
	}
	for i := 1; i < len(out); i++ {
		if out[i].x < out[i-1].x {
			t.Fatal("order lost")
		}
	}
}

// TestOddFigures: empty panels, NaN, infinities, values a log axis cannot
// show, a single point, a huge log range and fixed ticks draw without
// panic and deterministically.
func TestOddFigures(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	figs := []plot.Figure{
		{Title: "empty"},
		{Title: "empty panel", Panels: []plot.Panel{{}}},
		{Title: "nan", LogX: true, LogY: true, Panels: []plot.Panel{{Series: []plot.Series{{X: []float64{nan, -1, 0, 1, inf}, Y: []float64{1, nan, 2, -3, 4}, Points: true}}}}},
		{Title: "one", Step: true, YMax: 1, Panels: []plot.Panel{{Series: []plot.Series{{X: []float64{5}, Y: []float64{1}}}, Legend: []plot.Key{{Label: "a", Colour: 12, Dash: 7}}}}},
		{Title: "huge", LogY: true, Panels: []plot.Panel{{Series: []plot.Series{{X: []float64{1, 2}, Y: []float64{1e-300, 1e300}, Scatter: true}}}}},
		{Title: "ticks", XTicks: []plot.Tick{{Value: 1, Label: "a<b"}, {Value: 2}}, Panels: []plot.Panel{{Title: "p&1"}, {Series: []plot.Series{{X: []float64{1, 2}, Y: []float64{3, 3}, Colour: -1}}}}},
	}
	for i := range figs {
		a := svgFigure("f", &figs[i])
		if b := svgFigure("f", &figs[i]); a != b {
			t.Errorf("%s: two drawings differ", figs[i].Title)
		}
		if strings.Contains(a, "NaN") || strings.Contains(a, "Inf") || strings.Contains(a, "a<b") {
			t.Errorf("%s: NaN, Inf or unescaped text in the SVG", figs[i].Title)
		}
	}
}
