package nic_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/units"
)

// fixed is a test congestion controller: a constant rate (0 = line rate)
// and an optional window, recording what the NIC tells it.
type fixed struct {
	rate   units.BitsPerSec
	win    units.Bytes
	info   cca.FlowInfo
	sends  int
	cnps   int
	nacks  int
	acks   []cca.Ack
	cnpAt  []units.Time
	timers int
	// probe makes it a cca.RTTProber; rtts records OnRTT's samples.
	probe bool
	rtts  []units.Time
	// ackRate, when set, becomes the rate on the next ACK.
	ackRate units.BitsPerSec
}

var (
	_ cca.Algorithm = (*fixed)(nil)
	_ cca.RTTProber = (*fixed)(nil)
)

func (f *fixed) ProbesRTT() bool                    { return f.probe }
func (f *fixed) OnRTT(_ units.Time, rtt units.Time) { f.rtts = append(f.rtts, rtt) }

func (f *fixed) Name() string                       { return "fixed" }
func (f *fixed) Start(_ units.Time, i cca.FlowInfo) { f.info = i }
func (f *fixed) OnSend(units.Time, units.Bytes)     { f.sends++ }
func (f *fixed) OnAck(_ units.Time, a *cca.Ack) {
	f.acks = append(f.acks, *a)
	if f.ackRate != 0 {
		f.rate, f.ackRate = f.ackRate, 0
	}
}
func (f *fixed) OnCNP(now units.Time)  { f.cnps++; f.cnpAt = append(f.cnpAt, now) }
func (f *fixed) OnNack(units.Time)     { f.nacks++ }
func (f *fixed) OnTimer(units.Time)    { f.timers++ }
func (f *fixed) NextTimer() units.Time { return units.Never }
func (f *fixed) Window() units.Bytes   { return f.win }
func (f *fixed) Rate() units.BitsPerSec {
	if f.rate == 0 {
		return f.info.LineRate
	}
	return f.rate
}

// sent is a copy of a packet as it came off a NIC's link.
type sent struct {
	at units.Time
	p  fabric.Packet
}

// wire is the far end of a NIC's link: it records every packet, then
// hands it to next (the other NIC) unless drop says otherwise, or returns
// it to the pool when there is no next.
type wire struct {
	pool *fabric.Pool
	next fabric.Receiver
	drop func(p *fabric.Packet) bool
	log  []sent
}

func (w *wire) Receive(now units.Time, p *fabric.Packet, inPort int32) {
	s := sent{at: now, p: *p}
	s.p.Tel = nil
	w.log = append(w.log, s)
	if w.next == nil || (w.drop != nil && w.drop(p)) {
		w.pool.Put(p)
		return
	}
	w.next.Receive(now, p, inPort)
}

func (w *wire) kind(k fabric.Kind) []sent {
	return slices.DeleteFunc(slices.Clone(w.log), func(s sent) bool { return s.p.Kind != k })
}

type hookEvent struct {
	at   units.Time
	flow int32
	msg  int32
}

type hooks struct {
	delivered, senderDone []hookEvent
}

func (h *hooks) Delivered(now units.Time, f *nic.Flow, m *nic.Message) {
	h.delivered = append(h.delivered, hookEvent{now, f.ID, m.Index})
}

func (h *hooks) SenderDone(now units.Time, f *nic.Flow, m *nic.Message) {
	h.senderDone = append(h.senderDone, hookEvent{now, f.ID, m.Index})
}

const (
	lineRate = 100 * units.Gbps
	linkDel  = units.Microsecond
)

// pair is host 0's NIC (a) and host 1's NIC (b) on one link of 100 Gb/s
// and 1 us each way. Flow i goes from host 0 to host 1. When wired, each
// NIC's link ends at the other NIC; otherwise both links end at recorders
// and the test plays the other side by calling Receive.
type pair struct {
	t     *testing.T
	sim   *kernel.Sim
	pool  *fabric.Pool
	cfg   *nic.Config
	flows []*nic.Flow
	algs  []*fixed
	a, b  *nic.NIC
	ab    *wire // what a transmits
	ba    *wire // what b transmits
	hooks *hooks
	msgs  int32
	guard *guard
}

func newPair(t *testing.T, cfg nic.Config, wired bool, algs ...*fixed) *pair {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("config: %v", err)
	}
	p := &pair{t: t, sim: kernel.NewSim(1), pool: &fabric.Pool{}, cfg: &cfg, hooks: &hooks{}, algs: algs}
	for i, alg := range algs {
		alg := alg
		f := nic.NewFlow(int32(i), 0, 1, uint64(i)*77, func() cca.Algorithm { return alg })
		f.BaseRTT = 2 * linkDel
		p.flows = append(p.flows, f)
	}
	p.a = nic.New(p.sim, p.pool, nil, p.hooks, p.cfg, p.flows, 0)
	p.b = nic.New(p.sim, p.pool, nil, p.hooks, p.cfg, p.flows, 1)
	p.ab, p.ba = &wire{pool: p.pool}, &wire{pool: p.pool}
	if wired {
		p.ab.next, p.ba.next = p.b, p.a
	}
	p.a.SetPort(fabric.NewPort(p.sim, 0, 0, lineRate, linkDel, p.a, p.ab, 0))
	p.b.SetPort(fabric.NewPort(p.sim, 1, 0, lineRate, linkDel, p.b, p.ba, 0))
	p.guard = newGuard(p.sim)
	return p
}

