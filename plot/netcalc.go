package plot

import (
	"fmt"
	"math"
)

// File names of the `ccreplay netcalc` figures.
const (
	NetcalcBacklogName = "backlog"
	NetcalcRatesName   = "rates"
)

// Defaults of the netcalc figures.
const (
	// NetcalcMaxPoints bounds the points of a curve: with more recorded
	// steps, NetcalcBins merges ceil(steps/NetcalcMaxPoints) adjacent
	// steps into one point.
	NetcalcMaxPoints = 2000
	// NetcalcMaxFlows is the number of individual flows in the rates
	// figure, the first ones by flow index.
	NetcalcMaxFlows = 4
)

// NetcalcCurves is what the netcalc figures draw: plain series at the
// recorded steps of the model (the caller converts a netcalc.Result and
// compare.parquet's rows; plot does not import netcalc). Every non-nil
// slice has len(TNs) values.
type NetcalcCurves struct {
	// TNs are the sample times, ns, ascending and evenly spaced.
	TNs []int64
	// ModelBacklog is the model's aggregate backlog, bytes.
	ModelBacklog []float64
	// ModelRate is the aggregate admitted rate into the bottleneck over
	// the step ending at the sample (ΔÂ), bit/s.
	ModelRate []float64
	// ModelPaused is true where PFC pauses some model flow (nil: none).
	ModelPaused []bool
	// FlowRates are individual flows' admitted rates, bit/s, per step,
	// with their FlowLabels; at most NetcalcMaxFlows are drawn.
	FlowRates  [][]float64
	FlowLabels []string
	// ReplayBacklog, ReplayRate and ReplayPaused are the packet replay's
	// side (nil without --compare): payload queued at the bottleneck
	// port, bytes; payload enqueued there over the step, bit/s; some
	// PAUSE frame not yet resumed.
	ReplayBacklog, ReplayRate []float64
	ReplayPaused              []bool
	// Title names the run (workload, CC, PFC), drawn above the figure.
	Title string
}

// check says what is wrong with c's lengths.
func (c *NetcalcCurves) check() error {
	n := len(c.TNs)
	if n == 0 {
		return fmt.Errorf("plot: netcalc: no samples")
	}
	for name, l := range map[string]int{"model backlog": len(c.ModelBacklog), "model rate": len(c.ModelRate)} {
		if l != n {
			return fmt.Errorf("plot: netcalc: %s has %d values for %d samples", name, l, n)
		}
	}
	opt := map[string]int{"model paused": len(c.ModelPaused), "replay backlog": len(c.ReplayBacklog),
		"replay rate": len(c.ReplayRate), "replay paused": len(c.ReplayPaused)}
	for i, f := range c.FlowRates {
		opt[fmt.Sprintf("flow rate %d", i)] = len(f)
	}
	for name, l := range opt {
		if l != 0 && l != n {
			return fmt.Errorf("plot: netcalc: %s has %d values for %d samples", name, l, n)
		}
	}
	if (c.ReplayBacklog == nil) != (c.ReplayRate == nil) {
		return fmt.Errorf("plot: netcalc: replay backlog and rate must be given together")
	}
	if len(c.FlowLabels) != len(c.FlowRates) {
		return fmt.Errorf("plot: netcalc: %d flow labels for %d flows", len(c.FlowLabels), len(c.FlowRates))
	}
	return nil
}

// overTime checks c and starts its figure name over time (x in ms, both
// axes from 0), titled what and the run, with y labelled yLabel; k is
// the number of recorded steps merged into one point (NetcalcBins).
func (c *NetcalcCurves) overTime(name, what, yLabel string) (fig Figure, k int, err error) {
	if err := c.check(); err != nil {
		return Figure{}, 0, err
	}
	fig = Figure{Name: name, Title: titled(what, c.Title), XLabel: "time (ms)", YLabel: yLabel, XFromZero: true, YFromZero: true}
	return fig, NetcalcBins(len(c.TNs)), nil
}

// NetcalcBins is the number of recorded steps merged into one point for
// n steps: ceil(n/NetcalcMaxPoints), at least 1.
func NetcalcBins(n int) int { return max(1, (n+NetcalcMaxPoints-1)/NetcalcMaxPoints) }

// Netcalc is both netcalc figures: NetcalcBacklog then NetcalcRates.
func Netcalc(c *NetcalcCurves) ([]Figure, error) {
	b, err := NetcalcBacklog(c)
	if err != nil {
		return nil, err
	}
	r, err := NetcalcRates(c)
	if err != nil {
		return nil, err
	}
	return []Figure{b, r}, nil
}

