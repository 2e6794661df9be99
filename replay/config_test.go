package replay

import (
	"strings"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/internal/errtest"
	"github.com/ccreplay/ccreplay/internal/replaytest"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

// builtinTopologies are the topology kinds and presets the CLI offers,
// each with its defaults.
var builtinTopologies = []string{"star", "star:hosts=64", "dumbbell", "leafspine", "fattree", "dolce-testbed", "hpcc-fattree", "dolce-fattree"}

// allSpecs builds every algorithm under every one of its presets, as the
// CLI's registry has them.
func allSpecs(t *testing.T) []cca.Spec {
	t.Helper()
	r := all.Registry()
	var specs []cca.Spec
	for _, full := range r.Presets() {
		s, err := r.Build(full, nil)
		if err != nil {
			t.Fatalf("%s: %v", full, err)
		}
		specs = append(specs, s)
	}
	return specs
}

// The new checks of Validate (defect 2) must not reject what ships: every
// built-in topology with the default switch and NIC under every algorithm
// preset's network hints, with dynamic and with static PFC.
func TestValidateAcceptsShippedConfigs(t *testing.T) {
	specs := allSpecs(t)
	for _, ts := range builtinTopologies {
		topo := replaytest.Topology(t, ts, 2)
		for _, spec := range specs {
			for _, mode := range []switchmodel.PFCMode{switchmodel.PFCDynamic, switchmodel.PFCStatic} {
				cfg := Config{Topology: topo, CC: spec, Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig(), Packets: PacketsNone}
				cfg.ApplyCCHints()
				cfg.Switch.PFC.Mode = mode
				if err := cfg.Validate(); err != nil {
					t.Errorf("%s under %s, %s pfc: %v", ts, spec.Name, mode, err)
				}
			}
		}
	}
}

// validConfig is a lossless default network on an 8-host star.
func validConfig(t *testing.T) Config {
	cfg := Config{Topology: replaytest.Topology(t, "star:hosts=8", 8), CC: ccSpec(t, "linerate", nil),
		Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig(), Packets: PacketsNone}
	cfg.ApplyCCHints()
	return cfg
}

// Defect 2 (configurations that can never forward a packet hang forever):
// Validate rejects them with a one-line error naming the key.
func TestValidateRejectsConfigsThatCannotForward(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(c *Config)
		want string // "" = valid; else the exact error, or its prefix when it ends in "..."
	}{
		{"buffer 1B", func(c *Config) { c.Switch.BufferBytes = 1 },
			"switch.buffer 1B is smaller than one data packet (1048 B: nic.mtu_payload 1000 + nic.header 48)"},
		{"lossy buffer of one packet less a byte", func(c *Config) { c.Switch.PFC.Enabled, c.Switch.BufferBytes = false, 1047 },
			"switch.buffer 1047B is smaller than one data packet (1048 B: nic.mtu_payload 1000 + nic.header 48)"},
		{"lossy buffer of exactly one packet", func(c *Config) { c.Switch.PFC.Enabled, c.Switch.BufferBytes = false, 1048 }, ""},
		{"mtu larger than the buffer", func(c *Config) { c.NIC.MTUPayload = 64 * units.MB },
			"switch.buffer 32MB is smaller than one data packet (64000048 B: nic.mtu_payload 64000000 + nic.header 48)"},
		// Dynamic PFC whose reserves and headroom take the whole buffer
		// still forwards (threshold 0: pause above the reserve).
		{"dynamic pfc reserve and headroom above the buffer", func(c *Config) { c.Switch.BufferBytes = 200 * units.KB }, ""},
		{"dynamic pfc explicit headroom", func(c *Config) { c.Switch.PFC.HeadroomBytes = 4 * units.MB }, ""},
		{"lossy small buffer ignores pfc", func(c *Config) { c.Switch.BufferBytes, c.Switch.PFC.Enabled = 200*units.KB, false }, ""},
		{"static xoff above the buffer", func(c *Config) {
			c.Switch.PFC.Mode, c.Switch.BufferBytes = switchmodel.PFCStatic, 900*units.KB
		}, `switch.pfc.xoff_per_gbps 9500B gives xoff 950KB on the 100Gbps ports of switch "sw0", more than switch.buffer 900KB`},
		{"static xoff just fits", func(c *Config) {
			c.Switch.PFC.Mode, c.Switch.BufferBytes = switchmodel.PFCStatic, 950*units.KB
		}, ""},
		{"static xoff times rate overflows", func(c *Config) {
			c.Switch.PFC.Mode, c.Switch.PFC.XoffPerGbps = switchmodel.PFCStatic, units.MaxSize
		}, "switch.pfc.xoff_per_gbps 1000000000000MB x port rate 100Gbps of switch \"sw0\" is beyond int64 bytes"},
		{"static xon above xoff", func(c *Config) {
			c.Switch.PFC.Mode, c.Switch.PFC.XonPerGbps = switchmodel.PFCStatic, 9600
		}, "switch.pfc.xon_per_gbps 9600 B is above switch.pfc.xoff_per_gbps 9500 B: a paused port would never resume"},
		{"ecn kmin above kmax", func(c *Config) { c.Switch.ECN.KminBytes = 300 * units.KB },
			"switch.ecn.kmax 200000 B is below switch.ecn.kmin 300000 B (want kmin <= kmax <= 10^18 bytes)"},
		{"zero link rate", func(c *Config) { c.Topology.Nodes[8].Ports[0].Rate = 0 },
			`topology: node 8 "sw0" port 0: rate 0 bps must be > 0`},
		{"zero nic min rate", func(c *Config) { c.NIC.MinRate = 0 }, "nic.min_rate must be in (0, 1Pbps], got 0 bps"},
		{"zero mtu", func(c *Config) { c.NIC.MTUPayload = 0 }, "nic.mtu_payload must be in [1, 10^18] bytes, got 0 B"},
		{"ack interval beyond the window", func(c *Config) { c.NIC.Window, c.NIC.AckEvery = 2000, 3 },
			"nic.ack_every 3 is more packets than nic.window 2000B lets out (2 of 1048 B): every window would wait for nic.rto before its ack"},
		{"ack interval the window holds", func(c *Config) { c.NIC.Window, c.NIC.AckEvery = 2000, 2 }, ""},
		{"max time beyond the limit", func(c *Config) { c.MaxTime = limits.MaxTime + 1 },
			"max_time ..."},
		{"check period beyond the limit", func(c *Config) { c.CheckEvery = limits.MaxTime + 1 }, "check period (--check) ..."},
		{"negative local rate", func(c *Config) { c.LocalRate = -1 }, "nic.local_rate must be 0 (instant) or a rate up to 1Pbps, got -1 bps"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := validConfig(t)
			tc.mod(&cfg)
			errtest.Check(t, cfg.Validate(), tc.want)
		})
	}
}

