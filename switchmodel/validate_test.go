package switchmodel_test

import (
	"math"
	"testing"

	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

// Defect 1 (values that pass validation and fail later): NaN and the
// infinities failed no range check written as p < 0 || p > 1. Every float
// is now rejected with an error naming its run.yaml key.
func TestValidateRejectsNonFinitePmax(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(c *switchmodel.Config)
		want string
	}{
		{"pmax NaN", func(c *switchmodel.Config) { c.ECN.Pmax = math.NaN() }, "switch.ecn.pmax: NaN is not a number in [0,1]"},
		{"pmax +Inf", func(c *switchmodel.Config) { c.ECN.Pmax = math.Inf(1) }, "switch.ecn.pmax: +Inf is not a number in [0,1]"},
		{"pmax -Inf", func(c *switchmodel.Config) { c.ECN.Pmax = math.Inf(-1) }, "switch.ecn.pmax: -Inf is not a number in [0,1]"},
		{"per-rate pmax NaN", func(c *switchmodel.Config) {
			c.ECN.PerRate = []switchmodel.ECNRate{{Rate: 25 * units.Gbps, KminBytes: 1, KmaxBytes: 2, Pmax: 0.1}, {Rate: 100 * units.Gbps, KmaxBytes: 2, Pmax: math.NaN()}}
		}, "switch.ecn.per_rate[1].pmax: NaN is not a number in [0,1]"},
		{"buffer beyond 10^18", func(c *switchmodel.Config) { c.BufferBytes = units.MaxSize + 1 },
			"switch.buffer must be in (0, 10^18] bytes, got 1000000000000000001 B"},
		{"reference rate beyond 1Pbps", func(c *switchmodel.Config) { c.ECN.RefRate = units.MaxRate + 1 },
			"switch.ecn.ref_rate (the reference rate) must be 0 for no scaling or a rate up to 1Pbps, got 1000000000000001 bps"},
		{"headroom beyond 10^18", func(c *switchmodel.Config) { c.PFC.HeadroomBytes = units.MaxSize + 1 },
			"switch.pfc.headroom must be in [0, 10^18] bytes, got 1000000000000000001 B"},
	} {
		c := switchmodel.DefaultConfig()
		tc.mod(&c)
		if err := c.Validate(); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// Defect 1: a reference rate below 1 Mb/s passed validation and then
// divided by zero when a switch scaled its thresholds (RefRate/Mbps = 0).
// Thresholds now scale exactly and saturate instead of overflowing.
func TestThresholdsSubMbpsReferenceRate(t *testing.T) {
	c := switchmodel.DefaultConfig()
	c.ECN.RefRate = 500 * units.Kbps
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if kmin, kmax := c.ECN.Thresholds(100 * units.Gbps); kmin != 1_000_000_000 || kmax != 40_000_000_000 {
		t.Errorf("5KB/200KB given at 500Kbps, at 100Gbps: %d/%d, want 1e9/4e10", kmin, kmax)
	}
	c.ECN.KminBytes, c.ECN.KmaxBytes, c.ECN.RefRate = units.MaxSize, units.MaxSize, 1
	if kmin, kmax := c.ECN.Thresholds(units.MaxRate); kmin != math.MaxInt64 || kmax != math.MaxInt64 {
		t.Errorf("10^18 B at 1bps scaled to 1Pbps: %d/%d, want saturated", kmin, kmax)
	}
}

// PortHeadroom is what switchmodel.New sizes each port's headroom to, and
// it saturates rather than overflows for an absurd rate x delay.
func TestPortHeadroom(t *testing.T) {
	p := switchmodel.DefaultConfig().PFC
	if got, want := p.PortHeadroom(100*units.Gbps, units.Microsecond), units.Bytes(2*12500+4500); got != want {
		t.Errorf("auto headroom at 100Gbps, 1us: %d, want %d", got, want)
	}
	if got := p.PortHeadroom(units.MaxRate, units.MaxDuration); got != 1_000_000_000_000_000_000 {
		t.Errorf("auto headroom at 1Pbps, 10^6 s: %d, want saturated at 10^18", got)
	}
	p.HeadroomBytes = 7
	if got := p.PortHeadroom(100*units.Gbps, units.Microsecond); got != 7 {
		t.Errorf("explicit headroom: %d, want 7", got)
	}
}
