package plot

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// File names of the scale benchmark's figures (scripts/benchscale).
const (
	ScaleWallName   = "scale_wall"
	ScaleMemoryName = "scale_memory"
)

// ScalePoint is one measured run of the scale benchmark.
type ScalePoint struct {
	// Series is the grid dimension the point belongs to: "hosts", "load"
	// or "duration" (the one varied while the others stay fixed).
	Series string
	// Hosts is the number of hosts of the workload and topology.
	Hosts int
	// Load is the offered load, a fraction of the host links' capacity.
	Load float64
	// DurationMs is the window of flow arrivals, simulated ms.
	DurationMs float64
	// Flows is the number of flows the workload generated.
	Flows int64
	// PacketHops is the number of packet transmissions onto links, every
	// packet kind.
	PacketHops int64
	// WallS is the whole-process wall time, seconds.
	WallS float64
	// PeakRSSMiB is the process' peak resident memory, MiB; 0 when the
	// platform could not say.
	PeakRSSMiB float64
}

// scaleSeriesOrder is the order, and the colour index, of the known
// series; any other name follows them in order of first appearance.
var scaleSeriesOrder = []string{"hosts", "load", "duration"}

// scaleGroups splits points by Series: the known series first in
// scaleSeriesOrder, then the others as they first appear. colours gives
// each group's palette index (fixed for the known names, so a series has
// the same colour in every figure).
func scaleGroups(points []ScalePoint) (names []string, groups map[string][]ScalePoint, colours map[string]int) {
	groups = map[string][]ScalePoint{}
	var others []string
	for _, p := range points {
		if _, seen := groups[p.Series]; !seen && !slices.Contains(scaleSeriesOrder, p.Series) {
			others = append(others, p.Series)
		}
		groups[p.Series] = append(groups[p.Series], p)
	}
	colours = map[string]int{}
	for i, n := range scaleSeriesOrder {
		colours[n] = i
		if len(groups[n]) > 0 {
			names = append(names, n)
		}
	}
	for i, n := range others {
		colours[n] = len(scaleSeriesOrder) + i
		names = append(names, n)
	}
	return names, groups, colours
}

// scaleLabel describes a group of points from their values: the series'
// own dimension first, as a range ("hosts 16..4096", "1..16 ms" for the
// arrival window), then the dimensions the group holds fixed in
// parentheses ("(load 0.3, 1 ms)"). A dimension that is not the series'
// own but still varies is shown as a range too. NB: the labels stay
// short because Render clips a legend wider than 40% of the figure.
func scaleLabel(series string, ps []ScalePoint) string {
	var hosts, loads, durs []float64
	for _, p := range ps {
		hosts = append(hosts, float64(p.Hosts))
		loads = append(loads, p.Load)
		durs = append(durs, p.DurationMs)
	}
	rangeOf := func(vs []float64) (string, bool) {
		lo, hi := slices.Min(vs), slices.Max(vs)
		if lo == hi {
			return trimFloat(lo), false
		}
		return trimFloat(lo) + ".." + trimFloat(hi), true
	}
	type dim struct {
		name  string
		lead  func(v string) string // as the series' own dimension
		fixed func(v string) string // inside the parentheses
		vs    []float64
	}
	dims := []dim{
		{"hosts", func(v string) string { return "hosts " + v }, func(v string) string { return v + " hosts" }, hosts},
		{"load", func(v string) string { return "load " + v }, func(v string) string { return "load " + v }, loads},
		{"duration", func(v string) string { return v + " ms" }, func(v string) string { return v + " ms" }, durs},
	}
	head := series
	var rest []string
	for _, d := range dims {
		v, varies := rangeOf(d.vs)
		switch {
		case d.name == series:
			head = d.lead(v)
		case varies:
			rest = append(rest, d.lead(v))
		default:
			rest = append(rest, d.fixed(v))
		}
	}
	if len(rest) == 0 {
		return head
	}
	s := head + " ("
	for i, r := range rest {
		if i > 0 {
			s += ", "
		}
		s += r
	}
	return s + ")"
}

// pointName names a point in a note.
func (p ScalePoint) pointName() string {
	return fmt.Sprintf("%s point %d hosts, load %s, %s ms", p.Series, p.Hosts, trimFloat(p.Load), trimFloat(p.DurationMs))
}

// positive is true for a finite value > 0.
func positive(v float64) bool { return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

// median of vs (the mean of the middle two for an even count); vs is
// sorted in place.
func median(vs []float64) float64 {
	sort.Float64s(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2]
	}
	return (vs[n/2-1] + vs[n/2]) / 2
}

// formatPerHop writes a time per packet-hop in ns: whole ns from 100 up,
// else three significant digits.
func formatPerHop(ns float64) string {
	if ns >= 100 {
		return fmt.Sprintf("%.0f", ns)
	}
	return fmt.Sprintf("%.3g", ns)
}