// Defect 2: a run whose switch buffer cannot hold one packet used to drop
// and retransmit forever; now Run fails at once with the validation error.
func TestRunWithBufferBelowOnePacketFailsFast(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=2,size=10KB", 1)
	cfg := validConfig(t)
	cfg.Topology = replaytest.Topology(t, "", tr.Hosts)
	cfg.Switch.BufferBytes = 1
	done := make(chan error, 1)
	go func() { _, err := Run(cfg, tr); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.HasPrefix(err.Error(), "switch.buffer 1B is smaller than one data packet") {
			t.Fatalf("run with a 1 B buffer: %v, want the validation error", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("run with a 1 B buffer did not return within 20 s (it never ends)")
	}
}

// A network that withholds the algorithm's congestion signal is refused,
// naming both (the README's YAML template once set int: false, which
// silently blinded HPCC: 94.5 % ECN ratio against 5.2 %).
func TestValidateRefusesMissingCongestionSignal(t *testing.T) {
	build := func(name string) cca.Spec {
		s, err := all.Registry().Build(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	hpcc := validConfig(t)
	hpcc.CC = build("hpcc")
	hpcc.ApplyCCHints()
	if err := hpcc.Validate(); err != nil {
		t.Fatalf("hpcc with its hints: %v", err)
	}
	hpcc.Switch.INT = false
	if err := hpcc.Validate(); err == nil || !strings.Contains(err.Error(), "needs INT telemetry from the switches, but switch.int is false") {
		t.Errorf("hpcc without INT: %v", err)
	}
	for _, name := range []string{"dcqcn", "dctcp", "dolce"} {
		c := validConfig(t)
		c.CC = build(name)
		c.ApplyCCHints()
		c.Switch.ECN.Enabled = false
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "reacts to ECN marks, but switch.ecn.enabled is false") {
			t.Errorf("%s without ECN: %v", name, err)
		}
	}
	lr := validConfig(t)
	lr.Switch.ECN.Enabled, lr.Switch.INT = false, false
	if err := lr.Validate(); err != nil {
		t.Errorf("linerate needs no signal: %v", err)
	}
}
