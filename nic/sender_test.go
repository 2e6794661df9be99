package nic_test

import (
	"fmt"
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/units"
)

// Config.Packets: a message needs ceil(bytes/MTU) packets, and a zero-byte
// message still sends one.
func TestConfigPackets(t *testing.T) {
	c := nic.DefaultConfig()
	for _, tc := range []struct {
		b    units.Bytes
		want int64
	}{{0, 1}, {1, 1}, {999, 1}, {1000, 1}, {1001, 2}, {2000, 2}, {2001, 3}, {1_000_000, 1000}} {
		if got := c.Packets(tc.b); got != tc.want {
			t.Errorf("Packets(%d)=%d, want %d", tc.b, got, tc.want)
		}
	}
}

// Segmentation: each message becomes Packets(bytes) data packets with
// consecutive PSNs across messages of the flow; all but the last carry a
// full MTU, the last carries the rest (0 for an empty message) and the
// Last flag; the wire size adds the header.
func TestSegmentation(t *testing.T) {
	p := newPair(t, nic.DefaultConfig(), false, &fixed{})
	sizes := []units.Bytes{0, 1000, 1001, 2500, 1}
	for _, b := range sizes {
		p.release(0, 0, b)
	}
	p.run(horizon)
	type pkt struct {
		psn, msg int64
		payload  units.Bytes
		last     bool
	}
	var want []pkt
	psn := int64(0)
	for i, b := range sizes {
		n := p.cfg.Packets(b)
		for k := int64(0); k < n; k++ {
			pay := units.Bytes(1000)
			if k == n-1 {
				pay = b - units.Bytes(n-1)*1000
			}
			want = append(want, pkt{psn, int64(i), pay, k == n-1})
			psn++
		}
	}
	got := p.ab.kind(fabric.Data)
	if len(got) != len(want) {
		t.Fatalf("sent %d data packets, want %d", len(got), len(want))
	}
	for i, s := range got {
		g := pkt{s.p.PSN, s.p.MsgID, s.p.Payload, s.p.Last}
		if g != want[i] || s.p.Size != g.payload+48 || s.p.Prio != 3 || s.p.Src != 0 || s.p.Dst != 1 {
			t.Errorf("packet %d: %+v size %d prio %d, want %+v size %d prio 3", i, g, s.p.Size, s.p.Prio, want[i], want[i].payload+48)
		}
	}
	msgs := p.flows[0].Messages()
	if len(msgs) != len(sizes) || msgs[3].FirstPSN != 4 || msgs[3].NPkts != 3 || msgs[4].FirstPSN != 7 || msgs[4].NPkts != 1 {
		t.Errorf("messages placed at %v", msgs)
	}
	if f := p.flows[0]; f.DataPktsSent != int64(len(want)) || f.RetxBytes != 0 {
		t.Errorf("DataPktsSent=%d RetxBytes=%d", f.DataPktsSent, f.RetxBytes)
	}
}

// Pacing: consecutive data packets of a flow leave TxTime(size, rate)
// apart at the algorithm's rate, clamped to the line rate; with the link
// otherwise idle, exactly that far apart.
func TestPacingAtAlgorithmRate(t *testing.T) {
	for _, tc := range []struct {
		alg, want units.BitsPerSec
	}{{10 * units.Gbps, 10 * units.Gbps}, {37 * units.Gbps, 37 * units.Gbps}, {400 * units.Gbps, lineRate}} {
		t.Run(tc.alg.String(), func(t *testing.T) {
			p := newPair(t, nic.DefaultConfig(), false, &fixed{rate: tc.alg})
			p.release(0, 0, 9500) // 9 full packets and one of 500 B
			p.run(horizon)
			got := p.ab.kind(fabric.Data)
			if len(got) != 10 {
				t.Fatalf("sent %d packets", len(got))
			}
			var next units.Time
			for i, s := range got {
				if d := departed(s); d != next {
					t.Fatalf("packet %d left at %v, want %v", i, d, next)
				}
				next += units.TxTime(s.p.Size, tc.want)
			}
		})
	}
}

