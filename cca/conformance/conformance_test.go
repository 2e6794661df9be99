package conformance_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/cca/swift"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// reaction is what an algorithm reacts to under congestion, with the rule
// of its paper the backoff check relies on; "" for an algorithm that
// reacts to nothing (it is checked only for bounds, determinism and
// allocations). A newly registered algorithm must be added here.
var reaction = map[string]string{
	"dcqcn":     "CNPs: R_T = R_C, R_C = R_C*(1 - alpha/2), alpha -> 1 (Zhu et al. 2015 Eq. (1)-(2))",
	"dolce":     "CNPs: R_T = beta*R_C, R_C = (1 - alpha/2)*R_C with the arm's alpha and beta (Dolce-RC, Ye 2023, Eq. (1)-(2))",
	"dolceplus": "ECN echoes in each message's ACKs: X = ideal/actual MCT * (1 - ECN ratio)^i (Dolce-RC, Ye 2023, Eq. (5)) makes DR-UCB pick the low rates",
	"dctcp":     "ECN echoes: alpha -> 1 (Eq. (1)) and R = R*(1 - alpha/2) once per window (Alizadeh et al. 2010 Eq. (2))",
	"hpcc":      "INT: U = qlen/(B*T) + txRate/B > eta, W = Wc/(U/eta) + W_AI (Li et al. 2019 Alg. 1 lines 5 and 13)",
	"swift":     "RTT above the target delay: cwnd *= max(1 - beta*(delay-target)/delay, 1 - max_mdf) once per RTT (Kumar et al. 2020 Alg. 1)",
	"timely":    "RTT above T_high: rate *= 1 - beta*(1 - T_high/new_rtt) (Mittal et al. 2015 Alg. 1 rule (2))",
	"rlcc":      "RTT inflation (probe responses) and CNP counts: rate = a*rate with the policy's action a (RL-CC, Tessler 2022 \"Actions\", RL-CC-NIC (Fuhrer 2023))",
	"fdcc":      "INT and RTT: the shared policy's output o sets a = 1 + 0.5 o or 1/(1 - 0.5 o), WIN = WIN*a, rate = WIN/baseRTT (FDCC, Zhang 2023, Sec. 4.2); what it does under congestion is learned",
	"linerate":  "",
}

// recoveryBound is the simulated time within which every algorithm climbs
// back to half the line rate once congestion ends (the slowest, DCQCN's
// and Dolce-RC's additive increase from the rate floor, takes tens of ms
// at 10 Gb/s).
const recoveryBound = 500 * units.Millisecond

// spec is one algorithm with one preset.
type spec struct {
	name, full string
	s          cca.Spec
}

// specs builds every registered algorithm with every preset.
func specs(t *testing.T) []spec {
	r := all.Registry()
	var out []spec
	for _, name := range r.Names() {
		if _, ok := reaction[name]; !ok {
			t.Errorf("%s: not in the conformance table: add what it reacts to", name)
		}
	}
	for _, full := range r.Presets() {
		s, err := r.Build(full, nil)
		if err != nil {
			t.Fatalf("%s: %v", full, err)
		}
		name, _, _ := strings.Cut(full, ":")
		if _, ok := reaction[name]; ok {
			out = append(out, spec{name, full, s})
		}
	}
	return out
}

func flowInfo(line units.BitsPerSec) cca.FlowInfo {
	return cca.FlowInfo{LineRate: line, BaseRTT: 8 * units.Microsecond, MTU: 1048, Hops: 2}
}

// minRate is the floor the spec promises: min_rate when it has one (else
// 1 b/s), never above the line rate.
func minRate(t *testing.T, s cca.Spec, line units.BitsPerSec) units.BitsPerSec {
	v, ok := s.Params["min_rate"]
	if !ok {
		return 1
	}
	r, err := units.ParseRate(v)
	if err != nil {
		t.Fatalf("%s: min_rate %q: %v", s.Name, v, err)
	}
	return min(r, line)
}

// windowBounds are the bounds of the window an algorithm defines (0, 0
// for none).
func windowBounds(t *testing.T, name string, s cca.Spec, a cca.Algorithm, f cca.FlowInfo) (lo, hi units.Bytes) {
	bdp := units.BytesIn(f.BaseRTT, f.LineRate)
	switch name {
	case "hpcc":
		// Alg. 1 with W clamped to [MinRate*T, W_init = LineRate*T].
		T := f.BaseRTT
		if v := s.Params["base_rtt"]; v != "path" {
			T, _ = units.ParseDuration(v)
		}
		return units.BytesIn(T, minRate(t, s, f.LineRate)) - 1, units.BytesIn(T, f.LineRate) + 1
	case "fdcc":
		// Sec. 5.2-5.3: whole packets, at most one BDP, at least
		// min_window packets.
		T := f.BaseRTT
		if v := s.Params["base_rtt"]; v != "path" {
			T, _ = units.ParseDuration(v)
		}
		n, _ := strconv.Atoi(s.Params["min_window"])
		return units.Bytes(n) * f.MTU, max(units.BytesIn(T, f.LineRate), units.Bytes(n)*f.MTU)
	case "swift":
		// Alg. 1 clamps cwnd to [min_cwnd, max_cwnd]; below one packet
		// the window is one MTU and pacing spaces the packets.
		return f.MTU, max(f.MTU, units.Bytes(a.(*swift.Swift).MaxCwnd()*float64(f.MTU)+0.5))
	case "dctcp":
		bdp = max(bdp, f.MTU, 1)
		switch s.Params["window"] {
		case "bdp":
			return bdp, bdp
		case "var":
			return 1, bdp // BDP*R/LineRate, R <= LineRate
		}
	case "dcqcn", "dolce":
		switch v := s.Params["window"]; v {
		case "none":
		case "bdp":
			return max(bdp, f.MTU), max(bdp, f.MTU)
		default:
			w, _ := units.ParseSize(v)
			return w, w
		}
	}
	return 0, 0
}

