package switchmodel_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/errtest"
	"github.com/ccreplay/ccreplay/switchmodel"
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
