package dolce

import (
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestPresets checks every value of each preset against its source
// (Dolce-RC, Ye 2023): DR-UCB gamma 0.9998, epsilon 0.015, xi 0.5001
// (Section V-A); RED Kmin 7 KB, Kmax 500 KB (Section V-A; Pmax 1 %, not
// stated); the CNP interval of the setup: 55 us in the simulations
// (Section IV-A: five CNP intervals are about one fast recovery phase,
// F x T = 5 x 55 us), 1 us on the testbed (Section IV-B.1,
// MIN_TIME_BETWEEN_CNPS = 1); the reaction point of the setup's DCQCN:
// zhu2015's (CC-NetCalc, Lehal 2024, Table II) in the simulations, the
// ConnectX NIC's (dcqcn's connectx_test.go) on the testbed.
func TestPresets(t *testing.T) {
	bandit := map[string]string{
		"gamma": "0.9998", "epsilon": "0.015", "xi": "0.5001", "fixed_point": "false",
		"kmin": "7KB", "kmax": "500KB", "pmax": "0.01", "ecn_ref_rate": "off",
	}
	rc := func(kv ...string) map[string]string {
		m := maps.Clone(bandit)
		m["estimator"], m["arms"], m["window"] = "slots", "0.08:1,0.259:1.01,0.443:1.02,0.625:1.03", "none"
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		build   cca.Builder
		presets []string
		name    string
		cnp     units.Time
		keys    []string
		params  map[string]string
	}{
		{Build, []string{"", "sim", "paper"}, "dolce:sim", 55 * units.Microsecond, rcTable.Keys(), rc(
			"qualify_gap", "275us", "cnp_interval", "55us", "ai_rate", "5Mbps", "hai_rate", "50Mbps",
			"increase_timer", "55us", "fast_recovery", "5", "byte_counter", "10MB", "min_rate", "100Mbps",
			"decrease_interval", "0us", "increase_mode", "zhu")},
		{Build, []string{"testbed"}, "dolce:testbed", units.Microsecond, rcTable.Keys(), rc(
			"qualify_gap", "300us", "cnp_interval", "1us", "ai_rate", "5Mbps", "hai_rate", "50Mbps",
			"increase_timer", "300us", "fast_recovery", "1", "byte_counter", "32767B", "min_rate", "1Mbps",
			"decrease_interval", "4us", "increase_mode", "mlx")},
		{BuildPlus, []string{"", "sim", "paper"}, "dolceplus:sim", 55 * units.Microsecond, plusTable.Keys(), func() map[string]string {
			m := maps.Clone(bandit)
			m["arms"], m["cnp_interval"] = "4", "55us"
			return m
		}()},
	} {
		for _, preset := range tc.presets {
			s, err := tc.build(preset, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s.Name != tc.name {
				t.Errorf("Name %q, want %q", s.Name, tc.name)
			}
			if *s.ECN != (cca.ECNHint{KminBytes: 7000, KmaxBytes: 500000, Pmax: 0.01}) || s.CNPInterval != tc.cnp || s.NeedsINT {
				t.Errorf("%s: ECN %+v, CNP interval %v", tc.name, *s.ECN, s.CNPInterval)
			}
			if !maps.Equal(s.Params, tc.params) {
				t.Errorf("%s: params\n got %v\nwant %v", tc.name, s.Params, tc.params)
			}
			if got := slicesSorted(s.Params); !reflect.DeepEqual(got, tc.keys) {
				t.Errorf("%s: params keys %v, want every key %v", tc.name, got, tc.keys)
			}
		}
	}
}

func slicesSorted(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestParamsRoundTrip feeds the effective parameters back: summary.json
// must be enough to rebuild the same configuration.
func TestParamsRoundTrip(t *testing.T) {
	over := map[string]string{"arms": "0.1:0.9,1:1.5", "estimator": "ideal", "fixed_point": "true",
		"qualify_gap": "100us", "ai_rate": "40Mbps", "gamma": "0.99", "kmin": "10KB"}
	s, err := Build("", over)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Build("", s.Params)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(s.Params, s2.Params) {
		t.Errorf("params changed:\n%v\n%v", s.Params, s2.Params)
	}
	if c1, c2 := s.New().(*RC).Config(), s2.New().(*RC).Config(); !reflect.DeepEqual(c1, c2) {
		t.Errorf("config changed:\n%+v\n%+v", c1, c2)
	}
	p, err := BuildPlus("", map[string]string{"arms": "6", "xi": "2", "pmax": "0.2", "fixed_point": "1"})
	if err != nil {
		t.Fatal(err)
	}
	p2, err := BuildPlus("", p.Params)
	if err != nil || !maps.Equal(p.Params, p2.Params) {
		t.Errorf("plus params changed: %v\n%v\n%v", err, p.Params, p2.Params)
	}
}

// TestOverrides checks that each key reaches the configuration.
func TestOverrides(t *testing.T) {
	s, err := Build("paper", map[string]string{
		"arms": "0.5:1, 0.25:0.8", "estimator": "IDEAL", "fixed_point": "true", "qualify_gap": "auto",
		"gamma": "0.999", "epsilon": "0.1", "xi": "0.75", "ai_rate": "40Mbps", "increase_timer": "10us",
		"fast_recovery": "3", "kmax": "1MB", "cnp_interval": "4us", "window": "bdp",
	})
	if err != nil {
		t.Fatal(err)
	}
	c := s.New().(*RC).Config()
	if !reflect.DeepEqual(c.Arms, []Arm{{0.5, 1}, {0.25, 0.8}}) || c.Estimator != EstimatorIdeal || !c.FixedPoint ||
		c.Gamma != 0.999 || c.Epsilon != 0.1 || c.Xi != 0.75 || c.DCQCN.AIRate != 40*units.Mbps ||
		c.DCQCN.IncreaseTimer != 10*units.Microsecond || c.DCQCN.FastRecovery != 3 || !c.DCQCN.WindowBDP {
		t.Errorf("config %+v", c)
	}
	if s.Params["qualify_gap"] != "30us" || s.ECN.KmaxBytes != 1_000_000 || s.CNPInterval != 4*units.Microsecond {
		t.Errorf("qualify_gap %s (want F*T = 30us), ECN %+v, CNP %v", s.Params["qualify_gap"], *s.ECN, s.CNPInterval)
	}
	p, err := BuildPlus("", map[string]string{"arms": "2", "kmin": "1KB", "kmax": "2KB", "ecn_ref_rate": "25Gbps"})
	if err != nil {
		t.Fatal(err)
	}
	if pc := p.New().(*Plus).Config(); pc.Arms != 2 || *p.ECN != (cca.ECNHint{KminBytes: 1000, KmaxBytes: 2000, Pmax: 0.01, RefRate: 25 * units.Gbps}) {
		t.Errorf("plus config %+v ECN %+v", pc, *p.ECN)
	}
}

// TestBuildErrors checks that bad input is rejected with a lowercase
// error naming the culprit.
func TestBuildErrors(t *testing.T) {
	ccatest.CheckBuildErrors(t, Build, []ccatest.BuildError{
		{Preset: "zhu2015", Want: `unknown preset "zhu2015" (known: sim, testbed)`},
		{Params: map[string]string{"foo": "1"}, Want: `unknown parameter "foo" (known: ai_rate, arms, byte_counter,`},
		{Params: map[string]string{"g": "0.5"}, Want: `parameter "g" does not apply: alpha comes from the arm set`},
		{Params: map[string]string{"cut": "alpha"}, Want: `parameter "cut" does not apply: the cut is R_C = (1 - alpha/2)*R_C`},
		{Params: map[string]string{"clamp_target_rate": "false"}, Want: `parameter "clamp_target_rate" does not apply`},
		{Params: map[string]string{"gamma": "1"}, Want: "parameter gamma: must be in (0, 1), got 1"},
		{Params: map[string]string{"epsilon": "x"}, Want: `parameter epsilon: want a number, got "x"`},
		{Params: map[string]string{"arms": "0.5"}, Want: `parameter arms: arm 0: want alpha:beta, got "0.5"`},
		{Params: map[string]string{"arms": "0.5:1,2:1"}, Want: "parameter arms: arm 1: alpha must be in [0, 1], got 2"},
		{Params: map[string]string{"arms": "0.5:0"}, Want: "parameter arms: arm 0: beta must be a positive number"},
		{Params: map[string]string{"arms": "a:b"}, Want: "parameter arms: arm 0: want alpha:beta numbers"},
		{Params: map[string]string{"estimator": "exact"}, Want: `parameter estimator: want one of ideal, slots, got "exact"`},
		{Params: map[string]string{"fixed_point": "maybe"}, Want: "parameter fixed_point: want true or false"},
		{Params: map[string]string{"qualify_gap": "soon"}, Want: "parameter qualify_gap: invalid duration"},
		{Params: map[string]string{"ai_rate": "-5Mbps"}, Want: "parameter ai_rate:"},
		{Params: map[string]string{"kmin": "600KB"}, Want: "kmin (600000 B) must not exceed kmax (500000 B)"},
		{Params: map[string]string{"fixed_point": "true", "epsilon": "0.001"}, Want: "fixed point: floor(K/epsilon) = 4000 exceeds 1024"},
	})
	ccatest.CheckBuildErrors(t, BuildPlus, []ccatest.BuildError{
		{Preset: "x", Want: `unknown preset "x" (known: sim)`},
		{Params: map[string]string{"ai_rate": "1G"}, Want: `unknown parameter "ai_rate" (known: arms, cnp_interval,`},
		{Params: map[string]string{"xi": "0.5"}, Want: "parameter xi: must be a number > 0.5, got 0.5"},
		{Params: map[string]string{"arms": "0"}, Want: `parameter arms: want an integer in [1, 62], got "0"`},
		{Params: map[string]string{"kmin": "600KB"}, Want: "want 0 <= kmin <= kmax"},
		{Params: map[string]string{"fixed_point": "true", "gamma": "0.99999"}, Want: "fixed point: gamma 0.99999 too close to 1"},
	})
}

// TestRegister checks the registry wiring.
func TestRegister(t *testing.T) {
	r := cca.NewRegistry()
	Register(r)
	for spec, want := range map[string]string{"dolce": "dolce:sim", "dolce:paper": "dolce:sim", "dolce:testbed": "dolce:testbed", "dolceplus": "dolceplus:sim"} {
		s, err := r.Build(spec, nil)
		if err != nil || s.Name != want {
			t.Errorf("Build(%q) = %q, %v; want %q", spec, s.Name, err, want)
		}
		if name := s.New().Name(); name != strings.Split(want, ":")[0] {
			t.Errorf("%s makes %q", spec, name)
		}
	}
	if _, err := r.Build("dolce:x", nil); err == nil || !strings.HasPrefix(err.Error(), `dolce: unknown preset "x"`) {
		t.Errorf("unknown preset: %v", err)
	}
	if r.Doc("dolce") == "" || r.Doc("dolceplus") == "" {
		t.Error("no doc line")
	}
}

// TestPanics checks that misuse is caught loudly.
func TestPanics(t *testing.T) {
	rc, _ := NewRC(Config{})
	plus, _ := NewPlus(PlusConfig{})
	for name, f := range map[string]func(){
		"rc cnp before start":   func() { rc.OnCNP(0) },
		"plus ack before start": func() { plus.OnAck(0, &cca.Ack{}) },
		"plus zero line rate":   func() { plus.Start(0, cca.FlowInfo{}) },
		"rc state not fixed":    func() { rc.AppendState(nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// The fixed-point Dolce-RC connection state is the paper's 20 bytes
// (Section IV-B.2): 4 arms x 4 bytes plus one DWORD holding r, the marked
// and the sent count (see RC.AppendState).
func TestFixedState20Bytes(t *testing.T) {
	r, err := NewRC(Config{FixedPoint: true, Estimator: EstimatorIdeal})
	if err != nil {
		t.Fatal(err)
	}
	r.Start(0, cca.FlowInfo{LineRate: 100 * units.Gbps, BaseRTT: 8 * units.Microsecond, MTU: 1048})
	now := units.Time(0)
	for it := range 10 {
		for range 3000 { // more than 2047 packets: the counts halve
			now += 84 * units.Nanosecond
			r.OnSend(now, 1048)
			r.OnAck(now, &cca.Ack{AckedBytes: 1000, ECE: it%3 == 0})
		}
		r.OnCNP(now)
	}
	for range 2500 {
		now += 84 * units.Nanosecond
		r.OnSend(now, 1048)
		r.OnAck(now, &cca.Ack{AckedBytes: 1000, ECE: true})
	}
	st := r.AppendState(nil)
	if len(st) != 20 {
		t.Fatalf("state is %d bytes, want 20", len(st))
	}
	w := uint32(st[16]) | uint32(st[17])<<8 | uint32(st[18])<<16 | uint32(st[19])<<24
	marked, sent := r.ECNCounts()
	if int64(w&0x3FF) != r.Bandit().Iteration()%266 || int64(w>>10&0x7FF) != marked || int64(w>>21) != sent {
		t.Errorf("word %#x: r=%d marked=%d sent=%d, want %d %d %d", w, w&0x3FF, w>>10&0x7FF, w>>21, r.Bandit().Iteration()%266, marked, sent)
	}
	if sent > 2047 || marked > 2047 || marked != sent {
		t.Errorf("counts %d/%d: want 11-bit, halved together (all marked)", marked, sent)
	}
}
