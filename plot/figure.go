// Package plot turns ccreplay run folders into figures: the FCT CDF, the
// slowdown per flow-size bucket, queue length over time per congested
// port, sending rate over time per flow and the MPI_Alltoall latency per
// message size (docs/PLOTS.md); and the figures of a `ccreplay validate`
// cross-check (Fidelity, from a fidelity.Report).
//
// Data preparation and drawing are separate. The data functions (FCTCDF,
// Slowdown, QueueOverTime, RateOverTime, AlltoallLatency) read the rows of
// loaded runs and return a Figure: plain series of numbers with their
// legend, units and axis choices, which tests check without looking at a
// picture. Render draws a Figure with gonum.org/v1/plot as PNG or SVG, and
// WriteFigure writes it atomically. The same runs and options always give
// the same Figure and byte-identical files.
package plot

import "fmt"

// Figure is one view, ready to draw: one or more panels stacked vertically
// that share the axis labels and scales.
type Figure struct {
	// Name is the file name without extension, e.g. "fct_cdf".
	Name string
	// Title is drawn above the panels.
	Title string
	// XLabel and YLabel name the axes with their units.
	XLabel, YLabel string
	// LogX and LogY select logarithmic axes; every value on a log axis is
	// > 0 (the data functions leave out the others).
	LogX, LogY bool
	// XTicks, when not nil, are the only x ticks (e.g. message sizes).
	XTicks []Tick
	// XFromZero and YFromZero make a linear axis start at 0 (time,
	// queue, rate).
	XFromZero, YFromZero bool
	// YMax, when > 0, is the top of the y axis (1 for a CDF).
	YMax float64
	// ShareY gives every panel the same y range (panels always share
	// the x range).
	ShareY bool
	// Step draws every series as a post-step line (a CDF's staircase).
	Step bool
	// Panels are drawn top to bottom.
	Panels []Panel
	// Notes say what the data functions left out or which source they
	// used, one sentence each, for the command to print.
	Notes []string
}

// Panel is one plot area with its series and legend.
type Panel struct {
	// Title is the panel's own title ("" for a single-panel figure).
	Title string
	// Series are drawn in order.
	Series []Series
	// Legend lists the legend entries, top to bottom.
	Legend []Key
}

// Series is one curve.
type Series struct {
	// Label identifies the curve (algorithm, seed, port or flow); tests
	// and notes use it, the legend comes from Panel.Legend.
	Label string
	// Colour is an index into the palette; -1 is black.
	Colour int
	// Dash is an index into the dash patterns (0 = solid).
	Dash int
	// Points draws a glyph at every point as well as the line.
	Points bool
	// Scatter draws the glyphs only, no line (X need not ascend).
	Scatter bool
	// X and Y are the points, in the axes' units, X ascending.
	X, Y []float64
	// Count, when not nil, is the number of samples behind each point
	// (flows in a size bucket, timed iterations of a message size).
	Count []int64
}

// Key is one legend entry.
type Key struct {
	// Label is the entry's text.
	Label string
	// Colour is an index into the palette; -1 is black.
	Colour int
	// Dash is an index into the dash patterns (0 = solid).
	Dash int
	// Points shows a glyph in the entry's thumbnail.
	Points bool
}

// Tick is one fixed axis tick; an empty Label is a minor tick.
type Tick struct {
	// Value is the tick's position in the axis' units.
	Value float64
	// Label is the text under it.
	Label string
}

// Skipped is returned by a data function when its view does not apply to
// the runs (no packets.parquet, no MPI_Alltoall workload, no finished
// flow). It is not a failure: the command reports it and goes on.
type Skipped struct {
	// View is the figure's Name.
	View string `json:"view"`
	// Reason says why, in one sentence.
	Reason string `json:"reason"`
}

func (s *Skipped) Error() string { return fmt.Sprintf("%s: skipped: %s", s.View, s.Reason) }

// skipf builds a *Skipped.
func skipf(view, format string, a ...any) error {
	return &Skipped{View: view, Reason: fmt.Sprintf(format, a...)}
}

// formatBytes writes a byte count exactly where a binary or decimal unit
// divides it (64KiB, 100KB), else rounded to about three digits (1.5KB,
// 786KB, 2.3MB), or as bytes.
func formatBytes(b int64) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", b>>30)
	case b >= 1e9 && b%1e9 == 0:
		return fmt.Sprintf("%dGB", b/1e9)
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", b>>20)
	case b >= 1e6 && b%1e6 == 0:
		return fmt.Sprintf("%dMB", b/1e6)
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", b>>10)
	case b >= 1e3 && b%1e3 == 0:
		return fmt.Sprintf("%dKB", b/1e3)
	case b >= 1e6:
		return fmt.Sprintf("%.1fMB", float64(b)/1e6)
	case b >= 1e5:
		return fmt.Sprintf("%.0fKB", float64(b)/1e3)
	case b >= 1e3:
		return fmt.Sprintf("%.1fKB", float64(b)/1e3)
	default:
		return fmt.Sprintf("%dB", b)
	}
}
