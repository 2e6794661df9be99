package nic_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/errtest"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/units"
)

// Defects 1 and 2: Validate names each run.yaml key, bounds times by
// limits.MaxTime, and rejects an ACK interval that a fixed window can
// never reach (every window would wait for the retransmission timeout).
func TestValidateNamesKeysAndBounds(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(c *nic.Config)
		want string // "" = valid; a trailing "..." matches a prefix
	}{
		{"default", func(c *nic.Config) {}, ""},
		{"zero mtu", func(c *nic.Config) { c.MTUPayload = 0 }, "nic.mtu_payload must be in [1, 10^18] bytes, got 0 B"},
		{"negative header", func(c *nic.Config) { c.HeaderBytes = -1 }, "nic.header must be in [0, 10^18] bytes, got -1 B"},
		{"zero ack interval", func(c *nic.Config) { c.AckEvery = 0 }, "nic.ack_every must be >= 1 packet, got 0"},
		{"negative cnp interval", func(c *nic.Config) { c.CNPInterval = -1 }, "nic.cnp_interval must not be negative, got -1ps"},
		{"zero rto", func(c *nic.Config) { c.RTO = 0 }, "nic.rto must be > 0, got 0ps"},
		{"rto beyond the limit", func(c *nic.Config) { c.RTO = limits.MaxTime + 1 }, "nic.rto ..."},
		{"zero min rate", func(c *nic.Config) { c.MinRate = 0 }, "nic.min_rate must be in (0, 1Pbps], got 0 bps"},
		{"data priority 0", func(c *nic.Config) { c.DataPrio = 0 }, "nic.data_prio must be in 1..7, got 0"},
		{"ack interval beyond a fixed window", func(c *nic.Config) { c.Window, c.AckEvery = 1048, 2 },
			"nic.ack_every 2 is more packets than nic.window 1048B lets out (1 of 1048 B): every window would wait for nic.rto before its ack"},
		{"ack interval a window of one byte more holds", func(c *nic.Config) { c.Window, c.AckEvery = 1049, 2 }, ""},
		{"bdp window is per path", func(c *nic.Config) { c.Window, c.WindowBDP, c.AckEvery = 0, true, 64 }, ""},
		{"window beyond 10^18", func(c *nic.Config) { c.Window = units.MaxSize + 1 }, "nic.window must be in [0, 10^18] bytes, got 1000000000000000001 B"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := nic.DefaultConfig()
			tc.mod(&c)
			errtest.Check(t, c.Validate(), tc.want)
		})
	}
}
