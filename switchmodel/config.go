// Package switchmodel is a shared-buffer switch: per-port, per-priority
// egress queues, ECN marking by RED at enqueue, PFC with per-ingress-port
// accounting (static or dynamic Xoff/Xon thresholds) and PAUSE/RESUME
// frames that travel on the link, a lossy mode that drops when the buffer
// is full, and INT stamping at dequeue.
package switchmodel

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// ECNConfig is RED marking on an egress queue (the HPCC simulator's
// KMIN_MAP/KMAX_MAP/PMAX_MAP when RefRate is set).
type ECNConfig struct {
	// Enabled turns marking on.
	Enabled bool
	// KminBytes and KmaxBytes are the queue thresholds, bytes: no marking at
	// or below Kmin, probability rising linearly to Pmax at Kmax, always
	// above Kmax.
	KminBytes, KmaxBytes units.Bytes
	// Pmax is the marking probability at Kmax, in [0, 1].
	Pmax float64
	// RefRate, when positive, is the link rate the thresholds are given for;
	// a port of another rate scales them linearly. Zero: same at every rate.
	RefRate units.BitsPerSec
	// PerRate lists explicit settings for ports of a given rate, as the
	// HPCC simulator's KMIN_MAP/KMAX_MAP/PMAX_MAP do; a port whose rate is
	// listed uses that entry, any other port the fields above.
	PerRate []ECNRate
	// AtDequeue marks a data packet as it leaves its egress queue, by the
	// bytes that stay queued behind it (the HPCC ns-3 simulator's
	// SwitchNode::SwitchNotifyDequeue); false, the default, marks on
	// arrival by the bytes found queued ahead.
	AtDequeue bool `json:",omitempty"`
}

// ECNRate is RED marking for ports of one link rate.
type ECNRate struct {
	Rate                 units.BitsPerSec // port rate this entry applies to, bit/s
	KminBytes, KmaxBytes units.Bytes      // thresholds, bytes
	Pmax                 float64          // probability at Kmax, 0..1
}

// ForRate returns Kmin, Kmax and Pmax for a port of the given rate.
func (c ECNConfig) ForRate(rate units.BitsPerSec) (kmin, kmax units.Bytes, pmax float64) {
	for _, r := range c.PerRate {
		if r.Rate == rate {
			return r.KminBytes, r.KmaxBytes, r.Pmax
		}
	}
	kmin, kmax = c.Thresholds(rate)
	return kmin, kmax, c.Pmax
}

// RateAs returns c with ports of rate slowed marked as ports of rate real
// are (ForRate): an entry for slowed, first in PerRate, with real's Kmin,
// Kmax and Pmax. A link network of ccreplay estimate runs the link under
// study slower than its real rate (by the ACKs it does not simulate) and
// keeps the full run's marking thresholds for it this way. c unchanged
// when the rates are equal.
func (c ECNConfig) RateAs(slowed, real units.BitsPerSec) ECNConfig {
	if slowed == real {
		return c
	}
	kmin, kmax, pmax := c.ForRate(real)
	c.PerRate = append([]ECNRate{{Rate: slowed, KminBytes: kmin, KmaxBytes: kmax, Pmax: pmax}}, c.PerRate...)
	return c
}

// Thresholds returns Kmin and Kmax for a port of the given rate from the
// scalar settings (RefRate scaling), ignoring PerRate: each threshold times
// rate/RefRate, rounded down, computed without overflow (a result beyond
// int64 bytes saturates, which means "never reached"). For rates in whole
// Mb/s, as every topology has, this is the HPCC simulator's scaling of its
// KMIN_MAP/KMAX_MAP exactly.
func (c ECNConfig) Thresholds(rate units.BitsPerSec) (kmin, kmax units.Bytes) {
	if c.RefRate <= 0 {
		return c.KminBytes, c.KmaxBytes
	}
	return scaleBytes(c.KminBytes, rate, c.RefRate), scaleBytes(c.KmaxBytes, rate, c.RefRate)
}

// scaleBytes is b*num/den rounded down for b, num >= 0 and den > 0,
// saturating at the largest units.Bytes.
func scaleBytes(b units.Bytes, num, den units.BitsPerSec) units.Bytes {
	if b <= 0 || num <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(b), uint64(num))
	if hi >= uint64(den) {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, uint64(den))
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return units.Bytes(q)
}

// PFCMode selects how the Xoff/Xon thresholds are computed.
type PFCMode string

// PFC threshold modes.
const (
	// PFCStatic uses fixed Xoff/Xon per ingress port and priority, scaled by
	// the port rate (CC-NetCalc, Lehal 2024, Section V: Xoff 9.5 kB and Xon
	// 9.25 kB per port per Gb/s).
	PFCStatic PFCMode = "static"
	// PFCDynamic uses the threshold of the FDCC thesis
	// (FDCC, Zhang 2023, Section 3.3): (buffer - total headroom - total
	// ingress reserve - shared used) / Divisor.
	PFCDynamic PFCMode = "dynamic"
)

