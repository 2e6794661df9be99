package hpcc

import (
	"math"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// TestPresets checks each preset against its source (see params.go).
func TestPresets(t *testing.T) {
	// HPCC asks switches for INT and leaves ECN marking and the CNP interval alone.
	intOnly := cca.Spec{NeedsINT: true}
	ccatest.CheckPresets(t, Build, "hpcc", table.Keys(), []ccatest.Preset{
		{
			// Li et al. 2019 section 3.3.
			Preset: "", Aliases: []string{"paper", "li2019"}, Name: "hpcc:paper", Hints: intOnly,
			Params: map[string]string{
				"eta": "0.95", "max_stage": "5", "w_ai": "off", "ai_rate": "off",
				"ai_ref_rate": "off", "ai_flows": "100", "min_rate": "100Mbps", "base_rtt": "path",
				"fast_react": "true",
			},
		},
		{
			// The HPCC repository's simulation/run.py, --cc hp at its defaults:
			// u_tgt = 95/100 (line 84) -> U_TARGET, mi = 0 -> MI_THRESH 0,
			// ai = 10*bw/25 (line 112) -> RATE_AI, 40 Mb/s at bw = 100,
			// scaled with bw; MIN_RATE 1000Mb/s (template line 28); us=1
			// (line 123) -> FAST_REACT 1.
			Preset: "hpcc-run", Aliases: []string{"hpcc"}, Name: "hpcc:hpcc-run", Hints: intOnly,
			Params: map[string]string{
				"eta": "0.95", "max_stage": "0", "w_ai": "off", "ai_rate": "40Mbps",
				"ai_ref_rate": "100Gbps", "ai_flows": "off", "min_rate": "1Gbps", "base_rtt": "path",
				"fast_react": "true",
			},
		},
		{
			// The HPCC repository's simulation/mix/config.txt: U_TARGET 0.95,
			// MI_THRESH 0, RATE_AI 50Mb/s, MIN_RATE 100Mb/s, FAST_REACT 1.
			Preset: "hpcc-config", Aliases: []string{"hpcc-repo"}, Name: "hpcc:hpcc-config", Hints: intOnly,
			Params: map[string]string{
				"eta": "0.95", "max_stage": "0", "w_ai": "off", "ai_rate": "50Mbps",
				"ai_ref_rate": "off", "ai_flows": "off", "min_rate": "100Mbps", "base_rtt": "path",
				"fast_react": "true",
			},
		},
	})
}

// TestOverrides checks that each key reaches the Config, and that naming
// one way of giving W_AI clears the preset's other way.
func TestOverrides(t *testing.T) {
	s, err := Build("hpcc-repo", map[string]string{
		"eta": "0.9", "max_stage": "3", "w_ai": "80B", "min_rate": "1Gbps",
		"base_rtt": "12.5us", "fast_react": "false",
	})
	if err != nil {
		t.Fatal(err)
	}
	got := s.New().(*HPCC).Config()
	want := Config{Eta: 0.9, MaxStage: 3, WAI: 80, MinRate: units.Gbps,
		BaseRTT: 12500 * units.Nanosecond, NoFastReact: true}
	if got != want {
		t.Errorf("config\n got %+v\nwant %+v", got, want)
	}
	if s.Params["ai_rate"] != "off" || s.Params["w_ai"] != "80B" || s.Params["base_rtt"] != "12500ns" {
		t.Errorf("params %v", s.Params)
	}
	s, err = Build("", map[string]string{"ai_rate": "40Mb/s", "ai_flows": "off"})
	if err != nil {
		t.Fatal(err)
	}
	if c := s.New().(*HPCC).Config(); c.AIRate != 40*units.Mbps || c.AIFlows != 0 || c.WAI != 0 {
		t.Errorf("ai_rate override: %+v", c)
	}
}

// TestBuildErrors checks that bad input is rejected with a lowercase error
// naming the culprit (and the known keys or presets).
func TestBuildErrors(t *testing.T) {
	ccatest.CheckBuildErrors(t, Build, []ccatest.BuildError{
		{Preset: "nope", Want: `unknown preset "nope" (known: hpcc-config, hpcc-run, paper)`},
		{Params: map[string]string{"foo": "1"}, Want: `unknown parameter "foo" (known: ai_flows, ai_rate, ai_ref_rate, base_rtt, eta, fast_react, max_stage, min_rate, w_ai)`},
		{Params: map[string]string{"ETA": "0.9"}, Want: `unknown parameter "ETA"`},
		{Params: map[string]string{"eta": "0"}, Want: "parameter eta: must be in (0, 1], got 0"},
		{Params: map[string]string{"eta": "x"}, Want: `parameter eta: want a number, got "x"`},
		{Params: map[string]string{"eta": "NaN"}, Want: "parameter eta: want a number"},
		{Params: map[string]string{"max_stage": "-1"}, Want: `parameter max_stage: want an integer >= 0, got "-1"`},
		{Params: map[string]string{"max_stage": "2.5"}, Want: "parameter max_stage: want an integer >= 0"},
		{Params: map[string]string{"w_ai": "lots"}, Want: "parameter w_ai: invalid size"},
		{Params: map[string]string{"w_ai": "0.2"}, Want: `parameter w_ai: size "0.2" is not a whole number of bytes`},
		{Params: map[string]string{"w_ai": "0B"}, Want: `parameter w_ai: must be positive or "off", got "0B"`},
		{Params: map[string]string{"ai_rate": "-1Mbps"}, Want: "parameter ai_rate: rate \"-1Mbps\" out of range"},
		{Params: map[string]string{"ai_flows": "0.5"}, Want: "parameter ai_flows: want an integer >= 1"},
		{Params: map[string]string{"ai_flows": "10", "w_ai": "8B"}, Want: "parameters ai_flows and w_ai each set W_AI: give only one"},
		{Params: map[string]string{"min_rate": "slow"}, Want: "parameter min_rate: invalid rate"},
		{Params: map[string]string{"base_rtt": "0us"}, Want: `parameter base_rtt: must be positive or "path", got "0us"`},
		{Params: map[string]string{"base_rtt": "10"}, Want: "parameter base_rtt: invalid duration"},
		{Params: map[string]string{"fast_react": "sometimes"}, Want: `parameter fast_react: want true or false, got "sometimes"`},
	})
}

// TestRegister checks the registry entry.
func TestRegister(t *testing.T) {
	ccatest.CheckRegister(t, Register, ccatest.Registered{
		Spec: "hpcc:hpcc-repo", Params: map[string]string{"eta": "0.9"}, Name: "hpcc:hpcc-config", Doc: "HPCC",
		Bad: "hpcc:x", BadErr: "hpcc: unknown preset",
	})
}

// TestMeasureInflightTwoHops checks U against a hand computation of
// Alg. 1 lines 3-9 on a two-hop path whose second hop is congested.
func TestMeasureInflightTwoHops(t *testing.T) {
	h, _ := New(Config{WAI: 80})
	const T = 8 * units.Microsecond
	h.Start(0, cca.FlowInfo{LineRate: 100 * units.Gbps, BaseRTT: T})
	a := &cca.Ack{NumHops: 2, RTT: T}
	// Previous stamps (first ACK: recorded only).
	a.Hops[0] = telemetry.Hop{QLen: 0, TxBytes: 1_000_000, TS: 100 * units.Microsecond, LinkRate: 100 * units.Gbps}
	a.Hops[1] = telemetry.Hop{QLen: 40_000, TxBytes: 5_000_000, TS: 101 * units.Microsecond, LinkRate: 25 * units.Gbps}
	h.OnAck(108*units.Microsecond, a)
	if h.U() != 0 {
		t.Fatalf("first ACK changed U to %v", h.U())
	}
	// 4 us later on hop 0, 2 us later on hop 1.
	a.Hops[0] = telemetry.Hop{QLen: 1000, TxBytes: 1_030_000, TS: 104 * units.Microsecond, LinkRate: 100 * units.Gbps}
	a.Hops[1] = telemetry.Hop{QLen: 50_000, TxBytes: 5_006_250, TS: 103 * units.Microsecond, LinkRate: 25 * units.Gbps}
	h.OnAck(112*units.Microsecond, a)
	// Line 4: hop 0 txRate = 30000 B/4us = 7.5e9 B/s of B = 12.5e9 B/s;
	//         hop 1 txRate = 6250 B/2us = 3.125e9 B/s of B = 3.125e9 B/s.
	// Line 5: hop 0 u' = min(1000, 0)/(12.5e9*8e-6) + 0.6 = 0.6;
	//         hop 1 u' = min(50000, 40000)/(3.125e9*8e-6) + 1 = 1.6 + 1 = 2.6.
	// Lines 6-8: u = 2.6, tau = 2 us. Line 9: U = (1 - 0.25)*0 + 0.25*2.6.
	if want := 0.65; math.Abs(h.U()-want) > 1e-12 {
		t.Fatalf("U = %v, want %v", h.U(), want)
	}
	// The packet was sent at 112-8 = 104 us, before the RTT began (108 us):
	// fast react. U < eta and incStage 0 < 5, so line 17: W = Wc + W_AI,
	// capped at the line rate's W_init = 100000 B.
	if h.WindowBytes() != 100_000 || h.RefWindow() != 100_000 || h.IncStage() != 0 {
		t.Fatalf("W = %v, Wc = %v; want 100000 both", h.WindowBytes(), h.RefWindow())
	}
	// Another 2 us on both hops at the same rates; the queues stay, so
	// hop 1's min(qlen) is now 50000: u' = 50000/25000 + 1 = 3 and
	// U = 0.75*0.65 + 0.25*3 = 1.2375.
	a.Hops[0].TS += 2 * units.Microsecond
	a.Hops[0].TxBytes += 15_000
	a.Hops[1].TS += 2 * units.Microsecond
	a.Hops[1].TxBytes += 6250
	h.OnAck(114*units.Microsecond, a)
	if want := 1.2375; math.Abs(h.U()-want) > 1e-12 {
		t.Fatalf("U = %v, want %v", h.U(), want)
	}
}

// TestStartValidation checks Start's panics and the event methods'
// "before Start" panics.
func TestStartValidation(t *testing.T) {
	ccatest.CheckPanics(t, func() *HPCC { h, _ := New(Config{}); return h }, map[string]func(h *HPCC){
		"zero line rate": func(h *HPCC) { h.Start(0, cca.FlowInfo{BaseRTT: units.Microsecond}) },
		"zero base rtt":  func(h *HPCC) { h.Start(0, cca.FlowInfo{LineRate: units.Gbps}) },
		"ack before":     func(h *HPCC) { h.OnAck(0, &cca.Ack{}) },
		"send before":    func(h *HPCC) { h.OnSend(0, 1) },
	})
	h, _ := New(Config{})
	if h.Rate() != 0 || h.Window() != 0 || h.NextTimer() != units.Never {
		t.Errorf("before Start: rate %v window %v", h.Rate(), h.Window())
	}
	// base_rtt overrides a missing path RTT.
	h, _ = New(Config{BaseRTT: 5 * units.Microsecond})
	h.Start(0, cca.FlowInfo{LineRate: 100 * units.Gbps})
	if h.Window() != 62500 || h.Rate() != 100*units.Gbps {
		t.Errorf("window %v rate %v", h.Window(), h.Rate())
	}
}

// TestAIRefRate: hpcc-run's W_AI follows run.py's RATE_AI = 10*bw/25 Mb/s
// for a bw Gb/s NIC (line 112): W_AI = RATE_AI*T/8.
func TestAIRefRate(t *testing.T) {
	s, err := Build("hpcc-run", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line units.BitsPerSec
		wAI  float64 // bytes at T = 10 us
	}{
		{25 * units.Gbps, 12.5}, {100 * units.Gbps, 50}, {400 * units.Gbps, 200},
	} {
		h := s.New().(*HPCC)
		h.Start(0, cca.FlowInfo{LineRate: tc.line, BaseRTT: 10 * units.Microsecond, MTU: 1048, Hops: 2})
		if math.Abs(h.wAI-tc.wAI) > 1e-9 {
			t.Errorf("%v: W_AI %v B, want %v", tc.line, h.wAI, tc.wAI)
		}
	}
}
