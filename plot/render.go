package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/ccreplay/ccreplay/output"
)

// Figure geometry.
const (
	// Width is the width of every figure, 6 inches.
	Width = 6 * vg.Inch
	// Height is the height of a single-panel figure, 4 inches.
	Height = 4 * vg.Inch
	// PanelHeight is the height of each panel of a multi-panel figure.
	PanelHeight = 2.4 * vg.Inch
	// DPI is the resolution of PNG files, dots per inch (6x4 in = 900x600
	// pixels).
	DPI = 150
)

// Formats are the output formats Render knows.
var Formats = []string{"png", "svg"}

// palette is the Okabe-Ito colour-blind-safe palette (yellow left out:
// unreadable on white), then a few darker extras.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x55, 0x55, 0x55, 0xFF}, // grey
	{0x88, 0x22, 0x55, 0xFF}, // wine
	{0x33, 0x66, 0x00, 0xFF}, // olive
}

// dashes are the dash patterns by index: solid, dashed, dotted,
// dash-dot.
var dashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(1.5), vg.Points(2)},
	{vg.Points(6), vg.Points(2), vg.Points(1.5), vg.Points(2)},
}

// sans is the typeface of every text (PNG embeds it; SVG names it).
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

func colourOf(i int) color.Color {
	if i < 0 {
		return color.Black
	}
	return palette[i%len(palette)]
}

// lineStyle is a curve's line. NB: later colours are drawn thinner (and
// their glyphs smaller) so that identical curves, drawn in colour order,
// still show the earlier ones around the later ones.
func lineStyle(colour, dash int) draw.LineStyle {
	w := 1.6
	if colour >= 0 {
		w = max(1.1, 2.6-0.35*float64(colour%len(palette)))
	}
	return draw.LineStyle{Color: colourOf(colour), Width: vg.Points(w), Dashes: dashes[dash%len(dashes)]}
}

// shapes are the point glyphs by colour index, so that curves drawn on
// top of each other still show each algorithm's points.
var shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{},
	draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
}

func glyphStyle(colour int) draw.GlyphStyle {
	shape, r := shapes[0], 2.5
	if colour >= 0 {
		shape, r = shapes[colour%len(shapes)], max(1.8, 3.6-0.5*float64(colour%len(palette)))
	}
	return draw.GlyphStyle{Color: colourOf(colour), Radius: vg.Points(r), Shape: shape}
}

// keyThumb draws a legend entry's thumbnail: a line and maybe a glyph.
type keyThumb struct {
	line  draw.LineStyle
	glyph *draw.GlyphStyle
}

func (k keyThumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(k.line, c.Min.X, y, c.Max.X, y)
	if k.glyph != nil {
		c.DrawGlyph(*k.glyph, c.Center())
	}
}

// Render draws fig as format ("png" or "svg"): 6 in wide, 4 in tall with
// one panel or 2.4 in per panel with several, PNG at 150 dpi, legends in a
// column on the right of each panel so they never hide data.
func Render(fig Figure, format string) (out []byte, err error) {
	if len(fig.Panels) == 0 {
		return nil, fmt.Errorf("plot: figure %s has no panel", fig.Name)
	}
	// NB: gonum/plot panics on data it cannot draw (a value <= 0 on a log
	// axis); the data functions never produce one, this turns a bug into
	// an error instead of a crash.
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("plot: drawing %s: %v", fig.Name, p)
		}
	}()
	h := Height
	if len(fig.Panels) > 1 {
		h = 0.45*vg.Inch + PanelHeight*vg.Length(len(fig.Panels))
	}
	var cw vg.CanvasWriterTo
	switch format {
	case "png":
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(Width, h), vgimg.UseDPI(DPI), vgimg.UseBackgroundColor(color.White))}
	case "svg":
		cw = vgsvg.New(Width, h)
	default:
		return nil, fmt.Errorf("plot: unknown format %q (want %s)", format, strings.Join(Formats, " or "))
	}
	dc := draw.New(cw)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())

	// Panels share the x range, and the y range when fig.ShareY.
	var all []Series
	for _, p := range fig.Panels {
		all = append(all, p.Series...)
	}
	xr, yAll := dataRange(all)
	plots := make([]*gplot.Plot, len(fig.Panels))
	for i, p := range fig.Panels {
		_, yr := dataRange(p.Series)
		if fig.ShareY {
			yr = yAll
		}
		if plots[i], err = panelPlot(&fig, i, xr, yr); err != nil {
			return nil, err
		}
	}
	legends := make([]gplot.Legend, len(fig.Panels))
	var legendW vg.Length
	for i, p := range fig.Panels {
		legends[i] = legendOf(p.Legend)
		if len(p.Legend) > 0 {
			legendW = max(legendW, legends[i].Rectangle(dc).Size().X+vg.Points(10))
		}
	}
	legendW = min(legendW, Width*0.4)

	area := draw.Crop(dc, vg.Points(4), -legendW-vg.Points(12), vg.Points(4), -vg.Points(6))
	var canvases []draw.Canvas
	if len(plots) == 1 {
		canvases = []draw.Canvas{area}
	} else {
		ts := textStyle(12)
		ts.XAlign, ts.YAlign = draw.XCenter, draw.YTop
		dc.FillText(ts, vg.Point{X: area.Center().X, Y: area.Max.Y}, fig.Title)
		area.Max.Y -= ts.Rectangle(fig.Title).Size().Y + vg.Points(6)
		col := make([][]*gplot.Plot, len(plots))
		for i, p := range plots {
			col[i] = []*gplot.Plot{p}
		}
		tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(8)}
		for _, row := range gplot.Align(col, tiles, area) {
			canvases = append(canvases, row[0])
		}
	}
	for i, p := range plots {
		p.Draw(canvases[i])
		if len(fig.Panels[i].Legend) == 0 {
			continue
		}
		c := canvases[i]
		strip := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: dc.Max.X - legendW, Y: c.Min.Y},
			Max: vg.Point{X: dc.Max.X - vg.Points(4), Y: c.Max.Y - vg.Points(18)},
		}}
		legends[i].Draw(strip)
	}
	var buf bytes.Buffer
	if _, err := cw.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plot: writing %s as %s: %w", fig.Name, format, err)
	}
	return buf.Bytes(), nil
}

