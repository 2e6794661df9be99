package dctcp

import (
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestPresets checks each preset against its source (see params.go).
func TestPresets(t *testing.T) {
	ccatest.CheckPresets(t, Build, "dctcp", table.Keys(), []ccatest.Preset{
		{
			// DCTCP paper: g = 1/16; K > C*RTT/7 at 100 Gb/s, 13 us.
			Preset: "", Aliases: []string{"paper", "alizadeh2010"}, Name: "dctcp:paper",
			Hints: cca.Spec{ECN: &cca.ECNHint{KminBytes: 24000, KmaxBytes: 24000, Pmax: 1, RefRate: 100 * units.Gbps}},
			Params: map[string]string{
				"g": "0.0625", "alpha_init": "1", "ai_rate": "mtu-per-rtt",
				"min_rate": "100Mbps", "window": "none", "k": "24KB", "k_ref_rate": "100Gbps",
			},
		},
		{
			// The HPCC repository's simulation/run.py, --cc dctcp: g=0.0625
			// (line 131), dctcp_ai=615 (line 127), MIN_RATE 1000Mb/s
			// (template line 28), has_win=1 vwin=1 (line 131), kmin_map =
			// kmax_map = 30*bw/10 KB, pmax 1.0 (lines 128-130): 300 KB at
			// bw = 100, linear in the link rate; alpha 1 (rdma-queue-pair.cc).
			Preset: "hpcc-run", Aliases: []string{"hpcc-repo", "hpcc"}, Name: "dctcp:hpcc-run",
			Hints: cca.Spec{ECN: &cca.ECNHint{KminBytes: 300000, KmaxBytes: 300000, Pmax: 1, RefRate: 100 * units.Gbps}},
			Params: map[string]string{
				"g": "0.0625", "alpha_init": "1", "ai_rate": "615Mbps",
				"min_rate": "1Gbps", "window": "var", "k": "300KB", "k_ref_rate": "100Gbps",
			},
		},
	})
}

// TestOverrides checks that each key reaches the Config and the ECN hint.
func TestOverrides(t *testing.T) {
	s, err := Build("hpcc-repo", map[string]string{
		"g": "0.125", "alpha_init": "0.5", "ai_rate": "615Mb/s", "min_rate": "1G",
		"window": "BDP", "k": "97.5KB", "k_ref_rate": "off",
	})
	if err != nil {
		t.Fatal(err)
	}
	got := s.New().(*DCTCP).Config()
	want := Config{G: 0.125, AlphaInit: 0.5, AIRate: 615 * units.Mbps, MinRate: units.Gbps,
		Window: WindowBDP, K: 97500, KRefRate: 0}
	if got != want {
		t.Errorf("config\n got %+v\nwant %+v", got, want)
	}
	if *s.ECN != (cca.ECNHint{KminBytes: 97500, KmaxBytes: 97500, Pmax: 1}) {
		t.Errorf("ECN %+v", *s.ECN)
	}
	if s.Params["k"] != "97500B" || s.Params["ai_rate"] != "615Mbps" {
		t.Errorf("params %v", s.Params)
	}
	s, err = Build("hpcc-repo", map[string]string{"ai_rate": "MTU-per-RTT"})
	if err != nil {
		t.Fatal(err)
	}
	if c := s.New().(*DCTCP).Config(); !c.AIPerRTT || c.AIRate != 0 {
		t.Errorf("mtu-per-rtt override: %+v", c)
	}
}

// TestBuildErrors checks that bad input is rejected with a lowercase error
// naming the culprit (and the known keys or presets).
func TestBuildErrors(t *testing.T) {
	ccatest.CheckBuildErrors(t, Build, []ccatest.BuildError{
		{Preset: "nope", Want: `unknown preset "nope" (known: hpcc-run, paper)`},
		{Params: map[string]string{"kmin": "1KB"}, Want: `unknown parameter "kmin" (known: ai_rate, alpha_init, g, k, k_ref_rate, min_rate, window)`},
		{Params: map[string]string{"g": "0"}, Want: "parameter g: must be in (0, 1], got 0"},
		{Params: map[string]string{"g": "1/16"}, Want: `parameter g: want a number, got "1/16"`},
		{Params: map[string]string{"alpha_init": "2"}, Want: "parameter alpha_init: must be in (0, 1], got 2"},
		{Params: map[string]string{"ai_rate": "fast"}, Want: `parameter ai_rate: invalid rate "fast" (want e.g. 100Gbps, 25G, 50Mb/s), or mtu-per-rtt`},
		{Params: map[string]string{"ai_rate": "0"}, Want: `parameter ai_rate: rate "0" out of range`},
		{Params: map[string]string{"min_rate": "-1G"}, Want: "parameter min_rate: rate \"-1G\" out of range"},
		{Params: map[string]string{"window": "cwnd"}, Want: `parameter window: want one of none, bdp, var, got "cwnd"`},
		{Params: map[string]string{"k": "0"}, Want: `parameter k: must be positive, got "0"`},
		{Params: map[string]string{"k": "big"}, Want: "parameter k: invalid size"},
		{Params: map[string]string{"k_ref_rate": "x"}, Want: "parameter k_ref_rate: invalid rate"},
	})
}

// TestRegister checks the registry entry.
func TestRegister(t *testing.T) {
	ccatest.CheckRegister(t, Register, ccatest.Registered{
		Spec: "dctcp:hpcc", Params: map[string]string{"g": "0.0625"}, Name: "dctcp:hpcc-run", Doc: "DCTCP",
		Bad: "dctcp", BadParams: map[string]string{"x": "1"}, BadErr: `dctcp: unknown parameter "x"`,
	})
}

// TestStartValidation checks Start's panics and the event methods'
// "before Start" panics.
func TestStartValidation(t *testing.T) {
	ccatest.CheckPanics(t, func() *DCTCP { d, _ := New(Config{}); return d }, map[string]func(d *DCTCP){
		"zero line rate":     func(d *DCTCP) { d.Start(0, cca.FlowInfo{BaseRTT: units.Microsecond, MTU: 1}) },
		"mtu-per-rtt no rtt": func(d *DCTCP) { d.Start(0, cca.FlowInfo{LineRate: units.Gbps, MTU: 1000}) },
		"ack before":         func(d *DCTCP) { d.OnAck(0, &cca.Ack{}) },
		"cnp before":         func(d *DCTCP) { d.OnCNP(0) },
	})
	d, _ := New(Config{Window: WindowVar})
	if d.Rate() != 0 || d.Window() != 0 || d.NextTimer() != units.Never {
		t.Errorf("before Start: rate %v window %v", d.Rate(), d.Window())
	}
}
