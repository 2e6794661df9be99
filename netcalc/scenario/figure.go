package scenario

import (
	"fmt"
	"path/filepath"

	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/plot"
)

// figureCurves converts the model's result, and the compare rows when the
// replay ran (else nil), into the plain series of the netcalc figures
// (Figs. 7-10). Rates are admitted bytes over each recorded step (ΔÂ; a
// flow's drop of Â at a timeout counts as 0), in bit/s.
func figureCurves(res *netcalc.Result, rows []ncCompareRow, title string) *plot.NetcalcCurves {
	ag := &res.Aggregate
	n := len(ag.Backlog)
	perSec := 8 / res.Dt.Seconds()
	rate := func(v []float64) []float64 {
		r := make([]float64, n)
		for k := 1; k < n; k++ {
			r[k] = max(0, v[k]-v[k-1]) * perSec
		}
		return r
	}
	c := &plot.NetcalcCurves{TNs: make([]int64, n), ModelBacklog: ag.Backlog, ModelRate: rate(ag.Ahat.V), Title: title}
	for k := range n {
		c.TNs[k] = nsOf(res.T(k))
	}
	if len(res.Flows) > 0 && res.Flows[0].Paused != nil {
		c.ModelPaused = make([]bool, n)
		for k := range n {
			c.ModelPaused[k] = anyPaused(res, k)
		}
	}
	for i := range min(len(res.Flows), plot.NetcalcMaxFlows) {
		c.FlowRates = append(c.FlowRates, rate(res.Flows[i].Ahat.V))
		c.FlowLabels = append(c.FlowLabels, fmt.Sprintf("flow %d", i))
	}
	if rows != nil {
		c.ReplayBacklog, c.ReplayRate, c.ReplayPaused = make([]float64, n), make([]float64, n), make([]bool, n)
		for k, r := range rows[:n] {
			c.ReplayBacklog[k], c.ReplayRate[k], c.ReplayPaused[k] = r.ReplayBacklogBytes, r.ReplayRateBps, r.ReplayPaused == 1
		}
	}
	return c
}

// writeFigures writes backlog.FORMAT and rates.FORMAT into dir (the
// staged folder) and returns their names.
func writeFigures(dir string, formats []string, c *plot.NetcalcCurves) ([]string, error) {
	if len(formats) == 0 {
		return nil, nil
	}
	figs, err := plot.Netcalc(c)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range figs {
		paths, err := plot.WriteFigure(dir, f, formats)
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			names = append(names, filepath.Base(p))
		}
	}
	return names, nil
}
