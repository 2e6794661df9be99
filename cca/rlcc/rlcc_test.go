package rlcc

import (
	"bytes"
	"maps"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/rl/nn"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/units"
)

// constPolicy is an MLP with zero weights whose action is always a:
// a = 1 + 0.5 tanh(b) with b = atanh((a - 1)/0.5) for the range [0.5, 1.5].
func constPolicy(t *testing.T, a float64) *Policy {
	t.Helper()
	m, err := nn.NewZero([]int{NumFeatures, 1})
	if err != nil {
		t.Fatal(err)
	}
	m.Params[len(m.Params)-1] = math.Atanh((a - 1) / 0.5)
	p, err := NewMLPPolicy(m, AMin, AMax, "test")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// agent starts an agent with policy p and latency lat on a 100 Gb/s flow
// with a 4 us base RTT, recording its decisions.
func agent(t *testing.T, p *Policy, lat units.Time) (*Agent, *[]Decision) {
	t.Helper()
	spec, err := NewSpec("rlcc:test", Config{Policy: p, PolicyPath: "test", Latency: lat})
	if err != nil {
		t.Fatal(err)
	}
	a := spec.New().(*Agent)
	var ds []Decision
	a.SetHook(func(d *Decision) { ds = append(ds, *d) })
	a.Start(0, cca.FlowInfo{LineRate: 100 * units.Gbps, BaseRTT: 4 * units.Microsecond, MTU: 1048, Hops: 2})
	return a, &ds
}

func us(x float64) units.Time { return units.Time(x * float64(units.Microsecond)) }

func ack(rtt units.Time) *cca.Ack { return &cca.Ack{AckedBytes: 1000, RTT: rtt} }

// TestDecisionTiming walks the contract: one decision per RTT, on the
// first RTT response of a probe sent at or after the previous decision
// took effect (RL-CC, Tessler 2022, Section 6 "Transitions": the agent acts once an
// RTT packet is received), the multiplicative action
// rate_{t+1} = a x rate_t (RL-CC, Tessler 2022 "Actions") applied after the decision
// latency (RL-CC-NIC, Fuhrer 2023, Table I), and the observation in FeatureNames order.
func TestDecisionTiming(t *testing.T) {
	a, ds := agent(t, constPolicy(t, 0.8), 2*units.Microsecond)
	a.OnCNP(us(1))
	a.OnCNP(us(2))
	a.OnNack(us(3))
	a.OnRTT(us(5), us(5)) // sent at 0 = Start: decides
	if len(*ds) != 1 {
		t.Fatalf("%d decisions after the first RTT response, want 1", len(*ds))
	}
	d := (*ds)[0]
	want := [NumFeatures]float64{1, 1.25, 2, 1, 1, 1, 1}
	if d.Features != want || math.Abs(d.Action-0.8) > 1e-12 || d.Rate != 80*units.Gbps {
		t.Fatalf("decision %+v, want features %v, action 0.8, rate 80 Gb/s", d, want)
	}
	if a.Rate() != 100*units.Gbps || a.NextTimer() != us(7) {
		t.Fatalf("before the latency: rate %v, next timer %v; want 100 Gb/s and 7 us", a.Rate(), a.NextTimer())
	}
	a.OnRTT(us(6), us(1)) // pending: no decision
	a.OnTimer(us(7))
	if a.Rate() != 80*units.Gbps || a.NextTimer() != units.Never {
		t.Fatalf("after the latency: rate %v, next %v", a.Rate(), a.NextTimer())
	}
	a.OnRTT(us(10), us(5)) // sent at 5 us, before 7 us: no decision
	a.OnCNP(us(11))
	a.OnRTT(us(13), us(6)) // sent at 7 us: decides
	if len(*ds) != 2 {
		t.Fatalf("%d decisions, want 2: %s", len(*ds), a.Describe())
	}
	d = (*ds)[1]
	want = [NumFeatures]float64{0.8, 1.5, 1, 0, 0.8, 1, 1.25}
	for i := range want {
		if math.Abs(d.Features[i]-want[i]) > 1e-12 {
			t.Fatalf("second decision features %v, want %v", d.Features, want)
		}
	}
	if d.Rate != 64*units.Gbps {
		t.Fatalf("second decision rate %v, want 0.8 x 80 = 64 Gb/s", d.Rate)
	}
}

// TestNoLatency: with latency 0 the action applies on the ACK itself and
// the next decision needs a packet sent after it.
func TestNoLatency(t *testing.T) {
	a, ds := agent(t, constPolicy(t, 1.25), 0)
	a.rate = 40e9
	a.OnRTT(us(5), us(5))
	if a.Rate() != 50*units.Gbps || a.NextTimer() != units.Never {
		t.Fatalf("rate %v next %v, want 50 Gb/s at once", a.Rate(), a.NextTimer())
	}
	a.OnRTT(us(6), us(5)) // sent at 1 us < 5 us
	a.OnRTT(us(9), us(4)) // sent at 5 us
	if len(*ds) != 2 || a.Rate() != units.BitsPerSec(62.5e9) {
		t.Fatalf("%d decisions, rate %v; want 2 and 62.5 Gb/s", len(*ds), a.Rate())
	}
}

// TestRateClamp: the rate stays within [min_rate, line rate].
func TestRateClamp(t *testing.T) {
	up, _ := agent(t, constPolicy(t, 1.5), 0)
	down, _ := agent(t, constPolicy(t, 0.5), 0)
	now := units.Time(0)
	for range 40 {
		now += us(5)
		up.OnRTT(now, us(4))
		down.OnRTT(now, us(4))
	}
	if up.Rate() != 100*units.Gbps {
		t.Fatalf("rate %v above line rate", up.Rate())
	}
	if down.Rate() != table.Defaults().MinRate {
		t.Fatalf("rate %v, want the floor %v after 40 halvings", down.Rate(), table.Defaults().MinRate)
	}
}

// TestBuild checks presets, parameters and their round trip.
func TestBuild(t *testing.T) {
	s, err := Build("", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The default policy is trees: "auto" is RL-CC-NIC (Fuhrer 2023), Table I's 0.9 us.
	want := map[string]string{"policy": "default", "latency": "900ns", "amin": "0.5", "amax": "1.5", "min_rate": "10Mbps", "rtt": "probe"}
	if s.Name != "rlcc:auto" || !maps.Equal(s.Params, want) {
		t.Fatalf("Build(\"\") = %s %v, want rlcc:auto %v", s.Name, s.Params, want)
	}
	if s.ECN != nil || s.NeedsINT || s.CNPInterval != 0 {
		t.Fatal("rlcc must leave the network defaults")
	}
	for preset, lat := range map[string]string{"ideal": "0us", "tree": "900ns", "mlp": "17us", "lstm": "450us"} {
		s, err := Build(preset, nil)
		if err != nil || s.Params["latency"] != lat {
			t.Errorf("preset %s: latency %q err %v, want %s (RL-CC-NIC, Fuhrer 2023, Table I)", preset, s.Params["latency"], err, lat)
		}
	}
	over := map[string]string{"latency": "3us", "amin": "0.7", "amax": "1.3", "min_rate": "1Gbps"}
	s1, err := Build("auto", over)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Build("auto", s1.Params)
	if err != nil || !maps.Equal(s1.Params, s2.Params) {
		t.Fatalf("round trip: %v -> %v (%v)", s1.Params, s2.Params, err)
	}
	for _, bad := range []struct {
		preset string
		kv     map[string]string
		want   string
	}{
		{"fast", nil, `unknown preset "fast"`},
		{"", map[string]string{"gain": "1"}, `unknown parameter "gain"`},
		{"", map[string]string{"latency": "-1us"}, "latency"},
		{"", map[string]string{"amin": "1.2", "amax": "1.1"}, "action range"},
		{"", map[string]string{"policy": "/nonexistent/p.json"}, "/nonexistent/p.json"},
	} {
		_, err := Build(bad.preset, bad.kv)
		if err == nil || !strings.Contains(err.Error(), bad.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Build(%q, %v): %v, want one line containing %q", bad.preset, bad.kv, err, bad.want)
		}
	}
}

// TestAutoLatency: "auto" is 0.9 us for a tree policy, 17 us for an MLP
// (RL-CC-NIC, Fuhrer 2023, Table I).
func TestAutoLatency(t *testing.T) {
	s, err := Build("", map[string]string{"policy": filepath.Join("testdata", "xgb_stump.json")})
	if err != nil {
		t.Fatal(err)
	}
	if s.Params["latency"] != "900ns" {
		t.Fatalf("trees: latency %s, want 900ns", s.Params["latency"])
	}
}

// TestExternalEnsembles loads the stump "action = 1.1 if rtt_inflation <
// 1.5 else 0.9" saved by XGBoost (JSON) and LightGBM (text).
func TestExternalEnsembles(t *testing.T) {
	for _, f := range []string{"xgb_stump.json", "lgb_stump.txt"} {
		p, err := LoadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind != KindTrees || p.AMin != AMin || p.AMax != AMax {
			t.Fatalf("%s: %s", f, p.Describe())
		}
		x := []float64{0.5, 1.2, 0, 0, 1, 0.5, 1.2}
		if a := p.Action(x, nil); math.Abs(a-1.1) > 1e-6 {
			t.Errorf("%s: action at inflation 1.2 = %v, want 1.1", f, a)
		}
		x[FRTTInflation] = 2
		if a := p.Action(x, nil); math.Abs(a-0.9) > 1e-6 {
			t.Errorf("%s: action at inflation 2 = %v, want 0.9", f, a)
		}
	}
}

// TestPolicyFile: Marshal then Parse reproduces the bytes and the
// actions; the embedded default loads; malformed files give one-line
// errors naming the source.
func TestPolicyFile(t *testing.T) {
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if def.Kind != KindTrees || def.Source != DefaultSource || !strings.HasPrefix(def.ProducedBy, "ccreplay distill rlcc --teacher teacher ") {
		t.Fatalf("default policy: %s from %q by %q", def.Describe(), def.Source, def.ProducedBy)
	}
	if n, d := def.Trees.NumTrees(), def.Trees.MaxDepth(); n > 10 || d > 4 {
		t.Fatalf("default policy: %d trees of depth %d, over RL-CC-NIC (Fuhrer 2023), Section V-C's 10 of depth 4", n, d)
	}
	te, err := Teacher()
	if err != nil || te.Kind != KindMLP || !strings.HasPrefix(te.ProducedBy, "ccreplay train rlcc ") {
		t.Fatalf("teacher policy: %v %v", te, err)
	}
	b1, err := def.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(b1, "x")
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := back.Marshal()
	if !bytes.Equal(b1, b2) {
		t.Fatal("policy file round trip changed the bytes")
	}
	x := []float64{0.3, 1.7, 1, 0, 1.1, 0.25, 1.6}
	w := make([]float64, def.WorkSize())
	if def.Action(x, w) != back.Action(x, w) {
		t.Fatal("round trip changed the action")
	}
	tb, err := te.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	good, mlp := string(b1), string(tb)
	for _, bad := range []struct{ doc, want string }{
		{"", "empty file"},
		{"hello", "not a policy file"},
		{`{"a": 1}`, "not a policy"},
		{`{"format": "other"}`, `unknown format "other"`},
		{strings.Replace(good, `"kind": "trees"`, `"kind": "lstm"`, 1), `unknown policy kind "lstm"`},
		{strings.Replace(good, `"rate_frac"`, `"rate"`, 1), "features"},
		{strings.Replace(good, `"version": 1`, `"version": 2`, 1), "version 2"},
		{strings.Replace(good, `"action_min": 0.5`, `"action_min": 2`, 1), "action range"},
		{strings.Replace(mlp, `"rlcc-v1"`, `"raw"`, 1), "input_transform"},
	} {
		_, err := Parse([]byte(bad.doc), "pol.json")
		if err == nil || !strings.Contains(err.Error(), bad.want) || !strings.Contains(err.Error(), "pol.json") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%.40q: %v, want one line naming pol.json with %q", bad.doc, err, bad.want)
		}
	}
}

// TestActionAllocFree: the agent evaluates the policy once per RTT.
func TestActionAllocFree(t *testing.T) {
	def, _ := Default()
	te, _ := Teacher()
	x := []float64{0.3, 1.6, 1, 0, 1.05, 0.28, 1.55}
	for _, p := range []*Policy{def, te} {
		w := make([]float64, p.WorkSize())
		if n := testing.AllocsPerRun(100, func() { p.Action(x, w) }); n != 0 {
			t.Fatalf("%s Action allocates %v times", p.Kind, n)
		}
	}
}

// TestExplain: the nine cells of RL-CC-NIC (Fuhrer 2023), Table VI in row-major order,
// with the documented condition values.
func TestExplain(t *testing.T) {
	c := Conditions(4)
	if c[0].RateFrac != 0.1 || c[1].RateFrac != 0.25 || math.Abs(c[1].RTTInflation-(1.5+0.064*2)) > 1e-12 || c[2].RTTInflation != 4 || c[2].CNPs != 1 {
		t.Fatalf("conditions %+v", c)
	}
	rows := Explain(constPolicy(t, 1.1), 4)
	if len(rows) != 9 {
		t.Fatalf("%d rows", len(rows))
	}
	r := rows[5] // previous on target, current congested
	if r.Prev.Name != "on target" || r.Cur.Name != "congested" || r.Features[FRTTInflation] != 4 || r.Features[FPrevRTTInflation] != c[1].RTTInflation || math.Abs(r.Action-1.1) > 1e-12 {
		t.Fatalf("row 5: %+v", r)
	}
}

// BenchmarkDecision times one policy evaluation per RTT decision (RL-CC-NIC, Fuhrer 2023
// Table I measures the same step on the NIC: 0.9 us for trees, 17 us for
// the MLP) for the shipped policy and a 10-tree depth-4 ensemble.
func BenchmarkDecision(b *testing.B) {
	x := []float64{0.3, 1.6, 1, 0, 1.05, 0.28, 1.55}
	tree, err := LoadFile("testdata/xgb_stump.json")
	if err != nil {
		b.Fatal(err)
	}
	def, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	te, err := Teacher()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		p    *Policy
	}{{"default-trees", def}, {"teacher-mlp", te}, {"xgboost-stump", tree}} {
		b.Run(c.name, func(b *testing.B) {
			w := make([]float64, c.p.WorkSize())
			b.ReportAllocs()
			var sink float64
			for i := 0; i < b.N; i++ {
				sink += c.p.Action(x, w)
			}
			_ = sink
		})
	}
}

