package nic_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/units"
)

// TestRTTProbes: an algorithm that is a cca.RTTProber gets an RTT request
// sent right behind a data packet (RL-CC, Tessler 2022, Fig. 2), in the data
// class, one outstanding at a time; the receiver answers at once in the
// control class and the sender reports the round trip: 2 x (1 us + 60 B at
// 100 Gb/s = 4.8 ns) = 2.0096 us on the wired pair. An algorithm that does
// not probe gets no probe.
func TestRTTProbes(t *testing.T) {
	alg := &fixed{probe: true, rate: 10 * units.Gbps}
	p := newPair(t, nic.DefaultConfig(), true, alg)
	p.release(0, 0, 20_000)
	p.run(horizon)
	reqs, resps := p.ab.kind(fabric.RTTReq), p.ba.kind(fabric.RTTResp)
	if len(reqs) < 3 || len(resps) != len(reqs) || len(alg.rtts) != len(reqs) {
		t.Fatalf("%d requests, %d responses, %d samples", len(reqs), len(resps), len(alg.rtts))
	}
	data := p.ab.kind(fabric.Data)
	if reqs[0].p.Prio != p.cfg.DataPrio || reqs[0].p.Size != p.cfg.AckBytes || resps[0].p.Prio != fabric.ControlPrio {
		t.Fatalf("request %v prio %d, response prio %d", &reqs[0].p, reqs[0].p.Prio, resps[0].p.Prio)
	}
	if got, want := departed(reqs[0]), data[0].at-linkDel; got != want {
		t.Fatalf("first request left at %v, want right behind the first data packet (%v)", got, want)
	}
	const rtt = 2*linkDel + 2*4800*units.Picosecond
	for i, r := range alg.rtts {
		if r != rtt {
			t.Fatalf("sample %d = %v, want %v", i, r, rtt)
		}
		if i > 0 && departed(reqs[i]) < resps[i-1].at {
			t.Fatalf("request %d left at %v before the answer to %d came back at %v", i, departed(reqs[i]), i-1, resps[i-1].at)
		}
	}
	if f := p.flows[0]; f.RTTProbes != int64(len(reqs)) || f.RTTResponses != int64(len(resps)) {
		t.Fatalf("counters %d / %d", f.RTTProbes, f.RTTResponses)
	}

	plain := &fixed{rate: 10 * units.Gbps}
	q := newPair(t, nic.DefaultConfig(), true, plain)
	q.release(0, 0, 20_000)
	q.run(horizon)
	if n := len(q.ab.kind(fabric.RTTReq)); n != 0 || len(plain.rtts) != 0 {
		t.Fatalf("a non-probing algorithm got %d requests", n)
	}
}

// TestRTTProbeTimeout: requests lost on the way leave the flow waiting
// ProbeTimeout, then it probes again behind its next data packet.
func TestRTTProbeTimeout(t *testing.T) {
	cfg := nic.DefaultConfig()
	cfg.ProbeTimeout = 5 * units.Microsecond
	alg := &fixed{probe: true, rate: 10 * units.Gbps}
	p := newPair(t, cfg, true, alg)
	p.ab.drop = func(pk *fabric.Packet) bool { return pk.Kind == fabric.RTTReq }
	p.release(0, 0, 100_000) // 100 packets, about 84 us at 10 Gb/s
	p.run(horizon)
	reqs := p.ab.kind(fabric.RTTReq)
	gap := units.TxTime(1048, 10*units.Gbps)
	for i := 1; i < len(reqs); i++ {
		d := departed(reqs[i]) - departed(reqs[i-1])
		if d < cfg.ProbeTimeout || d > cfg.ProbeTimeout+gap+units.Nanosecond {
			t.Fatalf("requests %d and %d %v apart, want %v to %v", i-1, i, d, cfg.ProbeTimeout, cfg.ProbeTimeout+gap)
		}
	}
	if len(reqs) < 15 || len(alg.rtts) != 0 {
		t.Fatalf("%d requests, %d samples", len(reqs), len(alg.rtts))
	}
	bad := nic.DefaultConfig()
	bad.ProbeTimeout = -1
	if bad.Validate() == nil {
		t.Fatal("a negative probe timeout passed validation")
	}
}

// TestRTTProbeObeysPause: an RTT request travels in its flow's data class
// (RL-CC, Tessler 2022, Fig. 2: it sits behind the burst's last data
// packet), so a PFC PAUSE of that class holds it like data: it does not
// leave while the class is paused, ACK, CNP and RTT responses (class 0) are
// not stuck behind it, QueuedControl lists it while it waits, and it is the
// first packet out at RESUME, ahead of the flow's remaining data.
func TestRTTProbeObeysPause(t *testing.T) {
	us := units.Microsecond
	alg := &fixed{probe: true}
	p := newPair(t, nic.DefaultConfig(), false, alg)
	p.release(0, 0, 3000) // 3 packets at line rate; a request follows the first
	// The first data packet leaves at 0 and takes 83.84 ns to serialize;
	// the PAUSE arrives while it is on the wire, with the request queued.
	at(p.sim, 10*units.Nanosecond, func(now units.Time) { p.pfc(p.a, now, true) })
	// While paused, host 0 receives a CE-marked data packet (it answers
	// with a CNP and an ACK) and an RTT request (it answers at once).
	at(p.sim, us, func(now units.Time) {
		p.a.Receive(now, p.data(0, 0, 1000, true, false), 0)
		req := p.pool.Get()
		req.Kind, req.Prio, req.Flow, req.Src, req.Dst, req.Size, req.SentAt = fabric.RTTReq, p.cfg.DataPrio, 0, 1, 0, 60, now
		p.a.Receive(now, req, 0)
	})
	var queued []fabric.Kind
	at(p.sim, 3*us, func(units.Time) {
		p.a.QueuedControl(func(pk *fabric.Packet) { queued = append(queued, pk.Kind) })
	})
	at(p.sim, 5*us, func(now units.Time) { p.pfc(p.a, now, false) })
	p.run(20 * us)

	if len(queued) != 1 || queued[0] != fabric.RTTReq {
		t.Errorf("QueuedControl while paused = %v, want the held RTT request", queued)
	}
	var ctrlWhilePaused, afterResume []sent
	for _, s := range p.ab.log {
		switch d := departed(s); {
		case d < 5*us && s.p.Kind != fabric.Data:
			ctrlWhilePaused = append(ctrlWhilePaused, s)
		case d >= 5*us:
			afterResume = append(afterResume, s)
		}
	}
	for _, s := range ctrlWhilePaused {
		if s.p.Kind == fabric.RTTReq || departed(s) < us {
			t.Errorf("%v left at %v while its class was paused", &s.p, departed(s))
		}
	}
	if got := short(ctrlWhilePaused); got != "CNP, ACK 1 ece, RTT_RESP" || departed(ctrlWhilePaused[0]) != us {
		t.Errorf("control sent while paused: %s, want CNP, ACK 1 ece, RTT_RESP from 1us on", got)
	}
	if len(afterResume) < 3 || afterResume[0].p.Kind != fabric.RTTReq || departed(afterResume[0]) != 5*us {
		t.Fatalf("after RESUME: %s, want the RTT request at 5us, then data", short(afterResume))
	}
	if got := short(afterResume[1:]); got != "f0:1, f0:2" {
		t.Errorf("data after the request: %s, want f0:1, f0:2", got)
	}
	if reqs := p.ab.kind(fabric.RTTReq); len(reqs) != 1 || reqs[0].p.SentAt != 5*us {
		t.Errorf("requests %s, want one stamped as it left at 5us", short(reqs))
	}
}
