package hpcc

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/algo"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// HPCC is the sender of one flow.
type HPCC struct {
	cfg Config

	t          units.Time       // T, picoseconds
	flow       algo.Flow        // rate ceiling (the line rate), from Start
	minRate    units.BitsPerSec // min(cfg.MinRate, line)
	wMin, wMax float64          // MinRate*T and LineRate*T, bytes
	wInit      float64          // W_init = LineRate*T, bytes
	wAI        float64          // W_AI, bytes

	w, wc    float64 // W and the reference window Wc, bytes
	u        float64 // U, the EWMA of the path's utilization
	incStage int

	l      [telemetry.MaxHops]telemetry.Hop // L: the INT of the previous ACK
	nl     int                              // valid entries of l; 0 before the first INT
	lastWc units.Time                       // when Wc last moved (lastUpdateSeq = snd_nxt)

	rttUpdates int64 // per-RTT (updateWc) updates so far
}

var _ cca.Algorithm = (*HPCC)(nil)

// New validates cfg (filling its defaults) and returns an algorithm that
// waits for Start.
func New(cfg Config) (*HPCC, error) {
	return algo.New(cfg, (*Config).validate, newValid)
}

func newValid(cfg Config) *HPCC { return &HPCC{cfg: cfg} }

// Config returns the validated configuration.
func (h *HPCC) Config() Config { return h.cfg }

// Name returns "hpcc".
func (h *HPCC) Name() string { return "hpcc" }

// Start sets W = Wc = W_init = LineRate*T, one bandwidth-delay product
// (paper section 3.2: a new flow starts at line rate), U = 0 and
// incStage = 0, and fixes W_AI. It panics without a positive line rate or
// base RTT (T).
func (h *HPCC) Start(now units.Time, f cca.FlowInfo) {
	*h = *newValid(h.cfg)
	h.flow.Start("hpcc", f)
	h.t = h.cfg.BaseRTT
	if h.t == 0 {
		h.t = f.BaseRTT
	}
	if h.t <= 0 {
		panic("hpcc.Start: non-positive base RTT")
	}
	h.minRate = h.flow.Floor(h.cfg.MinRate)
	h.wMax = bdp(f.LineRate, h.t)
	h.wMin = bdp(h.minRate, h.t)
	h.wInit = h.wMax
	switch {
	case h.cfg.WAI > 0:
		h.wAI = float64(h.cfg.WAI)
	case h.cfg.AIRate > 0 && h.cfg.AIRefRate > 0:
		h.wAI = bdp(h.cfg.AIRate, h.t) * float64(f.LineRate) / float64(h.cfg.AIRefRate)
	case h.cfg.AIRate > 0:
		h.wAI = bdp(h.cfg.AIRate, h.t)
	default:
		h.wAI = h.wInit * (1 - h.cfg.Eta) / float64(h.cfg.AIFlows)
	}
	h.w, h.wc = h.wInit, h.wInit
}

// bdp is r*t in bytes, as a float.
func bdp(r units.BitsPerSec, t units.Time) float64 {
	return float64(r) / 8 * t.Seconds()
}

// OnSend does nothing: HPCC learns everything from ACKs.
func (h *HPCC) OnSend(now units.Time, bytes units.Bytes) { h.mustStart("OnSend") }

// OnAck is Alg. 1 NewAck (lines 21-28). The per-RTT branch (line 22) is
// taken when the acknowledged packet left after the last Wc update, i.e.
// at or after lastWc (see the package comment).
func (h *HPCC) OnAck(now units.Time, a *cca.Ack) {
	h.mustStart("OnAck")
	n := min(a.NumHops, telemetry.MaxHops)
	if n == 0 {
		return // no INT, nothing to measure
	}
	if h.nl != n {
		// First INT (or a path of another length): only record L and
		// start the first RTT, as rdma-hw.cc UpdateRateHp does when
		// m_lastUpdateSeq == 0.
		h.nl = n
		copy(h.l[:], a.Hops[:n])
		h.lastWc = now
		return
	}
	updateWc := now-a.RTT >= h.lastWc // line 22: ack.seq > lastUpdateSeq
	if !updateWc && h.cfg.NoFastReact {
		return // FAST_REACT 0: U, L and W wait for the RTT's end
	}
	if h.measureInflight(a) {
		h.computeWind(updateWc)
	}
	if updateWc {
		h.rttUpdates++
		h.lastWc = now // line 24: lastUpdateSeq = snd_nxt
	}
	copy(h.l[:], a.Hops[:n]) // line 28: L = ack.L
}

