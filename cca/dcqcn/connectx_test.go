package dcqcn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestConnectXPreset checks the connectx preset against the vendor's
// defaults, each with its source (the list in params.go): [D] ConnectX
// DCQCN docs (NVIDIA), "DCQCN CC Parameters"; [Q] ConnectX mlxconfig
// defaults (ConnectX-5, ConnectX-6 Lx); [W] the ConWeave simulator's list;
// [S] Cumulus Linux RoCE (NVIDIA).
func TestConnectXPreset(t *testing.T) {
	for _, name := range []string{"connectx", "nvidia"} {
		s, err := Build(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if s.Name != "dcqcn:connectx" {
			t.Errorf("%s: Name = %q", name, s.Name)
		}
		want := map[string]string{
			"alpha_timer":       "1us",          // dce_tcp_rtt 1 us [D, Q, W]
			"g":                 "0.0048828125", // dce_tcp_g 1019: (1024-1019)/1024 [D, Q, W]
			"alpha_init":        "0.9990234375", // initial_alpha_value 1023/1024 [D, Q, W]
			"alpha_first":       "false",        // alpha_mode mlx does not update alpha at a cut
			"alpha_mode":        "mlx",          // alpha on a clock of period dce_tcp_rtt [C in params.go]
			"decrease_mode":     "tick",         // rate_reduce_monitor_period: cut at the next period [W]
			"decrease_interval": "4us",          // rate_reduce_monitor_period 4 us [D, Q, W]
			"cut":               "half-alpha",   // rpg_gd 11: Gd = 2^(11-10) [D, Q, W]
			"min_dec_factor":    "0.5",          // rpg_min_dec_fac 50 % [D, Q, W]
			"min_rate":          "1Mbps",        // rpg_min_rate 1 Mb/s [D, Q]
			"increase_timer":    "300us",        // rpg_time_reset 300 us [Q, W]
			"byte_counter":      "32767B",       // rpg_byte_reset 32767 B [Q, W]
			"fast_recovery":     "1",            // rpg_threshold 1 [Q, W]
			"increase_mode":     "mlx",          // the HPCC simulator's reading of the state machine
			"ai_rate":           "5Mbps",        // rpg_ai_rate 5 Mb/s [Q]
			"hai_rate":          "50Mbps",       // rpg_hai_rate 50 Mb/s [Q]
			"ai_ref_rate":       "off",          // the same steps at every port speed [Q]
			"clamp_target_rate": "false",        // clamp_tgt_rate 0, clamp_tgt_rate_after_time_inc 1 [Q, W]
			"cnp_interval":      "4us",          // min_time_between_cnps 4 us [Q]
			"kmin":              "150KB",        // min_threshold_bytes 150000 [S]
			"kmax":              "1500KB",       // max_threshold_bytes 1500000 [S]
			"pmax":              "1",            // probability 100 [S]
			"ecn_ref_rate":      "off",          // the same thresholds at every rate [S]
			"window":            "none",
		}
		if len(want) != len(table.Keys()) {
			t.Errorf("the test checks %d keys of %d", len(want), len(table.Keys()))
		}
		for k, v := range want {
			if s.Params[k] != v {
				t.Errorf("%s: Params[%q] = %q, want %q", name, k, s.Params[k], v)
			}
		}
		if *s.ECN != (cca.ECNHint{KminBytes: 150000, KmaxBytes: 1500000, Pmax: 1}) || s.CNPInterval != 4*units.Microsecond {
			t.Errorf("%s: ECN %+v CNP %v", name, *s.ECN, s.CNPInterval)
		}
		c := s.New().(*DCQCN).Config()
		if c.G != 5.0/1024 || c.AlphaInit != 1023.0/1024 || c.MinDecFactor != 0.5 {
			t.Errorf("%s: g %v alpha_init %v min_dec_factor %v", name, c.G, c.AlphaInit, c.MinDecFactor)
		}
	}
	// Every other preset keeps the cut uncapped.
	for _, p := range []string{"zhu2015", "hpcc", "dolce"} {
		if c, _ := Preset(p); c.MinDecFactor != 0 {
			t.Errorf("%s: min_dec_factor %v, want 0", p, c.MinDecFactor)
		}
	}
}

// TestMinDecFactor: rpg_min_dec_fac caps one cut (ConnectX DCQCN docs,
// NVIDIA, "DCQCN Parameters": 25 keeps at least 25 % of the rate, 100
// forbids cuts); the min rate still applies below it.
func TestMinDecFactor(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params map[string]string
		want   units.BitsPerSec
	}{
		// alpha = 1, cut alpha: (1 - 1)*100G floors at the 100 Mb/s min rate.
		{"uncapped", map[string]string{"cut": "alpha"}, 100 * units.Mbps},
		// ... and 50 % halves at most.
		{"capped", map[string]string{"cut": "alpha", "min_dec_factor": "0.5"}, 50 * units.Gbps},
		// half-alpha with alpha = 1 halves: the 50 % cap does not bind.
		{"half-alpha", map[string]string{"min_dec_factor": "0.5"}, 50 * units.Gbps},
		{"80 %", map[string]string{"min_dec_factor": "0.8"}, 80 * units.Gbps},
		{"100 %", map[string]string{"cut": "alpha", "min_dec_factor": "1"}, 100 * units.Gbps},
		// The min rate (60G) is above the cap (50G): it wins.
		{"min rate", map[string]string{"cut": "alpha", "min_dec_factor": "0.5", "min_rate": "60Gbps"}, 60 * units.Gbps},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Build("zhu2015", tc.params)
			if err != nil {
				t.Fatal(err)
			}
			d := s.New().(*DCQCN)
			d.Start(0, cca.FlowInfo{LineRate: 100 * units.Gbps})
			d.OnCNP(10 * units.Microsecond)
			// NB: a cut that keeps the line rate leaves nothing to recover:
			// the flow is idle again.
			stage := StageFastRecovery
			if tc.want == 100*units.Gbps {
				stage = StageIdle
			}
			if d.Rate() != tc.want || d.TargetRate() != 100*units.Gbps || d.Stage() != stage {
				t.Errorf("after the cut: %s, want rc=%v rt=100Gbps stage=%v", d, tc.want, stage)
			}
		})
	}
}