// TestSetStartRate: a trainer's start away from line rate sets the rate
// and the first observation's prev_rate_frac, clamped to [MinRate, line
// rate]; the first action multiplies that rate.
func TestSetStartRate(t *testing.T) {
	a, ds := agent(t, constPolicy(t, 1.2), 0)
	a.SetStartRate(0.25)
	if a.Rate() != 25*units.Gbps {
		t.Fatalf("rate %v, want 25 Gb/s", a.Rate())
	}
	a.OnRTT(us(5), us(5))
	if len(*ds) != 1 || (*ds)[0].Features[FRateFrac] != 0.25 || (*ds)[0].Features[FPrevRateFrac] != 0.25 {
		t.Fatalf("first decision %+v, want rate_frac and prev_rate_frac 0.25", *ds)
	}
	if a.Rate() != 30*units.Gbps {
		t.Fatalf("rate after a = 1.2: %v, want 30 Gb/s", a.Rate())
	}
	a.SetStartRate(1e-9)
	if a.Rate() != table.Defaults().MinRate {
		t.Fatalf("tiny start: rate %v, want the minimum %v", a.Rate(), table.Defaults().MinRate)
	}
	a.SetStartRate(3)
	if a.Rate() != 100*units.Gbps {
		t.Fatalf("start above line rate: %v", a.Rate())
	}
}

