package dctcp

import (
	"fmt"
	"strconv"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/algo"
	"github.com/ccreplay/ccreplay/units"
)

// DCTCP is the sender of one flow.
type DCTCP struct {
	cfg Config

	flow    algo.Flow        // R ceiling (the line rate), from Start
	minRate units.BitsPerSec // min(cfg.MinRate, line)
	ai      units.BitsPerSec // R_AI, fixed at Start
	bdp     units.Bytes      // LineRate*BaseRTT, at least one MTU

	rate  units.BitsPerSec // R
	alpha float64

	begun    bool        // the first ACK has started the first window
	winStart units.Time  // when the current window began (m_lastUpdateSeq = snd_nxt)
	acked    units.Bytes // payload acknowledged in the current window
	marked   units.Bytes // of which by ACKs with ECE
	lastF    float64     // F of the last completed window
	cwr      bool        // a cut happened and its window is not yet acknowledged
	cwrStart units.Time  // when the last cut happened (m_highSeq = snd_nxt)
	windows  int64       // completed windows (alpha updates)
	cuts     int64       // rate cuts
}

var _ cca.Algorithm = (*DCTCP)(nil)

// New validates cfg (filling its defaults) and returns an algorithm that
// waits for Start.
func New(cfg Config) (*DCTCP, error) {
	return algo.New(cfg, (*Config).validate, newValid)
}

func newValid(cfg Config) *DCTCP { return &DCTCP{cfg: cfg} }

// Config returns the validated configuration.
func (d *DCTCP) Config() Config { return d.cfg }

// Name returns "dctcp".
func (d *DCTCP) Name() string { return "dctcp" }

// Start sets R to the line rate (the HPCC simulator starts every QP at
// line rate) and alpha to its initial value, and fixes R_AI and the BDP.
// It panics without a positive line rate, or without a positive base RTT
// when R_AI is one MTU per RTT.
func (d *DCTCP) Start(now units.Time, f cca.FlowInfo) {
	*d = *newValid(d.cfg)
	d.flow.Start("dctcp", f)
	d.minRate = d.flow.Floor(d.cfg.MinRate)
	d.rate = f.LineRate
	d.alpha = d.cfg.AlphaInit
	d.ai = d.cfg.AIRate
	if d.cfg.AIPerRTT {
		if f.BaseRTT <= 0 || f.MTU <= 0 {
			panic("dctcp.Start: ai_rate=mtu-per-rtt needs a positive base RTT and MTU")
		}
		d.ai = max(1, units.BitsPerSec(float64(f.MTU)*8/f.BaseRTT.Seconds()))
	}
	d.bdp = max(units.BytesIn(f.BaseRTT, f.LineRate), f.MTU, 1)
}

// OnSend does nothing: DCTCP learns everything from ACKs.
func (d *DCTCP) OnSend(now units.Time, bytes units.Bytes) { d.mustStart("OnSend") }

// OnAck runs one ACK through HandleAckDctcp's steps (see the package
// comment): alpha once per window (Eq. (1)), at most one cut per window
// (Eq. (2)), additive increase once per window outside CWR.
func (d *DCTCP) OnAck(now units.Time, a *cca.Ack) {
	d.mustStart("OnAck")
	sentAt := now - a.RTT
	d.acked += a.AckedBytes
	if a.ECE {
		d.marked += a.AckedBytes
	}
	newWindow := false
	switch {
	case !d.begun:
		// First ACK: the first window starts now; its bytes stay counted.
		d.begun, newWindow = true, true
		d.winStart = now
	case sentAt >= d.winStart:
		newWindow = true
		d.lastF = 0
		if d.acked > 0 {
			d.lastF = float64(d.marked) / float64(d.acked)
		}
		d.alpha = float64((1-d.cfg.G)*d.alpha) + float64(d.cfg.G*d.lastF) // Eq. (1)
		d.acked, d.marked = 0, 0
		d.winStart = now
		d.windows++
	}
	if d.cwr && sentAt >= d.cwrStart {
		d.cwr = false // the window sent before the cut is acknowledged
	}
	if a.ECE && !d.cwr {
		d.cwr, d.cwrStart = true, now
		d.rate = max(d.minRate, units.BitsPerSec(float64(d.rate)*(1-d.alpha/2))) // Eq. (2)
		d.cuts++
	}
	if newWindow && !d.cwr {
		d.rate = min(d.flow.Line(), d.rate+d.ai)
	}
}

// OnCNP does nothing: DCTCP reacts to ECE echoed in ACKs.
func (d *DCTCP) OnCNP(now units.Time) { d.mustStart("OnCNP") }

// OnNack does nothing: the NIC's go-back-N handles the loss.
func (d *DCTCP) OnNack(now units.Time) { d.mustStart("OnNack") }

// OnTimer does nothing; no timer is ever requested.
func (d *DCTCP) OnTimer(now units.Time) { d.mustStart("OnTimer") }

// NextTimer is always units.Never: DCTCP is driven by ACKs alone.
func (d *DCTCP) NextTimer() units.Time { return units.Never }

// Rate is R, bits per second (0 before Start).
func (d *DCTCP) Rate() units.BitsPerSec { return d.rate }

// Window is the cap on bytes in flight the window mode gives: 0 for none,
// the BDP, or BDP*R/LineRate (at least 1 byte).
func (d *DCTCP) Window() units.Bytes {
	switch {
	case !d.flow.Started():
		return 0
	case d.cfg.Window == WindowBDP:
		return d.bdp
	case d.cfg.Window == WindowVar:
		return max(1, units.Bytes(float64(d.bdp)*float64(d.rate)/float64(d.flow.Line())))
	}
	return 0
}

// Alpha is the estimate of the fraction of marked bytes, in [0, 1].
func (d *DCTCP) Alpha() float64 { return d.alpha }

// InCWR reports whether a cut's window is still outstanding (no further
// cut until it is acknowledged).
func (d *DCTCP) InCWR() bool { return d.cwr }

// AdditiveStep is R_AI, bits per second, as fixed at Start.
func (d *DCTCP) AdditiveStep() units.BitsPerSec { return d.ai }

// Describe formats the state, e.g.
// "rate=50Gbps alpha=1 cwr=true win=2 acked=3000B marked=1000B F=0.5 cuts=1".
func (d *DCTCP) Describe() string {
	return fmt.Sprintf("rate=%v alpha=%s cwr=%v win=%d acked=%dB marked=%dB F=%s cuts=%d",
		d.rate, strconv.FormatFloat(d.alpha, 'g', 6, 64), d.cwr, d.windows,
		d.acked, d.marked, strconv.FormatFloat(d.lastF, 'g', 6, 64), d.cuts)
}

// String is Describe.
func (d *DCTCP) String() string { return d.Describe() }

func (d *DCTCP) mustStart(fn string) { d.flow.MustStart("dctcp", fn) }
