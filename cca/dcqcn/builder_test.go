package dcqcn

import (
	"maps"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// TestPresets checks each preset against its source (see params.go).
func TestPresets(t *testing.T) {
	for _, tc := range []struct {
		preset, name string
		ecn          cca.ECNHint
		cnp          units.Time
		params       map[string]string
	}{
		{
			// CC-NetCalc (Lehal 2024), Table II.
			preset: "zhu2015", name: "dcqcn:zhu2015",
			ecn: cca.ECNHint{KminBytes: 5000, KmaxBytes: 200000, Pmax: 0.01},
			cnp: 50 * units.Microsecond,
			params: map[string]string{
				"ai_rate": "5Mbps", "hai_rate": "50Mbps", "min_rate": "100Mbps",
				"g": "0.00390625", "alpha_init": "1", "alpha_mode": "zhu",
				"alpha_timer": "55us", "increase_timer": "55us", "byte_counter": "10MB",
				"fast_recovery": "5", "increase_mode": "zhu", "decrease_interval": "0us",
				"cut": "half-alpha", "clamp_target_rate": "true", "window": "none",
				"kmin": "5KB", "kmax": "200KB", "pmax": "0.01", "ecn_ref_rate": "off",
				"cnp_interval": "50us",
			},
		},
		{
			// The default: the HPCC simulator's 100 Gb/s settings, what most
			// published 100G results use.
			preset: "", name: "dcqcn:hpcc",
			ecn: cca.ECNHint{KminBytes: 100000, KmaxBytes: 400000, Pmax: 0.2, RefRate: 25 * units.Gbps},
			cnp: units.Microsecond,
		},
		{
			// HPCC simulator mix/config.txt.
			preset: "hpcc", name: "dcqcn:hpcc",
			ecn: cca.ECNHint{KminBytes: 100000, KmaxBytes: 400000, Pmax: 0.2, RefRate: 25 * units.Gbps},
			cnp: units.Microsecond,
			params: map[string]string{
				"ai_rate": "50Mbps", "hai_rate": "100Mbps", "min_rate": "100Mbps",
				"g": "0.00390625", "alpha_mode": "mlx", "alpha_timer": "1us",
				"increase_timer": "900us", "byte_counter": "off", "fast_recovery": "1",
				"increase_mode": "mlx", "decrease_interval": "4us",
				"clamp_target_rate": "false", "ecn_ref_rate": "25Gbps",
			},
		},
		{
			// Paper 000 section V-A and IV-B.
			preset: "dolce", name: "dcqcn:dolce",
			ecn:    cca.ECNHint{KminBytes: 7000, KmaxBytes: 500000, Pmax: 0.01},
			cnp:    units.Microsecond,
			params: map[string]string{"ai_rate": "5Mbps", "g": "0.00390625", "byte_counter": "10MB"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Build(tc.preset, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s.Name != tc.name {
				t.Errorf("Name = %q, want %q", s.Name, tc.name)
			}
			if s.ECN == nil || *s.ECN != tc.ecn {
				t.Errorf("ECN = %+v, want %+v", s.ECN, tc.ecn)
			}
			if s.CNPInterval != tc.cnp {
				t.Errorf("CNPInterval = %v, want %v", s.CNPInterval, tc.cnp)
			}
			if len(s.Params) != len(Keys()) {
				t.Errorf("Params has %d keys, want all %d", len(s.Params), len(Keys()))
			}
			for k, v := range tc.params {
				if s.Params[k] != v {
					t.Errorf("Params[%q] = %q, want %q", k, s.Params[k], v)
				}
			}
			if s.New().Name() != "dcqcn" || s.NeedsINT {
				t.Error("wrong algorithm or INT request")
			}
		})
	}
}

// TestParamsRoundTrip feeds each preset's effective parameters back to
// Build: summary.json must be enough to rerun the same configuration.
func TestParamsRoundTrip(t *testing.T) {
	for _, p := range Presets() {
		s, err := Build(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := Build(p, s.Params)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !maps.Equal(s.Params, s2.Params) {
			t.Errorf("%s: params changed:\n%v\n%v", p, s.Params, s2.Params)
		}
		c1, c2 := s.New().(*DCQCN).Config(), s2.New().(*DCQCN).Config()
		if c1 != c2 {
			t.Errorf("%s: config changed:\n%+v\n%+v", p, c1, c2)
		}
	}
}

// TestOverrides checks that each key reaches the Config.
func TestOverrides(t *testing.T) {
	s, err := Build("hpcc", map[string]string{
		"ai_rate": "40Mb/s", "hai_rate": "0.2G", "min_rate": "1Gbps", "g": "0.0625",
		"alpha_init": "0.25", "alpha_mode": "zhu", "alpha_timer": "50us",
		"increase_timer": "0.3ms", "byte_counter": "1MiB", "fast_recovery": "3",
		"increase_mode": "zhu", "decrease_interval": "0us", "cut": "alpha",
		"clamp_target_rate": "1", "window": "bdp", "kmin": "1KB", "kmax": "2KB",
		"pmax": "1", "ecn_ref_rate": "off", "cnp_interval": "4us",
	})
	if err != nil {
		t.Fatal(err)
	}
	got := s.New().(*DCQCN).Config()
	want := Config{
		AIRate: 40 * units.Mbps, HAIRate: 200 * units.Mbps, MinRate: units.Gbps, G: 0.0625,
		AlphaInit: 0.25, AlphaMode: AlphaZhu, DecreaseMode: DecreaseTick, AlphaTimer: 50 * units.Microsecond,
		IncreaseTimer: 300 * units.Microsecond, ByteCounter: 1 << 20, FastRecovery: 3,
		IncreaseMode: IncreaseZhu, DecreaseInterval: 0, Cut: CutAlpha,
		KeepTargetRate: false, WindowBDP: true, Kmin: 1000, Kmax: 2000, Pmax: 1,
		ECNRefRate: 0, CNPInterval: 4 * units.Microsecond,
	}
	if got != want {
		t.Errorf("config\n got %+v\nwant %+v", got, want)
	}
	if *s.ECN != (cca.ECNHint{KminBytes: 1000, KmaxBytes: 2000, Pmax: 1}) || s.CNPInterval != 4*units.Microsecond {
		t.Errorf("spec ECN %+v CNP %v", *s.ECN, s.CNPInterval)
	}
	if s.Params["byte_counter"] != "1048576B" || s.Params["hai_rate"] != "200Mbps" {
		t.Errorf("params %v", s.Params)
	}
}

// TestBuildErrors checks that bad input is rejected with an error naming
// the culprit.
func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		preset string
		params map[string]string
		want   string
	}{
		{"nope", nil, `unknown preset "nope" (known: connectx, dolce, hpcc, zhu2015, zhu2015-ns3)`},
		{"", map[string]string{"foo": "1"}, `unknown parameter "foo" (known: ai_rate, alpha_first, alpha_init,`},
		{"", map[string]string{"AI_RATE": "1G"}, `unknown parameter "AI_RATE"`},
		{"", map[string]string{"zzz": "1", "g": "2"}, "parameter g: must be in (0, 1], got 2"},
		{"", map[string]string{"g": "0"}, "parameter g: must be in (0, 1]"},
		{"", map[string]string{"g": "-0.1"}, "parameter g: must be in (0, 1]"},
		{"", map[string]string{"g": "1/256"}, `parameter g: want a number, got "1/256"`},
		{"", map[string]string{"g": "NaN"}, "parameter g: want a number"},
		{"", map[string]string{"alpha_init": "0"}, "parameter alpha_init: must be in (0, 1]"},
		{"", map[string]string{"pmax": "1.5"}, "parameter pmax: must be in [0, 1]"},
		{"", map[string]string{"ai_rate": "-5Mbps"}, "parameter ai_rate: rate \"-5Mbps\" out of range"},
		{"", map[string]string{"hai_rate": "0"}, "parameter hai_rate: rate \"0\" out of range"},
		{"", map[string]string{"min_rate": "fast"}, "parameter min_rate: invalid rate"},
		{"", map[string]string{"increase_timer": "0us"}, "parameter increase_timer: must be positive"},
		{"", map[string]string{"alpha_timer": "55"}, "parameter alpha_timer: invalid duration"},
		{"", map[string]string{"cnp_interval": "-1us"}, "parameter cnp_interval: duration \"-1us\" out of range"},
		{"", map[string]string{"decrease_interval": "soon"}, "parameter decrease_interval: invalid duration"},
		{"", map[string]string{"byte_counter": "-1MB"}, "parameter byte_counter: size \"-1MB\" out of range"},
		{"", map[string]string{"window": "big"}, "parameter window: invalid size"},
		{"", map[string]string{"fast_recovery": "0"}, "parameter fast_recovery: want an integer >= 1"},
		{"", map[string]string{"fast_recovery": "2.5"}, "parameter fast_recovery: want an integer >= 1"},
		{"", map[string]string{"alpha_mode": "dctcp"}, `parameter alpha_mode: want one of zhu, mlx, got "dctcp"`},
		{"", map[string]string{"increase_mode": "x"}, `parameter increase_mode: want one of zhu, mlx`},
		{"", map[string]string{"cut": "half"}, `parameter cut: want one of half-alpha, alpha, got "half"`},
		{"", map[string]string{"clamp_target_rate": "maybe"}, `parameter clamp_target_rate: want true or false`},
		{"zhu2015", map[string]string{"kmin": "300KB"}, "kmin (300000 B) must not exceed kmax (200000 B)"},
		{"", map[string]string{"ecn_ref_rate": "x"}, "parameter ecn_ref_rate: invalid rate"},
	} {
		_, err := Build(tc.preset, tc.params)
		if err == nil {
			t.Errorf("Build(%q, %v): no error, want %q", tc.preset, tc.params, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Build(%q, %v) = %q, want it to contain %q", tc.preset, tc.params, err, tc.want)
		}
		if strings.ToLower(err.Error()[:1]) != err.Error()[:1] {
			t.Errorf("error %q starts with a capital", err)
		}
	}
}

// TestValidate checks that the zero Config is the zhu2015 preset without
// its byte counter (zero means off) and that impossible struct values are
// rejected.
func TestValidate(t *testing.T) {
	var c Config
	if err := c.validate(); err != nil {
		t.Fatal(err)
	}
	want, _ := Preset("zhu2015")
	want.ByteCounter = 0
	if c != want {
		t.Errorf("zero config filled to\n%+v\nwant\n%+v", c, want)
	}
	for _, tc := range []struct {
		mod  func(*Config)
		want string
	}{
		{func(c *Config) { c.AIRate = -1 }, "ai_rate must be positive"},
		{func(c *Config) { c.MinRate = -1 }, "min_rate must be positive"},
		{func(c *Config) { c.G = 2 }, "g must be in (0, 1]"},
		{func(c *Config) { c.AlphaInit = -0.5 }, "alpha_init must be in (0, 1]"},
		{func(c *Config) { c.IncreaseTimer = -1 }, "increase_timer must be positive"},
		{func(c *Config) { c.ByteCounter = -1 }, "byte_counter must not be negative"},
		{func(c *Config) { c.FastRecovery = -1 }, "fast_recovery must be at least 1"},
		{func(c *Config) { c.AlphaMode = "x" }, "alpha_mode must be"},
		{func(c *Config) { c.Window, c.WindowBDP = 10, true }, "window: give either"},
		{func(c *Config) { c.Pmax = -0.1 }, "pmax must be in [0, 1]"},
		{func(c *Config) { c.DecreaseInterval = -1 }, "decrease_interval must not be negative"},
	} {
		c, _ := Preset("")
		tc.mod(&c)
		if _, err := New(c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New: error %v, want %q", err, tc.want)
		}
	}
}

// TestRegister checks the registry wiring.
func TestRegister(t *testing.T) {
	r := cca.NewRegistry()
	Register(r)
	for spec, want := range map[string]string{"dcqcn": "dcqcn:hpcc", "dcqcn:zhu2015": "dcqcn:zhu2015", "dcqcn:hpcc": "dcqcn:hpcc", "dcqcn:dolce": "dcqcn:dolce"} {
		s, err := r.Build(spec, nil)
		if err != nil || s.Name != want {
			t.Errorf("Build(%q) = %q, %v; want %q", spec, s.Name, err, want)
		}
	}
	if _, err := r.Build("dcqcn:x", nil); err == nil || !strings.HasPrefix(err.Error(), `dcqcn: unknown preset "x"`) {
		t.Errorf("unknown preset: %v", err)
	}
	if r.Doc("dcqcn") == "" {
		t.Error("no doc line")
	}
}

// TestStartPanics checks that misuse is caught loudly.
func TestStartPanics(t *testing.T) {
	for name, f := range map[string]func(d *DCQCN){
		"zero line rate": func(d *DCQCN) { d.Start(0, cca.FlowInfo{}) },
		"cnp before":     func(d *DCQCN) { d.OnCNP(0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			d, _ := New(Config{})
			f(d)
		}()
	}
}
