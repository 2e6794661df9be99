package estimate

import (
	"cmp"
	"math"
	"slices"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// MaxChunks is the most releases a flow paced to its NIC share is cut
// into (SenderNICsShares); its chunks are whole packets, at least one.
const MaxChunks = 64

// Chunk is one release of a flow paced to its share of its host's NIC:
// Bytes of payload (whole packets but maybe the last) released at Release,
// picoseconds.
type Chunk struct {
	Release units.Time
	Bytes   units.Bytes
}

// NICShares paces each flow to its share of its source host's NIC: the
// NIC serves the host's flows (all of them, whatever links they cross) in
// processor sharing, each flow active from its start until the NIC has
// sent its bytes with their headers at the NIC's rate (the first hop's),
// as if nothing downstream slowed any of them. A flow is cut into at
// most MaxChunks chunks of whole packets; chunk k is released when that
// schedule has served the bytes before it, so that the chunks leave the
// NIC no faster than the flow's share. The result has, per flow, its
// chunks (the first at the flow's start), or nil for a flow the sharing
// delays by less than one packet's time at the NIC's rate (it is sent
// as one release) and for a flow of one chunk.
//
// This is the sharing a link simulation's senders lack when they carry
// only the link's flows (docs/ESTIMATE.md, "The senders' NICs shared"):
// the host's other flows spread a flow's packets out, and the link
// downstream sees them arrive at the flow's share rather than at line
// rate.
func NICShares(flows []replay.FlowPath, mtu, hdr units.Bytes) [][]Chunk {
	out := make([][]Chunk, len(flows))
	bySrc := map[int32][]int32{}
	var hosts []int32
	for i := range flows {
		f := &flows[i]
		if len(f.Path) == 0 || f.Size <= 0 {
			continue
		}
		if _, ok := bySrc[f.Src]; !ok {
			hosts = append(hosts, f.Src)
		}
		bySrc[f.Src] = append(bySrc[f.Src], int32(i))
	}
	for _, h := range hosts {
		shareHost(flows, bySrc[h], mtu, hdr, out)
	}
	return out
}

// chunkPackets is how many packets each chunk of a flow of pkts packets
// holds (MaxChunks).
func chunkPackets(pkts int64) int64 {
	return max(1, (pkts+MaxChunks-1)/MaxChunks)
}

// psEvent is a point of a flow's processor-sharing schedule: its next
// chunk's start (k < chunks) or its last byte (k == chunks), reached when
// the NIC's virtual time gets to v.
type psEvent struct {
	v    float64
	flow int32 // index into the host's flows
	k    int64
}

// shareHost fills out for the flows idx of one host (in flow order, hence
// by start; see replay.FlowPaths) by running their processor sharing.
// Virtual time v grows at 1/n per picosecond while n flows are active; a
// flow of work w (picoseconds at the NIC's full rate) arriving at virtual
// time a has served its first x picoseconds' worth when v reaches a + x.
func shareHost(flows []replay.FlowPath, idx []int32, mtu, hdr units.Bytes, out [][]Chunk) {
	order := slices.Clone(idx)
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(flows[a].Start, flows[b].Start) })
	type state struct {
		arrive float64 // virtual time at its start
		per    float64 // work of one full chunk, ps at full rate
		work   float64 // work of the whole flow
		chunks int64   // number of chunks
		rel    []units.Time
	}
	st := make([]state, len(order))
	var heap []psEvent
	less := func(a, b psEvent) bool {
		return a.v < b.v || a.v == b.v && (a.flow < b.flow || a.flow == b.flow && a.k < b.k)
	}
	push := func(e psEvent) {
		heap = append(heap, e)
		for i := len(heap) - 1; i > 0; {
			p := (i - 1) / 2
			if !less(heap[i], heap[p]) {
				break
			}
			heap[i], heap[p] = heap[p], heap[i]
			i = p
		}
	}
	pop := func() psEvent {
		top := heap[0]
		last := len(heap) - 1
		heap[0] = heap[last]
		heap = heap[:last]
		for i := 0; ; {
			l, r, m := 2*i+1, 2*i+2, i
			if l < last && less(heap[l], heap[m]) {
				m = l
			}
			if r < last && less(heap[r], heap[m]) {
				m = r
			}
			if m == i {
				break
			}
			heap[i], heap[m] = heap[m], heap[i]
			i = m
		}
		return top
	}
	var t units.Time // real time of v
	v := 0.0
	active := 0
	next := 0 // next flow of order to arrive
	for next < len(order) || len(heap) > 0 {
		if active == 0 {
			t = max(t, flows[order[next]].Start)
		}
		if next < len(order) {
			f := &flows[order[next]]
			// Does it arrive before the next schedule point?
			if len(heap) == 0 || f.Start <= t+units.Time(math.Round((heap[0].v-v)*float64(active))) {
				if active > 0 {
					v += float64(f.Start-t) / float64(active)
				}
				t = f.Start
				s := &st[next]
				rate := f.Path[0].Rate
				pkts := topology.NumPackets(f.Size, mtu)
				cp := chunkPackets(pkts)
				s.chunks = (pkts + cp - 1) / cp
				s.arrive = v
				s.per = float64(units.TxTime(units.Bytes(cp)*(mtu+hdr), rate))
				s.work = float64(units.TxTime(f.Size+units.Bytes(pkts)*hdr, rate))
				s.rel = make([]units.Time, 1, s.chunks)
				s.rel[0] = f.Start
				if s.chunks > 1 {
					push(psEvent{v + s.per, int32(next), 1})
				} else {
					push(psEvent{v + s.work, int32(next), 1})
				}
				active++
				next++
				continue
			}
		}
		e := pop()
		t += units.Time(math.Round((e.v - v) * float64(active)))
		v = e.v
		s := &st[e.flow]
		if e.k < s.chunks {
			s.rel = append(s.rel, t)
			if e.k+1 < s.chunks {
				push(psEvent{s.arrive + float64(e.k+1)*s.per, e.flow, e.k + 1})
			} else {
				push(psEvent{s.arrive + s.work, e.flow, s.chunks})
			}
			continue
		}
		active--
		// Done: keep its chunks if the sharing delayed its last byte by a
		// packet's time or more.
		fi := order[e.flow]
		f := &flows[fi]
		pkt := units.TxTime(mtu+hdr, f.Path[0].Rate)
		if s.chunks < 2 || t-f.Start < units.Time(math.Round(s.work))+pkt {
			s.rel = nil
			continue
		}
		cp := chunkPackets(topology.NumPackets(f.Size, mtu))
		ch := make([]Chunk, s.chunks)
		left := f.Size
		for k := range ch {
			b := min(left, units.Bytes(cp)*mtu)
			ch[k] = Chunk{Release: s.rel[k], Bytes: b}
			left -= b
		}
		out[fi] = ch
		s.rel = nil
	}
}

