package timely

import (
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// HAIMode selects how hyperactive increase is triggered.
type HAIMode string

const (
	// HAIGradient is the paper's Algorithm 1: N = HAIFactor in branch (3)
	// once the normalized gradient has been negative for HAIAfter
	// completion events in a row, this one included.
	HAIGradient HAIMode = "gradient"
	// HAIIncrease is the HPCC simulator's (rdma-hw.cc, UpdateRateTimely):
	// every increase, (1) or (3), adds HAIFactor*Delta once HAIAfter
	// increases have happened in a row before it; a decrease resets the
	// count.
	HAIIncrease HAIMode = "increase"
)

// Threshold is a time given either absolutely or as a multiple of the
// flow's base RTT; exactly one of the fields is non-zero.
type Threshold struct {
	Abs      units.Time // picoseconds, at most limits.MaxTime
	BaseRTTs float64    // multiples of FlowInfo.BaseRTT, at most MaxBaseRTTs
}

// MaxBaseRTTs is the largest multiple of the base RTT a threshold may be,
// 10^6, so that the resolved threshold of any real path stays a time the
// simulator's clock can hold (the presets use 2.5 and 25).
const MaxBaseRTTs = 1e6

// resolve returns the threshold for a flow of base RTT base, picoseconds.
func (t Threshold) resolve(base units.Time) units.Time {
	if t.BaseRTTs > 0 {
		return units.Time(math.Round(t.BaseRTTs * float64(base)))
	}
	return t.Abs
}

// Step is a rate given either absolutely or as a fraction of the flow's
// line rate; exactly one of the fields is non-zero.
type Step struct {
	Abs      units.BitsPerSec // bits per second
	LineFrac float64          // fraction of FlowInfo.LineRate
}

// resolve returns the step for a flow of line rate line, bits per second.
func (s Step) resolve(line units.BitsPerSec) float64 {
	if s.LineFrac > 0 {
		return s.LineFrac * float64(line)
	}
	return float64(s.Abs)
}

// Config is the configuration of one TIMELY flow. A field left at zero
// takes the mittal2015 default unless its comment says what zero means;
// the defaults, presets and bounds are the table in params.go.
type Config struct {
	// Alpha is the EWMA weight of a new RTT difference, in (0, 1].
	// Default 0.875 (the HPCC simulator's TimelyAlpha; the paper's section 6
	// gives none).
	Alpha float64
	// Beta is the multiplicative-decrement factor, in (0, 1]. Default 0.8
	// (section 6).
	Beta float64
	// TLow is the RTT below which the rate always increases additively.
	// Default 50 us (section 6).
	TLow Threshold
	// THigh is the RTT above which the rate always decreases. Default
	// 500 us (section 6).
	THigh Threshold
	// Delta is the additive increment step. Default 10 Mb/s (section 6).
	Delta Step
	// HAIFactor is N in hyperactive increase (increments per event).
	// Default 5 (Algorithm 1).
	HAIFactor int
	// HAIAfter is the number of consecutive events that switch HAI on
	// (see HAIMode). Default 5 (Algorithm 1).
	HAIAfter int
	// HAIMode selects the HAI reading. Default HAIGradient.
	HAIMode HAIMode
	// FirstRecordOnly makes the first completion event only record its
	// RTT, with no rate change and no count towards HAI, as the HPCC
	// simulator's UpdateRateTimely does for a QP's first round trip
	// (m_lastUpdateSeq == 0). Default false: the first event runs
	// Algorithm 1 with a zero RTT difference.
	FirstRecordOnly bool
	// Segment is the bytes acknowledged per completion event (one rate
	// update), bytes. Default 16 KB (section 6). Zero with PerRTT set.
	Segment units.Bytes
	// PerRTT updates once per round trip instead of per Segment (the HPCC
	// simulator's rule).
	PerRTT bool
	// MinRTT normalizes the gradient, picoseconds; zero means the path's
	// base RTT (FlowInfo.BaseRTT), or the smallest RTT seen without one.
	MinRTT units.Time
	// MinRate is the floor of the rate, bits per second; a value above the
	// line rate is lowered to it at Start. Default 100 Mb/s (our choice: the
	// HPCC simulator's MinRate attribute default).
	MinRate units.BitsPerSec
}

// validate fills the zero fields that take a default (see the table in
// params.go; the segment is the default's when neither it nor per-RTT
// updates are given) and checks every field, returning the first problem
// found.
func (c *Config) validate() error {
	table.Fill(c)
	if err := table.Check(c); err != nil {
		return err
	}
	okThreshold := func(t Threshold) bool {
		return t.Abs >= 0 && t.Abs <= limits.MaxTime && t.BaseRTTs >= 0 && t.BaseRTTs <= MaxBaseRTTs && (t.Abs == 0) != (t.BaseRTTs == 0)
	}
	switch {
	case !okThreshold(c.TLow):
		return fmt.Errorf("t_low must be a positive time up to %v or multiple of the base RTT up to %.0fx, got %s", limits.MaxTime, MaxBaseRTTs, formatThreshold(c.TLow))
	case !okThreshold(c.THigh):
		return fmt.Errorf("t_high must be a positive time up to %v or multiple of the base RTT up to %.0fx, got %s", limits.MaxTime, MaxBaseRTTs, formatThreshold(c.THigh))
	case c.TLow.BaseRTTs == 0 && c.THigh.BaseRTTs == 0 && c.TLow.Abs > c.THigh.Abs,
		c.TLow.Abs == 0 && c.THigh.Abs == 0 && c.TLow.BaseRTTs > c.THigh.BaseRTTs:
		return fmt.Errorf("t_low (%s) must not exceed t_high (%s)", formatThreshold(c.TLow), formatThreshold(c.THigh))
	case c.Delta.Abs < 0 || c.Delta.Abs > units.MaxRate || !(c.Delta.LineFrac >= 0 && c.Delta.LineFrac <= 1) || (c.Delta.Abs == 0) == (c.Delta.LineFrac == 0):
		return fmt.Errorf("delta must be a positive rate up to 1Pbps or a fraction of the line rate in (0, 1], got %s", formatStep(c.Delta))
	case c.PerRTT && c.Segment != 0:
		return fmt.Errorf("segment must be a positive size or rtt, got %d and per-RTT %v", c.Segment, c.PerRTT)
	}
	return nil
}
