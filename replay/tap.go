package replay

import (
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/output"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// packetTap turns packet events into packets.parquet rows.
type packetTap struct {
	out  *output.Stream[v2.PacketRow]
	all  bool
	rows int64
}

func (t *packetTap) keep(p *fabric.Packet) bool { return t.all || p.Kind == fabric.Data }

func (t *packetTap) row(ev string, now units.Time, node, port int32, p *fabric.Packet) {
	r := v2.PacketRow{
		TNs: now.Nanoseconds(), Event: ev, Kind: p.Kind.String(),
		Node: node, Port: port, Prio: int32(p.Prio), FlowID: int64(p.Flow),
		Src: p.Src, Dst: p.Dst, PSN: p.PSN, Bytes: int32(p.Size), CE: p.CE,
		QDepthBytes: int64(p.QDepth),
	}
	if p.Kind == fabric.Pause || p.Kind == fabric.Resume {
		r.Prio = int32(p.PausePrio)
	}
	if ev == v2.EventDequeue {
		r.QueueDelayNs = (now - p.EnqAt).Nanoseconds()
	}
	t.out.Append(r)
	t.rows++
}

func (t *packetTap) Dequeue(now units.Time, node, port int32, p *fabric.Packet) {
	if t.keep(p) {
		t.row(v2.EventDequeue, now, node, port, p)
	}
}

func (t *packetTap) Deliver(now units.Time, node int32, p *fabric.Packet) {
	if t.keep(p) {
		t.row(v2.EventDeliver, now, node, -1, p)
	}
}

func (t *packetTap) Drop(now units.Time, node, port int32, p *fabric.Packet) {
	if t.keep(p) {
		t.row(v2.EventDrop, now, node, port, p)
	}
}

// teeTap sends every event to two taps.
type teeTap struct{ a, b fabric.Tap }

func (t teeTap) Dequeue(now units.Time, node, port int32, p *fabric.Packet) {
	t.a.Dequeue(now, node, port, p)
	t.b.Dequeue(now, node, port, p)
}

func (t teeTap) Deliver(now units.Time, node int32, p *fabric.Packet) {
	t.a.Deliver(now, node, p)
	t.b.Deliver(now, node, p)
}

func (t teeTap) Drop(now units.Time, node, port int32, p *fabric.Packet) {
	t.a.Drop(now, node, port, p)
	t.b.Drop(now, node, port, p)
}
