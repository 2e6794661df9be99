package estimate

import (
	"math"
	"slices"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultTolerance is the clustering tolerance when none is given: two
// links' features may differ by up to 10 % (relative) to share one
// simulation.
const DefaultTolerance = 0.1

// sizeQuantiles are the flow-size quantiles compared between links.
var sizeQuantiles = [...]float64{0.25, 0.5, 0.75, 0.9, 0.99}

// Features are what clustering compares between two links: what shapes a
// link's queue (Parsimon, Section 4.3, compares flow-size and
// inter-arrival distributions and load; we add the senders and the RTT,
// which set how bursty arrivals are and how fast the algorithm reacts).
type Features struct {
	Kind    LinkKind
	Rate    units.BitsPerSec
	Delay   units.Time
	Load    float64 // offered load: payload bits / (rate x the trace's arrival span)
	Flows   float64 // number of flows
	Senders float64 // distinct source hosts
	RTT     float64 // mean base RTT of its flows, ps
	Sizes   [len(sizeQuantiles)]float64
}

// LinkFeatures computes l's features; span is the trace's arrival span
// (first to last release), picoseconds.
func LinkFeatures(l *Link, flows []replay.FlowPath, span units.Time, w wire) Features {
	f := Features{Kind: l.Kind, Rate: l.Rate, Delay: l.Delay, Flows: float64(len(l.Flows)), Load: OfferedLoad(l, span)}
	senders := map[int32]bool{}
	sizes := make([]float64, len(l.Flows))
	var rtt float64
	for i, fi := range l.Flows {
		fl := &flows[fi]
		senders[fl.Src] = true
		sizes[i] = float64(fl.Size)
		rtt += float64(pathRTT(fl, w))
	}
	f.Senders = float64(len(senders))
	f.RTT = rtt / float64(len(l.Flows))
	slices.Sort(sizes)
	for i, q := range sizeQuantiles {
		f.Sizes[i] = sizes[max(int(math.Ceil(q*float64(len(sizes))))-1, 0)]
	}
	return f
}

// OfferedLoad is the payload bits crossing l over its capacity during span.
func OfferedLoad(l *Link, span units.Time) float64 {
	if span <= 0 || l.Rate <= 0 {
		return 0
	}
	return float64(l.Bytes) * 8 / (float64(l.Rate) * span.Seconds())
}

// near reports whether |a-b| <= tol x max(|a|,|b|).
func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// Similar reports whether links with features a and b may share one
// simulation at tolerance tol: the same kind, rate and delay (so the same
// link network shape), and every other feature within tol, relative.
func Similar(a, b *Features, tol float64) bool {
	if a.Kind != b.Kind || a.Rate != b.Rate || a.Delay != b.Delay {
		return false
	}
	if !near(a.Load, b.Load, tol) || !near(a.Flows, b.Flows, tol) || !near(a.Senders, b.Senders, tol) || !near(a.RTT, b.RTT, tol) {
		return false
	}
	for i := range a.Sizes {
		if !near(a.Sizes[i], b.Sizes[i], tol) {
			return false
		}
	}
	return true
}

// Cluster assigns each link a representative: rep[i] is the index of the
// link whose simulation stands for link i (rep[i] == i for the links
// simulated). Greedy, in link order: the first link not yet represented
// becomes a representative of every later unrepresented link similar to
// it. tol < 0 simulates every link.
func Cluster(feats []Features, tol float64) []int32 {
	rep := make([]int32, len(feats))
	for i := range rep {
		rep[i] = -1
	}
	for i := range feats {
		if rep[i] >= 0 {
			continue
		}
		rep[i] = int32(i)
		if tol < 0 {
			continue
		}
		for j := i + 1; j < len(feats); j++ {
			if rep[j] < 0 && Similar(&feats[i], &feats[j], tol) {
				rep[j] = int32(i)
			}
		}
	}
	return rep
}
