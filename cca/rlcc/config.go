package rlcc

import (
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/cca/internal/policyparam"
	"github.com/ccreplay/ccreplay/units"
)

// Decision latencies of RL-CC-NIC (Fuhrer 2023), Table I (ConnectX-6Dx): the time from
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
	// ACK at time t changes the rate at t + Latency (RL-CC-NIC, Fuhrer 2023, Table I).
	// Negative means "auto": TreeLatency for a tree policy, MLPLatency for
	// an MLP.
	Latency units.Time
	// AMin and AMax override the policy's action range when positive
	// (rate multipliers).
	AMin, AMax float64
	// AckRTT makes the agent decide on data ACKs (the first ACK of a packet
	// sent after the previous decision took effect) instead of on RTT probe
	// responses (the default, `rtt=probe`: RL-CC (Tessler 2022), Fig. 2's RTT packet
	// the NIC sends after a burst, see cca.RTTProber). Under heavy loss the
	// receiver NACKs once and acknowledges nothing until the gap is
	// retransmitted, so ACK-driven agents go milliseconds without a
	// decision; probes keep coming (`rtt=ack`).
	AckRTT bool
	// MinRate is the lowest rate an action can set, bits per second.
	// Default 10 Mb/s (1/10000 of 100 Gb/s, below the fair share of the
	// largest test of RL-CC (Tessler 2022), 8192 flows: 12.2 Mb/s).
	MinRate units.BitsPerSec
}

// validate loads the default policy when none is set, fills the zero
// fields that take a default (see the table in params.go), resolves
// "auto" latency and checks every field.
func (c *Config) validate() error {
	if err := policyparam.Fill(&c.Policy, &c.PolicyPath, Default); err != nil {
		return err
	}
	table.Fill(c)
	if c.Latency < 0 {
		c.Latency = c.AutoLatency()
	}
	if err := table.Check(c); err != nil {
		return err
	}
	if amin, amax := c.Range(); !(amin > 0 && amin < amax) || math.IsInf(amax, 0) {
		return fmt.Errorf("action range [%v, %v] needs 0 < amin < amax, both finite", amin, amax)
	}
	return nil
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
