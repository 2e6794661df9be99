package dctcp

import (
	"fmt"

	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// WindowMode selects the cap on bytes in flight.
type WindowMode string

const (
	// WindowNone paces at R with no window.
	WindowNone WindowMode = "none"
	// WindowBDP caps bytes in flight at one bandwidth-delay product,
	// LineRate*BaseRTT (the HPCC simulator's HAS_WIN 1, VAR_WIN 0).
	WindowBDP WindowMode = "bdp"
	// WindowVar caps bytes in flight at BDP*R/LineRate (the HPCC
	// simulator's HAS_WIN 1, VAR_WIN 1: RdmaQueuePair::GetWin).
	WindowVar WindowMode = "var"
)

// Config is the sender configuration of one DCTCP flow together with the
// switch marking its preset expects. A field left at zero takes the paper
// preset's value.
type Config struct {
	// G is the alpha EWMA gain g, in (0, 1]. Default 1/16 (DCTCP paper,
	// section 4: g = 1/16 in all experiments).
	G float64
	// AlphaInit is alpha at Start, in (0, 1]. Default 1 (the HPCC
	// simulator's RdmaQueuePair, dctcp.m_alpha = 1; Linux's
	// dctcp_alpha_on_init is also the maximum): a flow's first cut halves
	// its rate.
	AlphaInit float64
	// AIRate is R_AI, the additive increase per window of data, bits per
	// second. Zero with AIPerRTT false means AIPerRTT.
	AIRate units.BitsPerSec
	// AIPerRTT sets R_AI = MTU*8/BaseRTT at Start: one packet per RTT,
	// DCTCP's congestion-avoidance increase of one MSS per window (paper
	// section 3.1, TCP's increase) written as a rate, as the HPCC
	// simulator's run.py derives its DCTCP_RATE_AI ("1 MTU per RTT").
	// AIRate must then be zero.
	AIPerRTT bool
	// MinRate is the floor of R, bits per second; a value above the line
	// rate is lowered to the line rate at Start. Default 100 Mb/s (the
	// HPCC simulator's MIN_RATE; window DCTCP has no floor but 1 packet).
	MinRate units.BitsPerSec
	// Window selects the cap on bytes in flight. Default WindowNone.
	Window WindowMode
	// K is the marking threshold, bytes: switches mark a packet when their
	// egress queue exceeds K (Kmin = Kmax = K, Pmax = 1). Default 24 KB at
	// 100 Gb/s (see KRefRate and presets.go).
	K units.Bytes
	// KRefRate, when positive, is the link rate K is given for; switches
	// scale K linearly to other rates (as the paper's rule K > C*RTT/7
	// scales). Zero means the same K at every rate. Default 100 Gb/s when K
	// is also defaulted.
	KRefRate units.BitsPerSec
}

// paper is the paper preset; see presets.go for the sources.
func paper() Config {
	return Config{
		G:         1.0 / 16,
		AlphaInit: 1,
		AIPerRTT:  true,
		MinRate:   100 * units.Mbps,
		Window:    WindowNone,
		K:         24 * units.KB,
		KRefRate:  100 * units.Gbps,
	}
}

// validate fills the defaults of zero fields and checks every field,
// returning the first problem found.
func (c *Config) validate() error {
	d := paper()
	if c.G == 0 {
		c.G = d.G
	}
	if c.AlphaInit == 0 {
		c.AlphaInit = d.AlphaInit
	}
	if c.AIRate == 0 && !c.AIPerRTT {
		c.AIPerRTT = true
	}
	if c.MinRate == 0 {
		c.MinRate = d.MinRate
	}
	if c.Window == "" {
		c.Window = d.Window
	}
	if c.K == 0 {
		c.K, c.KRefRate = d.K, d.KRefRate
	}
	switch {
	case !(c.G > 0 && c.G <= 1):
		return fmt.Errorf("g must be in (0, 1], got %v", c.G)
	case !(c.AlphaInit > 0 && c.AlphaInit <= 1):
		return fmt.Errorf("alpha_init must be in (0, 1], got %v", c.AlphaInit)
	case c.AIRate < 0:
		return fmt.Errorf("ai_rate must be positive, got %d bps", c.AIRate)
	case c.AIRate > 0 && c.AIPerRTT:
		return fmt.Errorf("ai_rate: give either a rate or mtu-per-rtt, not both")
	case c.MinRate < 0:
		return fmt.Errorf("min_rate must be positive, got %d bps", c.MinRate)
	case c.Window != WindowNone && c.Window != WindowBDP && c.Window != WindowVar:
		return fmt.Errorf("window must be %q, %q or %q, got %q", WindowNone, WindowBDP, WindowVar, c.Window)
	case c.K < 0:
		return fmt.Errorf("k must be positive, got %d B", c.K)
	case c.KRefRate < 0:
		return fmt.Errorf("k_ref_rate must not be negative, got %d bps", c.KRefRate)
	}
	// Upper bounds: what the parsers accept (see keyval.CheckRate).
	return keyval.FirstError(
		keyval.CheckRate("ai_rate", c.AIRate),
		keyval.CheckRate("min_rate", c.MinRate),
		keyval.CheckSize("k", c.K),
		keyval.CheckRate("k_ref_rate", c.KRefRate),
	)
}
