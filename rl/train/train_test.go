package train

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/rl/nn"
	"github.com/ccreplay/ccreplay/rl/nn/learn"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// rlccNIC is the objective of RL-CC-NIC (Fuhrer 2023), Eq. 1: target
// 0.064, beta 1.5.
var rlccNIC = Objective{Target: reward.RLCCTarget, Beta: reward.RLCCBeta}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*(1+math.Abs(b)) }

// TestDeltaByHand: RL-CC-NIC (Fuhrer 2023), Eq. 4, delta = target -
// max(infl - beta, 0) sqrt(rate), with target 0.064 and beta 1.5;
// RL-CC (Tessler 2022), Eq. 3, without beta; the clip; and reward =
// -delta^2 (RL-CC-NIC, Fuhrer 2023, Eq. 1; package reward).
func TestDeltaByHand(t *testing.T) {
	for _, tc := range []struct {
		obj        Objective
		infl, rate float64
		want       float64
	}{
		{rlccNIC, 1.2, 0.25, 0.064},                                        // below beta: max(.,0) = 0
		{rlccNIC, 2.5, 0.25, 0.064 - 1*0.5},                                // -0.436
		{rlccNIC, 3.5, 0.04, 0.064 - 2*0.2},                                // -0.336
		{Objective{Target: 0.064, BetaFree: true}, 2, 0.25, 0.064 - 2*0.5}, // RL-CC (Tessler 2022): -0.936
		{Objective{Target: 0.064, Beta: 1.5, Clip: 1}, 10.5, 1, -1},        // 0.064 - 9 clipped
	} {
		if got := tc.obj.Delta(tc.infl, tc.rate); !near(got, tc.want) {
			t.Errorf("%+v Delta(%v, %v) = %v, want %v", tc.obj, tc.infl, tc.rate, got, tc.want)
		}
		if tc.obj.Clip == 0 {
			if r := tc.obj.Reward(tc.infl, tc.rate); !near(r, -tc.want*tc.want) {
				t.Errorf("Reward = %v, want -delta^2 = %v", r, -tc.want*tc.want)
			}
		}
	}
}