func textStyle(size vg.Length) text.Style {
	return text.Style{Color: color.Black, Font: font.From(sans, size), Handler: gplot.DefaultTextHandler}
}

// legendOf builds the legend of a panel, anchored top left of its strip.
func legendOf(keys []Key) gplot.Legend {
	l := gplot.NewLegend()
	l.TextStyle = textStyle(9)
	l.Top, l.Left = true, true
	l.ThumbnailWidth = vg.Points(22)
	l.Padding = vg.Points(2)
	for _, k := range keys {
		t := keyThumb{line: lineStyle(k.Colour, k.Dash)}
		if k.Points {
			g := glyphStyle(k.Colour)
			t.glyph = &g
		}
		l.Add(k.Label, t)
	}
	return l
}

// span is a range of data values.
type span struct{ lo, hi float64 }

// dataRange is the range of the finite x and y values of ss, [1, 10] on
// an axis without any.
func dataRange(ss []Series) (x, y span) {
	x, y = span{math.Inf(1), math.Inf(-1)}, span{math.Inf(1), math.Inf(-1)}
	for _, s := range ss {
		for k := range min(len(s.X), len(s.Y)) {
			if v := s.X[k]; !math.IsNaN(v) && !math.IsInf(v, 0) {
				x = span{min(x.lo, v), max(x.hi, v)}
			}
			if v := s.Y[k]; !math.IsNaN(v) && !math.IsInf(v, 0) {
				y = span{min(y.lo, v), max(y.hi, v)}
			}
		}
	}
	if x.lo > x.hi {
		x = span{1, 10}
	}
	if y.lo > y.hi {
		y = span{1, 10}
	}
	return x, y
}

// panelPlot builds the gonum plot of panel i over the ranges xr and yr:
// axes, grid, series.
func panelPlot(fig *Figure, i int, xr, yr span) (*gplot.Plot, error) {
	panel := fig.Panels[i]
	p := gplot.New()
	p.Title.TextStyle.Font = font.From(sans, 11)
	p.Title.Padding = vg.Points(4)
	if len(fig.Panels) == 1 {
		p.Title.Text = fig.Title
	} else {
		p.Title.Text = panel.Title
	}
	for _, ax := range []*gplot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(sans, 10)
		ax.Tick.Label.Font = font.From(sans, 9)
		ax.Tick.Length = vg.Points(5)
	}
	if i == len(fig.Panels)-1 {
		p.X.Label.Text = fig.XLabel
	}
	p.Y.Label.Text = fig.YLabel
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 0xDD}
	grid.Horizontal.Color = color.Gray{Y: 0xDD}
	p.Add(grid)

	for _, s := range panel.Series {
		if len(s.X) == 0 || len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("plot: %s: series %q has %d x and %d y values", fig.Name, s.Label, len(s.X), len(s.Y))
		}
		xys := make(plotter.XYs, len(s.X))
		for k := range s.X {
			x, y := s.X[k], s.Y[k]
			if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) ||
				(fig.LogX && x <= 0) || (fig.LogY && y <= 0) {
				return nil, fmt.Errorf("plot: %s: series %q point %d (%g, %g) cannot be drawn", fig.Name, s.Label, k, x, y)
			}
			// NB: a log axis is drawn as log10 of the values on a linear
			// scale with ticks at the values' positions: gonum's LogScale
			// panics on values <= 0 and lays a log axis' label out at
			// the arithmetic middle of its range, which skews the plot.
			if fig.LogX {
				x = math.Log10(x)
			}
			if fig.LogY {
				y = math.Log10(y)
			}
			xys[k] = plotter.XY{X: x, Y: y}
		}
		if !s.Scatter {
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, fmt.Errorf("plot: %s: series %q: %v", fig.Name, s.Label, err)
			}
			l.LineStyle = lineStyle(s.Colour, s.Dash)
			if fig.Step {
				l.StepStyle = plotter.PostStep
			}
			p.Add(l)
		}
		if s.Points || s.Scatter {
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, fmt.Errorf("plot: %s: series %q: %v", fig.Name, s.Label, err)
			}
			sc.GlyphStyle = glyphStyle(s.Colour)
			if s.Scatter { // many points: small, all alike
				sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = draw.CircleGlyph{}, vg.Points(1.4)
			}
			p.Add(sc)
		}
	}
	setRange(&p.X, xr.lo, xr.hi, fig.LogX, fig.XFromZero, 0)
	setRange(&p.Y, yr.lo, yr.hi, fig.LogY, fig.YFromZero || fig.YMax > 0, fig.YMax)
	if fig.XTicks != nil {
		ts := make(gplot.ConstantTicks, len(fig.XTicks))
		for k, t := range fig.XTicks {
			ts[k] = gplot.Tick{Value: t.Value, Label: t.Label}
			if fig.LogX {
				ts[k].Value = math.Log10(t.Value)
			}
		}
		p.X.Tick.Marker = ts
		if !fig.LogX { // bucket numbers: a little room on both sides
			p.X.Min, p.X.Max = min(p.X.Min, fig.XTicks[0].Value-0.5), max(p.X.Max, fig.XTicks[len(fig.XTicks)-1].Value+0.5)
		}
	}
	return p, nil
}