// TestConnectXCNPBurst: on the sender side, CNPs arriving back to back
// (every 1 us, the CNP interval of Dolce-RC, Ye 2023, Section IV-B) under
// connectx cut at most once per rate_reduce_monitor_period P, the first
// time P + 1 ns after the first CNP, and each cut keeps at least
// rpg_min_dec_fac = 50 % of the rate. So at t, n(t) = number of ticks
// t0 + 1ns + k*P <= t (k >= 1) bounds the cuts and
// R_C(t) >= max(min rate, line * 0.5^n(t)). With cut=alpha (rpg_gd 10)
// alpha near 1 makes every cut want to go to ~0, so the cap binds and the
// bound is met exactly; with the preset's half-alpha it holds with room.
func TestConnectXCNPBurst(t *testing.T) {
	const (
		line = 100 * units.Gbps
		t0   = 10 * units.Microsecond
		p    = 4 * units.Microsecond // rate_reduce_monitor_period
		end  = 2 * units.Millisecond
	)
	ticks := func(now units.Time) int {
		if now < t0+p+units.Nanosecond {
			return 0
		}
		return int((now - t0 - units.Nanosecond) / p) // ticks k = 1..n
	}
	for _, tc := range []struct {
		name   string
		params map[string]string
		send   bool // the NIC sends at R_C between CNPs (byte-counter increases)
		exact  bool
	}{
		{"preset", nil, false, false},
		{"preset sending", nil, true, false},
		{"cut=alpha", map[string]string{"cut": "alpha"}, false, true},
		{"cut=alpha sending", map[string]string{"cut": "alpha"}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Build("connectx", tc.params)
			if err != nil {
				t.Fatal(err)
			}
			d := s.New().(*DCQCN)
			d.Start(0, cca.FlowInfo{LineRate: line, MTU: 1000})
			minRate := d.Config().MinRate
			bound := func(n int) units.BitsPerSec {
				// line * 0.5^n as cut computes it: truncated at each step.
				r := line
				for range n {
					r = max(minRate, units.BitsPerSec(float64(r)*0.5))
				}
				return r
			}
			prev, cuts, lastCut := line, 0, units.Time(-1)
			for now := t0; now <= end; now += units.Microsecond {
				if tc.send {
					d.OnSend(now, units.BytesIn(units.Microsecond, d.Rate()))
				}
				d.OnCNP(now)
				for d.NextTimer() <= now {
					d.OnTimer(d.NextTimer())
				}
				rc, n := d.Rate(), ticks(now)
				if rc < prev {
					cuts++
					if rc < max(minRate, units.BitsPerSec(float64(prev)*0.5)) {
						t.Fatalf("t=%v: one cut took R_C from %v to %v, below half", now, prev, rc)
					}
					if lastCut >= 0 && now-lastCut < p {
						t.Fatalf("t=%v: a cut %v after the previous one", now, now-lastCut)
					}
					lastCut = now
				}
				if cuts > n {
					t.Fatalf("t=%v: %d cuts, at most %d ticks", now, cuts, n)
				}
				if b := bound(n); rc < b || (tc.exact && rc != b) {
					t.Fatalf("t=%v: %s, bound max(min rate, line*0.5^%d) = %v (exact %v)", now, d, n, b, tc.exact)
				}
				prev = rc
			}
			if tc.exact && d.Rate() != minRate {
				t.Errorf("after %v of CNPs: %s, want the min rate", end-t0, d)
			}
			if cuts == 0 {
				t.Error("no cut")
			}
		})
	}
}

