package estimate

import (
	"cmp"
	"slices"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/units"
)

// Contention computes, for each flow crossing l (in l.Flows order), the
// load the link's other flows offer while it is active: each flow g is
// taken to send its bytes evenly over [start, start + ideal[g]] (ideal
// holds every flow's ideal FCT, picoseconds), and a flow's contention is
// the bytes the others send within its own interval over what l carries in
// that interval. A flow arriving at a link busy with two line-rate flows
// has contention about 2; one alone, 0.
//
// It is what a represented link's flow is matched on in its cluster's
// pooled delays (Delays.Sample): a flow's delay at a link depends on its
// size and on the traffic that meets it there, which the link's average
// load does not tell.
func Contention(l *Link, flows []replay.FlowPath, ideal []units.Time) []float64 {
	n := len(l.Flows)
	out := make([]float64, n)
	if n == 0 || l.Rate <= 0 {
		return out
	}
	order := make([]int, n)
	var maxD units.Time
	for k := range order {
		order[k] = k
		maxD = max(maxD, ideal[l.Flows[k]])
	}
	start := func(k int) units.Time { return flows[l.Flows[k]].Start }
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(start(a), start(b)) })
	bytesPerPs := float64(l.Rate) / 8 / float64(units.Second)
	for x, k := range order {
		fi := l.Flows[k]
		s, d := start(k), max(ideal[fi], 1)
		e := s + d
		sum := 0.0
		add := func(j int) {
			g := l.Flows[j]
			gs, gd := flows[g].Start, max(ideal[g], 1)
			lo, hi := max(s, gs), min(e, gs+gd)
			if hi > lo {
				sum += float64(flows[g].Size) * float64(hi-lo) / float64(gd)
			}
		}
		for y := x - 1; y >= 0 && start(order[y]) > s-maxD; y-- {
			add(order[y])
		}
		for y := x + 1; y < n && start(order[y]) < e; y++ {
			add(order[y])
		}
		out[k] = sum / (bytesPerPs * float64(d))
	}
	return out
}
