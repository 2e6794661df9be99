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
	nic    float64 // its pacing to its NIC share: NICDelay over its ideal (0: not paced)
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
	// paced says whether any flow has a pacing ratio (NewPacedDelays);
	// byNIC[i] and nic[i] are then bucket i's delays per packet and
	// pacing ratios by ascending ratio.
	paced bool
	byNIC [][]float64
	nic   [][]float64
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
	return NewPacedDelays(rows, ctx, nil, win)
}

// NewPacedDelays is NewDelays with each flow's pacing ratio (nic, in the
// rows' order: its NICDelay over its ideal FCT under SenderNICsShares; nil:
// none paced), which the draws of flows longer than a window are matched
// on (Delays.SamplePaced).
func NewPacedDelays(rows []v2.FlowRow, ctx, nic []float64, win float64) *Delays {
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
		d.samples[i] = sample{r.SizeBytes, c, d.Own[i] / EffectivePackets(r.Packets, win), 0}
		if nic != nil {
			d.samples[i].nic = nic[i]
		}
	}
	d.bucket()
	return d
}

// PoolDelays pools the flows of several link simulations (in the order
// given) into one set of size buckets; the result has no Own delays.
func PoolDelays(parts []*Delays) *Delays {
	if len(parts) == 1 {
		p := parts[0]
		return &Delays{samples: p.samples, upper: p.upper, perPkt: p.perPkt, ctx: p.ctx, paced: p.paced, byNIC: p.byNIC, nic: p.nic}
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
	byCtx := func(x sample) float64 { return x.ctx }
	byNIC := func(x sample) float64 { return x.nic }
	from = 0
	for _, to := range cuts {
		pp, cc := sortedBy(s[from:to], byCtx) // s's bucket left in backlog order
		d.perPkt, d.ctx = append(d.perPkt, pp), append(d.ctx, cc)
		from = to
	}
	d.paced = slices.ContainsFunc(d.samples, func(x sample) bool { return x.nic != 0 })
	if !d.paced {
		return
	}
	from = 0
	for _, to := range cuts {
		pp, nn := sortedBy(slices.Clone(s[from:to]), byNIC)
		d.byNIC, d.nic = append(d.byNIC, pp), append(d.nic, nn)
		from = to
	}
}

// sortedBy sorts b stably by key, in place, and returns its delays per
// packet and keys in that order.
func sortedBy(b []sample, key func(sample) float64) (perPkt, keys []float64) {
	slices.SortStableFunc(b, func(x, y sample) int { return cmp.Compare(key(x), key(y)) })
	perPkt, keys = make([]float64, len(b)), make([]float64, len(b))
	for i := range b {
		perPkt[i], keys[i] = b[i].perPkt, key(b[i])
	}
	return perPkt, keys
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
	return d.SamplePaced(size, ctx, 0, matched, rng)
}

// SamplePaced is Sample for a flow paced to its NIC share with ratio nic
// (see NewPacedDelays): when the delays have pacing ratios, a flow longer
// than its window draws among the Neighbours flows of its bucket nearest
// in pacing ratio (and those tied with the farthest), not from the whole
// bucket: a flow's delay beyond its paced ideal depends on how its
// arrivals were spread, which its pacing tells.
func (d *Delays) SamplePaced(size int64, ctx, nic float64, matched bool, rng *rand.Rand) float64 {
	if len(d.perPkt) == 0 {
		return 0
	}
	b := sort.Search(len(d.upper), func(i int) bool { return d.upper[i] >= size })
	if b == len(d.upper) {
		b--
	}
	s, c := d.perPkt[b], d.ctx[b]
	if !matched {
		if !d.paced {
			return s[rng.IntN(len(s))]
		}
		s, c, ctx = d.byNIC[b], d.nic[b], nic
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
