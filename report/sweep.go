package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/sweep"
)

// sweepMetric is a headline metric of a sweep's table: its column in
// sweep.parquet (summary.json's name), its label and unit.
type sweepMetric struct {
	col, label string
	unit       metrics.Unit
}

// sweepMetrics are drawn against each axis and listed per point.
var sweepMetrics = []sweepMetric{
	{"fct_mean_ns", "FCT mean", metrics.UnitNs},
	{"fct_p99_ns", "FCT p99", metrics.UnitNs},
	{"slowdown_p50", "slowdown p50", metrics.UnitX},
	{"slowdown_p99", "slowdown p99", metrics.UnitX},
	{"mct_p99_ns", "MCT p99", metrics.UnitNs},
	{"goodput_bps", "goodput", metrics.UnitBps},
	{"qlen_max_bytes", "max queue", metrics.UnitBytes},
	{"ecn_ratio", "ECN ratio", metrics.UnitPct},
	{"pfc_pause_fraction", "PFC paused", metrics.UnitPct},
	{"drops_pkts", "drops", metrics.UnitCount},
	{"jain_index", "Jain index", metrics.UnitRatio},
}

// axisScale is how a unit is drawn on a figure's y axis: divide by div,
// name it unit.
func axisScale(u metrics.Unit) (div float64, unit string) {
	switch u {
	case metrics.UnitNs:
		return 1e3, "us"
	case metrics.UnitBps:
		return 1e9, "Gb/s"
	case metrics.UnitBytes:
		return 1024, "KiB"
	case metrics.UnitPct:
		return 0.01, "%"
	case metrics.UnitX:
		return 1, "x"
	case metrics.UnitCount:
		return 1, "count"
	}
	return 1, ""
}

// maxFailedListed bounds the failed points listed as warnings.
const maxFailedListed = 20

// sweep writes a sweep's section: what it is, its state, each headline
// metric against each axis (one line per algorithm, each point the mean
// over the done points sharing x and the algorithm), and the points.
func (p *page) sweep(id, dir string, colours map[string]int) error {
	m, states, t, err := sweep.Collect(dir)
	if err != nil {
		return err
	}
	c := sweep.Tally(states)
	p.section(id, fmt.Sprintf("Sweep: %s (%d points)", dir, len(m.Points)))
	p.h3("What was run")
	p.para(fmt.Sprintf("A sweep of %d points, each a ccreplay %s, written by %s: %d done, %d failed, %d running, %d pending. Its specification (ccreplay sweep --spec FILE runs it again):",
		len(m.Points), m.PointKind, m.Tool, c.Done, c.Failed, c.Running, c.Pending))
	p.raw("<pre>" + esc(strings.TrimRight(m.Spec, "\n")) + "</pre>\n")
	var arows [][]string
	for _, a := range m.Axes {
		var vs []string
		for _, v := range a.Values {
			vs = append(vs, v.String())
		}
		arows = append(arows, []string{a.Column, a.Key, strconv.Itoa(len(a.Values)), strings.Join(vs, ", ")})
	}
	p.table("Axes ("+runfolder.SweepManifestFile+")", []string{"column", "configuration key", "values", "each value"}, arows, func(c int) bool { return c == 2 })

	var ws []string
	for _, s := range states {
		if s.State == sweep.Failed {
			if len(ws) == maxFailedListed {
				ws = append(ws, fmt.Sprintf("... and %d more failed points", c.Failed-maxFailedListed))
				break
			}
			ws = append(ws, fmt.Sprintf("point %d (%s) failed: %s", s.Index, s.Dir, s.Error))
		}
	}
	if c.Pending+c.Running > 0 {
		ws = append(ws, fmt.Sprintf("%d points are not done yet: the figures and means are over the %d done points", c.Pending+c.Running, c.Done))
	}
	p.warnings(ws, "None: every point is done.")

	// The line axis is the algorithm; seeds are averaged over.
	line := ""
	var xs []string
	for _, a := range m.Axes {
		if a.Key == "cca" {
			line = a.Column
		}
	}
	for _, a := range m.Axes {
		if a.Column != line && a.Key != "seed" {
			xs = append(xs, a.Column)
		}
	}
	if len(xs) == 0 && line != "" {
		xs, line = []string{line}, ""
	}
	present := p.sweepColumns(t, m.Axes)
	p.h3("Metrics against each axis")
	if c.Done == 0 {
		p.para("No point is done: nothing to draw.")
	}
	drawn := 0
	for _, x := range xs {
		if c.Done == 0 {
			break
		}
		for _, sm := range present {
			fig, err := sweep.Figure(t, sm.col, x, line)
			if err != nil {
				continue
			}
			div, unit := axisScale(sm.unit)
			fig.Title = sm.label + " against " + x
			fig.YLabel = sm.label
			if unit != "" {
				fig.YLabel += " (" + unit + ")"
			}
			for pi := range fig.Panels {
				pn := &fig.Panels[pi]
				for si := range pn.Series {
					s := &pn.Series[si]
					for k := range s.Y {
						s.Y[k] /= div
					}
					if line != "" {
						s.Colour = colours[s.Label]
						pn.Legend[si].Colour = s.Colour
					} else {
						s.Colour, pn.Legend[si].Colour = -1, -1
					}
				}
			}
			fig.Notes = append(fig.Notes, "each point the mean over the done points with that value (seeds and other axes)")
			p.figure(&fig)
			drawn++
		}
	}
	if c.Done > 0 && drawn == 0 {
		p.para("No headline metric of the points has a number to draw.")
	}

	// The points, a row each.
	header := []string{"point", "status"}
	for _, a := range m.Axes {
		header = append(header, a.Column)
	}
	for _, sm := range present {
		header = append(header, sm.label)
	}
	status := t.Column("status")
	var rows [][]string
	for i := 0; i < t.Rows; i++ {
		row := []string{strconv.Itoa(i), fmt.Sprint(status.Values[i])}
		for _, a := range m.Axes {
			row = append(row, cell(t.Column(a.Column), i))
		}
		for _, sm := range present {
			// NB: the headline metrics' columns hold numbers or nulls.
			v, ok := t.Column(sm.col).Number(i)
			if !ok {
				row = append(row, "")
				continue
			}
			row = append(row, metrics.Format(v, sm.unit))
		}
		rows = append(rows, row)
	}
	p.h3("Points")
	na := len(m.Axes)
	p.table(fmt.Sprintf("Every point (%s's rows; %s metrics as ccreplay metrics prints them)", runfolder.SweepTableFile, dir), header, rows,
		func(c int) bool { return c == 0 || c >= 2+na })
	p.endSection()
	return nil
}

// sweepColumns are the headline metrics the table has as numbers (a metric
// whose name an axis took is read from its metric_ column).
func (p *page) sweepColumns(t *sweep.Table, axes []sweep.Axis) []sweepMetric {
	isAxis := map[string]bool{}
	for _, a := range axes {
		isAxis[a.Column] = true
	}
	var out []sweepMetric
	for _, sm := range sweepMetrics {
		if isAxis[sm.col] {
			sm.col = "metric_" + sm.col
		}
		if c := t.Column(sm.col); c != nil && c.Kind != sweep.String {
			out = append(out, sm)
		}
	}
	return out
}

func cell(c *sweep.Column, i int) string {
	if c == nil || c.Values[i] == nil {
		return ""
	}
	return fmt.Sprint(c.Values[i])
}
