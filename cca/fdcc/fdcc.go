package fdcc

import (
	"math"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// Decision is one step of an agent, what the trainer records.
type Decision struct {
	// Time is when the triggering ACK arrived, picoseconds.
	Time units.Time
	// Obs is the raw observation (FeatureNames order), before
	// InputTransform. The policy read it with the previous History-1
	// decisions' observations of the same flow.
	Obs [NumFeatures]float64
	// INT reports whether QLEN and SWITCHRATE come from telemetry (false
	// until a hop has two samples; they are 0 then).
	INT bool
	// Flows is the egress port's flow count at the most congested hop
	// (telemetry.Hop.Flows; 0 without the switch counter).
	Flows int
	// Output is the action o in [-1, 1] (exploration noise included).
	Output float64
	// Multiplier is the window multiplier a after rescaling and clamping.
	Multiplier float64
	// Window is the window the decision sets, bytes, and Rate the pacing
	// rate that follows, bits per second; both apply at Time + latency.
	Window units.Bytes
	Rate   units.BitsPerSec
}

// Agent is one flow's FDCC controller, a pure state machine: no clock,
// queue or RNG of its own (exploration comes from the trainer's
// SetExplore).
type Agent struct {
	cfg  *Config
	work []float64
	xs   [History * NumFeatures]float64 // transformed history, oldest first
	n    int                            // valid rows of xs

	line      float64    // bits per second
	ownRTT    units.Time // the flow's standalone RTT (normalises RTT and QLEN)
	t         units.Time // baseRTT of INSRATE and the window cap
	pkt       float64    // one packet on the wire, bytes
	bdp, wMin float64    // window cap and floor, bytes

	win   float64 // the window as the updates leave it, bytes (not rounded)
	rate  float64 // applied pacing rate, bits per second
	mult  float64 // a
	lastO float64 // the previous output o

	cong     telemetry.Congestion
	q, sr    float64
	flows    int
	haveINT  bool
	acked    units.Bytes // payload acknowledged since the previous decision
	lastDec  units.Time  // time of the previous decision (or Start)
	lastRTT  units.Time  // RTT sample of the previous decision
	prevRTT  float64     // the previous decision's RTT feature
	prevQ    float64     // and QLEN feature
	decided  int64
	pending  bool
	pendWin  float64
	pendRate float64
	applyAt  units.Time

	hook    func(*Decision)
	explore func(o float64, obs *[NumFeatures]float64) float64
}

var _ cca.Algorithm = (*Agent)(nil)

// New returns an agent with configuration c (validated by Build or
// NewSpec; shared, never modified).
func New(c *Config) *Agent {
	return &Agent{cfg: c, work: make([]float64, c.Policy.WorkSize())}
}

// SetHook makes the agent call fn with every decision (the *Decision is
// reused after fn returns).
func (a *Agent) SetHook(fn func(*Decision)) { a.hook = fn }

// SetExplore makes the agent replace every output o by fn(o, observation),
// clipped to [-1, 1]: the trainer's exploration (noise added to o, a
// random action, or a teacher's action).
func (a *Agent) SetExplore(fn func(o float64, obs *[NumFeatures]float64) float64) { a.explore = fn }

// Name implements cca.Algorithm.
func (a *Agent) Name() string { return "fdcc" }

// Start opens the window at one bandwidth-delay product, in whole
// packets, and sends at line rate (FDCC, Zhang 2023, Section 4.2: flows
// start at link rate; Section 5.3: the window is at most one BDP).
func (a *Agent) Start(now units.Time, f cca.FlowInfo) {
	if f.LineRate <= 0 || f.BaseRTT <= 0 || f.MTU <= 0 {
		panic("fdcc.Start: line rate, base RTT and MTU must be positive")
	}
	c := a.cfg
	a.line, a.ownRTT, a.pkt = float64(f.LineRate), f.BaseRTT, float64(f.MTU)
	a.t = c.BaseRTT
	if a.t == 0 {
		a.t = f.BaseRTT
	}
	a.wMin = float64(c.MinPackets) * a.pkt
	a.bdp = max(a.line*a.t.Seconds()/8, a.wMin)
	a.win, a.rate, a.mult, a.lastO = a.bdp, a.line, 1, 0
	a.n, a.haveINT, a.q, a.sr, a.flows = 0, false, 0, 0, 0
	a.cong.Reset()
	a.acked, a.lastDec, a.lastRTT, a.decided, a.pending = 0, now, 0, 0, false
}

// OnSend implements cca.Algorithm; FDCC does not look at sends.
func (a *Agent) OnSend(now units.Time, bytes units.Bytes) {}

// OnCNP implements cca.Algorithm; FDCC uses no ECN.
func (a *Agent) OnCNP(now units.Time) {}

// OnNack implements cca.Algorithm; the NIC's go-back-N handles loss.
func (a *Agent) OnNack(now units.Time) {}

// OnAck reads the ACK's INT and takes a decision when half the previous
// decision's RTT has passed since it (FDCC, Zhang 2023, Section 4.4: "the
// interval ... based on 1/2 of the previous RTT") and none is pending.
func (a *Agent) OnAck(now units.Time, ack *cca.Ack) {
	a.acked += ack.AckedBytes
	if n := min(ack.NumHops, telemetry.MaxHops); n > 0 {
		if q, sr, hop, ok := a.cong.Observe(ack.Hops[:n], a.ownRTT); ok {
			a.q, a.sr, a.flows, a.haveINT = q, sr, int(ack.Hops[hop].Flows), true
		}
	}
	if a.pending || ack.RTT <= 0 || now-a.lastDec < a.lastRTT/2 || now <= a.lastDec {
		return
	}
	a.decide(now, ack.RTT)
}

// observe builds the observation of a decision at now with RTT sample rtt
// from the agent's state (FDCC, Zhang 2023, Section 4.2, "Observations").
func (a *Agent) observe(now, rtt units.Time) [NumFeatures]float64 {
	dt := now - a.lastDec
	rttN := float64(rtt) / float64(a.ownRTT)
	var dRTT, dQ float64
	if a.decided > 0 {
		ms := float64(dt) / float64(units.Millisecond)
		dRTT, dQ = (rttN-a.prevRTT)/ms, (a.q-a.prevQ)/ms
	}
	return [NumFeatures]float64{
		FeatRTT:        rttN,
		FeatQLen:       a.q,
		FeatSwitchRate: a.sr,
		FeatGoodput:    float64(a.acked) * 8 / dt.Seconds() / a.line,
		FeatDRTT:       dRTT,
		FeatDQLen:      dQ,
		FeatInsRate:    a.rate / a.line,
		FeatLastAction: a.lastO,
	}
}

// decide observes, acts and sets (or schedules) the new window.
func (a *Agent) decide(now, rtt units.Time) {
	obs := a.observe(now, rtt)
	if a.n == History {
		copy(a.xs[:], a.xs[NumFeatures:])
		a.n--
	}
	Transform(a.xs[a.n*NumFeatures:(a.n+1)*NumFeatures], &obs)
	a.n++
	o := a.cfg.Policy.Output(a.xs[:a.n*NumFeatures], a.n, a.work)
	if a.explore != nil {
		o = a.explore(o, &obs)
	}
	o = min(max(o, -1), 1)
	a.mult = a.rescale(o)
	w := min(max(a.win*a.mult, a.wMin), a.bdp)
	r := min(a.whole(w)*8/a.t.Seconds(), a.line)
	if a.hook != nil {
		d := Decision{Time: now, Obs: obs, INT: a.haveINT, Flows: a.flows, Output: o, Multiplier: a.mult,
			Window: units.Bytes(a.whole(w)), Rate: units.BitsPerSec(math.Round(r))}
		a.hook(&d)
	}
	a.prevRTT, a.prevQ = obs[FeatRTT], obs[FeatQLen]
	a.lastDec, a.lastRTT, a.acked, a.lastO = now, rtt, 0, o
	a.decided++
	if a.cfg.Latency == 0 {
		a.win, a.rate = w, r
		return
	}
	a.pending, a.pendWin, a.pendRate, a.applyAt = true, w, r, now+a.cfg.Latency
}

// rescale turns the output o into the multiplier a (FDCC, Zhang 2023,
// Section 4.2's rescale function; clamp from Table 3.1).
func (a *Agent) rescale(o float64) float64 {
	c := a.cfg
	prev := a.mult
	if c.Rescale == RescaleDirect {
		prev = 1
	}
	var m float64
	if o >= 0 {
		m = prev * (1 + c.Alpha*o)
	} else {
		m = prev / (1 - c.Alpha*o)
	}
	return min(max(m, c.AMin), c.AMax)
}

// whole rounds the window w down to whole packets (Section 5.2: "we
// rounded down the updated window to an integer"), at least min_window
// packets. The agent keeps the unrounded window as its state and rounds
// what it applies: rounding the state itself would undo every increase
// smaller than a packet (a 1-packet window times a <= 1.5 stays 1 packet
// for good) while every cut takes at least one, so windows would only
// ever shrink.
func (a *Agent) whole(w float64) float64 {
	return max(math.Floor(w/a.pkt)*a.pkt, a.wMin)
}

// OnTimer applies a pending decision once its latency has passed.
func (a *Agent) OnTimer(now units.Time) {
	if a.pending && now >= a.applyAt {
		a.win, a.rate, a.pending = a.pendWin, a.pendRate, false
	}
}

// NextTimer is when the pending decision applies, or units.Never.
func (a *Agent) NextTimer() units.Time {
	if a.pending {
		return a.applyAt
	}
	return units.Never
}

// Rate is INSRATE = WIN / baseRTT, at most line rate, bits per second.
func (a *Agent) Rate() units.BitsPerSec { return units.BitsPerSec(math.Round(a.rate)) }

// Window is WIN rounded down to whole packets, bytes.
func (a *Agent) Window() units.Bytes { return units.Bytes(a.whole(a.win)) }

// Decisions is the number of decisions taken so far.
func (a *Agent) Decisions() int64 { return a.decided }