// Two paced flows share the link: each flow's packets still keep their
// own pacing gap, and the link never carries two at once.
func TestPacingPerFlowWithTwoFlows(t *testing.T) {
	rates := []units.BitsPerSec{30 * units.Gbps, 45 * units.Gbps}
	p := newPair(t, nic.DefaultConfig(), false, &fixed{rate: rates[0]}, &fixed{rate: rates[1]})
	p.release(0, 0, 20000)
	p.release(0, 1, 20000)
	p.run(horizon)
	last := map[int32]sent{}
	var linkFree units.Time
	for _, s := range p.ab.kind(fabric.Data) {
		d := departed(s)
		if d < linkFree {
			t.Fatalf("%v left at %v while the link was busy until %v", &s.p, d, linkFree)
		}
		linkFree = d + units.TxTime(s.p.Size, lineRate)
		if prev, ok := last[s.p.Flow]; ok {
			if gap := units.TxTime(prev.p.Size, rates[s.p.Flow]); d-departed(prev) < gap {
				t.Fatalf("flow %d: psn %d left %v after psn %d, pacing needs %v", s.p.Flow, s.p.PSN, d-departed(prev), prev.p.PSN, gap)
			}
		}
		last[s.p.Flow] = s
	}
	if len(p.ab.log) != 40 {
		t.Fatalf("sent %d packets, want 40", len(p.ab.log))
	}
}

// Round robin: two backlogged flows at line rate take turns, one packet
// each. (Both are released while the NIC is paused, so that neither
// starts alone.)
func TestRoundRobinAlternates(t *testing.T) {
	p := newPair(t, nic.DefaultConfig(), false, &fixed{}, &fixed{})
	p.pfc(p.a, 0, true)
	p.release(0, 0, 4000)
	p.release(0, 1, 4000)
	p.pfc(p.a, 0, false)
	p.run(horizon)
	if got, want := short(p.ab.log), "f0:0, f1:0, f0:1, f1:1, f0:2, f1:2, f0:3, f1:3"; got != want {
		t.Fatalf("order %s\nwant  %s", got, want)
	}
}

// Window cap: with Config.Window = 3 packets, three leave and the rest
// wait for ACKs; each ACK of k packets lets k more go. The algorithm's
// window applies when smaller, and WindowBDP sets the cap to one BDP.
func TestWindowCapsPacketsInFlight(t *testing.T) {
	const wire = 1048
	t.Run("config", func(t *testing.T) {
		cfg := nic.DefaultConfig()
		cfg.Window = 3 * wire
		p := newPair(t, cfg, false, &fixed{})
		p.release(0, 0, 10000)
		p.run(horizon)
		if n := len(p.ab.log); n != 3 {
			t.Fatalf("sent %d packets with a 3-packet window", n)
		}
		p.a.Receive(p.sim.Now(), p.ctrl(fabric.Ack, 0, 2), 0) // acks PSN 0, 1
		p.run(horizon)
		if got := short(p.ab.log); got != "f0:0, f0:1, f0:2, f0:3, f0:4" {
			t.Fatalf("after ACK 2: %s", got)
		}
	})
	t.Run("algorithm", func(t *testing.T) {
		cfg := nic.DefaultConfig()
		cfg.Window = 3 * wire
		p := newPair(t, cfg, false, &fixed{win: 2 * wire})
		p.release(0, 0, 10000)
		p.run(horizon)
		if n := len(p.ab.log); n != 2 {
			t.Fatalf("sent %d packets with the algorithm's 2-packet window", n)
		}
	})
	t.Run("bdp", func(t *testing.T) {
		cfg := nic.DefaultConfig()
		cfg.WindowBDP = true
		p := newPair(t, cfg, false, &fixed{})
		p.release(0, 0, 100000)
		p.run(horizon)
		// BDP = 2us x 100G = 25000 B; 23 packets (24104 B) in flight still
		// leave room for a 24th.
		if n := len(p.ab.log); n != 24 {
			t.Fatalf("sent %d packets with a 25000 B BDP window, want 24", n)
		}
	})
}

