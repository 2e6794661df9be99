package scenario

import (
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

// bottleneckTap bins payload bytes by the recorded step at or after their
// time: arrivals into the bottleneck switch (a data packet to the receiver
// leaving any port that links to that switch arrives one serialization and
// one propagation delay later, which is when the switch queues it), the
// departures from the bottleneck port, and, for a consistency check, the
// enqueue times the departing packets carry. Arrivals, not the departing
// packets' enqueue times, make the backlog: packets still queued when the
// replay stops at the horizon never depart. It also records the
// PAUSE/RESUME frames the senders receive.
type bottleneckTap struct {
	node, port int32
	rate       units.BitsPerSec // the bottleneck port's
	dst        int32
	step       units.Time
	up         map[[2]int32]topology.Port // ports linked to the bottleneck switch
	arr, deq   []float64                  // per step k: bytes with time in (t_{k-1}, t_k]
	enq        []float64                  // departing packets by their enqueue time
	// sojourn is, per step of enqueue, the payload-weighted sum of the
	// departing packets' time at the bottleneck port, ps x bytes.
	sojourn []float64
	// flowOf maps a message to its model flow; arrF and deqF are arr and
	// deq per model flow.
	flowOf     map[int64]int
	arrF, deqF [][]float64
	pfc        []pfcFrame
}

type pfcFrame struct {
	t          units.Time
	node, port int32
	prio       uint8
	pause      bool
}

// newTap is a tap of n recorded steps of length step at p's bottleneck in
// st's topology.
func newTap(p *Path, st *runconfig.Setup, n int, step units.Time) *bottleneckTap {
	tap := &bottleneckTap{node: p.Link.Node, port: p.Link.Port, rate: p.C, dst: p.Dst, step: step,
		up: map[[2]int32]topology.Port{}, arr: make([]float64, n), enq: make([]float64, n), deq: make([]float64, n),
		sojourn: make([]float64, n), flowOf: map[int64]int{}}
	for fi, src := range p.Sources {
		for _, id := range src.Messages {
			tap.flowOf[id] = fi
		}
		tap.arrF = append(tap.arrF, make([]float64, n))
		tap.deqF = append(tap.deqF, make([]float64, n))
	}
	for _, nd := range st.Topology.Nodes {
		for j, pt := range nd.Ports {
			if pt.Peer == p.Link.Node {
				tap.up[[2]int32{nd.ID, int32(j)}] = pt
			}
		}
	}
	return tap
}

// bin is the first step k with k*step >= t, or -1 past the last one.
func (b *bottleneckTap) bin(t units.Time) int {
	k := int((t + b.step - 1) / b.step)
	if k >= len(b.enq) {
		return -1
	}
	return k
}

// Dequeue bins a data packet that starts its transmission on a port.
func (b *bottleneckTap) Dequeue(now units.Time, node, port int32, p *fabric.Packet) {
	if p.Kind != fabric.Data {
		return
	}
	if l, ok := b.up[[2]int32{node, port}]; ok && p.Dst == b.dst {
		if k := b.bin(now + units.TxTime(units.Bytes(p.Size), l.Rate) + l.Delay); k >= 0 {
			b.arr[k] += float64(p.Payload)
			if f, ok := b.flowOf[p.MsgID]; ok {
				b.arrF[f][k] += float64(p.Payload)
			}
		}
		return
	}
	if node != b.node || port != b.port {
		return
	}
	if k := b.bin(p.EnqAt); k >= 0 {
		b.enq[k] += float64(p.Payload)
		// NB: Dequeue is called when the transmission starts; the packet
		// leaves the port when it ends.
		out := now + units.TxTime(units.Bytes(p.Size), b.rate)
		b.sojourn[k] += float64(out-p.EnqAt) * float64(p.Payload)
	}
	if k := b.bin(now); k >= 0 {
		b.deq[k] += float64(p.Payload)
		if f, ok := b.flowOf[p.MsgID]; ok {
			b.deqF[f][k] += float64(p.Payload)
		}
	}
}

// Deliver and Drop are not counted.
func (b *bottleneckTap) Deliver(units.Time, int32, *fabric.Packet)     {}
func (b *bottleneckTap) Drop(units.Time, int32, int32, *fabric.Packet) {}

func (b *bottleneckTap) observePFC(now units.Time, node, port int32, prio uint8, pause bool) {
	b.pfc = append(b.pfc, pfcFrame{now, node, port, prio, pause})
}