// PFCConfig is priority flow control.
type PFCConfig struct {
	// Enabled turns PFC on; off means a full buffer drops (lossy mode).
	Enabled bool
	// Mode is static or dynamic.
	Mode PFCMode
	// XoffPerGbps and XonPerGbps are the static thresholds per port per
	// Gb/s of port rate, bytes (CC-NetCalc, Lehal 2024: 9500 and 9250).
	XoffPerGbps, XonPerGbps units.Bytes
	// ReserveBytes is each ingress port's private buffer, bytes
	// (FDCC, Zhang 2023, Section 3.3: "typically 4k bytes").
	ReserveBytes units.Bytes
	// HeadroomBytes is each ingress port's headroom for packets still
	// arriving after a PAUSE, bytes; 0 sizes it per port as
	// 2 x (propagation delay x rate) + 3 MTU of 1500 B.
	HeadroomBytes units.Bytes
	// Divisor is the dynamic threshold's denominator (FDCC, Zhang 2023: 16).
	Divisor int64
	// ResumeOffsetBytes is how far below the dynamic threshold an ingress
	// must fall before RESUME, bytes.
	ResumeOffsetBytes units.Bytes
	// FrameBytes is the wire size of a PAUSE/RESUME frame, bytes.
	FrameBytes units.Bytes
}

// Config is one switch's configuration.
type Config struct {
	// BufferBytes is the shared packet buffer, bytes (HPCC simulator
	// BUFFER_SIZE 32 MB).
	BufferBytes units.Bytes
	// ECN is RED marking; PFC is priority flow control.
	ECN ECNConfig
	PFC PFCConfig
	// INT stamps in-band telemetry on data packets at dequeue.
	INT bool
	// INTQLenUnit and INTBytesUnit, when positive, round the queue length
	// and the transmitted-byte counter INT carries down to multiples of
	// them, bytes, as the HPCC ns-3 simulator's 64-bit IntHop does (units
	// of 80 and 128 bytes times INT_MULTI); its 17-bit queue-length field
	// also wraps, at 2^17 units (10.5 MB with INT_MULTI 1). 0 (the
	// default) carries exact values.
	INTQLenUnit, INTBytesUnit units.Bytes `json:",omitempty"`
	// FlowCounter counts the flows crossing each egress port, FDCC (Zhang
	// 2023) Algorithm 2, and stamps the count in each INT hop
	// (telemetry.Hop.Flows). It acts only where INT is stamped: with INT
	// off it does nothing. Off (the default) costs one test of this bool
	// per stamped hop.
	FlowCounter bool `json:",omitempty"`
}

// INTQLenFieldUnits is the number of INTQLenUnit steps the simulator's
// queue-length field holds before it wraps (17 bits).
const INTQLenFieldUnits = 1 << 17

// DefaultConfig is a 32 MB lossless switch with dynamic PFC and RED
// marking of the DCQCN zhu2015 preset (Kmin 5 kB, Kmax 200 kB, Pmax 1 %).
func DefaultConfig() Config {
	return Config{
		BufferBytes: 32 * units.MB,
		ECN:         ECNConfig{Enabled: true, KminBytes: 5 * units.KB, KmaxBytes: 200 * units.KB, Pmax: 0.01},
		PFC: PFCConfig{
			Enabled: true, Mode: PFCDynamic,
			XoffPerGbps: 9500, XonPerGbps: 9250,
			ReserveBytes: 4 * units.KB, Divisor: 16,
			ResumeOffsetBytes: 3 * 1048, FrameBytes: 64,
		},
	}
}