// randomEvents drives two instances of s through the same long random
// sequence of every event an algorithm can get and calls check after each.
func randomEvents(t *testing.T, s cca.Spec, info cca.FlowInfo, seed uint64, n int, check func(a, b cca.Algorithm, what string)) {
	rng := rand.New(rand.NewPCG(seed, 7))
	a, b := s.New(), s.New()
	a.Start(0, info)
	b.Start(0, info)
	now, tx, msg, started := units.Time(0), units.Bytes(0), int64(0), int64(0)
	var ack cca.Ack
	for i := range n {
		now += units.Time(rng.Int64N(int64(20 * units.Microsecond)))
		var what string
		for _, x := range []cca.Algorithm{a, b} {
			if at := x.NextTimer(); at < now {
				x.OnTimer(now)
			}
		}
		for _, x := range []cca.Algorithm{a, b} {
			r := rand.New(rand.NewPCG(seed, uint64(i))) // the same draws for a and b
			switch k := r.IntN(10); {
			case k < 3:
				what = "send"
				x.OnSend(now, units.Bytes(r.IntN(4*int(info.MTU))+64))
			case k < 7:
				what = "ack"
				ack = cca.Ack{AckedBytes: units.Bytes(r.IntN(4 * int(info.MTU))), ECE: r.IntN(3) == 0}
				if r.IntN(10) > 0 {
					ack.RTT = info.BaseRTT/2 + units.Time(r.Int64N(int64(100*info.BaseRTT)))
				}
				if s.NeedsINT && r.IntN(8) > 0 {
					ack.NumHops = 1
					ack.Hops[0] = telemetry.Hop{QLen: units.Bytes(r.IntN(2_000_000)), TxBytes: tx + units.Bytes(r.IntN(100_000)),
						TS: now - units.Time(r.Int64N(int64(info.BaseRTT))), LinkRate: info.LineRate}
				}
				if r.IntN(20) == 0 && started > 0 {
					ack.MessageDone, ack.MsgID, ack.MsgBytes = true, msg, msgBytes
					ack.MsgFirstTx = now - units.Time(r.Int64N(int64(200*units.Microsecond)))
				}
				x.OnAck(now, &ack)
			case k == 7:
				what = "cnp"
				x.OnCNP(now)
			case k == 8:
				what = "nack"
				x.OnNack(now)
			default:
				switch y := x.(type) {
				case cca.MessageObserver:
					what = "message"
					y.OnMessageStart(now, cca.MessageInfo{ID: msg + 1, Bytes: msgBytes, Release: now})
				case cca.TimeoutObserver:
					what = "timeout"
					y.OnTimeout(now)
				case cca.RTTProber:
					what = "probe"
					y.OnRTT(now, info.BaseRTT+units.Time(r.Int64N(int64(100*info.BaseRTT))))
				default:
					what = "timer"
					x.OnTimer(now)
				}
			}
		}
		if what == "message" {
			msg++
			started++
		}
		if ack.NumHops > 0 {
			tx = ack.Hops[0].TxBytes
		}
		check(a, b, what)
	}
}

// TestBoundsAndDeterminism: over long random event sequences (every kind of event, with
// RTTs up to 100 base RTTs, random ECN echoes, INT queues up to 2 MB), the
// rate stays in [min rate, line rate] and the window within the bounds of
// its algorithm; and, since both instances get the same sequence, the
// decisions are deterministic: same rate, window and timer after every
// event.
func TestBoundsAndDeterminism(t *testing.T) {
	for _, line := range []units.BitsPerSec{10 * units.Gbps, 100 * units.Gbps} {
		for i, sp := range specs(t) {
			t.Run(fmt.Sprintf("%s/%v", sp.full, line), func(t *testing.T) {
				info := flowInfo(line)
				lo := minRate(t, sp.s, line)
				n := 0
				randomEvents(t, sp.s, info, uint64(i+1), 20000, func(a, b cca.Algorithm, what string) {
					n++
					if r := a.Rate(); r < lo || r > line {
						t.Fatalf("event %d (%s): rate %v outside [%v, %v]", n, what, r, lo, line)
					}
					wlo, whi := windowBounds(t, sp.name, sp.s, a, info)
					if w := a.Window(); (whi == 0 && w != 0) || (whi > 0 && (w < wlo || w > whi)) {
						t.Fatalf("event %d (%s): window %d outside [%d, %d]", n, what, w, wlo, whi)
					}
					if a.Rate() != b.Rate() || a.Window() != b.Window() || a.NextTimer() != b.NextTimer() {
						t.Fatalf("event %d (%s): same events, different decisions: rate %v/%v window %d/%d timer %v/%v",
							n, what, a.Rate(), b.Rate(), a.Window(), b.Window(), a.NextTimer(), b.NextTimer())
					}
				})
			})
		}
	}
}

