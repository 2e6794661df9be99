package learn

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/ccreplay/ccreplay/internal/gradcheck"
	"github.com/ccreplay/ccreplay/rl/nn"
)

// seqInputs is a deterministic history of steps x inputs values in [-1, 1].
func seqInputs(steps, inputs int, phase float64) []float64 {
	xs := make([]float64, steps*inputs)
	for i := range xs {
		xs[i] = math.Sin(1.7*float64(i) + phase)
	}
	return xs
}

// TestBackwardLSTMFiniteDifference checks backpropagation through time
// for L = dh . h_final with central differences, for 1, 3 and 6 steps.
func TestBackwardLSTMFiniteDifference(t *testing.T) {
	r, err := InitRecurrent(3, 4, nil, 0, 7, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	l := r.Enc
	for i := range l.Params { // larger weights: saturated and unsaturated gates
		l.Params[i] *= 2
	}
	dh := []float64{0.5, -1, 0.25, 2}
	for _, steps := range []int{1, 3, 6} {
		xs := seqInputs(steps, 3, float64(steps))
		work := make([]float64, l.WorkSize(steps))
		grad := make([]float64, l.NumParams())
		BackwardLSTM(l, xs, steps, dh, 1.5, grad, work)
		loss := func() float64 {
			h := l.Final(xs, steps, work)
			s := 0.0
			for u := range h {
				s += 1.5 * dh[u] * h[u]
			}
			return s
		}
		nz := 0
		gradcheck.Check(t, "lstm", l.Params, grad, loss, true, len(l.Params)/4)
		for _, g := range grad {
			if g != 0 {
				nz++
			}
		}
		if steps == 1 && nz == len(grad) {
			t.Error("one step: the recurrent weights should get no gradient (h_{-1} = 0)")
		}
	}
}

// TestBackwardInputFiniteDifference: dx of BackwardInput against central
// differences in the input, for tanh and linear outputs; its parameter
// gradient is Backward's (bit for bit at scale 1).
func TestBackwardInputFiniteDifference(t *testing.T) {
	for _, out := range []string{"", nn.OutputLinear} {
		m, err := Init([]int{5, 8, 6, 1}, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		m.Output = out
		x := []float64{0.3, -0.7, 0.2, 0.9, -0.1}
		work := make([]float64, m.WorkSize())
		g1 := make([]float64, m.NumParams())
		g2 := make([]float64, m.NumParams())
		dx := make([]float64, 5)
		y1 := Backward(m, x, 1, g1, work)
		y2 := BackwardInput(m, x, 1, g2, dx, work)
		if y1 != y2 || !bytes.Equal(f64bytes(g1), f64bytes(g2)) {
			t.Fatalf("output %q: BackwardInput's parameter gradient differs from Backward's", out)
		}
		gradcheck.Check(t, "mlp "+out, m.Params, g1, func() float64 { return m.Forward(x, work) }, true, len(m.Params)/4)
		const h = 1e-6
		for i := range x {
			v := x[i]
			x[i] = v + h
			up := m.Forward(x, work)
			x[i] = v - h
			down := m.Forward(x, work)
			x[i] = v
			if fd := (up - down) / (2 * h); math.Abs(fd-dx[i]) > 1e-7*(1+math.Abs(fd)) {
				t.Errorf("output %q: dx[%d] = %v, finite difference %v", out, i, dx[i], fd)
			}
		}
		// dx is not scaled; the parameter gradient is.
		g3 := make([]float64, m.NumParams())
		dx3 := make([]float64, 5)
		BackwardInput(m, x, -2.5, g3, dx3, work)
		for i := range g3 {
			if !near(g3[i], -2.5*g1[i], 1e-12) {
				t.Fatalf("output %q: scaled grad[%d] = %v, want %v", out, i, g3[i], -2.5*g1[i])
			}
		}
		for i := range dx3 {
			if dx3[i] != dx[i] {
				t.Fatalf("output %q: dx depends on scale", out)
			}
		}
		dx4 := make([]float64, 5)
		BackwardInput(m, x, 1, nil, dx4, work)
		if !bytes.Equal(f64bytes(dx), f64bytes(dx4)) {
			t.Fatalf("output %q: dx without a parameter gradient differs", out)
		}
	}
}

func f64bytes(v []float64) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestBackwardRecurrentFiniteDifference: the actor shape (tanh output, no
// extra input) and the critic shape (linear output, the action appended)
// against central differences in every parameter and in the action, on a
// padded history buffer.
func TestBackwardRecurrentFiniteDifference(t *testing.T) {
	for _, tc := range []struct {
		name   string
		extra  []float64
		output string
	}{
		{"actor", nil, nn.OutputTanh},
		{"critic", []float64{0.4}, nn.OutputLinear},
	} {
		r, err := InitRecurrent(3, 5, []int{6, 4}, len(tc.extra), 12, 1, tc.output)
		if err != nil {
			t.Fatal(err)
		}
		for _, steps := range []int{1, 4} {
			xs := seqInputs(8, 3, 0.3) // padded to 8, steps valid
			work := make([]float64, r.WorkSize(8))
			grad := make([]float64, r.NumParams())
			dExtra := make([]float64, len(tc.extra))
			y := BackwardRecurrent(r, xs, steps, tc.extra, 0.75, grad, dExtra, work)
			if y != r.Forward(xs[:steps*3], steps, tc.extra, make([]float64, r.WorkSize(steps))) {
				t.Fatalf("%s: BackwardRecurrent's output differs from Forward's", tc.name)
			}
			flat := make([]float64, r.NumParams())
			r.ParamsInto(flat)
			f := func() float64 {
				r.SetParams(flat)
				return 0.75 * r.Forward(xs, steps, tc.extra, work)
			}
			gradcheck.Check(t, tc.name, flat, grad, f, true, len(flat)/4)
			r.SetParams(flat)
			const h = 1e-6
			for i := range tc.extra {
				v := tc.extra[i]
				tc.extra[i] = v + h
				up := r.Forward(xs, steps, tc.extra, work)
				tc.extra[i] = v - h
				down := r.Forward(xs, steps, tc.extra, work)
				tc.extra[i] = v
				if fd := (up - down) / (2 * h); math.Abs(fd-dExtra[i]) > 1e-7*(1+math.Abs(fd)) {
					t.Errorf("%s: dExtra[%d] = %v, finite difference %v", tc.name, i, dExtra[i], fd)
				}
			}
			// Without a parameter gradient only the head is traversed;
			// dExtra is the same.
			d2 := make([]float64, len(tc.extra))
			r.Forward(xs, steps, tc.extra, work)
			BackwardRecurrentAfter(r, xs, steps, 1, nil, d2, work)
			if !bytes.Equal(f64bytes(d2), f64bytes(dExtra)) {
				t.Fatalf("%s: dExtra without grad %v, with %v", tc.name, d2, dExtra)
			}
		}
	}
}

// TestBackwardRecurrentAllocFree: TD3 runs it for every sample.
func TestBackwardRecurrentAllocFree(t *testing.T) {
	r, err := InitRecurrent(4, 8, []int{8}, 1, 1, 1, nn.OutputLinear)
	if err != nil {
		t.Fatal(err)
	}
	xs := seqInputs(8, 4, 0)
	work := make([]float64, r.WorkSize(8))
	grad := make([]float64, r.NumParams())
	extra, dExtra := []float64{0.1}, []float64{0}
	if n := testing.AllocsPerRun(50, func() { BackwardRecurrent(r, xs, 8, extra, 1, grad, dExtra, work) }); n != 0 {
		t.Fatalf("BackwardRecurrent allocates %v times", n)
	}
}

// TestInitRecurrent: deterministic in the seed; forget-gate biases 1, the
// others 0; widths and output activation as asked; bad arguments refused.
func TestInitRecurrent(t *testing.T) {
	a, err := InitRecurrent(8, 16, []int{32, 32}, 1, 9, 0.1, nn.OutputLinear)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := InitRecurrent(8, 16, []int{32, 32}, 1, 9, 0.1, nn.OutputLinear)
	c, _ := InitRecurrent(8, 16, []int{32, 32}, 1, 10, 0.1, nn.OutputLinear)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	jc, _ := json.Marshal(c)
	if !bytes.Equal(ja, jb) || bytes.Equal(ja, jc) {
		t.Fatal("initialisation is not a function of the seed")
	}
	if got := a.Head.Sizes; len(got) != 4 || got[0] != 17 || got[1] != 32 || got[3] != 1 || a.Head.Output != nn.OutputLinear || a.Extra != 1 {
		t.Fatalf("head sizes %v output %q extra %d", got, a.Head.Output, a.Extra)
	}
	_, bias := a.Enc.Split(a.Enc.Params)
	for r, v := range bias {
		if want := map[bool]float64{true: 1, false: 0}[r >= 16 && r < 32]; v != want {
			t.Fatalf("bias %d = %v, want %v", r, v, want)
		}
	}
	w, _ := a.Enc.Split(a.Enc.Params)
	for _, v := range w {
		if math.Abs(v) > 0.25 {
			t.Fatalf("lstm weight %v beyond 1/sqrt(16)", v)
		}
	}
	for _, bad := range []func() error{
		func() error { _, err := InitRecurrent(8, 16, nil, 0, 1, 1, "sigmoid"); return err },
		func() error { _, err := InitRecurrent(8, 16, nil, -1, 1, 1, ""); return err },
		func() error { _, err := InitRecurrent(0, 16, nil, 0, 1, 1, ""); return err },
		func() error { _, err := InitRecurrent(8, 16, []int{0}, 0, 1, 1, ""); return err },
	} {
		if bad() == nil {
			t.Error("bad arguments accepted")
		}
	}
}