// Go-back-N at the sender: a NACK for PSN k moves the send point back to
// k, so k and everything after it go again; the NACK counts, reaches the
// algorithm, and resent payload counts as retransmitted.
func TestNackGoesBackN(t *testing.T) {
	alg := &fixed{}
	p := newPair(t, nic.DefaultConfig(), false, alg)
	p.release(0, 0, 5000)
	p.run(horizon)
	at(p.sim, 10*units.Microsecond, func(now units.Time) { p.a.Receive(now, p.ctrl(fabric.Nack, 0, 2), 0) })
	p.run(horizon)
	if got, want := short(p.ab.log), "f0:0, f0:1, f0:2, f0:3, f0:4, f0:2, f0:3, f0:4"; got != want {
		t.Fatalf("sent %s\nwant %s", got, want)
	}
	if d := departed(p.ab.log[5]); d != 10*units.Microsecond {
		t.Errorf("retransmission started at %v, want at the NACK (10us)", d)
	}
	f := p.flows[0]
	if f.Nacks != 1 || alg.nacks != 1 || f.RetxBytes != 3000 || f.DataPktsSent != 8 {
		t.Errorf("Nacks=%d OnNack=%d RetxBytes=%d DataPktsSent=%d, want 1 1 3000 8", f.Nacks, alg.nacks, f.RetxBytes, f.DataPktsSent)
	}
}

// Retransmission timeout: with data outstanding and no ACK progress for
// RTO, the sender goes back to the first unacknowledged PSN and counts a
// timeout; an ACK restarts the clock; with nothing outstanding no timer
// fires.
func TestRetransmissionTimeout(t *testing.T) {
	cfg := nic.DefaultConfig()
	cfg.RTO = 20 * units.Microsecond
	p := newPair(t, cfg, false, &fixed{})
	us := units.Microsecond
	p.release(0, 0, 3000)
	at(p.sim, 30*us, func(now units.Time) { p.a.Receive(now, p.ctrl(fabric.Ack, 0, 1), 0) })
	p.run(55 * us)
	tx := units.TxTime(1048, lineRate)
	want := []struct {
		psn int64
		at  units.Time
	}{{0, 0}, {1, tx}, {2, 2 * tx}, {0, 20 * us}, {1, 20*us + tx}, {2, 20*us + 2*tx}, {1, 50 * us}, {2, 50*us + tx}}
	got := p.ab.kind(fabric.Data)
	if len(got) != len(want) {
		t.Fatalf("sent %s", short(got))
	}
	for i, w := range want {
		if got[i].p.PSN != w.psn || departed(got[i]) != w.at {
			t.Errorf("send %d: psn %d at %v, want psn %d at %v", i, got[i].p.PSN, departed(got[i]), w.psn, w.at)
		}
	}
	f := p.flows[0]
	if f.Timeouts != 2 {
		t.Errorf("Timeouts=%d, want 2", f.Timeouts)
	}
	at(p.sim, 60*us, func(now units.Time) { p.a.Receive(now, p.ctrl(fabric.Ack, 0, 3), 0) })
	p.run(units.Millisecond)
	if f.Timeouts != 2 || f.Outstanding() || len(p.ab.kind(fabric.Data)) != len(want) {
		t.Errorf("after the final ACK: Timeouts=%d Outstanding=%v sends=%d", f.Timeouts, f.Outstanding(), len(p.ab.kind(fabric.Data)))
	}
	if p.sim.Pending() > 1 { // the guard may be left
		t.Errorf("%d events still pending with nothing outstanding", p.sim.Pending())
	}
}

// A PAUSE of the data class stops data but not control packets; RESUME
// restarts it; PausedTime is the paused interval.
func TestPauseStopsDataNotControl(t *testing.T) {
	p := newPair(t, nic.DefaultConfig(), false, &fixed{})
	us := units.Microsecond
	p.pfc(p.a, 0, true)
	p.release(0, 0, 2000)
	p.a.Receive(0, p.ctrl(fabric.CNP, 0, 0), 0) // nothing to send back; just a control event
	p.run(4 * us)
	if len(p.ab.log) != 0 {
		t.Fatalf("sent %s while paused", short(p.ab.log))
	}
	if got := p.a.PausedUntilNow(4 * us); got != 4*us {
		t.Errorf("PausedUntilNow(4us)=%v", got)
	}
	// The receiver side keeps acknowledging while its own data class is
	// paused.
	p.pfc(p.b, 0, true)
	p.b.Receive(us, p.data(0, 0, 1000, false, false), 0)
	p.run(4 * us)
	if got := short(p.ba.log); got != "ACK 1" {
		t.Errorf("paused receiver sent %q, want its ACK", got)
	}
	at(p.sim, 5*us, func(now units.Time) { p.pfc(p.a, now, false) })
	p.run(horizon)
	got := p.ab.kind(fabric.Data)
	if len(got) != 2 || departed(got[0]) != 5*us {
		t.Fatalf("after RESUME at 5us: %s, first at %v", short(got), departed(got[0]))
	}
	if p.a.PausedTime != 5*us || p.a.PausesReceived != 1 {
		t.Errorf("PausedTime=%v PausesReceived=%d, want 5us and 1", p.a.PausedTime, p.a.PausesReceived)
	}
}

