package timely

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/algo"
	"github.com/ccreplay/ccreplay/units"
)

// Branch is the rule of Algorithm 1 the last completion event took.
type Branch int

const (
	// BranchNone means no completion event yet.
	BranchNone Branch = iota
	// BranchLow is rule (1): new_rtt < T_low, additive increase.
	BranchLow
	// BranchHigh is rule (2): new_rtt > T_high, decrease by
	// beta*(1 - T_high/new_rtt).
	BranchHigh
	// BranchIncrease is rule (3) with N = 1.
	BranchIncrease
	// BranchHAI is an increase with N = HAIFactor: rule (3) in hyperactive
	// increase, or rule (1) too with HAIIncrease.
	BranchHAI
	// BranchDecrease is rule (4): positive gradient, decrease by
	// beta*normalized_gradient.
	BranchDecrease
)

// branchNames are the branches' names as used in Describe, in Branch
// order.
var branchNames = []string{"none", "t_low", "t_high", "gradient+", "hai", "gradient-"}

// String returns the branch's name as used in Describe.
func (b Branch) String() string { return algo.Name(b, branchNames, "branch") }

// Timely is the rate controller of one flow.
type Timely struct {
	cfg Config

	flow        algo.Flow  // line rate, from Start
	minRate     float64    // rate floor: min(cfg.MinRate, line), bit/s
	tLow, tHigh units.Time // resolved thresholds
	delta       float64    // resolved additive step, bit/s
	minRTT      units.Time // resolved min_rtt; 0 = use seenMin

	rate       float64    // current rate, bit/s
	prevRTT    units.Time // prev_rtt
	havePrev   bool
	rttDiff    float64 // EWMA of RTT differences, ps
	gradient   float64 // normalized_gradient of the last event
	neg        int     // consecutive events with a negative gradient
	inc        int     // consecutive increases (HAIIncrease)
	acc        units.Bytes
	lastUpdate units.Time // time of the last event (PerRTT)
	seenMin    units.Time // smallest RTT sample so far
	updates    int
	branch     Branch
}

var _ cca.Algorithm = (*Timely)(nil)

// New validates cfg (filling its defaults) and returns an algorithm that
// waits for Start.
func New(cfg Config) (*Timely, error) {
	return algo.New(cfg, (*Config).validate, newValid)
}

func newValid(cfg Config) *Timely { return &Timely{cfg: cfg} }

// Config returns the validated configuration.
func (t *Timely) Config() Config { return t.cfg }

// Name returns "timely".
func (t *Timely) Name() string { return "timely" }

// Start sets the rate to the line rate and resolves the thresholds, delta
// and min_rtt that are relative to the flow.
func (t *Timely) Start(now units.Time, f cca.FlowInfo) {
	*t = *newValid(t.cfg)
	t.flow.Start("timely", f)
	t.minRate = float64(t.flow.Floor(t.cfg.MinRate))
	t.tLow = t.cfg.TLow.resolve(f.BaseRTT)
	t.tHigh = t.cfg.THigh.resolve(f.BaseRTT)
	t.delta = t.cfg.Delta.resolve(f.LineRate)
	t.minRTT = t.cfg.MinRTT
	if t.minRTT == 0 {
		t.minRTT = f.BaseRTT
	}
	t.rate = float64(f.LineRate)
	t.lastUpdate = now
}

// OnSend does nothing: TIMELY reacts to completion events.
func (t *Timely) OnSend(now units.Time, bytes units.Bytes) { t.mustStart("OnSend") }

// OnAck counts acknowledged bytes and runs Algorithm 1 once per completion
// event (see the package comment): when Segment bytes have been
// acknowledged since the previous event or a message completes, or, with
// PerRTT, on the first ACK of a packet sent after the previous event.
func (t *Timely) OnAck(now units.Time, a *cca.Ack) {
	t.mustStart("OnAck")
	if a.AckedBytes <= 0 || a.RTT <= 0 {
		return // a duplicate ACK ends no segment
	}
	if t.seenMin == 0 || a.RTT < t.seenMin {
		t.seenMin = a.RTT
	}
	if t.cfg.PerRTT {
		if now-a.RTT < t.lastUpdate {
			return // the packet left before the previous event
		}
	} else {
		t.acc += a.AckedBytes
		switch {
		case a.MessageDone:
			t.acc = 0
		case t.acc >= t.cfg.Segment:
			t.acc = (t.acc - t.cfg.Segment) % t.cfg.Segment
		default:
			return
		}
	}
	t.lastUpdate = now
	t.update(a.RTT)
}