// NetcalcBacklog is the aggregate backlog over time (paper 003 Figs. 7b,
// 9b; 8b and 10b with a 400 us horizon): x = time in ms, y = MB (1e6
// bytes), the model's curve (colour 0) and the replay's (colour 1). With
// more than NetcalcMaxPoints steps each point is the largest backlog of
// NetcalcBins adjacent steps, at its time, so the peak stays. PFC pauses
// are marked as horizontal bars above the curves, one per interval in
// which some flow (model: colour 6) or some port (replay: colour 7) is
// paused; intervals closer than one bin are merged.
func NetcalcBacklog(c *NetcalcCurves) (Figure, error) {
	fig, k, err := c.overTime(NetcalcBacklogName, "Backlog", "backlog (MB)")
	if err != nil {
		return Figure{}, err
	}
	p := Panel{}
	top := 0.0
	add := func(label string, colour int, v []float64) {
		x, y := binMax(c.TNs, v, k)
		top = max(top, p.addScaled(Series{Label: label, Colour: colour, X: x, Y: y}, 1e6))
	}
	add("model", 0, c.ModelBacklog)
	if c.ReplayBacklog != nil {
		add("replay", 1, c.ReplayBacklog)
	}
	if top <= 0 {
		top = 1
	}
	mark := func(label string, colour int, paused []bool, level float64) {
		iv := PauseIntervals(c.TNs, paused, k)
		for i, v := range iv {
			p.Series = append(p.Series, Series{Label: fmt.Sprintf("%s %d", label, i), Colour: colour,
				X: []float64{float64(v[0]) / 1e6, float64(v[1]) / 1e6}, Y: []float64{level, level}})
		}
		if len(iv) > 0 {
			p.Legend = append(p.Legend, Key{Label: label, Colour: colour})
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: %d intervals, drawn at %.3g MB", label, len(iv), level))
		}
	}
	mark("model PFC pause", 6, c.ModelPaused, 1.04*top)
	mark("replay PFC pause", 7, c.ReplayPaused, 1.08*top)
	if k > 1 {
		fig.Notes = append(fig.Notes, fmt.Sprintf("backlog: the largest of every %d recorded steps", k))
	}
	fig.Panels = []Panel{p}
	return fig, nil
}

// NetcalcRates is the aggregate arrival rate into the bottleneck over
// time (paper 003 Figs. 7a, 9a; 8a and 10a with a 400 us horizon): x =
// time in ms, y = Gb/s, the model's ΔÂ (colour 0) and the replay's
// enqueued payload (colour 1), and the first NetcalcMaxFlows flows' model
// rates (colours 2-5, dotted). With more than NetcalcMaxPoints steps each
// point is the mean of NetcalcBins adjacent steps, at their middle.
func NetcalcRates(c *NetcalcCurves) (Figure, error) {
	fig, k, err := c.overTime(NetcalcRatesName, "Arrival rate", "rate (Gb/s)")
	if err != nil {
		return Figure{}, err
	}
	p := Panel{}
	add := func(label string, colour, dash int, v []float64) {
		x, y := binMean(c.TNs, v, k)
		p.addScaled(Series{Label: label, Colour: colour, Dash: dash, X: x, Y: y}, 1e9)
	}
	add("model (all flows)", 0, 0, c.ModelRate)
	if c.ReplayRate != nil {
		add("replay (all flows)", 1, 0, c.ReplayRate)
	}
	for i := range min(len(c.FlowRates), NetcalcMaxFlows) {
		add("model "+c.FlowLabels[i], 2+i, 2, c.FlowRates[i])
	}
	if len(c.FlowRates) > NetcalcMaxFlows {
		fig.Notes = append(fig.Notes, fmt.Sprintf("rates: %d of %d flows drawn", NetcalcMaxFlows, len(c.FlowRates)))
	}
	if k > 1 {
		fig.Notes = append(fig.Notes, fmt.Sprintf("rates: averaged over every %d recorded steps", k))
	}
	fig.Panels = []Panel{p}
	return fig, nil
}

// addScaled divides s's values by div (to MB, to Gb/s) and adds s and its
// key to p; it returns the largest value, 0 when none is larger.
func (p *Panel) addScaled(s Series, div float64) float64 {
	top := 0.0
	for i := range s.Y {
		s.Y[i] /= div
		top = max(top, s.Y[i])
	}
	p.Series = append(p.Series, s)
	p.Legend = append(p.Legend, Key{Label: s.Label, Colour: s.Colour, Dash: s.Dash})
	return top
}

func titled(what, run string) string {
	if run == "" {
		return what
	}
	return what + ": " + run
}

// binMax is, per k adjacent samples, the largest value and its time in
// ms (the first of equal values).
func binMax(tns []int64, v []float64, k int) (x, y []float64) {
	for lo := 0; lo < len(v); lo += k {
		best := lo
		for i := lo + 1; i < min(lo+k, len(v)); i++ {
			if v[i] > v[best] {
				best = i
			}
		}
		x, y = append(x, float64(tns[best])/1e6), append(y, v[best])
	}
	return x, y
}

// binMean is, per k adjacent samples, the mean value at the middle of
// their times, in ms.
func binMean(tns []int64, v []float64, k int) (x, y []float64) {
	for lo := 0; lo < len(v); lo += k {
		hi := min(lo+k, len(v))
		var s float64
		for _, w := range v[lo:hi] {
			s += w
		}
		x = append(x, float64(tns[lo]+tns[hi-1])/2/1e6)
		y = append(y, s/float64(hi-lo))
	}
	return x, y
}

// PauseIntervals are the [first, last] sample times (ns) of the runs of
// paused samples, two runs less than k+1 samples apart merged into one
// (k = 1: only adjacent samples join). A single paused sample is an
// interval of one step, [t, t+step].
func PauseIntervals(tns []int64, paused []bool, k int) [][2]int64 {
	var out [][2]int64
	last := math.MinInt // index of the last paused sample
	for i, p := range paused {
		if !p {
			continue
		}
		if n := len(out); n > 0 && i-last <= k {
			out[n-1][1] = tns[i]
		} else {
			out = append(out, [2]int64{tns[i], tns[i]})
		}
		last = i
	}
	if len(tns) > 1 {
		step := tns[1] - tns[0]
		for i := range out {
			if out[i][0] == out[i][1] {
				out[i][1] += step
			}
		}
	}
	return out
}