// setRange fixes an axis' range: log axes get whole or half decades
// around the data and readable tick labels; fromZero starts a linear axis
// at 0; top > 0 is the top of the axis.
func setRange(a *gplot.Axis, lo, hi float64, log, fromZero bool, top float64) {
	if log {
		if lo == hi {
			lo, hi = lo/2, hi*2
		}
		a.Tick.Marker = logTicks{}
		a.Min, a.Max = math.Log10(lo/1.15), math.Log10(hi*1.15)
		return
	}
	a.Tick.Marker = linearTicks{}
	if fromZero {
		lo = min(lo, 0)
	}
	if top > 0 {
		hi = top
	}
	if lo == hi {
		hi = lo + 1
	}
	a.Min, a.Max = lo, hi
}

// logTicks ticks an axis that holds log10 of the values: labels at 1,
// 10, 100, ... (and 2 and 5 times them when the axis spans less than two
// decades), minor ticks at the other multiples, all placed at log10 of
// the value.
type logTicks struct{}

func (logTicks) Ticks(llo, lhi float64) []gplot.Tick {
	lo, hi := math.Pow(10, llo), math.Pow(10, lhi)
	var ticks []gplot.Tick
	fine, labels := hi/lo < 100, 0
	for e := math.Floor(llo); e <= math.Ceil(lhi); e++ {
		base := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := base * float64(m)
			if v < lo || v > hi {
				continue
			}
			t := gplot.Tick{Value: math.Log10(v)}
			if m == 1 || (fine && (m == 2 || m == 5)) {
				t.Label = formatNumber(v)
				labels++
			}
			ticks = append(ticks, t)
		}
	}
	if labels < 2 {
		// Less than a decade: evenly spaced values label it better.
		ticks = linearTicks{}.Ticks(lo, hi)
		for i := range ticks {
			ticks[i].Value = math.Log10(ticks[i].Value)
		}
	}
	return ticks
}

// linearTicks labels about five round values (1, 2 or 5 times a power of
// ten apart) with a minor tick half way.
type linearTicks struct{}

func (linearTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(hi > lo) {
		return gplot.DefaultTicks{}.Ticks(lo, hi)
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ticks []gplot.Tick
	half := step / 2
	first := math.Ceil(lo/half) * half
	for i := 0; ; i++ {
		v := first + float64(i)*half
		if v > hi+half*1e-9 {
			break
		}
		if math.Abs(v) < half*1e-9 {
			v = 0
		}
		t := gplot.Tick{Value: v}
		if r := v / step; math.Abs(r-math.Round(r)) < 1e-9 {
			t.Label = formatNumber(v)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// formatNumber writes a tick value: 0.01, 0.5, 3, 20, 1k, 50k, 2M.
func formatNumber(v float64) string {
	switch {
	case v >= 1e9:
		return trimFloat(v/1e9) + "G"
	case v >= 1e6:
		return trimFloat(v/1e6) + "M"
	case v >= 1e4:
		return trimFloat(v/1e3) + "k"
	default:
		return trimFloat(v)
	}
}

func trimFloat(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.6f", v), "0"), ".")
}

// WriteFigure renders fig in each format and writes DIR/NAME.FORMAT
// atomically (a temporary file in dir, synced, then renamed), returning
// the paths written in order.
func WriteFigure(dir string, fig Figure, formats []string) ([]string, error) {
	var paths []string
	for _, f := range formats {
		b, err := Render(fig, f)
		if err != nil {
			return paths, err
		}
		p := filepath.Join(dir, fig.Name+"."+f)
		if err := output.WriteFileAtomic(p, b); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
