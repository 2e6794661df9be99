package swift

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/algo"
	"github.com/ccreplay/ccreplay/units"
)

// Swift is the congestion window of one flow.
type Swift struct {
	cfg Config

	flow    algo.Flow   // line rate, from Start
	mtu     units.Bytes // wire size of a full packet, from Start
	hops    int         // forward-path hops, from Start
	maxCwnd float64     // effective ceiling, packets

	cwnd    float64    // congestion window, packets
	rtt     units.Time // latest RTT sample; the base RTT before the first
	lastDec units.Time // t_last_decrease, when decreased
	decr    bool       // a decrease has happened
	retx    int        // retransmit_cnt: consecutive timeouts
	target  units.Time // target delay at the last ACK
}

var _ cca.Algorithm = (*Swift)(nil)

// New validates cfg (filling its defaults) and returns an algorithm that
// waits for Start.
func New(cfg Config) (*Swift, error) {
	return algo.New(cfg, (*Config).validate, newValid)
}

func newValid(cfg Config) *Swift { return &Swift{cfg: cfg} }

// Config returns the validated configuration.
func (s *Swift) Config() Config { return s.cfg }

// Name returns "swift".
func (s *Swift) Name() string { return "swift" }

// Start sets the window to InitCwnd (one bandwidth-delay product by
// default) and resolves the automatic ceiling (see Config.MaxCwnd).
func (s *Swift) Start(now units.Time, f cca.FlowInfo) {
	if f.MTU <= 0 {
		panic("swift.Start: non-positive MTU")
	}
	*s = *newValid(s.cfg)
	s.flow.Start("swift", f)
	s.mtu, s.hops = f.MTU, f.Hops
	s.rtt = f.BaseRTT
	s.maxCwnd = s.cfg.MaxCwnd
	if s.maxCwnd == 0 {
		top := s.cfg.BaseTarget + units.Time(f.Hops)*s.cfg.HopScale + s.cfg.FSRange
		s.maxCwnd = max(s.packets(top), 1, s.cfg.MinCwnd)
	}
	s.cwnd = s.cfg.InitCwnd
	if s.cwnd == 0 {
		s.cwnd = max(s.packets(f.BaseRTT), 1)
	}
	s.cwnd = s.clamp(s.cwnd)
	s.target = s.cfg.Target(s.cwnd, s.hops)
}

// packets is the window, in packets, that line rate fills in d.
func (s *Swift) packets(d units.Time) float64 {
	return float64(units.BytesIn(d, s.flow.Line())) / float64(s.mtu)
}

func (s *Swift) clamp(w float64) float64 { return min(max(w, s.cfg.MinCwnd), s.maxCwnd) }

// canDecrease is Algorithm 1's can_decrease: the last decrease is at least
// one RTT old (or there has been none).
func (s *Swift) canDecrease(now units.Time) bool {
	return !s.decr || now-s.lastDec >= s.rtt
}

// finish is the end of Algorithm 1: clamp the window and remember a
// decrease.
func (s *Swift) finish(now units.Time, prev float64) {
	s.cwnd = s.clamp(s.cwnd)
	if s.cwnd < prev {
		s.lastDec, s.decr = now, true
	}
}

// OnSend does nothing: Swift reacts to ACKs.
func (s *Swift) OnSend(now units.Time, bytes units.Bytes) { s.mustStart("OnSend") }

// OnAck is Algorithm 1's "On Receiving ACK": additive increase of ai per
// RTT below the target delay, else at most one multiplicative decrease per
// RTT, proportional to how far the delay is above the target and at most
// max_mdf.
func (s *Swift) OnAck(now units.Time, a *cca.Ack) {
	s.mustStart("OnAck")
	s.retx = 0
	if a.RTT <= 0 {
		return // no delay sample
	}
	delay := a.RTT
	s.rtt = delay
	prev := s.cwnd
	s.target = s.cfg.Target(s.cwnd, s.hops)
	if delay < s.target {
		// NB: the conversions forbid fusing into an FMA (Go spec,
		// "Arithmetic operators"), which would make results differ between
		// amd64 and arm64.
		n := math.Ceil(float64(a.AckedBytes) / float64(s.mtu))
		if s.cwnd >= 1 {
			s.cwnd += float64(float64(s.cfg.AI/s.cwnd) * n)
		} else {
			s.cwnd += float64(s.cfg.AI * n)
		}
	} else if s.canDecrease(now) {
		over := float64(delay-s.target) / float64(delay)
		s.cwnd *= max(1-float64(s.cfg.Beta*over), 1-s.cfg.MaxMDF)
	}
	s.finish(now, prev)
}

