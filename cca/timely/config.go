package timely

import (
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/internal/keyval"
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
// takes the mittal2015 default unless its comment says what zero means.
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

// defaults is the mittal2015 preset (see presets.go).
func defaults() Config {
	return Config{
		Alpha:     0.875,
		Beta:      0.8,
		TLow:      Threshold{Abs: 50 * units.Microsecond},
		THigh:     Threshold{Abs: 500 * units.Microsecond},
		Delta:     Step{Abs: 10 * units.Mbps},
		HAIFactor: 5,
		HAIAfter:  5,
		HAIMode:   HAIGradient,
		Segment:   16 * units.KB,
		MinRate:   100 * units.Mbps,
	}
}

// validate fills the defaults of zero fields and checks every field,
// returning the first problem found.
func (c *Config) validate() error {
	d := defaults()
	if c.Alpha == 0 {
		c.Alpha = d.Alpha
	}
	if c.Beta == 0 {
		c.Beta = d.Beta
	}
	if c.TLow == (Threshold{}) {
		c.TLow = d.TLow
	}
	if c.THigh == (Threshold{}) {
		c.THigh = d.THigh
	}
	if c.Delta == (Step{}) {
		c.Delta = d.Delta
	}
	if c.HAIFactor == 0 {
		c.HAIFactor = d.HAIFactor
	}
	if c.HAIAfter == 0 {
		c.HAIAfter = d.HAIAfter
	}
	if c.HAIMode == "" {
		c.HAIMode = d.HAIMode
	}
	if c.Segment == 0 && !c.PerRTT {
		c.Segment = d.Segment
	}
	if c.MinRate == 0 {
		c.MinRate = d.MinRate
	}
	okThreshold := func(t Threshold) bool {
		return t.Abs >= 0 && t.Abs <= limits.MaxTime && t.BaseRTTs >= 0 && t.BaseRTTs <= MaxBaseRTTs && (t.Abs == 0) != (t.BaseRTTs == 0)
	}
	switch {
	case !(c.Alpha > 0 && c.Alpha <= 1):
		return fmt.Errorf("alpha must be in (0, 1], got %v", c.Alpha)
	case !(c.Beta > 0 && c.Beta <= 1):
		return fmt.Errorf("beta must be in (0, 1], got %v", c.Beta)
	case !okThreshold(c.TLow):
		return fmt.Errorf("t_low must be a positive time up to %v or multiple of the base RTT up to %.0fx, got %s", limits.MaxTime, MaxBaseRTTs, formatThreshold(c.TLow))
	case !okThreshold(c.THigh):
		return fmt.Errorf("t_high must be a positive time up to %v or multiple of the base RTT up to %.0fx, got %s", limits.MaxTime, MaxBaseRTTs, formatThreshold(c.THigh))
	case c.TLow.BaseRTTs == 0 && c.THigh.BaseRTTs == 0 && c.TLow.Abs > c.THigh.Abs,
		c.TLow.Abs == 0 && c.THigh.Abs == 0 && c.TLow.BaseRTTs > c.THigh.BaseRTTs:
		return fmt.Errorf("t_low (%s) must not exceed t_high (%s)", formatThreshold(c.TLow), formatThreshold(c.THigh))
	case c.Delta.Abs < 0 || !(c.Delta.LineFrac >= 0 && c.Delta.LineFrac <= 1) || (c.Delta.Abs == 0) == (c.Delta.LineFrac == 0):
		return fmt.Errorf("delta must be a positive rate or a fraction of the line rate in (0, 1], got %s", formatStep(c.Delta))
	case c.HAIFactor < 1:
		return fmt.Errorf("hai_factor must be at least 1, got %d", c.HAIFactor)
	case c.HAIAfter < 1:
		return fmt.Errorf("hai_after must be at least 1, got %d", c.HAIAfter)
	case c.HAIMode != HAIGradient && c.HAIMode != HAIIncrease:
		return fmt.Errorf("hai_mode must be %q or %q, got %q", HAIGradient, HAIIncrease, c.HAIMode)
	case c.Segment < 0 || (c.PerRTT && c.Segment != 0):
		return fmt.Errorf("segment must be a positive size or rtt, got %d and per-RTT %v", c.Segment, c.PerRTT)
	case c.MinRTT < 0:
		return fmt.Errorf("min_rtt must not be negative, got %v", c.MinRTT)
	case c.MinRate < 0:
		return fmt.Errorf("min_rate must be positive, got %d bps", c.MinRate)
	}
	// Upper bounds: what the parsers accept (see keyval.CheckRate).
	return keyval.FirstError(
		keyval.CheckRate("delta", c.Delta.Abs),
		keyval.CheckSize("segment", c.Segment),
		keyval.CheckDuration("min_rtt", c.MinRTT),
		keyval.CheckRate("min_rate", c.MinRate),
	)
}