// End to end over a direct host-to-host link: message completion calls
// Hooks.Delivered at the receiver when the last packet arrives in order,
// and Hooks.SenderDone at the sender when the completing ACK arrives; the
// message records its times and every packet returns to the pool.
func TestMessageCompletionHooks(t *testing.T) {
	alg := &fixed{}
	p := newPair(t, nic.DefaultConfig(), true, alg)
	us := units.Microsecond
	var m0, m1 *nic.Message
	at(p.sim, 5*us, func(now units.Time) {
		m0 = p.release(now, 0, 3000)
		m1 = p.release(now, 0, 500)
	})
	p.run(horizon)
	tx, ack := units.TxTime(1048, lineRate), units.TxTime(60, lineRate)
	deliv0 := 5*us + 3*tx + linkDel
	deliv1 := 5*us + 3*tx + units.TxTime(548, lineRate) + linkDel
	// B's ACKs leave back to back: one per data packet, 60 B each, as
	// data arrives; the completing one of m0 leaves at deliv0.
	done0 := deliv0 + ack + linkDel
	done1 := deliv1 + ack + linkDel
	wantD := []hookEvent{{deliv0, 0, 0}, {deliv1, 0, 1}}
	wantS := []hookEvent{{done0, 0, 0}, {done1, 0, 1}}
	if fmt.Sprint(p.hooks.delivered) != fmt.Sprint(wantD) || fmt.Sprint(p.hooks.senderDone) != fmt.Sprint(wantS) {
		t.Fatalf("Delivered %v SenderDone %v\nwant      %v %v", p.hooks.delivered, p.hooks.senderDone, wantD, wantS)
	}
	if m0.Release != 5*us || m0.FirstTx != 5*us || m0.Delivered != deliv0 || m0.SenderDone != done0 {
		t.Errorf("m0 times release=%v firstTx=%v delivered=%v senderDone=%v", m0.Release, m0.FirstTx, m0.Delivered, m0.SenderDone)
	}
	if m1.FirstTx != 5*us+3*tx {
		t.Errorf("m1 FirstTx=%v", m1.FirstTx)
	}
	f := p.flows[0]
	if f.Finish != deliv1 || f.Start != 5*us || f.Outstanding() {
		t.Errorf("flow Start=%v Finish=%v Outstanding=%v", f.Start, f.Finish, f.Outstanding())
	}
	var done []cca0
	for _, a := range alg.acks {
		if a.MessageDone {
			done = append(done, cca0{a.MsgID, a.MsgBytes})
		}
	}
	if fmt.Sprint(done) != "[{0 3000} {1 500}]" {
		t.Errorf("completing ACKs told the algorithm %v", done)
	}
	var acked units.Bytes
	for _, a := range alg.acks {
		acked += a.AckedBytes
	}
	if acked != 3500 || len(alg.acks) != 4 {
		t.Errorf("algorithm saw %d ACKs acknowledging %d B, want 4 and 3500", len(alg.acks), acked)
	}
	if p.pool.Live != 0 {
		t.Errorf("pool.Live=%d", p.pool.Live)
	}
	if c := p.b.Counters; c.RecvDataBytes != 3*1048+548 || p.a.Counters.SentDataBytes != c.RecvDataBytes {
		t.Errorf("counters sent %d received %d", p.a.Counters.SentDataBytes, c.RecvDataBytes)
	}
}

type cca0 struct {
	id    int64
	bytes units.Bytes
}

