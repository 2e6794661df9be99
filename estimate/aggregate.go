package estimate

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// BucketMin and BucketSpread shape the size buckets of a link's delay
// distributions (Parsimon, Section 4.4): flows sorted by size are cut into
// buckets of at least BucketMin flows whose largest flow is at least
// BucketSpread times their smallest; what is left joins the last bucket.
const (
	BucketMin    = 100
	BucketSpread = 2
)

// Neighbours is how many flows of a size bucket, those nearest in
// backlog (Backlog), the draw of a flow that fits in its window chooses
// among (Delays.Sample).
const Neighbours = 10

// sample is one flow's size, bytes, its backlog at the link (see
// Backlog) and its delay per effective packet, ps (see NewDelays).
type sample struct {
	size   int64
	ctx    float64
	perPkt float64
}

// Delays is what link simulations tell about their flows: each flow's
// delay beyond its ideal in the link network (Own, ps, in the link's flow
// order; NaN for a flow that did not finish), and the same delays divided
// by the flows' packet counts, grouped by flow size and ordered by the
// flows' backlog within each size bucket.
type Delays struct {
	Own     []float64
	samples []sample // in the link's flow order (pooled: the parts' in turn)
	// upper[i] is the largest size, bytes, of bucket i (the last bucket
	// takes every larger size too); perPkt[i] its delays per packet, ps
	// (NaN for a flow that did not finish), by ascending backlog
	// ctx[i].
	upper  []int64
	perPkt [][]float64
	ctx    [][]float64
}

// NewDelays reads a link simulation's flow rows (replay.Result.Flows, in
// the link network's flow order), the flows' backlog at the link
// (Backlog; nil: all 0) and the window, packets, their delays are
// normalised with (NormWindow of the link's LinkWindow, one for every
// flow of the link; 0: none). A flow's delay is normalised by its effective
// packets, the larger of its packets and the window: a flow shorter than
// a window is sent in one round trip and meets the link's queue about
// once, so its delay does not grow with its length; a longer one is paced
// by its congestion control and its delay grows with its packets
// (Parsimon's per-packet normalisation).
func NewDelays(rows []v2.FlowRow, ctx []float64, win float64) *Delays {
	d := &Delays{Own: make([]float64, len(rows)), samples: make([]sample, len(rows))}
	for i, r := range rows {
		if r.FCTNs < 0 {
			d.Own[i] = math.NaN()
		} else {
			d.Own[i] = float64(max(r.FCTNs-r.IdealFCTNs, 0)) * 1000
		}
		c := 0.0
		if ctx != nil {
			c = ctx[i]
		}
		d.samples[i] = sample{r.SizeBytes, c, d.Own[i] / EffectivePackets(r.Packets, win)}
	}
	d.bucket()
	return d
}

// PoolDelays pools the flows of several link simulations (in the order
// given) into one set of size buckets; the result has no Own delays.
func PoolDelays(parts []*Delays) *Delays {
	if len(parts) == 1 {
		return &Delays{samples: parts[0].samples, upper: parts[0].upper, perPkt: parts[0].perPkt, ctx: parts[0].ctx}
	}
	d := &Delays{}
	for _, p := range parts {
		d.samples = append(d.samples, p.samples...)
	}
	d.bucket()
	return d
}

// bucket cuts d.samples, sorted by size (stably), into size buckets.
func (d *Delays) bucket() {
	s := slices.Clone(d.samples)
	slices.SortStableFunc(s, func(a, b sample) int { return cmp.Compare(a.size, b.size) })
	var cuts []int // end of each bucket in s
	lo := int64(-1)
	from := 0
	for n := range s {
		if lo < 0 {
			lo = s[n].size
		}
		last := n == len(s)-1
		nextDiffers := last || s[n+1].size != s[n].size
		if nextDiffers && n+1-from >= BucketMin && s[n].size >= BucketSpread*lo {
			d.upper, cuts = append(d.upper, s[n].size), append(cuts, n+1)
			from, lo = n+1, -1
		}
	}
	if from < len(s) {
		if len(cuts) == 0 {
			d.upper, cuts = append(d.upper, math.MaxInt64), append(cuts, len(s))
		} else {
			cuts[len(cuts)-1] = len(s)
		}
	}
	from = 0
	for _, to := range cuts {
		b := s[from:to]
		slices.SortStableFunc(b, func(a, b sample) int { return cmp.Compare(a.ctx, b.ctx) })
		pp, cc := make([]float64, len(b)), make([]float64, len(b))
		for i := range b {
			pp[i], cc[i] = b[i].perPkt, b[i].ctx
		}
		d.perPkt, d.ctx = append(d.perPkt, pp), append(d.ctx, cc)
		from = to
	}
}

