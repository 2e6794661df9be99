package plot

import (
	"fmt"
	"slices"

	"github.com/ccreplay/ccreplay/fidelity"
)

// File names of the `ccreplay validate --plots` views.
const (
	FidelityScatterName  = "fidelity_fct_scatter"
	FidelitySlowdownName = "fidelity_slowdown"
	FidelityCDFName      = "fidelity_slowdown_cdf"
)

// Fidelity is the figures of a validate report: FidelityScatter,
// FidelitySlowdown and FidelityCDF.
func Fidelity(r *fidelity.Report) []Figure {
	return []Figure{FidelityScatter(r), FidelitySlowdown(r), FidelityCDF(r)}
}

// FidelityScatter is the FCT of every matched flow on both sides, log-log:
// x = the reference's FCT, y = the other's, in microseconds, one glyph per
// flow (colour 0), and the line y = x (black, dashed) across the data: a
// flow above it took longer on the other side. Flows with an FCT of 0 on
// either side cannot be drawn on log axes; a note counts them.
func FidelityScatter(r *fidelity.Report) Figure {
	fig := Figure{
		Name:   FidelityScatterName,
		Title:  "FCT of each matched flow",
		XLabel: fmt.Sprintf("FCT, %s (reference, us)", r.Reference.Label),
		YLabel: fmt.Sprintf("FCT, %s (us)", r.Other.Label),
		LogX:   true, LogY: true,
	}
	s := Series{Label: "matched flows", Colour: 0, Scatter: true}
	lo, hi, zero := 0.0, 0.0, 0
	for _, f := range r.Flows {
		if f.FCTRefNs <= 0 || f.FCTOtherNs <= 0 {
			zero++
			continue
		}
		x, y := nsToUs(f.FCTRefNs), nsToUs(f.FCTOtherNs)
		s.X, s.Y = append(s.X, x), append(s.Y, y)
		if len(s.X) == 1 {
			lo, hi = min(x, y), max(x, y)
		}
		lo, hi = min(lo, x, y), max(hi, x, y)
	}
	if zero > 0 {
		fig.Notes = append(fig.Notes, fmt.Sprintf("%d flows with an FCT of 0 left out of the log-log scatter", zero))
	}
	p := Panel{Legend: []Key{
		{Label: fmt.Sprintf("%d flows", len(s.X)), Colour: 0, Points: true},
		{Label: "y = x", Colour: -1, Dash: 1},
	}}
	if len(s.X) > 0 {
		p.Series = append(p.Series, s, Series{Label: "y = x", Colour: -1, Dash: 1, X: []float64{lo, hi}, Y: []float64{lo, hi}})
	} else {
		p.Series = append(p.Series, Series{Label: "y = x", Colour: -1, Dash: 1, X: []float64{1, 10}, Y: []float64{1, 10}})
	}
	fig.Panels = []Panel{p}
	return fig
}

// FidelitySlowdown is the slowdown p50 (solid) and p99 (dotted) per
// flow-size bucket of both sides, the reference in colour 0 and the other
// in colour 1: the report's ccreplay buckets (equal counts), x = bucket
// number ticked with its largest flow size, y = slowdown, logarithmic.
func FidelitySlowdown(r *fidelity.Report) Figure {
	fig := Figure{
		Name:   FidelitySlowdownName,
		Title:  "FCT slowdown per flow-size bucket, matched flows",
		XLabel: "flow size bucket (largest flow in bucket, bytes)",
		YLabel: "slowdown (FCT / standalone FCT)",
		LogY:   true,
	}
	bs := r.Buckets.Buckets
	var p Panel
	for side, label := range []string{r.Reference.Label, r.Other.Label} {
		for k, pc := range []string{"p50", "p99"} {
			s := Series{Label: label + " " + pc, Colour: side, Dash: percentileDash[2*k], Points: true}
			for i, b := range bs {
				st := b.SlowdownRef
				if side == 1 {
					st = b.SlowdownOther
				}
				v := st.P50
				if k == 1 {
					v = st.P99
				}
				s.X, s.Y, s.Count = append(s.X, float64(i+1)), append(s.Y, v), append(s.Count, int64(b.Flows))
			}
			p.Series = append(p.Series, s)
		}
		p.Legend = append(p.Legend, Key{Label: label, Colour: side, Points: true})
	}
	p.Legend = append(p.Legend, Key{Label: "p50", Colour: -1, Dash: percentileDash[0]}, Key{Label: "p99", Colour: -1, Dash: percentileDash[2]})
	every := (len(bs) + 5) / 6
	prev := ""
	for i, b := range bs {
		t := Tick{Value: float64(i + 1)}
		if l := formatBytes(b.SizeMaxBytes); i%every == 0 && l != prev {
			t.Label, prev = l, l
		}
		fig.XTicks = append(fig.XTicks, t)
	}
	fig.Panels = []Panel{p}
	return fig
}

// FidelityCDF is the empirical CDF of the slowdown of the matched flows
// on each side (reference colour 0, other colour 1): a staircase through
// the distinct slowdowns, y = fraction of flows at or below x; x is
// logarithmic when the slowdowns span two decades.
func FidelityCDF(r *fidelity.Report) Figure {
	fig := Figure{
		Name:   FidelityCDFName,
		Title:  "FCT slowdown CDF, matched flows",
		XLabel: "slowdown (FCT / standalone FCT)",
		YLabel: "fraction of flows",
		Step:   true,
		YMax:   1,
	}
	var p Panel
	hi := 1.0
	for side, label := range []string{r.Reference.Label, r.Other.Label} {
		vs := make([]float64, 0, len(r.Flows))
		for _, f := range r.Flows {
			v := f.SlowdownRef
			if side == 1 {
				v = f.SlowdownOther
			}
			vs = append(vs, v)
		}
		if len(vs) == 0 {
			continue
		}
		slices.Sort(vs)
		s := Series{Label: label, Colour: side, X: []float64{vs[0]}, Y: []float64{0}}
		for i, v := range vs {
			if i+1 < len(vs) && vs[i+1] == v {
				continue
			}
			s.X, s.Y = append(s.X, v), append(s.Y, float64(i+1)/float64(len(vs)))
		}
		hi = max(hi, vs[len(vs)-1])
		p.Series = append(p.Series, s)
		p.Legend = append(p.Legend, Key{Label: label, Colour: side})
	}
	fig.LogX = hi >= logSpan // slowdowns are >= 1
	fig.Panels = []Panel{p}
	return fig
}
