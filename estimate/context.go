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
	// Events: a flow's start (rec: record its backlog), the start of a
	// pour (k >= 0, at rate) and its end (k < 0, flow ^k stops pouring
	// rate); a pour of rate 0 drops its bytes into the queue at once.
	type event struct {
		at    units.Time
		k     int
		rec   bool
		rate  float64 // bytes/ps
		bytes units.Bytes
	}
	ev := make([]event, 0, 2*n)
	for k, fi := range l.Flows {
		f := &flows[fi]
		h := int(l.Hop[k])
		if h == 0 {
			ev = append(ev, event{at: f.Start, k: k, rec: true, bytes: f.Size})
			continue
		}
		up := f.Path[0].Rate
		for _, hop := range f.Path[1:h] {
			up = min(up, hop.Rate)
		}
		r := float64(up) / 8 / float64(units.Second)
		var chunks []Chunk
		if pace != nil {
			chunks = pace[fi]
		}
		if len(chunks) == 0 {
			chunks = []Chunk{{Release: f.Start, Bytes: f.Size}}
		}
		for j, c := range chunks {
			ev = append(ev, event{at: c.Release, k: k, rec: j == 0, rate: r},
				event{at: c.Release + units.Time(float64(c.Bytes)/r), k: ^k, rate: r})
		}
	}
	// At one instant, ends first, then starts in link order.
	slices.SortStableFunc(ev, func(a, b event) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.k, b.k)
	})
	serve := float64(l.Rate) / 8 / float64(units.Second)
	work, in := 0.0, 0.0 // bytes held; bytes/ps poured
	t := ev[0].at
	for _, e := range ev {
		work = max(0, work+(in-serve)*float64(e.at-t))
		t = e.at
		if e.k < 0 {
			in -= e.rate
			continue
		}
		if e.rec {
			out[e.k] = work / serve / float64(units.Second)
		}
		if e.rate > 0 {
			in += e.rate
		} else {
			work += float64(e.bytes)
		}
	}
	return out
}