// ScaleWall is the cost of a replay against the work it does: x =
// packet-hops, y = whole-process wall seconds, both logarithmic. Each
// series of the grid is one line with a glyph per point, sorted by
// packet-hops, in the order hosts, load, duration (colours 0, 1, 2), its
// legend built from the points' values. A black dashed line y = k·x, k
// the median over all points of the wall time per packet-hop, shows where
// the points would lie if the cost were exactly linear in packet-hops.
// Points without packet-hops or wall time cannot sit on a log axis: they
// are left out with a note, and with none left ScaleWall fails.
func ScaleWall(points []ScalePoint) (Figure, error) {
	if len(points) == 0 {
		return Figure{}, fmt.Errorf("plot: %s: no points", ScaleWallName)
	}
	fig := Figure{Name: ScaleWallName, Title: "Cost against scale",
		XLabel: "packet-hops", YLabel: "wall time (s)", LogX: true, LogY: true}
	var kept []ScalePoint
	for _, p := range points {
		if p.PacketHops <= 0 || !positive(p.WallS) {
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: left out %s: %d packet-hops, wall %g s (a log axis needs both > 0)",
				ScaleWallName, p.pointName(), p.PacketHops, p.WallS))
			continue
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 {
		return Figure{}, fmt.Errorf("plot: %s: no point with packet-hops and wall time > 0", ScaleWallName)
	}

	names, groups, colours := scaleGroups(kept)
	panel := Panel{}
	for _, n := range names {
		ps := slices.Clone(groups[n])
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].PacketHops < ps[j].PacketHops })
		s := Series{Label: scaleLabel(n, ps), Colour: colours[n], Points: true}
		for _, p := range ps {
			s.X = append(s.X, float64(p.PacketHops))
			s.Y = append(s.Y, p.WallS)
		}
		panel.Series = append(panel.Series, s)
		panel.Legend = append(panel.Legend, Key{Label: s.Label, Colour: s.Colour, Points: true})
	}

	// The reference line through the median cost per packet-hop, across
	// the whole x range of the kept points.
	perHop := make([]float64, len(kept))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, p := range kept {
		x := float64(p.PacketHops)
		perHop[i] = p.WallS * 1e9 / x
		lo, hi = min(lo, x), max(hi, x)
	}
	ns := median(perHop)
	ref := Series{Label: "linear: " + formatPerHop(ns) + " ns per packet-hop", Colour: -1, Dash: 1,
		X: []float64{lo, hi}, Y: []float64{lo * ns / 1e9, hi * ns / 1e9}}
	panel.Series = append(panel.Series, ref)
	panel.Legend = append(panel.Legend, Key{Label: ref.Label, Colour: -1, Dash: 1})
	fig.Panels = []Panel{panel}
	fig.Notes = append(fig.Notes,
		fmt.Sprintf("%s: wall time is the whole ccreplay process (start-up, workload, topology, replay, outputs), timed from outside", ScaleWallName),
		fmt.Sprintf("%s: the dashed line is the median of %d points' wall time per packet-hop, %s ns", ScaleWallName, len(kept), formatPerHop(ns)))
	return fig, nil
}

// ScaleMemory is peak memory against simulated time: x = the window of
// flow arrivals in ms, y = peak RSS in MiB, both from 0, for the points of
// the "duration" series (hosts and load fixed), with each point's flows in
// Count. A flat curve says memory does not grow with simulated time. It
// is skipped without a duration series or when no point's peak RSS is
// known (> 0); points with an unknown one are left out with a note.
func ScaleMemory(points []ScalePoint) (Figure, error) {
	if len(points) == 0 {
		return Figure{}, fmt.Errorf("plot: %s: no points", ScaleMemoryName)
	}
	var ps []ScalePoint
	for _, p := range points {
		if p.Series == "duration" {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return Figure{}, skipf(ScaleMemoryName, "no point of the duration series")
	}
	fig := Figure{Name: ScaleMemoryName, Title: "Peak memory against simulated time",
		XLabel: "window of flow arrivals (simulated ms)", YLabel: "peak RSS (MiB)", XFromZero: true, YFromZero: true}
	var kept []ScalePoint
	for _, p := range ps {
		if !positive(p.PeakRSSMiB) || math.IsNaN(p.DurationMs) || math.IsInf(p.DurationMs, 0) {
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: left out %s: peak RSS unknown", ScaleMemoryName, p.pointName()))
			continue
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 {
		return Figure{}, skipf(ScaleMemoryName, "the peak RSS of no duration point is known")
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].DurationMs < kept[j].DurationMs })
	_, _, colours := scaleGroups(kept)
	s := Series{Label: scaleLabel("duration", kept), Colour: colours["duration"], Points: true}
	for _, p := range kept {
		s.X = append(s.X, p.DurationMs)
		s.Y = append(s.Y, p.PeakRSSMiB)
		s.Count = append(s.Count, p.Flows)
	}
	fig.Panels = []Panel{{Series: []Series{s}, Legend: []Key{{Label: s.Label, Colour: s.Colour, Points: true}}}}
	fig.Notes = append(fig.Notes, fmt.Sprintf("%s: peak RSS is the whole ccreplay process' maximum resident set", ScaleMemoryName))
	if slope, ok := lsqSlope(s.X, s.Y); ok {
		fig.Notes = append(fig.Notes, fmt.Sprintf("%s: least-squares slope %.3g MiB per simulated ms", ScaleMemoryName, slope))
	}
	return fig, nil
}

// lsqSlope is the least-squares slope of y against x; false with fewer
// than two distinct x.
func lsqSlope(x, y []float64) (float64, bool) {
	n := float64(len(x))
	var sx, sy float64
	for i := range x {
		sx, sy = sx+x[i], sy+y[i]
	}
	mx, my := sx/n, sy/n
	var sxy, sxx float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
	}
	if len(x) < 2 || sxx == 0 {
		return 0, false
	}
	return sxy / sxx, true
}