// TestMinDecFactorRandom drives random configurations with a cut cap
// through random events: R_C never drops below the cap times its value
// before the event (an event cuts at most once), nor below the min rate.
func TestMinDecFactorRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ccatest.RandomSpecs(t, rng, 50, Build, []string{"connectx", "zhu2015", "hpcc"}, []ccatest.Choice{
		ccatest.Pick("min_dec_factor", "0.25", "0.5", "0.9", "1"),
		ccatest.Pick("cut", "half-alpha", "alpha"),
		ccatest.Pick("decrease_mode", "immediate", "tick"),
		ccatest.Pick("decrease_interval", "0us", "4us"),
		ccatest.Pick("g", "0.0048828125", "1"),
	}, func(run int, spec cca.Spec, params map[string]string) {
		d := spec.New().(*DCQCN)
		d.Start(0, cca.FlowInfo{LineRate: 100 * units.Gbps, MTU: 1000})
		m, minRate := d.Config().MinDecFactor, d.Config().MinRate
		now := units.Time(0)
		for step := range 2000 {
			now += units.Time(rng.Int64N(int64(5 * units.Microsecond)))
			before := d.Rate()
			switch rng.IntN(4) {
			case 0, 1:
				d.OnCNP(now)
			case 2:
				d.OnSend(now, units.Bytes(1+rng.IntN(1<<16)))
			default:
				d.OnTimer(now)
			}
			floor := min(before, max(minRate, units.BitsPerSec(float64(before)*m)))
			if d.Rate() < floor {
				t.Fatalf("run %d step %d: R_C %v -> %v, below %v (%v)", run, step, before, d.Rate(), floor, params)
			}
		}
	})
}

// TestZhuNS3FirstCuts: Zhu et al.'s ns-3 DCQCN model (ns3-rdma,
// qbb-net-device.cc) starts alpha at 0.5 and, in rpr_cnm_received, sets
// alpha = (1-g)*alpha + g before R_C = R_C*(1 - alpha/2). CC-NetCalc
// (Lehal 2024) Section V-A: with that simulator "after eight rate
// reductions ... the aggregate arrivals still exceed the link capacity"
// of one port for 31 senders, i.e. eight cuts keep more than 1/31 of the
// rate; halving (alpha = 1) would keep 1/256.
func TestZhuNS3FirstCuts(t *testing.T) {
	c, err := Preset("zhu2015-ns3")
	if err != nil {
		t.Fatal(err)
	}
	if c.AlphaInit != 0.5 || !c.AlphaFirst || c.AlphaMode != AlphaZhu {
		t.Fatalf("zhu2015-ns3: alpha_init %v alpha_first %v alpha_mode %v", c.AlphaInit, c.AlphaFirst, c.AlphaMode)
	}
	d := newValid(&c)
	line := units.BitsPerSec(100e9)
	d.Start(0, cca.FlowInfo{LineRate: line, BaseRTT: 4 * units.Microsecond, MTU: 1000})
	g, alpha, rate := c.G, 0.5, float64(line)
	for i := 1; i <= 8; i++ {
		now := units.Time(i) * 50 * units.Microsecond // one CNP per T_gap
		d.OnCNP(now)
		alpha = float64((1-g)*alpha) + g
		rate *= 1 - alpha/2
		if got := float64(d.Rate()); math.Abs(got-rate) > 8*float64(i) {
			t.Fatalf("cut %d: rate %v, want %.0f (alpha %v)", i, d.Rate(), rate, alpha)
		}
	}
	if kept := float64(d.Rate()) / float64(line); kept <= 1.0/31 {
		t.Errorf("eight cuts keep %.4f of the rate, want more than 1/31", kept)
	}
	// zhu2015 cuts with the alpha from before the CNP: the first cut halves.
	zc := mustPreset(t, "zhu2015")
	z := newValid(&zc)
	z.Start(0, cca.FlowInfo{LineRate: line, BaseRTT: 4 * units.Microsecond, MTU: 1000})
	z.OnCNP(50 * units.Microsecond)
	if z.Rate() != line/2 {
		t.Errorf("zhu2015 first cut: %v, want %v", z.Rate(), line/2)
	}
}

func mustPreset(t *testing.T, name string) Config {
	t.Helper()
	c, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
