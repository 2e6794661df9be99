package estimate

import (
	"cmp"
	"math"
	"slices"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultTolerance is the clustering tolerance when none is given: links
// whose offered load, senders and mean base RTT differ by up to this
// fraction (relative) share a cluster (docs/ESTIMATE.md measures it).
const DefaultTolerance = 0.5

// DefaultPoolFlows is about how many flows a cluster's link simulations
// hold together when none is given (Options.PoolFlows).
const DefaultPoolFlows = 500

// Features are what clustering compares between two links: what shapes a
// link's queue. The link network's shape (kind, rate, delay) must match;
// the offered load, the number of distinct senders (how many NICs can
// burst into the queue at once) and the flows' mean base RTT (how fast the
// algorithm reacts) must be near. Parsimon (Section 4.3) also compares the
// links' flow-size and inter-arrival distributions; with the tens of flows
// a link carries in a few milliseconds those are mostly sampling noise
// (one heavy-tailed flow moves every upper quantile), so instead every
// cluster pools the flows of several of its links and a flow draws its
// delay from flows of its own size (Delays).
type Features struct {
	Kind    LinkKind
	Rate    units.BitsPerSec
	Delay   units.Time
	Load    float64 // offered load: payload bits / (rate x the trace's arrival span)
	Flows   float64 // number of flows
	Senders float64 // distinct source hosts
	RTT     float64 // mean base RTT of its flows, ps
}

// LinkFeatures computes l's features; rtt is each flow's base RTT on its
// path (pathRTT, by flow index), span the trace's arrival span (first to
// last release), picoseconds.
func LinkFeatures(l *Link, flows []replay.FlowPath, rtt []units.Time, span units.Time) Features {
	f := Features{Kind: l.Kind, Rate: l.Rate, Delay: l.Delay, Flows: float64(len(l.Flows)), Load: OfferedLoad(l, span)}
	srcs := make([]int32, len(l.Flows))
	var sum float64
	for i, fi := range l.Flows {
		srcs[i] = flows[fi].Src
		sum += float64(rtt[fi])
	}
	slices.Sort(srcs)
	f.Senders = float64(len(slices.Compact(srcs)))
	f.RTT = sum / float64(len(l.Flows))
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

// Similar reports whether links with features a and b may share a
// cluster at tolerance tol: the same kind, rate and delay (so the same
// link network shape), and load, senders and RTT within tol, relative.
func Similar(a, b *Features, tol float64) bool {
	return a.Kind == b.Kind && a.Rate == b.Rate && a.Delay == b.Delay &&
		near(a.Load, b.Load, tol) && near(a.Senders, b.Senders, tol) && near(a.RTT, b.RTT, tol)
}

// Clusters is a clustering of links and the links simulated for it.
type Clusters struct {
	// Of is each link's cluster; clusters are numbered in the order of
	// their first link.
	Of []int32
	// Pool lists, per cluster, the links simulated for it, ascending: the
	// cluster's delay distributions pool their flows.
	Pool [][]int32
	// Rep is, per link, the simulated link standing for it in
	// links.parquet: itself when simulated, else the member of its
	// cluster's pool nearest to it in load (the lowest index on ties).
	Rep []int32
}

// Cluster groups links and picks the links simulated for each group.
//
// Greedy, in order of decreasing offered load (then link order): the
// first link not yet in a cluster opens one and takes every later
// unclustered link Similar to it, so a cluster spans loads from its
// first link's down to (1 - tol) times it. tol < 0 puts every link in a
// cluster of its own (everything simulated).
//
// Links of the kinds in every (Options.SimulateEvery) are each a cluster
// of their own, so every one of them is simulated.
//
// Each cluster then simulates enough of its links, spread evenly over
// its range of load, that together they carry about poolFlows flows (one
// link when poolFlows < 1; every link when the cluster has fewer flows):
// k = ceil(poolFlows x members / cluster flows) links, the
// members at ranks (m + 1/2) x members / k, m = 0..k-1, of the cluster
// sorted by decreasing load.
func Cluster(feats []Features, tol float64, poolFlows int, every ...LinkKind) Clusters {
	n := len(feats)
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(feats[b].Load, feats[a].Load) })
	of := make([]int32, n)
	for i := range of {
		of[i] = -1
	}
	var members [][]int32 // per cluster (numbered as found), by decreasing load
	for x, i := range order {
		if of[i] >= 0 {
			continue
		}
		c := int32(len(members))
		of[i] = c
		m := []int32{i}
		if tol >= 0 && !slices.Contains(every, feats[i].Kind) {
			for _, j := range order[x+1:] {
				if of[j] < 0 && Similar(&feats[i], &feats[j], tol) {
					of[j] = c
					m = append(m, j)
				}
			}
		}
		members = append(members, m)
	}
	// Renumber clusters by their first link.
	first := make([]int32, len(members))
	for c, m := range members {
		first[c] = slices.Min(m)
	}
	byFirst := make([]int32, len(members))
	for c := range byFirst {
		byFirst[c] = int32(c)
	}
	slices.SortFunc(byFirst, func(a, b int32) int { return cmp.Compare(first[a], first[b]) })
	renum := make([]int32, len(members))
	for newC, oldC := range byFirst {
		renum[oldC] = int32(newC)
	}
	cl := Clusters{Of: make([]int32, n), Pool: make([][]int32, len(members)), Rep: make([]int32, n)}
	for i := range of {
		cl.Of[i] = renum[of[i]]
	}
	for oldC, m := range members {
		pool := pick(m, feats, poolFlows)
		slices.Sort(pool)
		cl.Pool[renum[oldC]] = pool
		for _, i := range m {
			if _, in := slices.BinarySearch(pool, i); in {
				cl.Rep[i] = i
				continue
			}
			best := pool[0]
			for _, p := range pool[1:] {
				if math.Abs(feats[p].Load-feats[i].Load) < math.Abs(feats[best].Load-feats[i].Load) {
					best = p
				}
			}
			cl.Rep[i] = best
		}
	}
	return cl
}

// pick chooses the members of a cluster (by decreasing load) simulated for
// it (see Cluster).
func pick(m []int32, feats []Features, poolFlows int) []int32 {
	total := 0.0
	for _, i := range m {
		total += feats[i].Flows
	}
	k := 1
	if poolFlows > 0 && total > 0 {
		k = min(len(m), max(1, int(math.Ceil(float64(poolFlows)*float64(len(m))/total))))
	}
	out := make([]int32, k)
	for x := range k {
		out[x] = m[int((float64(x)+0.5)*float64(len(m))/float64(k))]
	}
	return out
}
