package rlcc

import (
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// Decision latencies of paper 001 Table I (ConnectX-6Dx): the time from
// the RTT packet's arrival until the NIC applies the new rate.
const (
	// TreeLatency is the distilled tree policy's decision time, 0.9 us.
	TreeLatency = 900 * units.Nanosecond
	// MLPLatency is the sliding-window MLP's decision time, 17 us.
	MLPLatency = 17 * units.Microsecond
	// LSTMLatency is the LSTM policy's decision time, 450 us.
	LSTMLatency = 450 * units.Microsecond
)

// Config is the configuration of RL-CC agents.
type Config struct {
	// Policy maps observations to actions; nil means the embedded default.
	Policy *Policy
	// PolicyPath is where Policy came from: "default" for the embedded
	// policy, otherwise a file path (recorded in summary.json).
	PolicyPath string
	// Latency is the decision latency, picoseconds: a decision taken on an
	// ACK at time t changes the rate at t + Latency (paper 001 Table I).
	// Negative means "auto": TreeLatency for a tree policy, MLPLatency for
	// an MLP.
	Latency units.Time
	// AMin and AMax override the policy's action range when positive
	// (rate multipliers).
	AMin, AMax float64
	// AckRTT makes the agent decide on data ACKs (the first ACK of a packet
	// sent after the previous decision took effect) instead of on RTT probe
	// responses (the default, `rtt=probe`: paper 004 Fig. 2's RTT packet
	// the NIC sends after a burst, see cca.RTTProber). Under heavy loss the
	// receiver NACKs once and acknowledges nothing until the gap is
	// retransmitted, so ACK-driven agents go milliseconds without a
	// decision; probes keep coming (`rtt=ack`).
	AckRTT bool
	// MinRate is the lowest rate an action can set, bits per second.
	// Default 10 Mb/s (1/10000 of 100 Gb/s, below the fair share of paper
	// 004's largest test, 8192 flows: 12.2 Mb/s).
	MinRate units.BitsPerSec
}

// defaultMinRate is MinRate's default, bits per second.
const defaultMinRate = 10 * units.Mbps

// validate loads the default policy when none is set, resolves "auto"
// latency and checks every field.
func (c *Config) validate() error {
	if c.Policy == nil {
		p, err := Default()
		if err != nil {
			return err
		}
		c.Policy, c.PolicyPath = p, "default"
	}
	if c.MinRate == 0 {
		c.MinRate = defaultMinRate
	}
	if c.Latency < 0 {
		c.Latency = c.AutoLatency()
	}
	amin, amax := c.Range()
	switch {
	case c.MinRate < 0:
		return fmt.Errorf("min_rate must be positive, got %v", c.MinRate)
	case c.AMin < 0 || c.AMax < 0 || math.IsNaN(c.AMin) || math.IsNaN(c.AMax) || math.IsInf(c.AMax, 0):
		return fmt.Errorf("amin and amax must be finite and positive (0 = the policy's), got %v and %v", c.AMin, c.AMax)
	case !(amin > 0 && amin < amax) || math.IsInf(amax, 0):
		return fmt.Errorf("action range [%v, %v] needs 0 < amin < amax, both finite", amin, amax)
	}
	// Upper bounds: what the parsers accept (see keyval.CheckRate).
	return keyval.FirstError(
		keyval.CheckDuration("latency", c.Latency),
		keyval.CheckRate("min_rate", c.MinRate),
	)
}

// AutoLatency is the latency "auto" stands for with the configured policy.
func (c *Config) AutoLatency() units.Time {
	if c.Policy != nil && c.Policy.Kind == KindTrees {
		return TreeLatency
	}
	return MLPLatency
}

// Range is the effective action range: the overrides where set, the
// policy's otherwise.
func (c *Config) Range() (amin, amax float64) {
	amin, amax = c.Policy.AMin, c.Policy.AMax
	if c.AMin > 0 {
		amin = c.AMin
	}
	if c.AMax > 0 {
		amax = c.AMax
	}
	return amin, amax
}
