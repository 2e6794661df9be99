package dctcp

import (
	"fmt"

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
// preset's value; the defaults, presets and bounds are the table in
// params.go.
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
	// 100 Gb/s (see KRefRate and params.go).
	K units.Bytes
	// KRefRate, when positive, is the link rate K is given for; switches
	// scale K linearly to other rates (as the paper's rule K > C*RTT/7
	// scales). Zero means the same K at every rate. Default 100 Gb/s when K
	// is also defaulted.
	KRefRate units.BitsPerSec
}

// validate fills the zero fields that take a default (see the table in
// params.go; R_AI is one MTU per RTT when neither form is given, and K
// takes the default's reference rate with it) and checks every field,
// returning the first problem found.
func (c *Config) validate() error {
	table.Fill(c)
	if c.K == 0 {
		d := table.Defaults()
		c.K, c.KRefRate = d.K, d.KRefRate
	}
	if c.AIRate > 0 && c.AIPerRTT {
		return fmt.Errorf("ai_rate: give either a rate or mtu-per-rtt, not both")
	}
	return table.Check(c)
}
