package rlcc

import (
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// Decision is one action of an agent, what training and datasets record.
type Decision struct {
	// Time is when the triggering ACK arrived, picoseconds.
	Time units.Time
	// Features is the observation, in FeatureNames order.
	Features [NumFeatures]float64
	// Action is the multiplier chosen, clamped to the action range.
	Action float64
	// Rate is the rate the action sets (a x the current rate, clamped to
	// [MinRate, line rate]), bits per second; it applies at Time + latency.
	Rate units.BitsPerSec
}

// Agent is one flow's RL-CC controller, a pure state machine (no clock,
// queue or RNG of its own). It acts once per RTT: on the first ACK whose
// packet was sent at or after the previous decision was applied (RL-CC, Tessler 2022,
// Section 6 "Transitions": event-triggered RTT intervals). The action
// multiplies the rate (rate_{t+1} = a_t x rate_t, RL-CC (Tessler 2022) "Actions"),
// and the new rate takes effect Latency after the ACK (RL-CC-NIC, Fuhrer 2023, Table I);
// until then no new decision is taken, as the NIC's CC engine is busy.
type Agent struct {
	cfg        *Config
	amin, amax float64
	work       []float64
	x          [NumFeatures]float64

	line, minRate float64 // bits per second
	baseRTT       units.Time

	rate      float64 // applied rate, bits per second
	pending   bool    // a decision waits for its latency
	pendRate  float64
	applyAt   units.Time
	appliedAt units.Time // when the last decision took effect (or Start)

	cnps, nacks int     // since the previous decision
	prevAction  float64 // the values at the previous decision
	prevRate    float64 // rate_frac
	prevInfl    float64
	decisions   int64

	hook      func(*Decision)
	startFrac float64 // StartAt's fraction of line rate; 0 = line rate
}

var (
	_ cca.Algorithm = (*Agent)(nil)
	_ cca.RTTProber = (*Agent)(nil)
)

// New returns an agent with configuration c (validated by Build or
// NewSpec; shared, never modified).
func New(c *Config) *Agent {
	a := &Agent{cfg: c, work: make([]float64, c.Policy.WorkSize())}
	a.amin, a.amax = c.Range()
	return a
}

// SetHook makes the agent call fn with every decision it takes (the
// trainer's trajectory recorder; the *Decision is reused after fn returns).
func (a *Agent) SetHook(fn func(*Decision)) { a.hook = fn }

// Name implements cca.Algorithm.
func (a *Agent) Name() string { return "rlcc" }

// Start begins at line rate, as RDMA NICs do, with an empty history.
func (a *Agent) Start(now units.Time, f cca.FlowInfo) {
	a.line = float64(f.LineRate)
	a.minRate = min(float64(a.cfg.MinRate), a.line)
	a.baseRTT = max(f.BaseRTT, 1)
	a.rate = a.line
	a.appliedAt = now
	a.prevAction, a.prevRate, a.prevInfl = 1, 1, 1
	if a.startFrac > 0 {
		a.SetStartRate(a.startFrac)
	}
}

// StartAt makes Start begin at frac x line rate instead of line rate (see
// SetStartRate); call it before Start, e.g. from replay.Config.WrapCC.
// 0 or 1 keeps line rate.
func (a *Agent) StartAt(frac float64) { a.startFrac = frac }

// SetStartRate sets the rate, and the previous decision's rate feature, to
// frac x line rate (clamped to [MinRate, line rate]). Call it right after
// Start: trainers use it to start flows away from line rate so that the
// policy sees unequal rates at the same RTT inflation (the signal that
// drives flows to the fair share, RL-CC (Tessler 2022), Proposition 1).
func (a *Agent) SetStartRate(frac float64) {
	r := min(max(frac*a.line, a.minRate), a.line)
	a.rate, a.prevRate = r, r/a.line
}

// OnSend implements cca.Algorithm; RL-CC does not look at sends.
func (a *Agent) OnSend(now units.Time, bytes units.Bytes) {}

// OnCNP counts a congestion notification for the next observation.
func (a *Agent) OnCNP(now units.Time) { a.cnps++ }

// OnNack counts a NACK for the next observation.
func (a *Agent) OnNack(now units.Time) { a.nacks++ }

// OnAck takes a decision, when the agent reads RTT from data ACKs
// (Config.AckRTT), if the acknowledged packet left after the previous
// decision took effect and no decision is pending.
func (a *Agent) OnAck(now units.Time, ack *cca.Ack) {
	if a.cfg.AckRTT {
		a.onRTT(now, ack.RTT)
	}
}

// ProbesRTT implements cca.RTTProber: true unless Config.AckRTT.
func (a *Agent) ProbesRTT() bool { return !a.cfg.AckRTT }

// OnRTT implements cca.RTTProber: an RTT response triggers a decision if
// its request left after the previous decision took effect and no
// decision is pending (RL-CC, Tessler 2022, Section 6 "Transitions": the agent acts
// once an RTT packet is received).
func (a *Agent) OnRTT(now, rtt units.Time) {
	if !a.cfg.AckRTT {
		a.onRTT(now, rtt)
	}
}

func (a *Agent) onRTT(now, rtt units.Time) {
	if a.pending || rtt <= 0 || now-rtt < a.appliedAt {
		return
	}
	a.decide(now, rtt)
}

// decide observes, acts and schedules the new rate.
func (a *Agent) decide(now, rtt units.Time) {
	rf := a.rate / a.line
	infl := float64(rtt) / float64(a.baseRTT)
	a.x = [NumFeatures]float64{rf, infl, float64(a.cnps), float64(a.nacks), a.prevAction, a.prevRate, a.prevInfl}
	act := a.cfg.Policy.Action(a.x[:], a.work)
	act = min(max(act, a.amin), a.amax)
	next := min(max(act*a.rate, a.minRate), a.line)
	a.prevAction, a.prevRate, a.prevInfl = act, rf, infl
	a.cnps, a.nacks = 0, 0
	a.decisions++
	if a.hook != nil {
		d := Decision{Time: now, Features: a.x, Action: act, Rate: units.BitsPerSec(math.Round(next))}
		a.hook(&d)
	}
	if a.cfg.Latency == 0 {
		a.rate, a.appliedAt = next, now
		return
	}
	a.pending, a.pendRate, a.applyAt = true, next, now+a.cfg.Latency
}

// OnTimer applies a pending decision once its latency has passed.
func (a *Agent) OnTimer(now units.Time) {
	if a.pending && now >= a.applyAt {
		a.rate, a.appliedAt, a.pending = a.pendRate, now, false
	}
}

// NextTimer is when the pending decision applies, or units.Never.
func (a *Agent) NextTimer() units.Time {
	if a.pending {
		return a.applyAt
	}
	return units.Never
}

// Rate is the applied rate, bits per second.
func (a *Agent) Rate() units.BitsPerSec { return units.BitsPerSec(math.Round(a.rate)) }

// Window is 0: RL-CC is purely rate based.
func (a *Agent) Window() units.Bytes { return 0 }

// Decisions is the number of decisions taken so far.
func (a *Agent) Decisions() int64 { return a.decisions }

// Describe is the agent's state on one line (tests and logs).
func (a *Agent) Describe() string {
	s := fmt.Sprintf("rate=%.4gGbps decisions=%d cnps=%d nacks=%d prev=(a %.4g, rate %.4g, infl %.4g)",
		a.rate/1e9, a.decisions, a.cnps, a.nacks, a.prevAction, a.prevRate, a.prevInfl)
	if a.pending {
		s += fmt.Sprintf(" pending=%.4gGbps@%v", a.pendRate/1e9, a.applyAt)
	}
	return s
}