// Go-back-N end to end: one lost packet costs exactly one NACK, the
// receiver accepts the retransmissions in order, the message completes
// once, without a timeout.
func TestLossRecoveredByGoBackN(t *testing.T) {
	p := newPair(t, nic.DefaultConfig(), true, &fixed{})
	lost := false
	p.ab.drop = func(d *fabric.Packet) bool {
		if d.Kind == fabric.Data && d.PSN == 3 && !lost {
			lost = true
			return true
		}
		return false
	}
	p.release(0, 0, 30000)
	p.run(horizon)
	if n := len(p.ba.kind(fabric.Nack)); n != 1 {
		t.Errorf("receiver sent %d NACKs for one loss: %s", n, short(p.ba.kind(fabric.Nack)))
	}
	f := p.flows[0]
	if f.Nacks != 1 || f.Timeouts != 0 || f.RetxBytes == 0 {
		t.Errorf("Nacks=%d Timeouts=%d RetxBytes=%d", f.Nacks, f.Timeouts, f.RetxBytes)
	}
	if len(p.hooks.delivered) != 1 || len(p.hooks.senderDone) != 1 || f.Outstanding() {
		t.Errorf("delivered %v senderDone %v outstanding %v", p.hooks.delivered, p.hooks.senderDone, f.Outstanding())
	}
	// PSNs after the NACK restart at 3 and run up to the end in order.
	data := p.ab.kind(fabric.Data)
	restart := -1
	for i := 1; i < len(data); i++ {
		if data[i].p.PSN < data[i-1].p.PSN {
			restart = i
			break
		}
	}
	if restart < 0 || data[restart].p.PSN != 3 {
		t.Fatalf("no go-back to PSN 3: %s", short(data))
	}
	for i := restart; i < len(data); i++ {
		if data[i].p.PSN != int64(3+i-restart) {
			t.Fatalf("after the go-back: %s", short(data[restart:]))
		}
	}
	if data[len(data)-1].p.PSN != 29 || p.pool.Live != 0 {
		t.Errorf("last PSN %d, pool.Live %d", data[len(data)-1].p.PSN, p.pool.Live)
	}
}

// The HPCC ns-3 simulator's host model (runconfig/hpccmodel.go): ACKs
// travel in their flow's data class (SwitchNode::SendToDev queues them
// with data, its AckHighPrio never being set) and, at the host, wait out a
// PAUSE of that class unless ACK_HIGH_PRIO 1 moved the host's ACK queue to
// index 0 (RdmaEgressQueue::GetNextQindex checks paused[ack_q_idx]).
// TxStep truncates pacing gaps to whole nanoseconds (RdmaHw::UpdateNextAvail
// via Seconds()), and WindowPayload counts the window in payload bytes
// (RdmaQueuePair::GetOnTheFly).
func TestNS3HostModel(t *testing.T) {
	us := units.Microsecond
	for _, ignore := range []bool{false, true} {
		cfg := nic.DefaultConfig()
		cfg.AckInDataClass, cfg.AckIgnoresPause = true, ignore
		p := newPair(t, cfg, false, &fixed{})
		p.pfc(p.b, 0, true) // class 3 paused at the receiver
		p.b.Receive(us, p.data(0, 0, 1000, false, false), 0)
		p.run(4 * us)
		acks := p.ba.kind(fabric.Ack)
		switch {
		case ignore && (len(acks) != 1 || acks[0].p.Prio != cfg.DataPrio):
			t.Errorf("ACK_HIGH_PRIO 1: sent %s, want one ACK in class %d", short(p.ba.log), cfg.DataPrio)
		case !ignore && len(acks) != 0:
			t.Errorf("ACK_HIGH_PRIO 0: sent %s while class %d is paused", short(p.ba.log), cfg.DataPrio)
		}
		at(p.sim, 5*us, func(now units.Time) { p.pfc(p.b, now, false) })
		p.run(horizon)
		if acks := p.ba.kind(fabric.Ack); len(acks) != 1 || acks[0].p.Prio != cfg.DataPrio {
			t.Errorf("ignore=%v: after RESUME sent %s, want one ACK in class %d", ignore, short(p.ba.log), cfg.DataPrio)
		}
	}

	// 1048 B at 37 Gb/s is 226.59 ns: 226 ns with a 1 ns step.
	cfg := nic.DefaultConfig()
	cfg.TxStep = units.Nanosecond
	p := newPair(t, cfg, false, &fixed{rate: 37 * units.Gbps})
	p.release(0, 0, 3000)
	p.run(horizon)
	got := p.ab.kind(fabric.Data)
	if len(got) != 3 || departed(got[1])-departed(got[0]) != 226*units.Nanosecond {
		t.Errorf("paced gap %v, want 226ns", departed(got[1])-departed(got[0]))
	}

	// A window of 2050 B: 2 packets of wire bytes (1048 each) but 3 of
	// payload (1000 each) may be in flight (sending while below it).
	for _, payload := range []bool{false, true} {
		cfg := nic.DefaultConfig()
		cfg.Window, cfg.WindowPayload = 2050, payload
		p := newPair(t, cfg, false, &fixed{})
		p.release(0, 0, 10000)
		p.run(horizon)
		want := 3
		if !payload {
			want = 2
		}
		if n := len(p.ab.log); n != want {
			t.Errorf("WindowPayload=%v: %d packets in a 2050 B window, want %d", payload, n, want)
		}
	}
}

