package dcqcn

import (
	"maps"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// zhu2015Values is the zhu2015 preset, value by value against CC-NetCalc
// (Lehal 2024), Table II (the settings of Zhu 2015) and Table I (F).
var zhu2015Values = map[string]string{
	"ai_rate": "5Mbps", "hai_rate": "50Mbps", // R_AI 5 Mb/s, R_HAI 50 Mb/s (Table II)
	"ai_ref_rate": "off",                                                // the same steps at every rate
	"min_rate":    "100Mbps",                                            // not in the source: the HPCC simulator's MinRate default (params.go)
	"g":           "0.00390625", "alpha_init": "1", "alpha_mode": "zhu", // g 1/256 (Table II); alpha 1 (Section V)
	"alpha_timer": "55us", "increase_timer": "55us", "byte_counter": "10MB", // K = T = 55 us, B = 10 MB (Table II)
	"fast_recovery": "5", "increase_mode": "zhu", "decrease_interval": "0us", "decrease_mode": "immediate", // F = 5 (Table I); every CNP cuts
	"cut": "half-alpha", "clamp_target_rate": "true", "window": "none", "alpha_first": "false", "min_dec_factor": "off",
	"kmin": "5KB", "kmax": "200KB", "pmax": "0.01", "ecn_ref_rate": "off", // Kmin 5 kB, Kmax 200 kB, Pmax 1 % (Table II)
	"cnp_interval": "50us", // T_gap 50 us (Table II)
}

// hpccRunValues is hpcc-run against the HPCC repository's
// simulation/run.py with --cc dcqcn --bw 100 (the line numbers of its
// file; the template is lines 5-63).
var hpccRunValues = map[string]string{
	"ai_rate": "20Mbps", "hai_rate": "200Mbps", // ai = 5*bw/25, hai = 50*bw/25 (lines 100-101) at bw = 100
	"ai_ref_rate": "100Gbps",                                              // both scale with bw
	"min_rate":    "1Gbps",                                                // MIN_RATE 1000Mb/s (line 28)
	"g":           "0.00390625",                                           // g=0.00390625 (line 104)
	"alpha_init":  "1",                                                    // the Mellanox model's alpha starts at 1 (rdma-queue-pair.cc)
	"alpha_mode":  "mlx", "decrease_mode": "tick", "increase_mode": "mlx", // CC_MODE 1, mode=1 (line 104): the Mellanox model
	"alpha_timer": "1us", "decrease_interval": "4us", "increase_timer": "300us", // t_alpha=1, t_dec=4, t_inc=300 (line 104)
	"byte_counter":      "off",                                                                           // the model has no byte counter
	"fast_recovery":     "1",                                                                             // FAST_RECOVERY_TIMES 1 (line 25)
	"clamp_target_rate": "false",                                                                         // CLAMP_TARGET_RATE 0 (line 22)
	"cut":               "half-alpha", "window": "none", "alpha_first": "false", "min_dec_factor": "off", // has_win=0 (line 104)
	"kmin": "400KB", "kmax": "1600KB", "pmax": "0.2", "ecn_ref_rate": "100Gbps", // kmin_map 100*bw/25, kmax_map 400*bw/25, pmax 0.2 (lines 96-98)
	"cnp_interval": "1us", // no CNP gap in the simulator: ours, one alpha slot (params.go)
}

// with returns base with the given values replaced.
func with(base map[string]string, kv ...string) map[string]string {
	out := maps.Clone(base)
	for i := 0; i < len(kv); i += 2 {
		if _, ok := out[kv[i]]; !ok {
			panic("with: unknown key " + kv[i])
		}
		out[kv[i]] = kv[i+1]
	}
	return out
}

// TestPresets checks every value of each preset against its source (see
// params.go); connectx has its own table (connectx_test.go).
func TestPresets(t *testing.T) {
	ccatest.CheckPresets(t, Build, "dcqcn", table.Keys(), []ccatest.Preset{
		{
			Preset: "zhu2015", Name: "dcqcn:zhu2015",
			Hints:  cca.Spec{ECN: &cca.ECNHint{KminBytes: 5000, KmaxBytes: 200000, Pmax: 0.01}, CNPInterval: 50 * units.Microsecond},
			Params: zhu2015Values,
		},
		{
			// The default: what the HPCC paper's experiments ran.
			Preset: "", Aliases: []string{"hpcc"}, Name: "dcqcn:hpcc-run",
			Hints:  cca.Spec{ECN: &cca.ECNHint{KminBytes: 400000, KmaxBytes: 1600000, Pmax: 0.2, RefRate: 100 * units.Gbps}, CNPInterval: units.Microsecond},
			Params: hpccRunValues,
		},
		{
			// run.py --cc dcqcn_paper (line 106): t_alpha=50, t_dec=50, t_inc=55.
			Preset: "hpcc-run-paper", Name: "dcqcn:hpcc-run-paper",
			Hints:  cca.Spec{ECN: &cca.ECNHint{KminBytes: 400000, KmaxBytes: 1600000, Pmax: 0.2, RefRate: 100 * units.Gbps}, CNPInterval: units.Microsecond},
			Params: with(hpccRunValues, "alpha_timer", "50us", "decrease_interval", "50us", "increase_timer", "55us"),
		},
		{
			// The HPCC repository's simulation/mix/config.txt: RATE_AI 50Mb/s,
			// RATE_HAI 100Mb/s, MIN_RATE 100Mb/s, RP_TIMER 900, KMIN_MAP and
			// KMAX_MAP 100 and 400 (KB) at 25000000000 b/s.
			Preset: "hpcc-repo", Name: "dcqcn:hpcc-config",
			Hints: cca.Spec{ECN: &cca.ECNHint{KminBytes: 100000, KmaxBytes: 400000, Pmax: 0.2, RefRate: 25 * units.Gbps}, CNPInterval: units.Microsecond},
			Params: with(hpccRunValues, "ai_rate", "50Mbps", "hai_rate", "100Mbps", "ai_ref_rate", "off",
				"min_rate", "100Mbps", "increase_timer", "900us", "kmin", "100KB", "kmax", "400KB", "ecn_ref_rate", "25Gbps"),
		},
		{
			// Dolce-RC (Ye 2023), Section V-A (Kmin 7 KB, Kmax 500 KB) and
			// Section IV-A (five CNP intervals are one fast recovery phase,
			// F x T = 5 x 55 us) over zhu2015's reaction point.
			Preset: "dolce", Name: "dcqcn:dolce-sim",
			Hints:  cca.Spec{ECN: &cca.ECNHint{KminBytes: 7000, KmaxBytes: 500000, Pmax: 0.01}, CNPInterval: 55 * units.Microsecond},
			Params: with(zhu2015Values, "kmin", "7KB", "kmax", "500KB", "cnp_interval", "55us"),
		},
		{
			// Dolce-RC (Ye 2023), Section V-A (Kmin 7 KB, Kmax 500 KB) and
			// Section IV-B.1 (MIN_TIME_BETWEEN_CNPS = 1) over the ConnectX
			// NICs' reaction point (connectx_test.go).
			Preset: "dolce-testbed", Name: "dcqcn:dolce-testbed",
			Hints: cca.Spec{ECN: &cca.ECNHint{KminBytes: 7000, KmaxBytes: 500000, Pmax: 0.01}, CNPInterval: units.Microsecond},
			Params: with(hpccRunValues, "ai_rate", "5Mbps", "hai_rate", "50Mbps", "ai_ref_rate", "off",
				"min_rate", "1Mbps", "g", "0.0048828125", "alpha_init", "0.9990234375", "byte_counter", "32767B",
				"min_dec_factor", "0.5", "kmin", "7KB", "kmax", "500KB", "pmax", "0.01", "ecn_ref_rate", "off"),
		},
		{
			// Zhu et al.'s ns-3 model (ns3-rdma): alpha 0.5 at the start,
			// updated before each cut.
			Preset: "zhu2015-ns3", Name: "dcqcn:zhu2015-ns3",
			Hints:  cca.Spec{ECN: &cca.ECNHint{KminBytes: 5000, KmaxBytes: 200000, Pmax: 0.01}, CNPInterval: 50 * units.Microsecond},
			Params: with(zhu2015Values, "alpha_init", "0.5", "alpha_first", "true"),
		},
	})
}

// TestOverrides checks that each key reaches the Config.
func TestOverrides(t *testing.T) {
	s, err := Build("hpcc-config", map[string]string{
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
		KeepTargetRate: false, WindowBDP: true,
		Marking: Marking{Kmin: 1000, Kmax: 2000, Pmax: 1, ECNRefRate: 0, CNPInterval: 4 * units.Microsecond},
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
	ccatest.CheckBuildErrors(t, Build, []ccatest.BuildError{
		{Preset: "nope", Want: `unknown preset "nope" (known: connectx, dolce-sim, dolce-testbed, hpcc-config, hpcc-run, hpcc-run-paper, zhu2015, zhu2015-ns3)`},
		{Params: map[string]string{"foo": "1"}, Want: `unknown parameter "foo" (known: ai_rate, ai_ref_rate, alpha_first, alpha_init,`},
		{Params: map[string]string{"AI_RATE": "1G"}, Want: `unknown parameter "AI_RATE"`},
		{Params: map[string]string{"zzz": "1", "g": "2"}, Want: "parameter g: must be in (0, 1], got 2"},
		{Params: map[string]string{"g": "0"}, Want: "parameter g: must be in (0, 1]"},
		{Params: map[string]string{"g": "-0.1"}, Want: "parameter g: must be in (0, 1]"},
		{Params: map[string]string{"g": "1/256"}, Want: `parameter g: want a number, got "1/256"`},
		{Params: map[string]string{"g": "NaN"}, Want: "parameter g: want a number"},
		{Params: map[string]string{"alpha_init": "0"}, Want: "parameter alpha_init: must be in (0, 1]"},
		{Params: map[string]string{"pmax": "1.5"}, Want: "parameter pmax: must be in [0, 1]"},
		{Params: map[string]string{"ai_rate": "-5Mbps"}, Want: "parameter ai_rate: rate \"-5Mbps\" out of range"},
		{Params: map[string]string{"hai_rate": "0"}, Want: "parameter hai_rate: rate \"0\" out of range"},
		{Params: map[string]string{"min_rate": "fast"}, Want: "parameter min_rate: invalid rate"},
		{Params: map[string]string{"increase_timer": "0us"}, Want: "parameter increase_timer: must be positive"},
		{Params: map[string]string{"alpha_timer": "55"}, Want: "parameter alpha_timer: invalid duration"},
		{Params: map[string]string{"cnp_interval": "-1us"}, Want: "parameter cnp_interval: duration \"-1us\" out of range"},
		{Params: map[string]string{"decrease_interval": "soon"}, Want: "parameter decrease_interval: invalid duration"},
		{Params: map[string]string{"byte_counter": "-1MB"}, Want: "parameter byte_counter: size \"-1MB\" out of range"},
		{Params: map[string]string{"window": "big"}, Want: "parameter window: invalid size"},
		{Params: map[string]string{"fast_recovery": "0"}, Want: "parameter fast_recovery: want an integer >= 1"},
		{Params: map[string]string{"fast_recovery": "2.5"}, Want: "parameter fast_recovery: want an integer >= 1"},
		{Params: map[string]string{"alpha_mode": "dctcp"}, Want: `parameter alpha_mode: want one of zhu, mlx, got "dctcp"`},
		{Params: map[string]string{"increase_mode": "x"}, Want: `parameter increase_mode: want one of zhu, mlx`},
		{Params: map[string]string{"cut": "half"}, Want: `parameter cut: want one of half-alpha, alpha, got "half"`},
		{Params: map[string]string{"clamp_target_rate": "maybe"}, Want: `parameter clamp_target_rate: want true or false`},
		{Preset: "zhu2015", Params: map[string]string{"kmin": "300KB"}, Want: "kmin (300000 B) must not exceed kmax (200000 B)"},
		{Params: map[string]string{"ecn_ref_rate": "x"}, Want: "parameter ecn_ref_rate: invalid rate"},
	})
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
	for spec, want := range map[string]string{"dcqcn": "dcqcn:hpcc-run", "dcqcn:zhu2015": "dcqcn:zhu2015", "dcqcn:hpcc": "dcqcn:hpcc-run",
		"dcqcn:hpcc-repo": "dcqcn:hpcc-config", "dcqcn:dolce": "dcqcn:dolce-sim", "dcqcn:dolce-testbed": "dcqcn:dolce-testbed"} {
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
	ccatest.CheckPanics(t, func() *DCQCN { d, _ := New(Config{}); return d }, map[string]func(d *DCQCN){
		"zero line rate": func(d *DCQCN) { d.Start(0, cca.FlowInfo{}) },
		"cnp before":     func(d *DCQCN) { d.OnCNP(0) },
	})
}

// TestAIRefRate: hpcc-run's increase steps follow run.py's rule RATE_AI =
// 5*bw/25 and RATE_HAI = 50*bw/25 Mb/s for a bw Gb/s NIC (lines 100-101).
func TestAIRefRate(t *testing.T) {
	s, err := Build("hpcc-run", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ line, ai, hai units.BitsPerSec }{
		{25 * units.Gbps, 5 * units.Mbps, 50 * units.Mbps},
		{50 * units.Gbps, 10 * units.Mbps, 100 * units.Mbps},
		{100 * units.Gbps, 20 * units.Mbps, 200 * units.Mbps},
		{400 * units.Gbps, 80 * units.Mbps, 800 * units.Mbps},
	} {
		d := s.New().(*DCQCN)
		d.Start(0, cca.FlowInfo{LineRate: tc.line, BaseRTT: 10 * units.Microsecond, MTU: 1048, Hops: 2})
		if ai, hai := d.step(d.cfg.AIRate), d.step(d.cfg.HAIRate); ai != tc.ai || hai != tc.hai {
			t.Errorf("%v: steps %v, %v; want %v, %v", tc.line, ai, hai, tc.ai, tc.hai)
		}
	}
	z, _ := Build("zhu2015", nil) // no reference rate: the same step at every rate
	d := z.New().(*DCQCN)
	d.Start(0, cca.FlowInfo{LineRate: 400 * units.Gbps, BaseRTT: 10 * units.Microsecond, MTU: 1048, Hops: 2})
	if ai := d.step(d.cfg.AIRate); ai != 5*units.Mbps {
		t.Errorf("zhu2015 at 400G: AI step %v, want 5Mbps", ai)
	}
}