// measureInflight is Alg. 1 lines 1-10: it updates U from the ACK's INT
// and the previous ACK's, and reports whether any hop could be measured.
func (h *HPCC) measureInflight(a *cca.Ack) bool {
	T := h.t.Seconds()
	u := 0.0              // line 2
	var tau units.Time    // set with u (line 7)
	measured := false     // some hop has tau > 0
	for i := range h.nl { // line 3
		cur, prev := &a.Hops[i], &h.l[i]
		dt := cur.TS - prev.TS
		if dt <= 0 || cur.LinkRate <= 0 {
			continue // NB: line 4 is undefined here; skip the hop
		}
		measured = true
		b := float64(cur.LinkRate) / 8                             // B, bytes per second
		txRate := float64(cur.TxBytes-prev.TxBytes) / dt.Seconds() // line 4, bytes/s
		q := float64(min(cur.QLen, prev.QLen))                     // line 5
		up := float64(q/float64(b*T)) + float64(txRate/b)          // line 5
		if up > u {                                                // line 6
			u, tau = up, dt // line 7
		}
	}
	if !measured {
		return false
	}
	tau = min(tau, h.t)                           // line 8
	frac := tau.Seconds() / T                     // tau/T
	h.u = float64((1-frac)*h.u) + float64(frac*u) // line 9
	return true
}

// computeWind is Alg. 1 lines 11-20, with W clamped to [wMin, wMax].
func (h *HPCC) computeWind(updateWc bool) {
	eta := h.cfg.Eta
	var w float64
	multiplicative := h.u >= eta || h.incStage >= h.cfg.MaxStage // line 12
	if multiplicative {
		if h.u > 0 {
			w = h.wc/(h.u/eta) + h.wAI // line 13
		} else {
			// NB: U = 0 (nothing measured yet) makes line 13 infinite;
			// the clamp below turns it into the line rate, as the
			// simulator's rate clamp does.
			w = h.wMax
		}
	} else {
		w = h.wc + h.wAI // line 17
	}
	w = min(max(w, h.wMin), h.wMax)
	h.w = w
	if updateWc {
		if multiplicative {
			h.incStage = 0 // line 15
		} else {
			h.incStage++ // line 19
		}
		h.wc = w // lines 15 and 19
	}
}

// OnCNP does nothing: HPCC reacts to INT, not to ECN.
func (h *HPCC) OnCNP(now units.Time) { h.mustStart("OnCNP") }

// OnNack does nothing: the NIC's go-back-N handles the loss.
func (h *HPCC) OnNack(now units.Time) { h.mustStart("OnNack") }

// OnTimer does nothing; no timer is ever requested.
func (h *HPCC) OnTimer(now units.Time) { h.mustStart("OnTimer") }

// NextTimer is always units.Never: HPCC is driven by ACKs alone.
func (h *HPCC) NextTimer() units.Time { return units.Never }

// Rate is R = W/T (Alg. 1 line 27), clamped to [min rate, line rate],
// bits per second.
func (h *HPCC) Rate() units.BitsPerSec {
	if !h.flow.Started() {
		return 0
	}
	r := units.BitsPerSec(h.w * 8 / h.t.Seconds())
	return min(max(r, h.minRate), h.flow.Line())
}

// Window is W rounded to whole bytes, or 0 before Start.
func (h *HPCC) Window() units.Bytes { return units.Bytes(h.w + 0.5) }

// RefWindow is the reference window Wc, bytes.
func (h *HPCC) RefWindow() float64 { return h.wc }

// WindowBytes is W before rounding, bytes.
func (h *HPCC) WindowBytes() float64 { return h.w }

// U is the EWMA of the path's normalized inflight bytes (Alg. 1 line 9).
func (h *HPCC) U() float64 { return h.u }

// IncStage is the number of additive-increase stages since the last
// multiplicative update (Alg. 1 lines 15 and 19).
func (h *HPCC) IncStage() int { return h.incStage }

// AdditiveStep is W_AI in bytes, as fixed at Start.
func (h *HPCC) AdditiveStep() float64 { return h.wAI }

// BaseRTT is T, picoseconds, as fixed at Start.
func (h *HPCC) BaseRTT() units.Time { return h.t }

// Describe formats the state, e.g.
// "W=49612.5B Wc=49612.5B U=0.97 incStage=0 rate=94.9Gbps rttUpdates=3".
func (h *HPCC) Describe() string {
	return fmt.Sprintf("W=%sB Wc=%sB U=%s incStage=%d rate=%v rttUpdates=%d",
		fmtB(h.w), fmtB(h.wc), strconv.FormatFloat(h.u, 'g', 6, 64), h.incStage, h.Rate(), h.rttUpdates)
}

// String is Describe.
func (h *HPCC) String() string { return h.Describe() }

// fmtB prints a byte count with at most two decimals.
func fmtB(b float64) string { return strconv.FormatFloat(math.Round(b*100)/100, 'f', -1, 64) }

func (h *HPCC) mustStart(fn string) { h.flow.MustStart("hpcc", fn) }