// EffectivePackets is what a flow's delay at a link is normalised by: its
// packets, or its window there (packets in flight in one base RTT at the
// link's rate) when that is larger (see NewDelays).
func EffectivePackets(packets int64, window float64) float64 {
	return max(float64(max(packets, 1)), window)
}

// Window is the window at a link of rate bits per second for a round
// trip of rtt, packets: the packets of dataBytes on the wire in flight in
// one rtt at that rate.
func Window(rate units.BitsPerSec, rtt units.Time, dataBytes units.Bytes) float64 {
	return rtt.Seconds() * float64(rate) / 8 / float64(dataBytes)
}

// LinkWindow is the window of every flow at link l (features f), packets:
// the Window at its rate for its flows' mean base RTT. One value for the
// whole link, not each flow's own: at a given number of packets a flow's
// delay at a link does not depend on its own RTT (the 320-host fat-tree's
// host downlinks delay 4-8 packet flows of rack-local, pod-local and
// cross-pod paths alike, whose own windows differ 3x: docs/ESTIMATE.md),
// so a delay normalised by one flow's window and multiplied by another's
// was off by the ratio of their RTTs.
func LinkWindow(l *Link, f *Features, dataBytes units.Bytes) float64 {
	return Window(l.Rate, units.Time(f.RTT), dataBytes)
}

// NormWindow is the window a flow's delay at a link of kind k and window
// w (LinkWindow) is normalised with (EffectivePackets): w where the link
// leaves a switch (a FIFO queue, which a flow shorter than a window meets
// about once), 0 at a host's uplink, where the NIC serves its flows'
// packets in turn and a flow's delay grows with its packets whatever its
// length (the 320-host fat-tree's host uplinks: 25, 73, 192, 365 and 875
// ns on average for flows of 1, 2-3, 4-7, 8-15 and 16-31 packets,
// docs/ESTIMATE.md).
func NormWindow(k LinkKind, w float64) float64 {
	if k == HostUp {
		return 0
	}
	return w
}

// Sample draws a delay per effective packet, ps, for a flow of size bytes
// that met backlog ctx at its link, from the bucket holding that size
// (NaN when it drew an unfinished flow). A flow that fits in its window
// there (matched) goes out in about one round trip and is delayed by the
// work it finds at the link: it draws uniformly among the Neighbours
// flows of the bucket whose backlog was nearest ctx, and every other flow
// of the bucket tied with the farthest of them. A longer flow is paced by
// its congestion control over many round trips and is delayed by the
// traffic arriving during its life, which its arrival backlog does not
// tell (most long flows arrive at an idle link and are delayed all the
// same): it draws uniformly from the whole bucket (docs/ESTIMATE.md
// measures both).
func (d *Delays) Sample(size int64, ctx float64, matched bool, rng *rand.Rand) float64 {
	if len(d.perPkt) == 0 {
		return 0
	}
	b := sort.Search(len(d.upper), func(i int) bool { return d.upper[i] >= size })
	if b == len(d.upper) {
		b--
	}
	s, c := d.perPkt[b], d.ctx[b]
	if !matched {
		return s[rng.IntN(len(s))]
	}
	k := min(Neighbours, len(s))
	// The k nearest: grow a window [lo, hi) around ctx's place.
	hi := sort.SearchFloat64s(c, ctx)
	lo := hi
	for hi-lo < k {
		switch {
		case lo == 0:
			hi++
		case hi == len(c):
			lo--
		case ctx-c[lo-1] <= c[hi]-ctx:
			lo--
		default:
			hi++
		}
	}
	// Samples as near as the window's farthest are as good as those in
	// it: take them all. Without this, a query tied with many samples
	// (an idle link's flows all have backlog 0) drew from the same first
	// k of them, in size order, every time.
	for lo > 0 && c[lo-1] == c[lo] {
		lo--
	}
	for hi < len(c) && c[hi] == c[hi-1] {
		hi++
	}
	return s[lo+rng.IntN(hi-lo)]
}

// Buckets is the number of size buckets.
func (d *Delays) Buckets() int { return len(d.perPkt) }
