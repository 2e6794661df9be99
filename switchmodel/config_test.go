package switchmodel_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/errtest"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

// Validate rejects impossible settings with a message naming the setting,
// and ignores the settings of a feature that is off.
func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(c *switchmodel.Config)
		want string // "" = valid, else the whole message
	}{
		{"default", func(c *switchmodel.Config) {}, ""},
		{"zero buffer", func(c *switchmodel.Config) { c.BufferBytes = 0 }, "switch.buffer must be in (0, 10^18] bytes, got 0 B"},
		{"negative buffer", func(c *switchmodel.Config) { c.BufferBytes = -1 }, "switch.buffer must be in (0, 10^18] bytes, got -1 B"},
		{"negative kmin", func(c *switchmodel.Config) { c.ECN.KminBytes = -1 }, "switch.ecn.kmin must be in [0, 10^18] bytes, got -1 B"},
		{"kmax below kmin", func(c *switchmodel.Config) { c.ECN.KminBytes, c.ECN.KmaxBytes = 10, 9 }, "switch.ecn.kmax 9 B is below switch.ecn.kmin 10 B (want kmin <= kmax <= 10^18 bytes)"},
		{"kmin equals kmax", func(c *switchmodel.Config) { c.ECN.KminBytes, c.ECN.KmaxBytes = 10, 10 }, ""},
		{"pmax above 1", func(c *switchmodel.Config) { c.ECN.Pmax = 1.01 }, "switch.ecn.pmax: 1.01 is not a number in [0,1]"},
		{"negative pmax", func(c *switchmodel.Config) { c.ECN.Pmax = -0.01 }, "switch.ecn.pmax: -0.01 is not a number in [0,1]"},
		{"pmax 0 and 1 are fine", func(c *switchmodel.Config) { c.ECN.Pmax = 1 }, ""},
		{"negative reference rate", func(c *switchmodel.Config) { c.ECN.RefRate = -1 }, "switch.ecn.ref_rate (the reference rate) must be 0 for no scaling or a rate up to 1Pbps, got -1 bps"},
		{"ecn off ignores thresholds", func(c *switchmodel.Config) {
			c.ECN.Enabled, c.ECN.KminBytes, c.ECN.KmaxBytes, c.ECN.Pmax = false, 10, 1, 7
		}, ""},
		{"pfc mode empty", func(c *switchmodel.Config) { c.PFC.Mode = "" }, `switch.pfc.mode must be static or dynamic, got ""`},
		{"pfc mode unknown", func(c *switchmodel.Config) { c.PFC.Mode = "adaptive" }, `switch.pfc.mode must be static or dynamic, got "adaptive"`},
		{"static xon zero", func(c *switchmodel.Config) { c.PFC.Mode, c.PFC.XonPerGbps = switchmodel.PFCStatic, 0 }, "switch.pfc.xon_per_gbps and xoff_per_gbps need 0 < xon <= xoff <= 10^18 bytes, got xon 0 B and xoff 9500 B"},
		{"static xoff below xon", func(c *switchmodel.Config) {
			c.PFC.Mode, c.PFC.XoffPerGbps, c.PFC.XonPerGbps = switchmodel.PFCStatic, 9000, 9250
		}, "switch.pfc.xon_per_gbps 9250 B is above switch.pfc.xoff_per_gbps 9000 B: a paused port would never resume"},
		{"static ignores divisor", func(c *switchmodel.Config) { c.PFC.Mode, c.PFC.Divisor = switchmodel.PFCStatic, 0 }, ""},
		{"dynamic divisor zero", func(c *switchmodel.Config) { c.PFC.Divisor = 0 }, "switch.pfc.divisor must be > 0, got 0"},
		{"dynamic ignores static thresholds", func(c *switchmodel.Config) { c.PFC.XonPerGbps, c.PFC.XoffPerGbps = 0, 0 }, ""},
		{"negative reserve", func(c *switchmodel.Config) { c.PFC.ReserveBytes = -1 }, "switch.pfc.reserve must be in [0, 10^18] bytes, got -1 B"},
		{"negative headroom", func(c *switchmodel.Config) { c.PFC.HeadroomBytes = -1 }, "switch.pfc.headroom must be in [0, 10^18] bytes, got -1 B"},
		{"negative resume offset", func(c *switchmodel.Config) { c.PFC.ResumeOffsetBytes = -1 }, "switch.pfc.resume_offset (the resume offset) must be in [0, 10^18] bytes, got -1 B"},
		{"zero frame", func(c *switchmodel.Config) { c.PFC.FrameBytes = 0 }, "switch.pfc.frame (pause frame size) must be in (0, 10^18] bytes, got 0 B"},
		{"pfc off ignores its settings", func(c *switchmodel.Config) {
			c.PFC = switchmodel.PFCConfig{Enabled: false, Mode: "bogus", Divisor: -3, FrameBytes: -1}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := switchmodel.DefaultConfig()
			tc.mod(&c)
			errtest.Check(t, c.Validate(), tc.want)
		})
	}
}