// linearPolicy is a 7 -> 1 network with zero parameters: a = 1 + 0.5
// tanh(w.z + b) = 1, da/db = 0.5 (1 - tanh^2 0) = 0.5, da/dw_i = 0.5 z_i.
func linearPolicy(t *testing.T) *rlcc.Policy {
	t.Helper()
	m, err := nn.NewZero([]int{rlcc.NumFeatures, 1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := rlcc.NewMLPPolicy(m, 0.5, 1.5, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// obs is an observation whose transformed inputs are all 0 except
// z0 = sqrt(rate_frac).
func obs(rateFrac float64) [rlcc.NumFeatures]float64 {
	return [rlcc.NumFeatures]float64{rateFrac, 1, 0, 0, 1, 0, 1}
}

// TestGradientByHand: RL-CC (Tessler 2022), Eq. 3, g = 1/F sum_f 1/T_f sum_t
// delta_t nabla pi(s_t), on the linear policy above. Flow A has steps (rate
// 0.25, delta 0.064) and (rate 0.36, delta -0.436), flow B one step (rate
// 0.16, delta -0.336), flow C none (left out, F = 2):
//
//	g_b  = 1/2 [1/2 (0.064 - 0.436) 0.5 + (-0.336) 0.5] = -0.1305
//	g_w0 = 1/2 [1/2 (0.064 x 0.5 x 0.5 - 0.436 x 0.5 x 0.6) - 0.336 x 0.5 x 0.4] = -0.0623
//
// and every other weight's gradient is 0. One Adam ascent step (lr 0.01)
// then moves b and w0 by -0.01 each (m^/(sqrt(v^) + 1e-8) = sign(g)
// at step 1, to 1e-8 relative).
// With the action penalty 0.3 and actions 1.2, each delta drops by
// 2 x 0.3 x 0.2 = 0.12: g_b = 1/2 [1/2 (-0.372 - 0.24) 0.5 + (-0.456) 0.5] = -0.1905.
func TestGradientByHand(t *testing.T) {
	p := linearPolicy(t)
	flows := [][]Step{
		{{X: obs(0.25), Action: 1, Infl: 1.2, RateFrac: 0.25}, {X: obs(0.36), Action: 1, Infl: 2.5, RateFrac: 0.25}},
		{{X: obs(0.16), Action: 1, Infl: 3.5, RateFrac: 0.04}},
		nil,
	}
	n := p.MLP.NumParams()
	grad := make([]float64, n)
	work := make([]float64, p.WorkSize())
	if used := rlccNIC.Gradient(p, flows, grad, work); used != 2 {
		t.Fatalf("%d flows used, want 2", used)
	}
	want := make([]float64, n)
	want[0], want[n-1] = -0.0623, -0.1305
	for i := range grad {
		if math.Abs(grad[i]-want[i]) > 1e-12 {
			t.Errorf("grad[%d] = %v, want %v", i, grad[i], want[i])
		}
	}
	opt, _ := learn.NewAdam(n, 0.01)
	opt.Ascend(p.MLP.Params, grad)
	if math.Abs(p.MLP.Params[0]+0.01) > 1e-8 || math.Abs(p.MLP.Params[n-1]+0.01) > 1e-8 || p.MLP.Params[1] != 0 {
		t.Fatalf("after one step: %v", p.MLP.Params)
	}

	q := linearPolicy(t)
	for _, f := range flows {
		for i := range f {
			f[i].Action = 1.2
		}
	}
	pen := rlccNIC
	pen.Penalty = 0.3
	pen.Gradient(q, flows, grad, work)
	if math.Abs(grad[n-1]+0.1905) > 1e-12 {
		t.Fatalf("with the penalty g_b = %v, want -0.1905", grad[n-1])
	}
}

// TestSteps pairs each decision with the next one's rate and inflation.
func TestSteps(t *testing.T) {
	traj := []rlcc.Decision{
		{Features: [rlcc.NumFeatures]float64{1, 1.1, 0, 0, 1, 1, 1}, Action: 0.7},
		{Features: [rlcc.NumFeatures]float64{0.7, 3, 2, 0, 0.7, 1, 1.1}, Action: 1.2},
		{Features: [rlcc.NumFeatures]float64{0.84, 2, 0, 0, 1.2, 0.7, 3}, Action: 1},
	}
	s := Steps(traj)
	if len(s) != 2 || s[0].Infl != 3 || s[0].RateFrac != 0.7 || s[0].CNPs != 2 || s[0].Action != 0.7 || s[1].Infl != 2 || s[1].RateFrac != 0.84 {
		t.Fatalf("Steps = %+v", s)
	}
	if Steps(traj[:1]) != nil {
		t.Fatal("one decision has no outcome")
	}
}

// small is the tests' training run: 4-to-1 episodes of 1 ms.
func small(seed uint64, episodes int) Options {
	return Options{Episodes: episodes, Seed: seed, Flows: []int{4}, Duration: units.Millisecond}
}

// TestTrainingImproves: a short seeded run on 4-to-1 raises the mean reward
// (RL-CC-NIC, Fuhrer 2023, Eq. 1) of its last three iterations above that of
// its first three. The untrained network keeps the rate near line rate, so
// the queue of four line-rate flows inflates RTTs by tens; the Eq. 3 steps
// teach it to cut.
func TestTrainingImproves(t *testing.T) {
	res, err := Train(small(3, 12))
	if err != nil {
		t.Fatal(err)
	}
	c := res.Curve
	mean := func(rows []int) float64 {
		s := 0.0
		for _, i := range rows {
			s += c[i].MeanReward
		}
		return s / float64(len(rows))
	}
	first, last := mean([]int{0, 1, 2}), mean([]int{9, 10, 11})
	for _, r := range c {
		t.Logf("episode %2d reward %9.4f infl %7.3f rate %.3f util %.3f decisions %d", r.Episode, r.MeanReward, r.MeanRTTInflation, r.MeanRateFrac, r.Utilization, r.Decisions)
	}
	if !(last > first) {
		t.Fatalf("mean reward of the last three iterations %v, first three %v: no improvement", last, first)
	}
}

// TestDeterministic: the same options give byte-identical policy and
// learning files; another seed gives another policy.
func TestDeterministic(t *testing.T) {
	dir := t.TempDir()
	var policies [3][]byte
	for i, seed := range []uint64{5, 5, 6} {
		res, err := Train(small(seed, 3))
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, string(rune('a'+i)))
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := WriteOutputs(out, res); err != nil {
			t.Fatal(err)
		}
		policies[i], _ = os.ReadFile(filepath.Join(out, runfolder.PolicyFile))
		if i == 1 {
			l0, _ := os.ReadFile(filepath.Join(dir, "a", runfolder.LearningFile))
			l1, _ := os.ReadFile(filepath.Join(out, runfolder.LearningFile))
			if len(l0) == 0 || !bytes.Equal(l0, l1) {
				t.Fatal(runfolder.LearningFile + " differs between two runs with the same seed")
			}
		}
	}
	if !bytes.Equal(policies[0], policies[1]) {
		t.Fatal(runfolder.PolicyFile + " differs between two runs with the same seed")
	}
	if bytes.Equal(policies[0], policies[2]) {
		t.Fatal("seeds 5 and 6 gave the same policy")
	}
	if _, err := rlcc.Parse(policies[0], "trained"); err != nil {
		t.Fatalf("trained policy does not load: %v", err)
	}
}

// TestBadOptions: one-line errors naming the option.
func TestBadOptions(t *testing.T) {
	for _, o := range []Options{
		{Episodes: -1},
		{Flows: []int{0}},
		{LR: -1},
		{AMin: 1.1, AMax: 1.5},
	} {
		if _, err := Train(o); err == nil {
			t.Errorf("Train(%+v) accepted", o)
		}
	}
}

// TestCheckpointSelection: with SelectFlows the run checks the policy
// every SelectEvery iterations and after the last, and returns the
// checkpoint with the highest smallest FR (the earliest on ties); the
// policy returned acts exactly as that checkpoint's network, which a
// replay of the check reproduces.
func TestCheckpointSelection(t *testing.T) {
	o := small(7, 5)
	o.SelectFlows, o.SelectEvery = []int{3}, 2
	res, err := Train(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Checkpoints) != 3 {
		t.Fatalf("%d checkpoints, want 3 (after iterations 2, 4 and the last, 5)", len(res.Checkpoints))
	}
	for i, want := range []int{1, 3, 4} {
		if res.Checkpoints[i].Episode != want {
			t.Fatalf("checkpoint %d after iteration %d, want %d", i, res.Checkpoints[i].Episode, want)
		}
	}
	best := 0
	for i, c := range res.Checkpoints {
		t.Logf("after iteration %d: worst FR %.2f SU %.1f", c.Episode, c.WorstFR, c.SU)
		if c.WorstFR > res.Checkpoints[best].WorstFR {
			best = i
		}
	}
	if res.Selected != best {
		t.Fatalf("selected checkpoint %d, want %d (highest FR, earliest on ties)", res.Selected, best)
	}
	again, err := check(res.Policy, 0, o.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if again.WorstFR != res.Checkpoints[best].WorstFR {
		t.Fatalf("the returned policy replays to FR %v, its checkpoint had %v", again.WorstFR, res.Checkpoints[best].WorstFR)
	}
	if _, err := Train(Options{SelectFlows: []int{4}, SelectEvery: -1}); err == nil {
		t.Fatal("a negative checkpoint interval was accepted")
	}
}

// TestStartSpreads: the start-rate options reach the agents. With
// StartMin 0.01 the 8 flows of an episode start at rates log-uniform in
// [0.01, 1] (their first decision's prev_rate_frac), with StartAround 1
// (on every other visit of a flow count) within a decade of 1/8, with
// StartMin 1 at line rate; the draws come from the episode seed, so a
// rerun is identical.
func TestStartSpreads(t *testing.T) {
	pol, err := rlcc.Default()
	if err != nil {
		t.Fatal(err)
	}
	first := func(o Options) []float64 {
		t.Helper()
		trajs, _, err := Episode(pol, 8, 11, o.Defaults())
		if err != nil {
			t.Fatal(err)
		}
		var out []float64
		for _, tr := range trajs {
			if len(tr) > 0 {
				out = append(out, tr[0].Features[rlcc.FPrevRateFrac])
			}
		}
		return out
	}
	spread := first(Options{Duration: units.Millisecond, StartMin: 0.01})
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range spread {
		lo, hi = min(lo, r), max(hi, r)
		if r < 0.01 || r > 1 {
			t.Fatalf("start rate %v outside [0.01, 1]", r)
		}
	}
	if hi/lo < 3 {
		t.Fatalf("start rates %v are not spread", spread)
	}
	o := Options{Duration: units.Millisecond, StartAround: 1}
	o.around = true
	for _, r := range first(o) {
		if r < 0.1/8 || r > 10.0/8 {
			t.Fatalf("start rate %v not within a decade of 1/8", r)
		}
	}
	line := first(Options{Duration: units.Millisecond, StartMin: 1})
	for _, r := range line {
		if r != 1 {
			t.Fatalf("StartMin 1: start rate %v, want line rate", r)
		}
	}
	if again := first(Options{Duration: units.Millisecond, StartMin: 0.01}); !reflect.DeepEqual(again, spread) {
		t.Fatal("the same episode seed gave other start rates")
	}
}

// TestActionGrad: actionGrad is the gradient of Action (the nabla_theta
// pi_theta(s) of RL-CC, Tessler 2022, Eq. 3), checked by central
// differences.
func TestActionGrad(t *testing.T) {
	p, err := rlcc.Teacher()
	if err != nil {
		t.Fatal(err)
	}
	m := p.MLP.Clone()
	p, _ = rlcc.NewMLPPolicy(m, rlcc.AMin, rlcc.AMax, "")
	x := []float64{0.3, 1.6, 1, 0, 1.05, 0.28, 1.55}
	w := make([]float64, p.WorkSize())
	g := make([]float64, m.NumParams())
	a := actionGrad(p, x, 1, g, w)
	if a != p.Action(x, w) {
		t.Fatalf("actionGrad returned %v, Action %v", a, p.Action(x, w))
	}
	const h = 1e-6
	for i := range m.Params {
		v := m.Params[i]
		m.Params[i] = v + h
		up := p.Action(x, w)
		m.Params[i] = v - h
		down := p.Action(x, w)
		m.Params[i] = v
		if fd := (up - down) / (2 * h); math.Abs(fd-g[i]) > 1e-6 {
			t.Errorf("param %d: gradient %v, finite difference %v", i, g[i], fd)
		}
	}
}

// TestParallelRollouts: with Parallel 2 an iteration replays two episodes
// at once (flow counts and seeds by episode index) and takes one step on
// their mean gradient; the same seed and Parallel give byte-identical
// policies and learning curves, a curve row per episode.
func TestParallelRollouts(t *testing.T) {
	o := small(5, 4)
	o.Flows = []int{2, 4}
	o.Parallel = 2
	var pols [2][]byte
	var curves [2][]v2.LearningRow
	for i := range pols {
		res, err := Train(o)
		if err != nil {
			t.Fatal(err)
		}
		pols[i], _ = json.Marshal(res.Policy.File())
		curves[i] = res.Curve
	}
	if !bytes.Equal(pols[0], pols[1]) || !reflect.DeepEqual(curves[0], curves[1]) {
		t.Fatal("two runs with the same seed and Parallel 2 differ")
	}
	c := curves[0]
	if len(c) != 4 || c[0].Flows != 2 || c[1].Flows != 4 || c[3].Episode != 3 {
		t.Fatalf("curve %+v: want 4 rows, flows 2 4 2 4", c)
	}
	if c[0].GradNorm != c[1].GradNorm || c[1].GradNorm == c[2].GradNorm {
		t.Errorf("grad norms %v %v %v: want one per iteration of two episodes", c[0].GradNorm, c[1].GradNorm, c[2].GradNorm)
	}
	// The episodes themselves are those of Parallel 1 for the first
	// iteration (same network, same seeds).
	o1 := o
	o1.Parallel, o1.Episodes = 1, 2
	res1, err := Train(o1)
	if err != nil {
		t.Fatal(err)
	}
	if res1.Curve[0].MeanReward != c[0].MeanReward || res1.Curve[1].Flows != c[1].Flows {
		t.Errorf("first episode under Parallel 1 reward %v, under 2 %v", res1.Curve[0].MeanReward, c[0].MeanReward)
	}
	if b, _ := json.Marshal(res1.Policy.File()); bytes.Equal(b, pols[0]) {
		t.Error("Parallel 1 over 2 episodes gave the policy of Parallel 2 over 4")
	}
}

// TestHeldoutSelection: with Heldout the checkpoints carry held-out
// tables, the kept one has the highest score, and WriteOutputs writes the
// evaluation beside the policy.
func TestHeldoutSelection(t *testing.T) {
	o := small(7, 3)
	o.SelectEvery = 2
	o.Heldout = []heldout.Scenario{
		{Name: "incast 3x300KB", Workload: "incast:n=3,size=300KB,jitter=20us,dist=gaussian", Topology: "star:hosts=4,rate=100G,delay=1us", Duration: units.Millisecond},
	}
	res, err := Train(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Checkpoints) != 2 || res.Checkpoints[0].Table == nil {
		t.Fatalf("%d checkpoints, want 2 with tables", len(res.Checkpoints))
	}
	best := heldout.Best([]float64{res.Checkpoints[0].Score, res.Checkpoints[1].Score})
	if res.Selected != best {
		t.Fatalf("kept %d, want %d (scores %v, %v)", res.Selected, best, res.Checkpoints[0].Score, res.Checkpoints[1].Score)
	}
	dir := t.TempDir()
	if err := WriteOutputs(dir, res); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, runfolder.EvaluationText))
	if err != nil || !strings.Contains(string(b), "incast 3x300KB") || !strings.Contains(string(b), "kept: "+runfolder.PolicyFile) {
		t.Fatalf(runfolder.EvaluationText+": %v\n%s", err, b)
	}
	var ev Evaluation
	b, _ = os.ReadFile(filepath.Join(dir, runfolder.EvaluationFile))
	if err := json.Unmarshal(b, &ev); err != nil || ev.Selected != best || len(ev.Scenarios) != 1 {
		t.Fatalf(runfolder.EvaluationFile+": %v %+v", err, ev)
	}
}