// TestStartAt: a fraction given before Start is where Start begins (the
// trainers' hook), 0 keeps line rate.
func TestStartAt(t *testing.T) {
	spec, err := NewSpec("rlcc:test", Config{Policy: constPolicy(t, 1), PolicyPath: "test"})
	if err != nil {
		t.Fatal(err)
	}
	info := cca.FlowInfo{LineRate: 100 * units.Gbps, BaseRTT: 4 * units.Microsecond, MTU: 1048, Hops: 2}
	a := spec.New().(*Agent)
	a.StartAt(0.25)
	a.Start(0, info)
	if a.Rate() != 25*units.Gbps || a.prevRate != 0.25 {
		t.Fatalf("StartAt(0.25): rate %v, prev_rate_frac %v", a.Rate(), a.prevRate)
	}
	b := spec.New().(*Agent)
	b.StartAt(0)
	b.Start(0, info)
	if b.Rate() != 100*units.Gbps {
		t.Fatalf("StartAt(0): rate %v, want line rate", b.Rate())
	}
}

// TestNamedPolicies: "default" is the embedded trees, "teacher" the
// embedded MLP they were distilled from, anything else a file.
func TestNamedPolicies(t *testing.T) {
	d, err := Named("default")
	if err != nil || d.Source != DefaultSource {
		t.Fatalf("default: %v %v", d, err)
	}
	te, err := Named("teacher")
	if err != nil || te.Kind != KindMLP || te.Source != TeacherSource {
		t.Fatalf("teacher: %+v %v", te, err)
	}
	if _, err := Named(filepath.Join(t.TempDir(), "none.json")); err == nil {
		t.Fatal("a missing file loaded")
	}
	if _, err := Build("", map[string]string{"policy": "teacher"}); err != nil {
		t.Fatalf("policy=teacher: %v", err)
	}
}