// DefaultConfig is the documented preset: 32 MB, dynamic PFC with the
// divisor 16 and 4 kB reserve of FDCC (Zhang 2023), the static thresholds
// of CC-NetCalc (Lehal 2024), and RED Kmin 5 kB / Kmax 200 kB / Pmax 1 %.
func TestDefaultConfig(t *testing.T) {
	c := switchmodel.DefaultConfig()
	if c.BufferBytes != 32_000_000 || !c.PFC.Enabled || c.PFC.Mode != switchmodel.PFCDynamic ||
		c.PFC.Divisor != 16 || c.PFC.ReserveBytes != 4000 || c.PFC.XoffPerGbps != 9500 || c.PFC.XonPerGbps != 9250 ||
		!c.ECN.Enabled || c.ECN.KminBytes != 5000 || c.ECN.KmaxBytes != 200000 || c.ECN.Pmax != 0.01 {
		t.Fatalf("DefaultConfig = %+v", c)
	}
}

// TestECNRateAs: a port slowed below its real rate (estimate's link
// networks take the reverse ACKs off the link under study) keeps the
// thresholds of its real rate, both when they scale with RefRate (HPCC
// simulator: KMIN 400 KB at 100 Gb/s scales to 392 KB at 98 Gb/s) and
// when a PerRate entry (KMIN_MAP) lists the real rate only; other rates
// are untouched.
func TestECNRateAs(t *testing.T) {
	g := units.Gbps
	scaled := switchmodel.ECNConfig{Enabled: true, KminBytes: 400_000, KmaxBytes: 1_600_000, Pmax: 0.2, RefRate: 100 * g}
	listed := switchmodel.ECNConfig{Enabled: true, KminBytes: 5_000, KmaxBytes: 200_000, Pmax: 0.01,
		PerRate: []switchmodel.ECNRate{{Rate: 100 * g, KminBytes: 100_000, KmaxBytes: 400_000, Pmax: 0.2}}}
	for _, e := range []switchmodel.ECNConfig{scaled, listed} {
		slowed := 98 * g
		if a, b, _ := e.ForRate(slowed); a == 0 || b == 0 {
			t.Fatalf("%+v at 98 Gb/s: %d, %d", e, a, b)
		}
		p := e.RateAs(slowed, 100*g)
		k1, k2, pm := p.ForRate(slowed)
		w1, w2, wp := e.ForRate(100 * g)
		if k1 != w1 || k2 != w2 || pm != wp {
			t.Errorf("%+v: 98 Gb/s marked at %d-%d B, %v; want 100 Gb/s's %d-%d B, %v", e, k1, k2, pm, w1, w2, wp)
		}
		if o1, o2, _ := e.ForRate(98 * g); o1 == w1 && o2 == w2 {
			t.Errorf("%+v: the slowed rate already had the real rate's thresholds; the case checks nothing", e)
		}
		for _, r := range []units.BitsPerSec{25 * g, 100 * g, 400 * g} {
			a1, a2, ap := p.ForRate(r)
			b1, b2, bp := e.ForRate(r)
			if a1 != b1 || a2 != b2 || ap != bp {
				t.Errorf("%+v at %v: %d-%d, %v after RateAs, %d-%d, %v before", e, r, a1, a2, ap, b1, b2, bp)
			}
		}
		if q := e.RateAs(100*g, 100*g); len(q.PerRate) != len(e.PerRate) {
			t.Errorf("equal rates changed the config: %+v", q)
		}
		c := switchmodel.DefaultConfig()
		c.ECN = p
		if err := c.Validate(); err != nil {
			t.Errorf("RateAs config invalid: %v", err)
		}
	}
}
