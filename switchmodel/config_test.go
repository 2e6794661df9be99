package switchmodel_test

import (
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/switchmodel"
)

// Validate rejects impossible settings with a message naming the setting,
// and ignores the settings of a feature that is off.
func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mod     func(c *switchmodel.Config)
		wantErr string // "" = valid
	}{
		{"default", func(c *switchmodel.Config) {}, ""},
		{"zero buffer", func(c *switchmodel.Config) { c.BufferBytes = 0 }, "buffer"},
		{"negative buffer", func(c *switchmodel.Config) { c.BufferBytes = -1 }, "buffer"},
		{"negative kmin", func(c *switchmodel.Config) { c.ECN.KminBytes = -1 }, "kmin"},
		{"kmax below kmin", func(c *switchmodel.Config) { c.ECN.KminBytes, c.ECN.KmaxBytes = 10, 9 }, "kmax"},
		{"kmin equals kmax", func(c *switchmodel.Config) { c.ECN.KminBytes, c.ECN.KmaxBytes = 10, 10 }, ""},
		{"pmax above 1", func(c *switchmodel.Config) { c.ECN.Pmax = 1.01 }, "pmax"},
		{"negative pmax", func(c *switchmodel.Config) { c.ECN.Pmax = -0.01 }, "pmax"},
		{"pmax 0 and 1 are fine", func(c *switchmodel.Config) { c.ECN.Pmax = 1 }, ""},
		{"negative reference rate", func(c *switchmodel.Config) { c.ECN.RefRate = -1 }, "reference rate"},
		{"ecn off ignores thresholds", func(c *switchmodel.Config) {
			c.ECN.Enabled, c.ECN.KminBytes, c.ECN.KmaxBytes, c.ECN.Pmax = false, 10, 1, 7
		}, ""},
		{"pfc mode empty", func(c *switchmodel.Config) { c.PFC.Mode = "" }, "mode"},
		{"pfc mode unknown", func(c *switchmodel.Config) { c.PFC.Mode = "adaptive" }, "mode"},
		{"static xon zero", func(c *switchmodel.Config) { c.PFC.Mode, c.PFC.XonPerGbps = switchmodel.PFCStatic, 0 }, "xon"},
		{"static xoff below xon", func(c *switchmodel.Config) {
			c.PFC.Mode, c.PFC.XoffPerGbps, c.PFC.XonPerGbps = switchmodel.PFCStatic, 9000, 9250
		}, "xoff"},
		{"static ignores divisor", func(c *switchmodel.Config) { c.PFC.Mode, c.PFC.Divisor = switchmodel.PFCStatic, 0 }, ""},
		{"dynamic divisor zero", func(c *switchmodel.Config) { c.PFC.Divisor = 0 }, "divisor"},
		{"dynamic ignores static thresholds", func(c *switchmodel.Config) { c.PFC.XonPerGbps, c.PFC.XoffPerGbps = 0, 0 }, ""},
		{"negative reserve", func(c *switchmodel.Config) { c.PFC.ReserveBytes = -1 }, "reserve"},
		{"negative headroom", func(c *switchmodel.Config) { c.PFC.HeadroomBytes = -1 }, "headroom"},
		{"negative resume offset", func(c *switchmodel.Config) { c.PFC.ResumeOffsetBytes = -1 }, "resume offset"},
		{"zero frame", func(c *switchmodel.Config) { c.PFC.FrameBytes = 0 }, "frame"},
		{"pfc off ignores its settings", func(c *switchmodel.Config) {
			c.PFC = switchmodel.PFCConfig{Enabled: false, Mode: "bogus", Divisor: -3, FrameBytes: -1}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := switchmodel.DefaultConfig()
			tc.mod(&c)
			err := c.Validate()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("valid config rejected: %v", err)
			case tc.wantErr != "" && err == nil:
				t.Fatalf("accepted; want an error about %q", tc.wantErr)
			case tc.wantErr != "" && !strings.Contains(err.Error(), tc.wantErr):
				t.Fatalf("error %q does not mention %q", err, tc.wantErr)
			case err != nil && err.Error() != strings.ToLower(err.Error()[:1])+err.Error()[1:]:
				t.Fatalf("error %q should start lowercase", err)
			}
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
