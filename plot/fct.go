package plot

import (
	"fmt"
	"slices"
)

// FCTCDFName is the file name of the FCT CDF view.
const FCTCDFName = "fct_cdf"

// logSpan is the max/min ratio from which an axis of positive values is
// drawn logarithmic (two decades).
const logSpan = 100

// FCTCDF is the empirical CDF of the flow completion time of each run:
// one curve per run, x = FCT in microseconds (fct_ns / 1000), y = the
// fraction of the run's finished flows whose FCT is <= x. Points are the
// distinct FCTs in ascending order with y = (flows with FCT <= x) / n, so
// y is non-decreasing and the last point is exactly 1; a first point
// (min FCT, 0) starts the staircase. Unfinished flows (finish_ns < 0)
// are left out and counted in a note. The x axis is logarithmic when the
// FCTs span two decades or more.
func FCTCDF(runs []*Run) (Figure, error) {
	fig := Figure{
		Name:   FCTCDFName,
		Title:  "Flow completion time CDF",
		XLabel: "flow completion time (us)",
		YLabel: "fraction of flows",
		Step:   true,
		YMax:   1,
	}
	var p Panel
	lo, hi := 0.0, 0.0
	for _, r := range runs {
		var fcts []int64
		unfinished := 0
		for i := range r.Flows {
			f := &r.Flows[i]
			if f.FinishNs < 0 || f.FCTNs < 0 {
				unfinished++
				continue
			}
			fcts = append(fcts, f.FCTNs)
		}
		if unfinished > 0 {
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: %d of %d flows unfinished, left out of the CDF", r.Label, unfinished, len(r.Flows)))
		}
		if len(fcts) == 0 {
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: no finished flow, no curve", r.Label))
			continue
		}
		s := cdfSeries(fcts)
		s.Label, s.Colour, s.Dash = r.Label, r.Group, r.Variant
		p.Series = append(p.Series, s)
		p.Legend = append(p.Legend, Key{Label: r.Label, Colour: r.Group, Dash: r.Variant})
		if len(p.Series) == 1 || s.X[0] < lo {
			lo = s.X[0]
		}
		hi = max(hi, s.X[len(s.X)-1])
	}
	if len(p.Series) == 0 {
		return Figure{}, skipf(FCTCDFName, "no run has a finished flow")
	}
	fig.LogX = lo > 0 && hi/lo >= logSpan
	fig.Panels = []Panel{p}
	return fig, nil
}

// cdfSeries is the staircase of the empirical CDF of vs (ns, >= 0), with x
// in microseconds. vs is sorted in place.
func cdfSeries(vs []int64) Series {
	slices.Sort(vs)
	n := len(vs)
	s := Series{X: []float64{nsToUs(vs[0])}, Y: []float64{0}}
	for i, v := range vs {
		if i+1 < n && vs[i+1] == v {
			continue // one point per distinct value, at its highest rank
		}
		s.X = append(s.X, nsToUs(v))
		// NB: (i+1)/n with i+1 == n is exactly 1 in floating point.
		s.Y = append(s.Y, float64(i+1)/float64(n))
	}
	return s
}

// nsToUs converts nanoseconds to microseconds.
func nsToUs(ns int64) float64 { return float64(ns) / 1e3 }