// Validate reports the first impossible setting of the switch on its own,
// in a lowercase one-line error that names the run.yaml key (switch.*) and
// the value. Every float must be a finite number in its range (NaN and the
// infinities fail every check, which is why the checks are written as
// !(in range)), every size at most units.MaxSize. What depends on the NIC
// or the topology (one data packet must fit; PFC thresholds, reserves and
// headroom against the buffer) is checked by replay.Config.Validate.
func (c *Config) Validate() error {
	if !(c.BufferBytes > 0 && c.BufferBytes <= units.MaxSize) {
		return fmt.Errorf("switch.buffer must be in (0, 10^18] bytes, got %d B", int64(c.BufferBytes))
	}
	if r := c.ECN.RefRate; !(r >= 0 && r <= units.MaxRate) {
		return fmt.Errorf("switch.ecn.ref_rate (the reference rate) must be 0 for no scaling or a rate up to 1Pbps, got %d bps", int64(r))
	}
	if c.ECN.Enabled {
		e := c.ECN
		if err := checkECN("switch.ecn", e.KminBytes, e.KmaxBytes, e.Pmax); err != nil {
			return err
		}
		for i, r := range e.PerRate {
			key := fmt.Sprintf("switch.ecn.per_rate[%d]", i)
			if !(r.Rate > 0 && r.Rate <= units.MaxRate) {
				return fmt.Errorf("%s.rate must be in (0, 1Pbps], got %d bps", key, int64(r.Rate))
			}
			if err := checkECN(key, r.KminBytes, r.KmaxBytes, r.Pmax); err != nil {
				return err
			}
		}
	}
	if c.PFC.Enabled {
		p := c.PFC
		switch {
		case p.Mode != PFCStatic && p.Mode != PFCDynamic:
			return fmt.Errorf("switch.pfc.mode must be static or dynamic, got %q", p.Mode)
		case p.Mode == PFCStatic && !(p.XonPerGbps > 0 && p.XoffPerGbps <= units.MaxSize):
			return fmt.Errorf("switch.pfc.xon_per_gbps and xoff_per_gbps need 0 < xon <= xoff <= 10^18 bytes, got xon %d B and xoff %d B", int64(p.XonPerGbps), int64(p.XoffPerGbps))
		case p.Mode == PFCStatic && p.XonPerGbps > p.XoffPerGbps:
			return fmt.Errorf("switch.pfc.xon_per_gbps %d B is above switch.pfc.xoff_per_gbps %d B: a paused port would never resume", int64(p.XonPerGbps), int64(p.XoffPerGbps))
		case p.Mode == PFCDynamic && p.Divisor <= 0:
			return fmt.Errorf("switch.pfc.divisor must be > 0, got %d", p.Divisor)
		}
		for _, f := range []struct {
			key string
			v   units.Bytes
		}{
			{"switch.pfc.reserve", p.ReserveBytes},
			{"switch.pfc.headroom", p.HeadroomBytes},
			{"switch.pfc.resume_offset (the resume offset)", p.ResumeOffsetBytes},
		} {
			if !(f.v >= 0 && f.v <= units.MaxSize) {
				return fmt.Errorf("%s must be in [0, 10^18] bytes, got %d B", f.key, int64(f.v))
			}
		}
		if !(p.FrameBytes > 0 && p.FrameBytes <= units.MaxSize) {
			return fmt.Errorf("switch.pfc.frame (pause frame size) must be in (0, 10^18] bytes, got %d B", int64(p.FrameBytes))
		}
	}
	return nil
}

// checkECN checks one set of RED settings named key (switch.ecn or an
// entry of switch.ecn.per_rate).
func checkECN(key string, kmin, kmax units.Bytes, pmax float64) error {
	switch {
	case !(kmin >= 0 && kmin <= units.MaxSize):
		return fmt.Errorf("%s.kmin must be in [0, 10^18] bytes, got %d B", key, int64(kmin))
	case !(kmax >= kmin && kmax <= units.MaxSize):
		return fmt.Errorf("%s.kmax %d B is below %s.kmin %d B (want kmin <= kmax <= 10^18 bytes)", key, int64(kmax), key, int64(kmin))
	case !(pmax >= 0 && pmax <= 1):
		return fmt.Errorf("%s.pmax: %v is not a number in [0,1]", key, pmax)
	}
	return nil
}

// PortHeadroom is the PFC headroom of one ingress port of the given rate
// and propagation delay, bytes: HeadroomBytes when set, else
// 2 x (delay x rate) + 3 MTU of 1500 B, what is already on the wire when a
// PAUSE leaves plus what is sent while it travels. It saturates at
// limits.MaxTotalBytes (10^18) instead of overflowing.
func (p PFCConfig) PortHeadroom(rate units.BitsPerSec, delay units.Time) units.Bytes {
	if p.HeadroomBytes != 0 {
		return p.HeadroomBytes
	}
	if rate <= 0 || delay <= 0 {
		return 3 * 1500
	}
	hi, lo := bits.Mul64(uint64(delay), uint64(rate))
	if hi >= 8e12 {
		return units.Bytes(limits.MaxTotalBytes)
	}
	q, _ := bits.Div64(hi, lo, 8e12) // bytes on the wire in one delay
	if q > uint64(limits.MaxTotalBytes-3*1500)/2 {
		return units.Bytes(limits.MaxTotalBytes)
	}
	return units.Bytes(2*q + 3*1500)
}

// RoundINTQLen is a queue length of q bytes as INT carries it with a unit
// of u bytes: rounded down to whole units, and wrapped at
// INTQLenFieldUnits units as the simulator's 17-bit field wraps.
func RoundINTQLen(q, u units.Bytes) units.Bytes { return q / u % INTQLenFieldUnits * u }

// SetINTUnits sets Config.INTQLenUnit and INTBytesUnit of a built switch
// (tests; a run sets them in its Config).
func (sw *Switch) SetINTUnits(qlen, bytes units.Bytes) {
	sw.cfg.INTQLenUnit, sw.cfg.INTBytesUnit = qlen, bytes
}
