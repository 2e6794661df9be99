package nn

import (
	"bytes"
	"math"
	"testing"
)

// filledLSTM is a cell whose parameters are distinct non-zero values,
// 0.5 sin(i+1) for parameter i.
func filledLSTM(t testing.TB, inputs, hidden int) *LSTM {
	t.Helper()
	l, err := NewLSTM(inputs, hidden)
	if err != nil {
		t.Fatal(err)
	}
	for i := range l.Params {
		l.Params[i] = 0.5 * math.Sin(float64(i+1))
	}
	return l
}

// refFinal is a plain implementation of the documented cell and layout
// (separate gate matrices, no work buffer) to check Final against.
func refFinal(l *LSTM, xs []float64, steps int) []float64 {
	H, I := l.Hidden, l.Inputs
	h, c := make([]float64, H), make([]float64, H)
	w, b := l.Split(l.Params)
	sig := func(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
	for t := range steps {
		x := xs[t*I : (t+1)*I]
		pre := func(gate, u int) float64 {
			r := gate*H + u
			s := b[r]
			for k := range I {
				s += w[r*(I+H)+k] * x[k]
			}
			for k := range H {
				s += w[r*(I+H)+I+k] * h[k]
			}
			return s
		}
		nh, nc := make([]float64, H), make([]float64, H)
		for u := range H {
			i, f, g, o := sig(pre(0, u)), sig(pre(1, u)), math.Tanh(pre(2, u)), sig(pre(3, u))
			nc[u] = f*c[u] + i*g
			nh[u] = o * math.Tanh(nc[u])
		}
		h, c = nh, nc
	}
	return h
}

// TestLSTMOneStepByHand: one input, one unit, W rows (x weight, h weight)
// i: (1, 0.5), f: (0.5, -1), g: (2, 1), o: (-1, 0.5), b = (0, 1, 0, 0.5).
// At x_0 = 1 from h = c = 0: z = (1, 1.5, 2, -0.5), c = sigmoid(1) tanh(2)
// (the forget gate multiplies c = 0), h = sigmoid(-0.5) tanh(c).
func TestLSTMOneStepByHand(t *testing.T) {
	l, err := NewLSTM(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if l.NumParams() != 4*2+4 {
		t.Fatalf("NumParams = %d", l.NumParams())
	}
	for i, p := range l.Params {
		if p != 0 {
			t.Fatalf("param %d = %v, want 0", i, p)
		}
	}
	copy(l.Params, []float64{1, 0.5, 0.5, -1, 2, 1, -1, 0.5, 0, 1, 0, 0.5})
	sig := func(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
	c := sig(1) * math.Tanh(2)
	want := sig(-0.5) * math.Tanh(c)
	work := make([]float64, l.WorkSize(1))
	h := l.Final([]float64{1}, 1, work)
	if math.Abs(h[0]-want) > 1e-15 {
		t.Fatalf("h = %v, want %v", h[0], want)
	}
	gates, cs, tc, hs := l.Step(work, 0)
	if math.Abs(cs[0]-c) > 1e-15 || tc[0] != math.Tanh(cs[0]) || hs[0] != h[0] || math.Abs(gates[2]-math.Tanh(2)) > 1e-15 {
		t.Fatalf("step record gates %v c %v tanh c %v h %v", gates, cs, tc, hs)
	}
	// Second step x_1 = -1: z_f = -0.5 - h + 1 now sees h and c.
	f := sig(-0.5 - h[0] + 1)
	i := sig(-1 + 0.5*h[0])
	g := math.Tanh(-2 + h[0])
	o := sig(1 + 0.5*h[0] + 0.5)
	c2 := f*c + i*g
	want2 := o * math.Tanh(c2)
	work2 := make([]float64, l.WorkSize(2))
	if h2 := l.Final([]float64{1, -1}, 2, work2); math.Abs(h2[0]-want2) > 1e-15 {
		t.Fatalf("two steps: h = %v, want %v", h2[0], want2)
	}
}

// TestLSTMAgainstReference checks Final on a wider cell against the plain
// implementation, for every length 0..8.
func TestLSTMAgainstReference(t *testing.T) {
	l := filledLSTM(t, 3, 5)
	xs := make([]float64, 8*3)
	for i := range xs {
		xs[i] = math.Cos(float64(3*i + 1))
	}
	work := make([]float64, l.WorkSize(8))
	for steps := 0; steps <= 8; steps++ {
		got := l.Final(xs, steps, work)
		want := refFinal(l, xs, steps)
		for u := range want {
			if math.Abs(got[u]-want[u]) > 1e-14 {
				t.Fatalf("steps %d unit %d: %v, want %v", steps, u, got[u], want[u])
			}
		}
	}
}

// TestLSTMPaddingIgnored (paper 002, Section 4.3: histories are padded to
// 8 and the output is read at the last valid step): values after the
// valid steps never change the result.
func TestLSTMPaddingIgnored(t *testing.T) {
	l := filledLSTM(t, 2, 4)
	seq := []float64{0.1, 0.2, -0.3, 0.4, 0.5, -0.6}
	padded := make([]float64, 8*2)
	copy(padded, seq)
	for i := len(seq); i < len(padded); i++ {
		padded[i] = 1e3 * float64(i)
	}
	w1 := make([]float64, l.WorkSize(3))
	w2 := make([]float64, l.WorkSize(8))
	a := l.Final(seq, 3, w1)
	b := l.Final(padded, 3, w2)
	for u := range a {
		if a[u] != b[u] {
			t.Fatalf("unit %d: unpadded %v, padded %v", u, a[u], b[u])
		}
	}
}

// TestLSTMJSON: round trip gives identical bytes and outputs; malformed
// documents give one-line errors; Clone is independent.
func TestLSTMJSON(t *testing.T) {
	l := filledLSTM(t, 2, 3)
	b1, _ := jsonRoundTrip(t, l)
	if !bytes.HasPrefix(b1, []byte(`{"inputs":2,"hidden":3,"gates":"ifgo","w":[[`)) {
		t.Fatalf("unexpected form %s", b1)
	}
	jsonRejects[LSTM](t, []badDoc{
		{`{"inputs":1,"hidden":1,"gates":"iofg","w":[[1,1],[1,1],[1,1],[1,1]],"b":[0,0,0,0]}`, "gate order"},
		{`{"inputs":0,"hidden":1,"gates":"ifgo","w":[],"b":[]}`, "widths"},
		{`{"inputs":1,"hidden":1,"gates":"ifgo","w":[[1,1],[1,1],[1,1]],"b":[0,0,0,0]}`, "want 4 weight rows"},
		{`{"inputs":1,"hidden":1,"gates":"ifgo","w":[[1,1],[1,1],[1],[1,1]],"b":[0,0,0,0]}`, "row 2: want 2 weights"},
		{`{"inputs":1,"hidden":1,"gates":"ifgo","w":[[1,1],[1,1],[1,1],[1,1]],"b":[0,0,0,1e999]}`, "lstm"},
		{`[1]`, "nn: lstm"},
	})
	c := l.Clone()
	c.Params[0] += 1
	if l.Params[0] == c.Params[0] {
		t.Fatal("Clone shares parameters")
	}
}

// TestLSTMFinalAllocFree: the runtime calls Final once per decision.
func TestLSTMFinalAllocFree(t *testing.T) {
	l := filledLSTM(t, 8, 16)
	xs := make([]float64, 8*8)
	w := make([]float64, l.WorkSize(8))
	if n := testing.AllocsPerRun(100, func() { l.Final(xs, 8, w) }); n != 0 {
		t.Fatalf("Final allocates %v times", n)
	}
}
