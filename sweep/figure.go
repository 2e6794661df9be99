package sweep

import (
	"fmt"
	"sort"

	"github.com/ccreplay/ccreplay/plot"
)

// Figure draws a metric of the sweep's table against an axis, one line per
// value of another axis (by default the algorithm), each point the mean
// over the done points sharing that x and line value (seeds and any other
// axis), with the number of points behind it as its count.
func Figure(t *Table, metric, x, line string) (plot.Figure, error) {
	mc, xc := t.Column(metric), t.Column(x)
	if mc == nil || mc.Kind == String {
		return plot.Figure{}, fmt.Errorf("--metric %s: not a numeric column of %s (see `sweep collect --json` for the columns)", metric, TableFile)
	}
	if xc == nil {
		return plot.Figure{}, fmt.Errorf("--x %s: not a column of %s", x, TableFile)
	}
	var lc *Column
	if line != "" {
		if lc = t.Column(line); lc == nil {
			return plot.Figure{}, fmt.Errorf("--line %s: not a column of %s", line, TableFile)
		}
	}
	status := t.Column("status")
	type key struct{ line, x string }
	sum := map[key]float64{}
	cnt := map[key]int64{}
	xval := map[string]float64{}
	var lines []string
	seenLine := map[string]bool{}
	var cats []string // x values of a text axis, in first-seen order
	for i := 0; i < t.Rows; i++ {
		if status.Values[i] != string(Done) || mc.Values[i] == nil || xc.Values[i] == nil {
			continue
		}
		lv := ""
		if lc != nil {
			lv = fmt.Sprint(lc.Values[i])
		}
		xs := fmt.Sprint(xc.Values[i])
		if _, ok := xval[xs]; !ok {
			switch v := xc.Values[i].(type) {
			case int64:
				xval[xs] = float64(v)
			case float64:
				xval[xs] = v
			default:
				xval[xs] = float64(len(cats))
				cats = append(cats, xs)
			}
		}
		if !seenLine[lv] {
			seenLine[lv] = true
			lines = append(lines, lv)
		}
		k := key{lv, xs}
		sum[k] += toFloat(mc.Values[i])
		cnt[k]++
	}
	if len(lines) == 0 {
		return plot.Figure{}, fmt.Errorf("no done point has both %s and %s", metric, x)
	}
	fig := plot.Figure{Name: "sweep_" + metric + "_vs_" + x, Title: metric + " against " + x, XLabel: x, YLabel: metric}
	if len(cats) > 0 {
		for i, c := range cats {
			fig.XTicks = append(fig.XTicks, plot.Tick{Value: float64(i), Label: c})
		}
	}
	var p plot.Panel
	for li, lv := range lines {
		s := plot.Series{Label: lv, Colour: li, Points: true}
		var xs []string
		for k := range cnt {
			if k.line == lv {
				xs = append(xs, k.x)
			}
		}
		sort.Slice(xs, func(a, b int) bool { return xval[xs[a]] < xval[xs[b]] })
		for _, xv := range xs {
			k := key{lv, xv}
			s.X = append(s.X, xval[xv])
			s.Y = append(s.Y, sum[k]/float64(cnt[k]))
			s.Count = append(s.Count, cnt[k])
		}
		label := lv
		if lc == nil {
			label = metric
		} else {
			label = line + "=" + lv
		}
		p.Series = append(p.Series, s)
		p.Legend = append(p.Legend, plot.Key{Label: label, Colour: li, Points: true})
	}
	fig.Panels = []plot.Panel{p}
	return fig, nil
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}