// RepaceOnRateChange (the HPCC ns-3 simulator's RdmaHw::ChangeRate): when
// an ACK changes the rate, the pending gap of the last packet is re-timed
// at the new rate. At 10 Gb/s a 1048 B packet's gap is 838.4 ns; an ACK at
// 100 ns raising the rate to 100 Gb/s (gap 83.84 ns) moves the second
// packet from 838.4 ns to 838.4 - 838.4 + 83.84 = 83.84 ns, so it leaves
// as soon as the ACK arrives. Without the option it waits the old gap.
func TestRepaceOnRateChange(t *testing.T) {
	for _, repace := range []bool{false, true} {
		cfg := nic.DefaultConfig()
		cfg.RepaceOnRateChange = repace
		alg := &fixed{rate: 10 * units.Gbps, ackRate: 100 * units.Gbps}
		p := newPair(t, cfg, false, alg)
		p.release(0, 0, 2000)
		at(p.sim, 100*units.Nanosecond, func(now units.Time) { p.a.Receive(now, p.ctrl(fabric.Ack, 0, 0), 0) })
		p.run(horizon)
		got := p.ab.kind(fabric.Data)
		if len(got) != 2 {
			t.Fatalf("sent %d packets", len(got))
		}
		want := units.TxTime(1048, 10*units.Gbps)
		if repace {
			want = 100 * units.Nanosecond // the re-timed send (83.84 ns) is already due
		}
		if d := departed(got[1]); d != want {
			t.Errorf("repace=%v: second packet left at %v, want %v", repace, d, want)
		}
	}
}

// CNPOnAck (the HPCC ns-3 simulator: RdmaHw::ReceiveUdp flags the ACK of a
// marked packet with CNP, ReceiveAck hands the flag to DCQCN before the
// ACK itself): the receiver sends no CNP packet, and the sender counts a
// CNP and calls OnCNP for each ACK echoing CE.
func TestCNPOnAck(t *testing.T) {
	cfg := nic.DefaultConfig()
	cfg.CNPOnAck = true
	alg := &fixed{}
	p := newPair(t, cfg, false, alg)
	p.b.Receive(0, p.data(0, 0, 1000, true, false), 0)
	p.b.Receive(0, p.data(0, 1, 1000, false, false), 0)
	p.run(horizon)
	if cnps := p.ba.kind(fabric.CNP); len(cnps) != 0 {
		t.Errorf("receiver sent %d CNP packets", len(cnps))
	}
	acks := p.ba.kind(fabric.Ack)
	if len(acks) != 2 || !acks[0].p.ECE || acks[1].p.ECE {
		t.Fatalf("ACKs %s, want two, the first echoing CE", short(p.ba.log))
	}
	// The sender side: its flow started, two ACKs come back, the first
	// echoing CE.
	p.release(p.sim.Now(), 0, 2000)
	for i, ece := range []bool{true, false} {
		a := p.ctrl(fabric.Ack, 0, int64(i+1))
		a.ECE = ece
		p.a.Receive(p.sim.Now(), a, 0)
	}
	if alg.cnps != 1 || len(alg.acks) != 2 {
		t.Errorf("sender saw %d CNPs and %d ACKs, want 1 and 2", alg.cnps, len(alg.acks))
	}
	if f := p.flows[0]; f.CNPs != 1 {
		t.Errorf("Flow.CNPs = %d, want 1", f.CNPs)
	}
}
