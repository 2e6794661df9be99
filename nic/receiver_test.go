package nic_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/units"
)

// The receiver ACKs every AckEvery in-order packets and always on a
// message's last packet (which also says the message is done); the count
// restarts after every ACK.
func TestAckEveryN(t *testing.T) {
	for _, tc := range []struct {
		every int
		msgs  []units.Bytes
		want  string
	}{
		{1, []units.Bytes{3000, 3000}, "ACK 1, ACK 2, ACK 3 done, ACK 4, ACK 5, ACK 6 done"},
		{2, []units.Bytes{3000, 3000}, "ACK 2, ACK 3 done, ACK 5, ACK 6 done"},
		{4, []units.Bytes{3000, 3000}, "ACK 3 done, ACK 6 done"},
		{4, []units.Bytes{10000}, "ACK 4, ACK 8, ACK 10 done"},
		{3, []units.Bytes{0, 1, 2500}, "ACK 1 done, ACK 2 done, ACK 5 done"},
	} {
		cfg := nic.DefaultConfig()
		cfg.AckEvery = tc.every
		p := newPair(t, cfg, true, &fixed{})
		for _, b := range tc.msgs {
			p.release(0, 0, b)
		}
		p.run(horizon)
		if got := short(p.ba.log); got != tc.want {
			t.Errorf("AckEvery=%d messages %v: receiver sent %s\nwant %s", tc.every, tc.msgs, got, tc.want)
		}
		if len(p.hooks.senderDone) != len(tc.msgs) {
			t.Errorf("AckEvery=%d: %d of %d messages completed at the sender", tc.every, len(p.hooks.senderDone), len(tc.msgs))
		}
	}
}

// DCQCN's notification point (CC-NetCalc, Lehal 2024, Section V;
// nic.Config.CNPInterval): a CE-marked packet makes the receiver send a CNP
// toward the sender, at most one per CNPInterval per flow. With a 50 us
// interval, CE packets at 0, 10, 49.99, 50, 99 and 120 us give CNPs at 0, 50
// and 120 us; another flow has its own interval. The CNP leaves ahead of the
// ACK of the same packet.
func TestCNPAtMostOnePerIntervalPerFlow(t *testing.T) {
	p := newPair(t, nic.DefaultConfig(), false, &fixed{}, &fixed{})
	p.release(0, 0, 10000)
	p.release(0, 1, 10000)
	us := units.Microsecond
	times := []units.Time{0, 10 * us, 49990 * units.Nanosecond, 50 * us, 99 * us, 120 * us}
	for i, ts := range times {
		psn := int64(i)
		at(p.sim, ts, func(now units.Time) { p.b.Receive(now, p.data(0, psn, 1000, true, false), 0) })
	}
	at(p.sim, 12*us, func(now units.Time) { p.b.Receive(now, p.data(1, 0, 1000, true, false), 0) })
	at(p.sim, 13*us, func(now units.Time) { p.b.Receive(now, p.data(1, 1, 1000, false, false), 0) })
	p.run(horizon)

	cnps := p.ba.kind(fabric.CNP)
	ctl := units.TxTime(60, lineRate)
	want := []struct {
		flow int32
		at   units.Time
	}{{0, 0}, {1, 12 * us}, {0, 50 * us}, {0, 120 * us}}
	if len(cnps) != len(want) {
		t.Fatalf("receiver sent %d CNPs, want %d: %v", len(cnps), len(want), cnps)
	}
	for i, w := range want {
		c := cnps[i].p
		if c.Flow != w.flow || cnps[i].at != w.at+ctl+linkDel || c.Src != 1 || c.Dst != 0 || c.Prio != fabric.ControlPrio || c.Size != 60 {
			t.Errorf("CNP %d: %v at %v (prio %d), want flow %d h1->h0 60B at %v", i, &c, cnps[i].at, c.Prio, w.flow, w.at+ctl+linkDel)
		}
	}
	if got := short(p.ba.log[:2]); got != "CNP, ACK 1 ece" {
		t.Errorf("first packets from the receiver %s, want the CNP before the ACK", got)
	}
	if f := p.flows[0]; f.CEPkts != 6 {
		t.Errorf("CEPkts=%d, want 6", f.CEPkts)
	}
	// The sender hands each CNP to the flow's algorithm.
	alg := p.algs[1]
	p.a.Receive(p.sim.Now(), p.ctrl(fabric.CNP, 1, 0), 0)
	if alg.cnps != 1 || p.flows[1].CNPs != 1 || p.algs[0].cnps != 0 {
		t.Errorf("sender CNP: OnCNP %d/%d, CNPs=%d", p.algs[0].cnps, alg.cnps, p.flows[1].CNPs)
	}
}

