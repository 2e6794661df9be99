package estimate

import (
	"cmp"
	"slices"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/units"
)

// Backlog computes, for each flow crossing l (in l.Flows order), the work
// the link holds of its other flows when the flow arrives there, in
// seconds of the link's time: the unfinished bytes of a work-conserving
// fluid queue served at the link's rate, into which every flow of the
// link pours its bytes from its start at its upstream rate (the slowest
// link of its path before l; all at once when l is its first link, the
// sender's NIC), over the link's rate. Congestion control changes how the
// work is held (in the senders or in the queue) but not how much there is,
// so a flow arriving while the link has work left meets the other flows
// there, whatever their ideal FCTs say; one arriving at an idle link, 0.
//
// It is what a represented link's flow is matched on in its cluster's
// pooled delays (Delays.Sample): a flow's delay at a link depends on its
// size and on the traffic that meets it there, which the link's average
// load does not tell. (An earlier measure, the load the other flows offer
// while the flow is active with each spread over its ideal FCT, missed the
// flows still sending after their ideal FCT: a small flow at a host
// downlink busy with two slowed large flows counted no contention and drew
// delays 3 to 4 times too small at the p95 and p99, docs/ESTIMATE.md.)
func Backlog(l *Link, flows []replay.FlowPath) []float64 {
	return PacedBacklog(l, flows, nil)
}

// PacedBacklog is Backlog with the link's flows arriving as the link
// networks have them under SenderNICsShares: a flow paced to its NIC
// share (pace[flow] not nil, NICShares) pours each chunk from its release
// at its upstream rate rather than all its bytes from its start. A flow
// whose first link is l (a host uplink: its NIC, where the link network
// does not pace it) pours as in Backlog, and so does every flow when
// pace is nil.
func PacedBacklog(l *Link, flows []replay.FlowPath, pace [][]Chunk) []float64 {
	n := len(l.Flows)
	out := make([]float64, n)
	if n == 0 || l.Rate <= 0 {
		return out
	}
	// Events, 16 bytes each (a paced flow has two per chunk): key 2k+1
	// is flow k's start (record its backlog, then pour), 2k the start of
	// another of its chunks' pours, ^k the end of a pour of flow k. The
	// order is by time, then key: at one instant the ends first, then the
	// starts in link order.
	type event struct {
		at  units.Time
		key int32
	}
	rate := make([]float64, n) // bytes/ps while pouring; 0: all at once
	m := 0
	for k, fi := range l.Flows {
		if l.Hop[k] > 0 && pace != nil && len(pace[fi]) > 0 {
			m += 2 * len(pace[fi])
		} else {
			m += 2
		}
	}
	ev := make([]event, 0, m)
	for k, fi := range l.Flows {
		f := &flows[fi]
		h := int(l.Hop[k])
		if h == 0 {
			ev = append(ev, event{f.Start, int32(2*k + 1)})
			continue
		}
		up := f.Path[0].Rate
		for _, hop := range f.Path[1:h] {
			up = min(up, hop.Rate)
		}
		r := float64(up) / 8 / float64(units.Second)
		rate[k] = r
		if pace == nil || len(pace[fi]) == 0 {
			ev = append(ev, event{f.Start, int32(2*k + 1)}, event{f.Start + units.Time(float64(f.Size)/r), ^int32(k)})
			continue
		}
		for j, c := range pace[fi] {
			key := int32(2 * k)
			if j == 0 {
				key++
			}
			ev = append(ev, event{c.Release, key}, event{c.Release + units.Time(float64(c.Bytes)/r), ^int32(k)})
		}
	}
	slices.SortStableFunc(ev, func(a, b event) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	})
	serve := float64(l.Rate) / 8 / float64(units.Second)
	work, in := 0.0, 0.0 // bytes held; bytes/ps poured
	t := ev[0].at
	for _, e := range ev {
		work = max(0, work+(in-serve)*float64(e.at-t))
		t = e.at
		if e.key < 0 {
			in -= rate[^e.key]
			continue
		}
		k := e.key / 2
		if e.key%2 == 1 {
			out[k] = work / serve / float64(units.Second)
		}
		if rate[k] > 0 {
			in += rate[k]
		} else {
			work += float64(flows[l.Flows[k]].Size)
		}
	}
	return out
}