// OnNack is Algorithm 1's "On Fast Recovery": the receiver saw a gap, so
// a packet was lost; cut by max_mdf at most once per RTT.
func (s *Swift) OnNack(now units.Time) {
	s.mustStart("OnNack")
	prev := s.cwnd
	s.retx = 0
	if s.canDecrease(now) {
		s.cwnd *= 1 - s.cfg.MaxMDF
	}
	s.finish(now, prev)
}

// OnTimeout is Algorithm 1's "On Retransmit Timeout": after RetxReset
// consecutive timeouts the window drops to MinCwnd, otherwise it is cut by
// max_mdf at most once per RTT. The NIC calls it (cca.TimeoutObserver)
// when its retransmission timer fires.
func (s *Swift) OnTimeout(now units.Time) {
	s.mustStart("OnTimeout")
	prev := s.cwnd
	s.retx++
	if s.retx >= s.cfg.RetxReset {
		s.cwnd = s.cfg.MinCwnd
	} else if s.canDecrease(now) {
		s.cwnd *= 1 - s.cfg.MaxMDF
	}
	s.finish(now, prev)
}

// OnCNP does nothing: Swift does not use ECN.
func (s *Swift) OnCNP(now units.Time) { s.mustStart("OnCNP") }

// OnTimer does nothing: Swift arms no timer (the NIC paces).
func (s *Swift) OnTimer(now units.Time) { s.mustStart("OnTimer") }

// NextTimer is always units.Never.
func (s *Swift) NextTimer() units.Time { return units.Never }

// Rate is the line rate while the window is at least one packet (the
// window clocks the flow), and cwnd*MTU*8/rtt below one packet: one packet
// every pacing_delay = rtt/cwnd (Algorithm 1, last lines), to the nearest
// b/s and at least 1 b/s; the NIC applies its own floor.
func (s *Swift) Rate() units.BitsPerSec {
	if s.cwnd >= 1 || s.rtt <= 0 {
		return s.flow.Line()
	}
	r := s.cwnd * float64(s.mtu) * 8 * 1e12 / float64(s.rtt)
	return units.BitsPerSec(math.Round(min(max(r, 1), float64(s.flow.Line()))))
}

// Window is cwnd*MTU bytes (to the nearest byte), and one MTU while
// cwnd < 1 (pacing then spaces the packets).
func (s *Swift) Window() units.Bytes {
	if s.cwnd < 1 {
		return s.mtu
	}
	return units.Bytes(math.Round(s.cwnd * float64(s.mtu)))
}

// Cwnd is the congestion window, packets.
func (s *Swift) Cwnd() float64 { return s.cwnd }

// MaxCwnd is the effective window ceiling, packets (resolved at Start).
func (s *Swift) MaxCwnd() float64 { return s.maxCwnd }

// TargetDelay is the target delay at the current window (section 3.5),
// picoseconds.
func (s *Swift) TargetDelay() units.Time { return s.cfg.Target(s.cwnd, s.hops) }

// Describe formats the state, e.g.
// "cwnd=12.5 target=64.5us rtt=30us rate=100Gbps window=13100 retx=0";
// target is the one the last ACK was compared with.
func (s *Swift) Describe() string {
	return fmt.Sprintf("cwnd=%s target=%v rtt=%v rate=%v window=%d retx=%d",
		strconv.FormatFloat(s.cwnd, 'g', 6, 64), s.target, s.rtt, s.Rate(), s.Window(), s.retx)
}

// String is Describe.
func (s *Swift) String() string { return s.Describe() }

func (s *Swift) mustStart(fn string) { s.flow.MustStart("swift", fn) }

var _ cca.TimeoutObserver = (*Swift)(nil)
