package td3

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/gradcheck"
	"github.com/ccreplay/ccreplay/rl/nn"
)

// reload re-reads the flat parameter vectors after a test has written
// into the networks directly.
func (a *Agent) reload() {
	a.pA, a.pAT = flat(a.actor), flat(a.actorT)
	a.pQ1, a.pQ1T = flat(a.q1), flat(a.q1T)
	a.pQ2, a.pQ2T = flat(a.q2), flat(a.q2T)
}

// toyConfig has one input, one LSTM unit and heads without hidden layers:
// with every LSTM parameter 0 the hidden state is exactly 0 (c = f*0 +
// i*tanh(0) = 0, h = o*tanh(0) = 0), so the actor is tanh(b) and a critic
// is w_a*a + b.
func toyConfig() Config {
	return Config{Inputs: 1, Hidden: 1, Seq: 2, ActorLR: 1e-3, CriticLR: 1e-3, Batch: 2, Buffer: 4,
		Tau: 1, PolicyDelay: 1, TargetNoise: 0.2, NoiseClip: 0.5, Seed: 1}
}

// setHead zeroes r's LSTM and sets its head's parameters: (w_h, b) for an
// actor, (w_h, w_a, b) for a critic.
func setHead(r *nn.Recurrent, head ...float64) {
	clear(r.Enc.Params)
	copy(r.Head.Params, head)
}

// TestTargetEq41 checks y of Eq. 4.1 with TD3's smoothing on networks
// whose values are known: mu'(s') = tanh(b), Q'_1(s', a) = 2a + 1,
// Q'_2(s', a) = -a + 2, r = 0.25, discount 0.9, sigma 0.2, c 0.5.
//
//	mu' = 0.5, z = 0:    a' = 0.5, Q' = (2, 1.5),  y = 0.25 + 0.9*1.5 = 1.6
//	mu' = 0.5, z = 1:    a' = 0.7, Q' = (2.4, 1.3), y = 0.25 + 0.9*1.3 = 1.42
//	mu' = 0.5, z = -100: eps clipped to -0.5, a' = 0, Q' = (1, 2), y = 1.15
//	mu' = 0.8, z = 100:  0.8 + 0.5 clipped to a' = 1, Q' = (3, 1), y = 1.15
//	discount 0:          y = r = 0.25 whatever the targets say
func TestTargetEq41(t *testing.T) {
	a, err := New(toyConfig())
	if err != nil {
		t.Fatal(err)
	}
	setHead(a.q1T, 7, 2, 1)
	setHead(a.q2T, -3, -1, 2)
	tr := Transition{Obs: []float64{0.3}, Steps: 1, Action: 0.1, Reward: 0.25, Next: []float64{0.1, -0.2}, NextSteps: 2, Discount: 0.9}
	if err := a.Add(tr); err != nil {
		t.Fatal(err)
	}
	tr.Discount = 0
	if err := a.Add(tr); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mu, z, want float64
		slot        int
	}{
		{0.5, 0, 1.6, 0},
		{0.5, 1, 1.42, 0},
		{0.5, -100, 1.15, 0},
		{0.8, 100, 1.15, 0},
		{0.8, 100, 0.25, 1},
	} {
		setHead(a.actorT, 5, math.Atanh(tc.mu))
		if y := a.target(a.shards[0], tc.slot, tc.z); math.Abs(y-tc.want) > 1e-12 {
			t.Errorf("mu' %v z %v slot %d: y = %v, want %v", tc.mu, tc.z, tc.slot, y, tc.want)
		}
	}
}