// update is Algorithm 1 for one completion event of RTT newRTT.
func (t *Timely) update(newRTT units.Time) {
	t.updates++
	if !t.havePrev {
		t.prevRTT, t.havePrev = newRTT, true
		if t.cfg.FirstRecordOnly {
			return
		}
	}
	newDiff := float64(newRTT - t.prevRTT)
	t.prevRTT = newRTT
	// NB: the conversions forbid fusing into an FMA (Go spec, "Arithmetic
	// operators"), which would make results differ between amd64 and arm64.
	t.rttDiff = float64((1-t.cfg.Alpha)*t.rttDiff) + float64(t.cfg.Alpha*newDiff)
	minRTT := t.minRTT
	if minRTT <= 0 {
		minRTT = t.seenMin
	}
	t.gradient = t.rttDiff / float64(minRTT)
	if t.gradient < 0 {
		t.neg++
	} else {
		t.neg = 0
	}
	switch {
	case newRTT < t.tLow: // rule (1)
		t.increase(BranchLow, 1)
	case newRTT > t.tHigh: // rule (2)
		t.decrease(BranchHigh, 1-float64(t.cfg.Beta*(1-float64(t.tHigh)/float64(newRTT))))
	case t.gradient <= 0: // rule (3)
		n := 1
		if t.cfg.HAIMode == HAIGradient && t.neg >= t.cfg.HAIAfter {
			n = t.cfg.HAIFactor
		}
		t.increase(BranchIncrease, n)
	default: // rule (4)
		t.decrease(BranchDecrease, 1-float64(t.cfg.Beta*t.gradient))
	}
}

// increase adds n*delta (HAIIncrease picks n itself), at most to the line
// rate.
func (t *Timely) increase(b Branch, n int) {
	if t.cfg.HAIMode == HAIIncrease {
		n = 1
		if t.inc >= t.cfg.HAIAfter {
			n = t.cfg.HAIFactor
		}
		t.inc++
	}
	if n > 1 {
		b = BranchHAI
	}
	t.branch = b
	t.rate = min(t.rate+float64(n)*t.delta, float64(t.flow.Line()))
}

// decrease multiplies the rate by factor (at least 0), at least to the
// minimum rate.
func (t *Timely) decrease(b Branch, factor float64) {
	t.branch = b
	t.inc = 0
	t.rate = max(t.rate*max(factor, 0), t.minRate)
}

// OnNack does nothing: TIMELY reacts to RTT only.
func (t *Timely) OnNack(now units.Time) { t.mustStart("OnNack") }

// OnCNP does nothing: TIMELY does not use ECN.
func (t *Timely) OnCNP(now units.Time) { t.mustStart("OnCNP") }

// OnTimer does nothing: TIMELY arms no timer.
func (t *Timely) OnTimer(now units.Time) { t.mustStart("OnTimer") }

// NextTimer is always units.Never.
func (t *Timely) NextTimer() units.Time { return units.Never }

// Rate is the current rate, bits per second, rounded to the nearest b/s.
func (t *Timely) Rate() units.BitsPerSec {
	return units.BitsPerSec(math.Round(max(t.rate, 1)))
}

// Window is 0: TIMELY sets no window.
func (t *Timely) Window() units.Bytes { return 0 }

// RTTDiff is rtt_diff, the EWMA of RTT differences, picoseconds.
func (t *Timely) RTTDiff() float64 { return t.rttDiff }

// Gradient is the normalized gradient of the last completion event.
func (t *Timely) Gradient() float64 { return t.gradient }

// Branch is the rule the last completion event took.
func (t *Timely) Branch() Branch { return t.branch }

// Updates is the number of completion events so far.
func (t *Timely) Updates() int { return t.updates }

// Describe formats the state, e.g.
// "rate=50Gbps rtt_diff=1.25us gradient=0.25 neg=0 branch=gradient- updates=3".
func (t *Timely) Describe() string {
	return fmt.Sprintf("rate=%v rtt_diff=%v gradient=%s neg=%d branch=%v updates=%d",
		t.Rate(), units.Time(math.Round(t.rttDiff)), strconv.FormatFloat(t.gradient, 'g', 6, 64),
		t.neg, t.branch, t.updates)
}

// String is Describe.
func (t *Timely) String() string { return t.Describe() }

func (t *Timely) mustStart(fn string) { t.flow.MustStart("timely", fn) }
