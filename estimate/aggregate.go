package estimate

import (
	"math"
	"math/rand/v2"
	"sort"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// BucketMin and BucketSpread shape the size buckets of a link's delay
// distributions (Parsimon, Section 4.4): flows sorted by size are cut into
// buckets of at least BucketMin flows whose largest flow is at least
// BucketSpread times their smallest; what is left joins the last bucket.
const (
	BucketMin    = 100
	BucketSpread = 2
)

// Delays is what one link simulation tells about its flows: each flow's
// delay beyond its ideal in the link network (Own, ps, in the link's flow
// order; NaN for a flow that did not finish), and the same delays divided
// by the flows' packet counts, grouped by flow size.
type Delays struct {
	Own []float64
	// upper[i] is the largest size, bytes, of bucket i (the last bucket
	// takes every larger size too); perPkt[i] its delays per packet, ps,
	// in the link's flow order (NaN for a flow that did not finish).
	upper  []int64
	perPkt [][]float64
}

// NewDelays reads a link simulation's flow rows (replay.Result.Flows, in
// the link network's flow order).
func NewDelays(rows []v2.FlowRow) *Delays {
	d := &Delays{Own: make([]float64, len(rows))}
	order := make([]int, len(rows))
	for i, r := range rows {
		order[i] = i
		if r.FCTNs < 0 {
			d.Own[i] = math.NaN()
		} else {
			d.Own[i] = float64(max(r.FCTNs-r.IdealFCTNs, 0)) * 1000
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return rows[order[a]].SizeBytes < rows[order[b]].SizeBytes })
	var cur []float64
	lo := int64(-1)
	for n, i := range order {
		r := &rows[i]
		if lo < 0 {
			lo = r.SizeBytes
		}
		cur = append(cur, d.Own[i]/float64(max(r.Packets, 1)))
		last := n == len(order)-1
		nextDiffers := last || rows[order[n+1]].SizeBytes != r.SizeBytes
		if nextDiffers && len(cur) >= BucketMin && r.SizeBytes >= BucketSpread*lo {
			d.upper, d.perPkt = append(d.upper, r.SizeBytes), append(d.perPkt, cur)
			cur, lo = nil, -1
		}
	}
	if len(cur) > 0 {
		if len(d.upper) == 0 {
			d.upper, d.perPkt = append(d.upper, math.MaxInt64), append(d.perPkt, cur)
		} else {
			d.perPkt[len(d.perPkt)-1] = append(d.perPkt[len(d.perPkt)-1], cur...)
		}
	}
	return d
}

// Sample draws a per-packet delay, ps, for a flow of size bytes from the
// bucket holding that size (NaN when it drew an unfinished flow).
func (d *Delays) Sample(size int64, rng *rand.Rand) float64 {
	if len(d.perPkt) == 0 {
		return 0
	}
	b := sort.Search(len(d.upper), func(i int) bool { return d.upper[i] >= size })
	if b == len(d.upper) {
		b--
	}
	s := d.perPkt[b]
	return s[rng.IntN(len(s))]
}

// Buckets is the number of size buckets.
func (d *Delays) Buckets() int { return len(d.perPkt) }