// TestAckRTTMode: with rtt=ack the agent takes its RTT samples from data
// ACKs and ignores probe responses, and does not ask the NIC for probes;
// by default (rtt=probe) it is the other way round.
func TestAckRTTMode(t *testing.T) {
	spec, err := Build("", map[string]string{"rtt": "ack"})
	if err != nil {
		t.Fatal(err)
	}
	a := spec.New().(*Agent)
	a.Start(0, cca.FlowInfo{LineRate: 100 * units.Gbps, BaseRTT: 4 * units.Microsecond, MTU: 1048, Hops: 2})
	if a.ProbesRTT() || spec.Params["rtt"] != "ack" {
		t.Fatalf("rtt=ack: ProbesRTT %v, params %v", a.ProbesRTT(), spec.Params)
	}
	a.OnRTT(us(5), us(5))
	if a.Decisions() != 0 {
		t.Fatal("rtt=ack: a probe response triggered a decision")
	}
	a.OnAck(us(5), ack(us(5)))
	if a.Decisions() != 1 {
		t.Fatal("rtt=ack: the first ACK did not trigger a decision")
	}
	p, _ := agent(t, constPolicy(t, 1), 0)
	p.OnAck(us(5), ack(us(5)))
	if !p.ProbesRTT() || p.Decisions() != 0 {
		t.Fatalf("rtt=probe: ProbesRTT %v, %d decisions on a data ACK", p.ProbesRTT(), p.Decisions())
	}
	if _, err := Build("", map[string]string{"rtt": "ping"}); err == nil {
		t.Fatal("rtt=ping accepted")
	}
}

// TestConditionsUseRewardDefaults: the operating point of Conditions is
// package reward's defaults from RL-CC-NIC (Fuhrer 2023).
func TestConditionsUseRewardDefaults(t *testing.T) {
	if condTarget != reward.RLCCTarget || condBeta != reward.RLCCBeta {
		t.Fatalf("Conditions use target %v beta %v, package reward %v and %v", condTarget, condBeta, reward.RLCCTarget, reward.RLCCBeta)
	}
}

// FuzzParsePolicy: any --cca-param policy= file is read or refused with an
// error, never a panic.
func FuzzParsePolicy(f *testing.F) {
	f.Add(defaultPolicy)
	f.Add(teacherPolicy)
	f.Add([]byte(`{"format": "ccreplay.gbt", "trees": []}`))
	f.Add([]byte(`{"learner": {}}`))
	f.Add([]byte("tree\nversion=v3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		Parse(b, "p.json")
	})
}