// TestCriticLossEq42ByHand: Eq. 4.2 read as standard TD3, L = N^-1 sum
// (y - Q_1(s, a))^2, on two terminal transitions (y = r) (a, r) =
// (0.5, 1) and (-1, 0) with Q_1 = a + 0.25: Q = (0.75, -0.75),
// L = (0.25^2 + 0.75^2)/2 = 0.3125, dL/db = -(0.25 + 0.75) = -1,
// dL/dw_a = -(0.25*0.5 + 0.75*(-1)) = 0.625, dL/dw_h = 0 (h = 0).
func TestCriticLossEq42ByHand(t *testing.T) {
	a, err := New(toyConfig())
	if err != nil {
		t.Fatal(err)
	}
	setHead(a.q1, 0, 1, 0.25)
	a.reload()
	for _, tr := range []Transition{
		{Obs: []float64{0.3}, Steps: 1, Action: 0.5, Reward: 1},
		{Obs: []float64{-0.3, 0.6}, Steps: 2, Action: -1, Reward: 0},
	} {
		if err := a.Add(tr); err != nil {
			t.Fatal(err)
		}
	}
	a.idx[0], a.idx[1] = 0, 1
	a.criticGrads()
	g := a.shards[0].gQ1
	head := g[a.q1.Enc.NumParams():]
	if want := []float64{0, 0.625, -1}; math.Abs(head[0]-want[0]) > 1e-15 || math.Abs(head[1]-want[1]) > 1e-15 || math.Abs(head[2]-want[2]) > 1e-15 {
		t.Fatalf("head gradient %v, want %v", head, want)
	}
	if l := (a.shards[0].loss1 + a.shards[1].loss1) / 2; math.Abs(l-0.3125) > 1e-15 {
		t.Fatalf("loss %v, want 0.3125", l)
	}
	for i, v := range g[:a.q1.Enc.NumParams()] {
		if v != 0 {
			t.Fatalf("lstm gradient %d = %v, want 0 (w_h = 0)", i, v)
		}
	}
}

// randomAgent is a small agent with n random transitions, some terminal.
func randomAgent(t testing.TB, seed uint64, n int) *Agent {
	t.Helper()
	c := Config{Inputs: 2, Hidden: 3, HeadHidden: []int{4}, Seq: 4, ActorLR: 1e-3, CriticLR: 1e-3, Batch: 5, Buffer: 100,
		Tau: 0.05, PolicyDelay: 2, TargetNoise: 0.2, NoiseClip: 0.5, Seed: seed}
	a, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	fill(t, a, rand.New(rand.NewPCG(seed, 99)), n, false)
	return a
}