// release hands flow f a message of b payload bytes at now.
func (p *pair) release(now units.Time, f int, b units.Bytes) *nic.Message {
	m := &nic.Message{ID: int64(p.msgs) + 100, Index: p.msgs, Bytes: b, Release: -1, FirstTx: -1, Delivered: -1, SenderDone: -1}
	p.msgs++
	p.a.Release(now, p.flows[f], m)
	return m
}

// run runs the simulation up to until and fails the test if simulated
// time stops advancing (an event loop at one instant).
func (p *pair) run(until units.Time) {
	p.t.Helper()
	p.guard.run(until)
	if p.guard.tripped {
		p.t.Fatalf("livelock: events keep firing at %v", p.sim.Now())
	}
}

// data is a data packet of flow f as the sender would make it.
func (p *pair) data(f int, psn int64, payload units.Bytes, ce, last bool) *fabric.Packet {
	fl := p.flows[f]
	d := p.pool.Get()
	d.Kind, d.Prio = fabric.Data, p.cfg.DataPrio
	d.Src, d.Dst, d.Flow, d.PSN = fl.Src, fl.Dst, fl.ID, psn
	d.Payload, d.Size = payload, payload+p.cfg.HeaderBytes
	d.CE, d.Last = ce, last
	d.SentAt = p.sim.Now()
	return d
}

// ctrl is an ACK/NACK/CNP of flow f carrying psn, as the receiver makes it.
func (p *pair) ctrl(k fabric.Kind, f int, psn int64) *fabric.Packet {
	fl := p.flows[f]
	c := p.pool.Get()
	c.Kind, c.Prio = k, fabric.ControlPrio
	c.Src, c.Dst, c.Flow, c.PSN, c.Size = fl.Dst, fl.Src, fl.ID, psn, 60
	return c
}

func (p *pair) pfc(n *nic.NIC, now units.Time, on bool) {
	c := p.pool.Get()
	c.Kind, c.Prio, c.PausePrio, c.Size, c.Flow = fabric.Resume, fabric.ControlPrio, p.cfg.DataPrio, 64, -1
	if on {
		c.Kind = fabric.Pause
	}
	n.Receive(now, c, 0)
}

// departed is when s left its NIC: its arrival minus serialization and
// propagation.
func departed(s sent) units.Time {
	return s.at - units.TxTime(s.p.Size, lineRate) - linkDel
}

// short describes control packets compactly: "ACK 3", "ACK 6 done",
// "NACK 1", "CNP".
func short(ss []sent) string {
	var parts []string
	for _, s := range ss {
		switch s.p.Kind {
		case fabric.CNP:
			parts = append(parts, "CNP")
		case fabric.Ack:
			d := ""
			if s.p.MsgDone {
				d = " done"
			}
			if s.p.ECE {
				d += " ece"
			}
			parts = append(parts, fmt.Sprintf("ACK %d%s", s.p.PSN, d))
		case fabric.Nack:
			parts = append(parts, fmt.Sprintf("NACK %d", s.p.PSN))
		case fabric.Data:
			parts = append(parts, fmt.Sprintf("f%d:%d", s.p.Flow, s.p.PSN))
		default:
			parts = append(parts, s.p.Kind.String())
		}
	}
	return strings.Join(parts, ", ")
}

// fnHandler runs a test action as a simulator event.
type fnHandler func(now units.Time)

func (f fnHandler) Handle(now units.Time, _ uint8, _ int32) { f(now) }

// at schedules fn to run at time t.
func at(sim *kernel.Sim, t units.Time, fn func(now units.Time)) {
	sim.Schedule(t, sim.Register(fnHandler(fn)), 0, 0)
}

// guard rides along with the simulation and stops it when events keep
// running at one instant (time no longer advances): it re-arms itself
// behind the events pending at the current time, and jumps to the next
// event time when there are none.
type guard struct {
	sim     *kernel.Sim
	id      kernel.HandlerID
	gen     int32
	spins   int
	tripped bool
}

func newGuard(sim *kernel.Sim) *guard {
	g := &guard{sim: sim}
	g.id = sim.Register(g)
	return g
}

func (g *guard) arm(at units.Time) {
	g.gen++
	g.sim.Schedule(at, g.id, 0, g.gen)
}

func (g *guard) Handle(now units.Time, _ uint8, gen int32) {
	if gen != g.gen {
		return // superseded
	}
	next := g.sim.NextAt()
	if next == now {
		g.spins++
		if g.spins > 100000 {
			g.tripped = true
			g.sim.Stop()
			return
		}
		g.arm(now)
		return
	}
	g.spins = 0
	if next != units.Never {
		g.arm(next)
	}
}

func (g *guard) run(until units.Time) {
	g.spins = 0
	g.arm(g.sim.Now())
	g.sim.Run(until)
}

// horizon bounds runs in which the test plays the far end: without ACKs
// the sender would retransmit every RTO (4 ms by default) forever.
const horizon = units.Millisecond
