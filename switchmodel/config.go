// Package switchmodel is a shared-buffer switch: per-port, per-priority
// egress queues, ECN marking by RED at enqueue, PFC with per-ingress-port
// accounting (static or dynamic Xoff/Xon thresholds) and PAUSE/RESUME
// frames that travel on the link, a lossy mode that drops when the buffer
// is full, and INT stamping at dequeue.
package switchmodel

import (
	"errors"
	"fmt"

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

// Thresholds returns Kmin and Kmax for a port of the given rate from the
// scalar settings (RefRate scaling), ignoring PerRate.
func (c ECNConfig) Thresholds(rate units.BitsPerSec) (kmin, kmax units.Bytes) {
	if c.RefRate <= 0 {
		return c.KminBytes, c.KmaxBytes
	}
	scale := func(b units.Bytes) units.Bytes {
		return units.Bytes(int64(b) * int64(rate/units.Mbps) / int64(c.RefRate/units.Mbps))
	}
	return scale(c.KminBytes), scale(c.KmaxBytes)
}

// PFCMode selects how the Xoff/Xon thresholds are computed.
type PFCMode string

// PFC threshold modes.
const (
	// PFCStatic uses fixed Xoff/Xon per ingress port and priority, scaled
	// by the port rate (paper 003 Section V: Xoff 9.5 kB and Xon 9.25 kB per
	// port per Gb/s).
	PFCStatic PFCMode = "static"
	// PFCDynamic uses the FDCC thesis (paper 002, Section 3.3) threshold:
	// (buffer - total headroom - total ingress reserve - shared used) / Divisor.
	PFCDynamic PFCMode = "dynamic"
)

// PFCConfig is priority flow control.
type PFCConfig struct {
	// Enabled turns PFC on; off means a full buffer drops (lossy mode).
	Enabled bool
	// Mode is static or dynamic.
	Mode PFCMode
	// XoffPerGbps and XonPerGbps are the static thresholds per port per
	// Gb/s of port rate, bytes (paper 003: 9500 and 9250).
	XoffPerGbps, XonPerGbps units.Bytes
	// ReserveBytes is each ingress port's private buffer, bytes (paper 002
	// Section 3.3: "typically 4k bytes").
	ReserveBytes units.Bytes
	// HeadroomBytes is each ingress port's headroom for packets still
	// arriving after a PAUSE, bytes; 0 sizes it per port as
	// 2 x (propagation delay x rate) + 3 MTU of 1500 B.
	HeadroomBytes units.Bytes
	// Divisor is the dynamic threshold's denominator (paper 002: 16).
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
}

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

// Validate reports the first impossible setting.
func (c *Config) Validate() error {
	switch {
	case c.BufferBytes <= 0:
		return fmt.Errorf("switch buffer must be > 0 bytes, got %d", c.BufferBytes)
	case c.ECN.Enabled && (c.ECN.KminBytes < 0 || c.ECN.KmaxBytes < c.ECN.KminBytes):
		return fmt.Errorf("ecn thresholds need 0 <= kmin <= kmax, got kmin=%d kmax=%d", c.ECN.KminBytes, c.ECN.KmaxBytes)
	case c.ECN.Enabled && (c.ECN.Pmax < 0 || c.ECN.Pmax > 1):
		return fmt.Errorf("ecn pmax must be in [0,1], got %g", c.ECN.Pmax)
	case c.ECN.RefRate < 0:
		return errors.New("ecn reference rate must be >= 0")
	}
	for _, r := range c.ECN.PerRate {
		switch {
		case r.Rate <= 0:
			return fmt.Errorf("ecn per-rate entry needs a rate > 0, got %d", r.Rate)
		case r.KminBytes < 0 || r.KmaxBytes < r.KminBytes:
			return fmt.Errorf("ecn thresholds for %v need 0 <= kmin <= kmax, got kmin=%d kmax=%d", r.Rate, r.KminBytes, r.KmaxBytes)
		case r.Pmax < 0 || r.Pmax > 1:
			return fmt.Errorf("ecn pmax for %v must be in [0,1], got %g", r.Rate, r.Pmax)
		}
	}
	if c.PFC.Enabled {
		p := c.PFC
		switch {
		case p.Mode != PFCStatic && p.Mode != PFCDynamic:
			return fmt.Errorf("pfc mode must be static or dynamic, got %q", p.Mode)
		case p.Mode == PFCStatic && (p.XonPerGbps <= 0 || p.XoffPerGbps < p.XonPerGbps):
			return fmt.Errorf("pfc static thresholds need 0 < xon <= xoff, got xoff=%d xon=%d per Gbps", p.XoffPerGbps, p.XonPerGbps)
		case p.Mode == PFCDynamic && p.Divisor <= 0:
			return fmt.Errorf("pfc divisor must be > 0, got %d", p.Divisor)
		case p.ReserveBytes < 0 || p.HeadroomBytes < 0 || p.ResumeOffsetBytes < 0:
			return errors.New("pfc reserve, headroom and resume offset must be >= 0")
		case p.FrameBytes <= 0:
			return fmt.Errorf("pfc frame size must be > 0, got %d", p.FrameBytes)
		}
	}
	return nil
}