// fill adds n random transitions (histories of 1..Seq steps, terminal one
// time in four); padded stores them in Seq-row buffers with junk after
// the valid rows.
func fill(t testing.TB, a *Agent, rng *rand.Rand, n int, padded bool) {
	t.Helper()
	in, seq := a.cfg.Inputs, a.cfg.Seq
	hist := func(steps int) []float64 {
		size := steps * in
		if padded {
			size = seq * in
		}
		v := make([]float64, size)
		for i := range v {
			if i < steps*in {
				v[i] = 2*rng.Float64() - 1
			} else {
				v[i] = 42
			}
		}
		return v
	}
	for range n {
		s, ns := 1+rng.IntN(seq), 1+rng.IntN(seq)
		tr := Transition{Obs: hist(s), Steps: s, Action: 2*rng.Float64() - 1, Reward: rng.NormFloat64(), Next: hist(ns), NextSteps: ns, Discount: 0.9}
		if rng.IntN(4) == 0 {
			tr.Discount = 0
		}
		if err := a.Add(tr); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCriticGradientEq42 checks both critics' gradients against central
// differences of L_i = N^-1 sum (y - Q_i(s, a))^2 with y fixed (the
// targets do not move), over a batch of padded histories and terminal
// and non-terminal transitions.
func TestCriticGradientEq42(t *testing.T) {
	a := randomAgent(t, 3, 20)
	a.sample()
	a.criticGrads()
	s := a.shards[0]
	ys := make([]float64, len(a.idx))
	for k, i := range a.idx {
		ys[k] = a.target(s, i, a.z[k])
	}
	for _, c := range []struct {
		name string
		q    *nn.Recurrent
		p, g []float64
	}{{"Q1", a.q1, a.pQ1, s.gQ1}, {"Q2", a.q2, a.pQ2, s.gQ2}} {
		loss := func() float64 {
			c.q.SetParams(c.p)
			l := 0.0
			for k, i := range a.idx {
				obs, steps, _, _ := a.buf.at(i)
				q := c.q.Forward(obs, steps, []float64{a.buf.action[i]}, s.wQ1)
				l += (ys[k] - q) * (ys[k] - q)
			}
			return l / float64(len(a.idx))
		}
		gradcheck.Check(t, c.name, c.p, c.g, loss, true, len(c.p)/3)
	}
}

// TestActorGradientEq43: the deterministic policy gradient N^-1 sum
// dQ_1/da dmu/dphi against central differences of
// J(phi) = N^-1 sum Q_1(s, mu_phi(s)).
func TestActorGradientEq43(t *testing.T) {
	a := randomAgent(t, 4, 20)
	a.Update(3) // move off the initialisation
	a.sample()
	a.actorGrads()
	s := a.shards[0]
	j := func() float64 {
		a.actor.SetParams(a.pA)
		sum := 0.0
		for _, i := range a.idx {
			obs, steps, _, _ := a.buf.at(i)
			act := a.actor.Forward(obs, steps, nil, s.wA)
			sum += a.q1.Forward(obs, steps, []float64{act}, s.wQ1)
		}
		return sum / float64(len(a.idx))
	}
	gradcheck.Check(t, "actor", a.pA, s.gA, j, true, len(a.pA)/3)
	if want := j(); math.Abs((a.shards[0].sumJ+a.shards[1].sumJ)/float64(len(a.idx))-want) > 1e-12 {
		t.Fatalf("objective %v, want %v", (a.shards[0].sumJ+a.shards[1].sumJ)/float64(len(a.idx)), want)
	}
}

// TestPaddedHistories (paper 002, Section 4.3: histories padded to 8, the
// LSTM output read at the last valid step): padding never changes an
// action nor the course of training.
func TestPaddedHistories(t *testing.T) {
	a := randomAgent(t, 5, 0)
	b := randomAgent(t, 5, 0)
	fill(t, a, rand.New(rand.NewPCG(8, 8)), 30, false)
	fill(t, b, rand.New(rand.NewPCG(8, 8)), 30, true)
	a.Update(6)
	b.Update(6)
	if !slices.Equal(a.pA, b.pA) || !slices.Equal(a.pQ1, b.pQ1) || !slices.Equal(a.pQ2T, b.pQ2T) {
		t.Fatal("padded histories trained differently")
	}
	seq := []float64{0.1, -0.2, 0.3, 0.4}
	padded := append(slices.Clone(seq), 9, 9, 9, 9)
	if a.Act(seq, 2) != a.Act(padded, 2) {
		t.Fatal("padding changed the action")
	}
}

// TestDeterminism: the same seed, adds and updates give bit-identical
// networks, with one or two threads; another seed gives others.
func TestDeterminism(t *testing.T) {
	run := func(seed uint64, procs int) *Agent {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		a := randomAgent(t, seed, 40)
		a.Update(5)
		fill(t, a, rand.New(rand.NewPCG(seed, 7)), 10, false)
		a.Update(4)
		return a
	}
	x, y, z := run(6, 2), run(6, 1), run(7, 2)
	for _, p := range [][2][]float64{{x.pA, y.pA}, {x.pAT, y.pAT}, {x.pQ1, y.pQ1}, {x.pQ2, y.pQ2}, {x.pQ1T, y.pQ1T}, {x.pQ2T, y.pQ2T}} {
		if !slices.Equal(p[0], p[1]) {
			t.Fatal("same seed, different parameters")
		}
	}
	if slices.Equal(x.pA, z.pA) {
		t.Fatal("another seed gave the same actor")
	}
	if x.Updates() != 9 || x.Len() != 50 {
		t.Fatalf("updates %d len %d", x.Updates(), x.Len())
	}
}

// TestLearnsOneStepTask: a one-step task (discount 0) with reward
// -(a - f(s))^2, f(s) = 0.4 x_last[0] + 0.4 x_first[1], which needs both
// ends of the history (1..4 steps of 2 inputs). After 800 updates on 4000
// random-action transitions the actor's mean |mu(s) - f(s)| on 200
// held-out histories must be below 0.1 (always answering 0 scores about
// 0.28; this seed reaches about 0.07).
func TestLearnsOneStepTask(t *testing.T) {
	c := Config{Inputs: 2, Hidden: 16, HeadHidden: []int{32, 32}, Seq: 4, ActorLR: 3e-3, CriticLR: 3e-3, Batch: 64, Buffer: 10000,
		Tau: 0.005, PolicyDelay: 2, TargetNoise: 0.2, NoiseClip: 0.5, Seed: 11}
	a, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(12, 0))
	f := func(obs []float64, steps int) float64 { return 0.4*obs[(steps-1)*2] + 0.4*obs[1] }
	state := func() ([]float64, int) {
		steps := 1 + rng.IntN(4)
		obs := make([]float64, steps*2)
		for i := range obs {
			obs[i] = 2*rng.Float64() - 1
		}
		return obs, steps
	}
	for range 4000 {
		obs, steps := state()
		act := 2*rng.Float64() - 1
		d := act - f(obs, steps)
		if err := a.Add(Transition{Obs: obs, Steps: steps, Action: act, Reward: -d * d}); err != nil {
			t.Fatal(err)
		}
	}
	var st Stats
	for range 8 {
		st = a.Update(100)
	}
	errSum, base := 0.0, 0.0
	for range 200 {
		obs, steps := state()
		errSum += math.Abs(a.Act(obs, steps) - f(obs, steps))
		base += math.Abs(f(obs, steps))
	}
	t.Logf("mean |mu - f| %.4f (zero policy %.4f); last stats %+v", errSum/200, base/200, st)
	if errSum/200 > 0.1 {
		t.Fatalf("mean |mu(s) - f(s)| = %.4f, want < 0.1", errSum/200)
	}
}

// TestAddAndConfigErrors: malformed transitions and configurations are
// refused with one-line errors; a full buffer overwrites its oldest slot.
func TestAddAndConfigErrors(t *testing.T) {
	a, err := New(toyConfig())
	if err != nil {
		t.Fatal(err)
	}
	ok := Transition{Obs: []float64{0.1}, Steps: 1, Action: 0, Next: []float64{0.2}, NextSteps: 1, Discount: 0.9}
	for _, tc := range []struct {
		edit func(*Transition)
		want string
	}{
		{func(t *Transition) { t.Steps = 0 }, "steps"},
		{func(t *Transition) { t.Steps = 3 }, "steps"},
		{func(t *Transition) { t.Obs = nil }, "observation values"},
		{func(t *Transition) { t.NextSteps = 0 }, "needs a next observation"},
		{func(t *Transition) { t.Action = 1.5 }, "action"},
		{func(t *Transition) { t.Discount = 1.1 }, "discount"},
		{func(t *Transition) { t.Reward = math.NaN() }, "reward"},
		{func(t *Transition) { t.Obs = []float64{math.Inf(1)} }, "not finite"},
	} {
		tr := ok
		tc.edit(&tr)
		if err := a.Add(tr); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one containing %q", err, tc.want)
		}
	}
	for i := range 6 {
		tr := ok
		tr.Reward = float64(i)
		if err := a.Add(tr); err != nil {
			t.Fatal(err)
		}
	}
	if a.Len() != 4 || !slices.Equal(a.buf.reward, []float64{4, 5, 2, 3}) {
		t.Fatalf("ring: len %d rewards %v", a.Len(), a.buf.reward)
	}
	ok.Obs[0] = 99 // Add copied the slices
	if obs, _, _, _ := a.buf.at(0); obs[0] != 0.1 {
		t.Fatal("Add kept the caller's slice")
	}
	for _, edit := range []func(*Config){
		func(c *Config) { c.Inputs = 0 },
		func(c *Config) { c.Seq = 0 },
		func(c *Config) { c.ActorLR = 0 },
		func(c *Config) { c.Batch = 0 },
		func(c *Config) { c.Tau = 0 },
		func(c *Config) { c.PolicyDelay = 0 },
		func(c *Config) { c.TargetNoise = -1 },
		func(c *Config) { c.HeadHidden = []int{0} },
	} {
		c := toyConfig()
		edit(&c)
		if _, err := New(c); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("config %+v: error %v", c, err)
		}
	}
	d := Defaults()
	d.Inputs = 8
	if err := d.validate(); err != nil || d.Hidden != 64 || d.Batch != 256 || d.Seq != 8 {
		t.Fatalf("defaults %+v: %v", d, err)
	}
}

// BenchmarkUpdate is one TD3 step at the defaults (LSTM 64, heads 64-64,
// batch 256, 8 steps of 8 inputs).
func BenchmarkUpdate(b *testing.B) {
	c := Defaults()
	c.Inputs = 8
	c.Buffer = 4096
	a, err := New(c)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	obs := make([]float64, 8*8)
	for range 4096 {
		for i := range obs {
			obs[i] = rng.Float64()
		}
		if err := a.Add(Transition{Obs: obs, Steps: 8, Action: 2*rng.Float64() - 1, Reward: rng.Float64(), Next: obs, NextSteps: 8, Discount: 0.99}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		a.Update(1)
	}
}