// TestBackoffAndRecovery runs one flow at 10 and 100 Gb/s: 2 ms without
// congestion, 40 ms with a standing queue of 1 MB at the bottleneck
// (every signal of congestion, see flow), then no congestion again. The
// mean rate over the last 20 ms of congestion must be at most half the
// line rate and at most half the mean rate of the same flow without
// congestion (the rule each algorithm's row of reaction cites), and once
// congestion ends the mean rate over a millisecond must be back to half
// the line rate within recoveryBound.
func TestBackoffAndRecovery(t *testing.T) {
	for _, line := range []units.BitsPerSec{10 * units.Gbps, 100 * units.Gbps} {
		for _, sp := range specs(t) {
			t.Run(fmt.Sprintf("%s/%v", sp.full, line), func(t *testing.T) {
				ref := newFlow(sp.s, flowInfo(line))
				ref.run(22*units.Millisecond, nil)
				ref.resetMean()
				ref.run(42*units.Millisecond, nil)
				free := ref.meanRate() / float64(line)

				f := newFlow(sp.s, flowInfo(line))
				f.run(2*units.Millisecond, nil)
				f.congested, f.queue = true, units.MB
				f.run(22*units.Millisecond, nil)
				f.resetMean()
				f.run(42*units.Millisecond, nil)
				cong := f.meanRate() / float64(line)
				f.congested = false
				end, back := f.now, units.Never
				for f.now < end+recoveryBound && back == units.Never {
					f.resetMean()
					f.run(f.now+units.Millisecond, nil)
					if f.meanRate() >= float64(line)/2 {
						back = f.now - end
					}
				}
				t.Logf("%s at %v: mean rate %.4f of the line rate without congestion, %.4f with; back to half the line rate within %v",
					sp.full, line, free, cong, back)
				if reaction[sp.name] == "" {
					return
				}
				if cong > 0.5 || cong > free/2 {
					t.Errorf("mean rate under sustained congestion %.3f of the line rate, want at most 0.5 and half the %.3f without congestion (%s)",
						cong, free, reaction[sp.name])
				}
				if back == units.Never {
					t.Errorf("mean rate %v after %v without congestion, want half the line rate %v (%s)",
						units.BitsPerSec(f.meanRate()), recoveryBound, line/2, reaction[sp.name])
				}
			})
		}
	}
}

// TestAckAllocs: OnAck allocates nothing in steady state (the NIC calls it
// for every ACK); nor do the other per-packet event methods.
func TestAckAllocs(t *testing.T) {
	for _, sp := range specs(t) {
		t.Run(sp.full, func(t *testing.T) {
			info := flowInfo(100 * units.Gbps)
			f := newFlow(sp.s, info)
			f.run(units.Millisecond, nil)
			a, now := f.a, f.now
			ack := &cca.Ack{AckedBytes: 1000, RTT: info.BaseRTT}
			if sp.s.NeedsINT {
				ack.NumHops = 1
				ack.Hops[0] = telemetry.Hop{TxBytes: f.txBytes, TS: now, LinkRate: info.LineRate}
			}
			step := func() {
				now += 100 * units.Nanosecond
				ack.Hops[0].TS, ack.Hops[0].TxBytes = now, ack.Hops[0].TxBytes+1000
			}
			var msgs []string
			for _, m := range []struct {
				name string
				fn   func()
			}{
				{"OnAck", func() { step(); a.OnAck(now, ack) }},
				{"OnSend", func() { step(); a.OnSend(now, info.MTU) }},
				{"OnCNP", func() { step(); a.OnCNP(now) }},
				{"OnNack", func() { step(); a.OnNack(now) }},
				{"OnTimer", func() { step(); a.OnTimer(now) }},
			} {
				if n := testing.AllocsPerRun(1000, m.fn); n != 0 {
					msgs = append(msgs, fmt.Sprintf("%s allocates %v times per call", m.name, n))
				}
			}
			if p, ok := a.(cca.RTTProber); ok {
				if n := testing.AllocsPerRun(1000, func() { step(); p.OnRTT(now, info.BaseRTT) }); n != 0 {
					msgs = append(msgs, fmt.Sprintf("OnRTT allocates %v times per call", n))
				}
			}
			if len(msgs) > 0 {
				t.Error(strings.Join(msgs, "; "))
			}
		})
	}
}
