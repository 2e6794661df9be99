package report

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/plot"
)

// Figure geometry, in SVG user units (CSS pixels at 100 %).
const (
	svgWidth     = 760.0
	plotLeft     = 72.0  // room for the y tick labels and the y label
	plotRight    = 200.0 // the legend column on the right
	plotTop      = 34.0  // the title
	plotBottom   = 52.0  // x tick labels and the x label
	panelHeight1 = 320.0 // the plot area of a single-panel figure
	panelHeightN = 190.0 // the plot area of each panel of a taller figure
	panelGap     = 30.0  // between panels (room for a panel title)
	maxMarkers   = 40    // glyphs drawn along one series at most
)

// dashArrays are plot's dash patterns by Series.Dash, as stroke-dasharray.
var dashArrays = []string{"", "7 3", "1.5 2.5", "7 2.5 1.5 2.5"}

// svgFigure draws fig as an inline <svg> element, deterministically: the
// same figure gives the same text. Colours are plot's palette by
// Series.Colour; every colour also has its own glyph, drawn along each
// curve and in the legend, and Series.Dash its dash pattern, so the figure
// reads without colour. Long series are thinned to what the pixels show
// (per pixel column the first, lowest, highest and last point), so a figure
// of a million flows is a few thousand points.
func svgFigure(id string, fig *plot.Figure) string {
	np := max(1, len(fig.Panels))
	ph := panelHeight1
	if np > 1 {
		ph = panelHeightN
	}
	// A panel title needs a line of its own under the figure's title.
	top0 := plotTop
	if fig.Panels != nil && fig.Panels[0].Title != "" {
		top0 += 14
	}
	height := top0 + float64(np)*ph + float64(np-1)*panelGap + plotBottom
	pw := svgWidth - plotLeft - plotRight
	var b strings.Builder
	fmt.Fprintf(&b, `<svg viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-labelledby="%s-t" font-family="sans-serif" font-size="12">`,
		num(svgWidth), num(height), num(svgWidth), num(height), id)
	fmt.Fprintf(&b, `<title id="%s-t">%s</title>`, id, esc(fig.Title))
	fmt.Fprintf(&b, `<rect width="%s" height="%s" fill="#fff"/>`, num(svgWidth), num(height))
	fmt.Fprintf(&b, `<text x="%s" y="20" text-anchor="middle" font-size="14" font-weight="bold">%s</text>`, num(plotLeft+pw/2), esc(fig.Title))

	xr := axisRange(fig, -1, true)
	var shared span
	if fig.ShareY {
		shared = axisRange(fig, -1, false)
	}
	for i := range fig.Panels {
		top := top0 + float64(i)*(ph+panelGap)
		yr := shared
		if !fig.ShareY {
			yr = axisRange(fig, i, false)
		}
		drawPanel(&b, fig, i, xr, yr, top, ph, pw, i == np-1)
	}
	// The axis labels, once.
	fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`, num(plotLeft+pw/2), num(height-10), esc(fig.XLabel))
	cy := top0 + (height-top0-plotBottom)/2
	fmt.Fprintf(&b, `<text transform="translate(16 %s) rotate(-90)" text-anchor="middle">%s</text>`, num(cy), esc(fig.YLabel))
	b.WriteString(`</svg>`)
	return b.String()
}

// span is an axis range in data units (log10 of them on a log axis).
type span struct {
	lo, hi float64
	log    bool
	ok     bool
}

// axisRange is the x (x true) or y range of panel i (-1: every panel).
func axisRange(fig *plot.Figure, panel int, x bool) span {
	s := span{log: fig.LogY, lo: math.Inf(1), hi: math.Inf(-1)}
	if x {
		s.log = fig.LogX
	}
	for i := range fig.Panels {
		if panel >= 0 && i != panel {
			continue
		}
		for _, sr := range fig.Panels[i].Series {
			vs := sr.Y
			if x {
				vs = sr.X
			}
			for _, v := range vs {
				if t, ok := s.tr(v); ok {
					s.lo, s.hi = min(s.lo, t), max(s.hi, t)
				}
			}
		}
	}
	if x {
		for _, t := range fig.XTicks {
			if v, ok := s.tr(t.Value); ok {
				s.lo, s.hi = min(s.lo, v), max(s.hi, v)
			}
		}
	}
	if math.IsInf(s.lo, 1) {
		s.lo, s.hi = 0, 1
		if s.log {
			s.lo, s.hi = 0, 1 // 1 .. 10
		}
		return s
	}
	fromZero := (x && fig.XFromZero) || (!x && fig.YFromZero)
	if !s.log && fromZero {
		s.lo = min(s.lo, 0)
	}
	if !x && fig.YMax > 0 && !s.log {
		s.hi = max(s.hi, fig.YMax)
	}
	// A range lost in the values' precision (means that differ in the
	// last bits) is one value.
	if s.hi-s.lo <= 1e-9*max(math.Abs(s.lo), math.Abs(s.hi)) {
		s.hi = s.lo
	}
	if s.hi == s.lo {
		if s.log {
			s.lo, s.hi = s.lo-0.5, s.hi+0.5
		} else if s.lo == 0 {
			s.hi = 1
		} else {
			d := math.Abs(s.lo) * 0.1
			s.lo, s.hi = s.lo-d, s.hi+d
		}
	} else if !s.log && !fromZero && !(!x && fig.YMax > 0) {
		d := (s.hi - s.lo) * 0.04
		s.lo, s.hi = s.lo-d, s.hi+d
	} else if s.log {
		s.lo, s.hi = math.Floor(s.lo*10)/10, math.Ceil(s.hi*10)/10
	}
	s.ok = true
	return s
}

// tr maps a data value onto the axis (log10 on a log axis); false for a
// value the axis cannot show.
func (s span) tr(v float64) (float64, bool) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	if s.log {
		if v <= 0 {
			return 0, false
		}
		return math.Log10(v), true
	}
	return v, true
}

// px maps t (axis units) to [0, size].
func (s span) px(t, size float64) float64 { return (t - s.lo) / (s.hi - s.lo) * size }

func drawPanel(b *strings.Builder, fig *plot.Figure, i int, xr, yr span, top, ph, pw float64, last bool) {
	p := &fig.Panels[i]
	left := plotLeft
	X := func(t float64) float64 { return left + xr.px(t, pw) }
	Y := func(t float64) float64 { return top + ph - yr.px(t, ph) }
	if p.Title != "" {
		fmt.Fprintf(b, `<text x="%s" y="%s" font-weight="bold">%s</text>`, num(left), num(top-6), esc(p.Title))
	}
	fmt.Fprintf(b, `<g class="axes"><rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#444"/>`, num(left), num(top), num(pw), num(ph))
	// y ticks and grid
	for _, t := range ticks(yr) {
		y := Y(t.pos)
		if t.label == "" {
			fmt.Fprintf(b, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#444"/>`, num(left-3), num(left), num(y), num(y))
			continue
		}
		fmt.Fprintf(b, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#ddd"/>`, num(left), num(left+pw), num(y), num(y))
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="end" font-size="11">%s</text>`, num(left-5), num(y+4), esc(t.label))
	}
	// x ticks and grid
	xt := ticks(xr)
	if fig.XTicks != nil {
		xt = xt[:0]
		for _, t := range fig.XTicks {
			if v, ok := xr.tr(t.Value); ok {
				xt = append(xt, tick{v, t.Label})
			}
		}
	}
	for _, t := range xt {
		x := X(t.pos)
		if t.label == "" {
			fmt.Fprintf(b, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#444"/>`, num(x), num(x), num(top+ph), num(top+ph+3))
			continue
		}
		fmt.Fprintf(b, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#eee"/>`, num(x), num(x), num(top), num(top+ph))
		if last {
			fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" font-size="11">%s</text>`, num(x), num(top+ph+15), esc(t.label))
		}
	}
	b.WriteString(`</g>`)
	// series
	fmt.Fprintf(b, `<g class="series" clip-path="none">`)
	for _, s := range p.Series {
		drawSeries(b, fig, &s, xr, yr, X, Y)
	}
	b.WriteString(`</g>`)
	// legend
	lx, ly := left+pw+12, top+8
	fmt.Fprintf(b, `<g class="legend" font-size="11">`)
	for k, key := range p.Legend {
		y := ly + float64(k)*17
		if y > top+ph {
			fmt.Fprintf(b, `<text x="%s" y="%s">… %d more</text>`, num(lx), num(y+4), len(p.Legend)-k)
			break
		}
		col, w := style(key.Colour)
		fmt.Fprintf(b, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="%s" stroke-width="%s"%s/>`,
			num(lx), num(lx+26), num(y), num(y), col, num(w), dashAttr(key.Dash))
		b.WriteString(glyph(key.Colour, lx+13, y, col))
		fmt.Fprintf(b, `<text x="%s" y="%s">%s</text>`, num(lx+32), num(y+4), esc(key.Label))
	}
	b.WriteString(`</g>`)
}

// style is a colour's stroke and line width: later colours are drawn
// thinner (as plot draws them, more so), so that identical curves, drawn
// in colour order, still show the earlier ones around the later ones.
func style(colour int) (string, float64) {
	w := 2.0
	if colour >= 0 {
		w = max(1.2, 3.6-0.8*float64(colour%plot.PaletteSize()))
	}
	return plot.ColourHex(colour), w
}

func dashAttr(d int) string {
	if a := dashArrays[d%len(dashArrays)]; a != "" {
		return ` stroke-dasharray="` + a + `"`
	}
	return ""
}

type pt struct{ x, y float64 }

func drawSeries(b *strings.Builder, fig *plot.Figure, s *plot.Series, xr, yr span, X, Y func(float64) float64) {
	col, w := style(s.Colour)
	// Project, breaking the line at points the axes cannot show.
	var segs [][]pt
	var cur []pt
	add := func(x, y float64) {
		tx, okx := xr.tr(x)
		ty, oky := yr.tr(y)
		if !okx || !oky {
			if len(cur) > 0 {
				segs = append(segs, cur)
				cur = nil
			}
			return
		}
		cur = append(cur, pt{round1(X(tx)), round1(Y(ty))})
	}
	n := min(len(s.X), len(s.Y))
	for k := 0; k < n; k++ {
		if fig.Step && k > 0 && !s.Scatter {
			add(s.X[k], s.Y[k-1])
		}
		add(s.X[k], s.Y[k])
	}
	if len(cur) > 0 {
		segs = append(segs, cur)
	}
	var all []pt
	for _, sg := range segs {
		all = append(all, sg...)
	}
	if !s.Scatter {
		var d strings.Builder
		for _, sg := range segs {
			sg = thin(sg)
			for k, q := range sg {
				if k == 0 {
					d.WriteString("M")
				} else {
					d.WriteString("L")
				}
				d.WriteString(num(q.x) + " " + num(q.y))
			}
		}
		if d.Len() > 0 {
			fmt.Fprintf(b, `<path d="%s" fill="none" stroke="%s" stroke-width="%s" stroke-linejoin="round"%s><title>%s</title></path>`,
				d.String(), col, num(w), dashAttr(s.Dash), esc(s.Label))
		}
	}
	// Glyphs: at every point of a Points or Scatter series (thinned to
	// maxMarkers for a line), and a few along any other line so that it
	// reads without colour.
	var marks []pt
	switch {
	case s.Scatter:
		marks = dedupe(all)
	case s.Points && len(all) <= maxMarkers:
		marks = all
	default:
		k := 6
		if s.Points {
			k = maxMarkers
		}
		step := max(1, len(all)/k)
		for i := step / 2; i < len(all); i += step {
			marks = append(marks, all[i])
		}
	}
	if len(marks) > 0 {
		b.WriteString(`<g>`)
		for _, q := range marks {
			b.WriteString(glyph(s.Colour, q.x, q.y, col))
		}
		b.WriteString(`</g>`)
	}
}

// thin keeps, of each run of points in one pixel column, the first, the
// lowest, the highest and the last (in order): what the line shows.
func thin(ps []pt) []pt {
	if len(ps) < 64 {
		return ps
	}
	out := make([]pt, 0, 256)
	for i := 0; i < len(ps); {
		j := i
		col := math.Round(ps[i].x)
		lo, hi := i, i
		for j < len(ps) && math.Round(ps[j].x) == col {
			if ps[j].y < ps[lo].y {
				lo = j
			}
			if ps[j].y > ps[hi].y {
				hi = j
			}
			j++
		}
		keep := []int{i, lo, hi, j - 1}
		if lo > hi {
			keep[1], keep[2] = hi, lo
		}
		last := -1
		for _, k := range keep {
			if k != last {
				out = append(out, ps[k])
				last = k
			}
		}
		i = j
	}
	return out
}

// dedupe drops repeated positions (glyphs drawn on top of each other).
func dedupe(ps []pt) []pt {
	seen := make(map[pt]bool, len(ps))
	out := ps[:0:0]
	for _, q := range ps {
		if !seen[q] {
			seen[q] = true
			out = append(out, q)
		}
	}
	return out
}

// glyph draws colour's marker at (x, y): circle, square, triangle,
// diamond, down triangle, cross, plus, star, in plot's order of colours.
func glyph(colour int, x, y float64, col string) string {
	r := 3.5
	k := 0
	if colour >= 0 {
		k = colour % 8
		// Earlier colours' glyphs larger, for the same reason as style.
		r = max(2.5, 5-0.8*float64(colour%plot.PaletteSize()))
	}
	X, Y := num(x), num(y)
	switch k {
	case 0:
		return fmt.Sprintf(`<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, X, Y, num(r), col)
	case 1:
		return fmt.Sprintf(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, num(x-r), num(y-r), num(2*r), num(2*r), col)
	case 2:
		return fmt.Sprintf(`<path d="M%s %sL%s %sL%s %sZ" fill="%s"/>`, X, num(y-r-0.5), num(x+r), num(y+r), num(x-r), num(y+r), col)
	case 3:
		return fmt.Sprintf(`<path d="M%s %sL%s %sL%s %sL%s %sZ" fill="%s"/>`, X, num(y-r-0.5), num(x+r+0.5), Y, X, num(y+r+0.5), num(x-r-0.5), Y, col)
	case 4:
		return fmt.Sprintf(`<path d="M%s %sL%s %sL%s %sZ" fill="none" stroke="%s" stroke-width="1.5"/>`, X, num(y+r+0.5), num(x+r), num(y-r), num(x-r), num(y-r), col)
	case 5:
		return fmt.Sprintf(`<path d="M%s %sL%s %sM%s %sL%s %s" stroke="%s" stroke-width="2"/>`, num(x-r), num(y-r), num(x+r), num(y+r), num(x-r), num(y+r), num(x+r), num(y-r), col)
	case 6:
		return fmt.Sprintf(`<path d="M%s %sL%s %sM%s %sL%s %s" stroke="%s" stroke-width="2"/>`, num(x-r-0.5), Y, num(x+r+0.5), Y, X, num(y-r-0.5), X, num(y+r+0.5), col)
	default:
		return fmt.Sprintf(`<circle cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="1.5"/>`, X, Y, num(r), col)
	}
}

type tick struct {
	pos   float64 // axis units
	label string  // "" for a minor tick
}

// ticks are an axis' ticks: decades (and 2, 5 within a short range) on a
// log axis, 1-2-5 steps on a linear one.
func ticks(s span) []tick {
	var out []tick
	if s.log {
		lo, hi := int(math.Floor(s.lo)), int(math.Ceil(s.hi))
		if hi-lo > 12 { // a wide range: about ten labelled decades, no minor ticks
			stride := (hi - lo + 9) / 10
			for d := lo; d <= hi; d += stride {
				if t := float64(d); t >= s.lo-1e-9 && t <= s.hi+1e-9 {
					out = append(out, tick{t, label10(math.Pow(10, t))})
				}
			}
			return out
		}
		short := s.hi-s.lo < 1.5
		for d := lo; d <= hi; d++ {
			for _, m := range []float64{1, 2, 3, 4, 5, 6, 7, 8, 9} {
				v := m * math.Pow(10, float64(d))
				t := math.Log10(v)
				if t < s.lo-1e-9 || t > s.hi+1e-9 {
					continue
				}
				label := ""
				if m == 1 || short && (m == 2 || m == 5) {
					label = label10(v)
				}
				out = append(out, tick{t, label})
			}
		}
		// Less than two labels (a range inside a decade): label them all.
		labelled := 0
		for _, t := range out {
			if t.label != "" {
				labelled++
			}
		}
		if labelled < 2 {
			for i := range out {
				out[i].label = label10(math.Pow(10, out[i].pos))
			}
		}
		return out
	}
	step := niceStep((s.hi - s.lo) / 6)
	first := math.Ceil(s.lo/step - 1e-9)
	for i := 0.0; i < 50; i++ { // counted: a step lost in v's precision must not loop
		v := (first + i) * step
		if v > s.hi+step*1e-9 {
			break
		}
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		out = append(out, tick{v, label10(v)})
	}
	return out
}

func niceStep(raw float64) float64 {
	if raw <= 0 || math.IsNaN(raw) || math.IsInf(raw, 0) {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if raw <= m*e {
			return m * e
		}
	}
	return 10 * e
}

// label10 writes a tick value with at most 4 significant digits and no
// trailing zeros: 0.25, 120, 1e+06.
func label10(v float64) string {
	a := math.Abs(v)
	if a != 0 && (a >= 1e6 || a < 1e-3) {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	s := strconv.FormatFloat(v, 'f', 4, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// num writes a coordinate with at most one decimal.
func num(v float64) string { return strconv.FormatFloat(round1(v), 'f', -1, 64) }

func esc(s string) string { return html.EscapeString(s) }