// Go-back-N at the receiver: an out-of-order packet is discarded and
// triggers one NACK carrying the expected PSN; more packets beyond the same
// gap add none; in-order packets are ACKed again, and a new gap gets its
// own NACK. A duplicate gets the cumulative ACK repeated.
func TestReceiverNackOncePerGapAndDuplicateAck(t *testing.T) {
	p := newPair(t, nic.DefaultConfig(), false, &fixed{})
	p.release(0, 0, 20000)
	ts := units.Time(0)
	for _, psn := range []int64{0, 2, 3, 4, 1, 2, 3, 4, 6, 7, 5, 5, 1} {
		ts += units.Microsecond
		psn := psn
		at(p.sim, ts, func(now units.Time) {
			d := p.data(0, psn, 1000, false, false)
			d.SentAt = units.Time(psn) * units.Nanosecond
			p.b.Receive(now, d, 0)
		})
	}
	p.run(horizon)
	want := "ACK 1, NACK 1, ACK 2, ACK 3, ACK 4, ACK 5, NACK 5, ACK 6, ACK 6, ACK 6"
	if got := short(p.ba.log); got != want {
		t.Fatalf("receiver sent %s\nwant %s", got, want)
	}
	if n := p.ba.kind(fabric.Nack)[0].p; n.SentAt != 2*units.Nanosecond || n.Dst != 0 || n.Size != 60 {
		t.Errorf("NACK %v echoes SentAt %v, want the out-of-order packet's 2ns", &n, n.SentAt)
	}
	if dup := p.ba.log[len(p.ba.log)-1].p; dup.MsgDone || dup.SentAt != units.Nanosecond {
		t.Errorf("duplicate ACK %v: MsgDone=%v SentAt=%v", &dup, dup.MsgDone, dup.SentAt)
	}
	if len(p.hooks.delivered) != 0 {
		t.Errorf("delivered %v before the last packet", p.hooks.delivered)
	}
}

// Flow.RxBytes counts the payload accepted in order: a gap holds it, a
// zero-byte message adds nothing, and a message's short last packet adds
// its own payload.
func TestRxBytesInOrder(t *testing.T) {
	p := newPair(t, nic.DefaultConfig(), false, &fixed{})
	// PSNs 0-2: 2500 B (1000, 1000, 500); 3: 0 B; 4-5: 1500 B (1000, 500).
	for _, b := range []units.Bytes{2500, 0, 1500} {
		p.release(0, 0, b)
	}
	f, mtu := p.flows[0], p.cfg.MTUPayload
	steps := []struct {
		psn     int64
		payload units.Bytes
		last    bool
		want    units.Bytes
	}{
		{0, 1000, false, 1000},
		{2, 500, true, 1000}, // out of order: NACKed, not accepted
		{1, 1000, false, 2000},
		{2, 500, true, 2500},
		{3, 0, true, 2500},
		{4, 1000, false, 3500},
		{4, 1000, false, 3500}, // duplicate
		{5, 500, true, 4000},
	}
	for i, s := range steps {
		at(p.sim, units.Time(i+1)*units.Microsecond, func(now units.Time) {
			p.b.Receive(now, p.data(0, s.psn, s.payload, false, s.last), 0)
			if got := f.RxBytes(mtu); got != s.want {
				t.Errorf("step %d (psn %d): RxBytes %d, want %d", i, s.psn, got, s.want)
			}
		})
	}
	p.run(horizon)
}
