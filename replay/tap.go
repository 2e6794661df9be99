package replay

import (
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/kernel"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// PacketSink receives the per-packet log's rows (Config.PacketSink);
// output.Stream[v2.PacketRow] is one.
type PacketSink interface {
	Append(row v2.PacketRow)
}

// packetTap turns packet events into packets.parquet rows. The rows of a
// run split among partitions are kept per partition (partTap) and merged
// in the run's event order at each barrier (merge), so that the file is
// the same for any number of partitions.
type packetTap struct {
	out  PacketSink
	all  bool
	rows int64
	// parts are the partitions' taps when there are several; with one,
	// rows go straight to out in the order the events run.
	parts []*partTap
	heads []int
}

// partTap is the tap of one partition's nodes in a split run: it keeps
// the window's rows with the place of the event that made them.
type partTap struct {
	t    *packetTap
	sim  *kernel.Sim
	rows []keyedRow
}

// keyedRow is a row with its event's time and key and its rank among the
// rows of that event: the order one partition would have written it in.
type keyedRow struct {
	at  units.Time
	key kernel.Key
	seq int32
	row v2.PacketRow
}

func (a *keyedRow) before(b *keyedRow) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	if a.key != b.key {
		return a.key.Less(b.key)
	}
	return a.seq < b.seq
}

// forPart returns the tap for the nodes of partition i of n, on sim.
func (t *packetTap) forPart(i, n int, sim *kernel.Sim) fabric.Tap {
	if n <= 1 {
		return t
	}
	for len(t.parts) < n {
		t.parts = append(t.parts, nil)
	}
	if t.parts[i] == nil {
		t.parts[i] = &partTap{t: t, sim: sim}
	}
	return t.parts[i]
}

// merge appends the rows the partitions kept during the window to the
// file, in the order of their events (time, then key: see kernel.Key,
// unique run-wide), rows of one event in the order it made them. Each
// partition's rows are already in that order.
func (t *packetTap) merge() {
	if len(t.parts) == 0 {
		return
	}
	if cap(t.heads) < len(t.parts) {
		t.heads = make([]int, len(t.parts))
	}
	heads := t.heads[:len(t.parts)]
	clear(heads)
	for {
		best := -1
		for i, pt := range t.parts {
			if heads[i] == len(pt.rows) {
				continue
			}
			if best < 0 || pt.rows[heads[i]].before(&t.parts[best].rows[heads[best]]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		t.out.Append(t.parts[best].rows[heads[best]].row)
		t.rows++
		heads[best]++
	}
	for _, pt := range t.parts {
		clear(pt.rows) // drop the strings' references
		pt.rows = pt.rows[:0]
	}
}

func (t *packetTap) keep(p *fabric.Packet) bool { return t.all || p.Kind == fabric.Data }

func (t *packetTap) row(ev string, now units.Time, node, port int32, p *fabric.Packet) {
	t.out.Append(makeRow(ev, now, node, port, p))
	t.rows++
}

// makeRow is the packets.parquet row of one packet event.
func makeRow(ev string, now units.Time, node, port int32, p *fabric.Packet) v2.PacketRow {
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
	return r
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

// row keeps one row of the event being run.
func (pt *partTap) row(ev string, now units.Time, node, port int32, p *fabric.Packet) {
	k := keyedRow{at: now, key: pt.sim.CurrentKey(), row: makeRow(ev, now, node, port, p)}
	if n := len(pt.rows); n > 0 && pt.rows[n-1].at == k.at && pt.rows[n-1].key == k.key {
		k.seq = pt.rows[n-1].seq + 1
	}
	pt.rows = append(pt.rows, k)
}

func (pt *partTap) Dequeue(now units.Time, node, port int32, p *fabric.Packet) {
	if pt.t.keep(p) {
		pt.row(v2.EventDequeue, now, node, port, p)
	}
}

func (pt *partTap) Deliver(now units.Time, node int32, p *fabric.Packet) {
	if pt.t.keep(p) {
		pt.row(v2.EventDeliver, now, node, -1, p)
	}
}

func (pt *partTap) Drop(now units.Time, node, port int32, p *fabric.Packet) {
	if pt.t.keep(p) {
		pt.row(v2.EventDrop, now, node, port, p)
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