// NICDelay is what a flow's pacing to its NIC share (chunks, NICShares)
// adds to its ideal on path: the last chunk's release after the flow's
// start plus that chunk's own ideal, less the flow's ideal, picoseconds,
// never negative (0 for a flow not paced).
func NICDelay(path []topology.Hop, start units.Time, size units.Bytes, chunks []Chunk, mtu, hdr units.Bytes) units.Time {
	if len(chunks) == 0 {
		return 0
	}
	last := chunks[len(chunks)-1]
	d := last.Release - start + topology.IdealOneWay(path, last.Bytes, mtu, hdr) - topology.IdealOneWay(path, size, mtu, hdr)
	return max(d, 0)
}

// paceTrace replaces, in a link network's trace, each message of a flow
// of own (full-run flow ids to flow indices) that chunks paces by its
// chunks, in place and in order; chunk k > 0 of flow i takes the id
// firstID[i] + k - 1 (ids no message of the full run has).
func paceTrace(tr *trace.Trace, own map[int64]int32, chunks [][]Chunk, firstID []int64) {
	var msgs []trace.Message
	for _, m := range tr.Messages {
		fi, ok := own[m.FlowID]
		if !ok || len(chunks[fi]) == 0 {
			msgs = append(msgs, m)
			continue
		}
		for k, c := range chunks[fi] {
			x := m
			x.Bytes, x.Release = int64(c.Bytes), c.Release
			if k > 0 {
				x.ID = firstID[fi] + int64(k) - 1
			}
			msgs = append(msgs, x)
		}
	}
	tr.Messages = msgs
}
