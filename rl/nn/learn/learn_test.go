package learn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/ccreplay/ccreplay/internal/gradcheck"
	"github.com/ccreplay/ccreplay/rl/nn"
)

// tiny is the 2 -> 2 -> 1 network of the hand computations below:
// W1 = [[1, -1], [0.5, 2]], b1 = [0, -1], W2 = [[1, -2]], b2 = [b2].
func tiny(t *testing.T, b2 float64) *nn.MLP {
	t.Helper()
	m, err := nn.NewZero([]int{2, 2, 1})
	if err != nil {
		t.Fatal(err)
	}
	copy(m.Params, []float64{1, -1, 0.5, 2, 0, -1, 1, -2, b2})
	return m
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*(1+math.Abs(b)) }

// TestBackwardByHand checks Forward and Backward against gradients worked
// out on paper. At x = (1, 0.5): z1 = (1 - 0.5, 0.5 + 1 - 1) = (0.5, 0.5),
// both ReLUs pass; z2 = 0.5 - 1 + b2.
//   - b2 = 0.5: z2 = 0, y = 0, dy/dz2 = 1; dW2 = h1 = (0.5, 0.5), db2 = 1;
//     delta1 = W2 = (1, -2); dW1 = delta1 x^T = [[1, 0.5], [-2, -1]];
//     db1 = (1, -2).
//   - b2 = 1 and scale 2: z2 = 0.5, y = tanh 0.5 = 0.46211715726,
//     dy/dz2 = 1 - y^2 = 0.78644773297: every gradient above times
//     2 x 0.78644773297.
//   - at x = (0, 1) with b2 = 0.5: z1 = (-1, 1), the first ReLU is off, so
//     its row of dW1 and its bias get 0; z2 = -2 + 0.5 = -1.5.
func TestBackwardByHand(t *testing.T) {
	base := []float64{1, 0.5, -2, -1, 1, -2, 0.5, 0.5, 1}
	for _, tc := range []struct {
		name   string
		b2     float64
		x      []float64
		scale  float64
		y      float64
		factor float64
		want   []float64
	}{
		{"linear region", 0.5, []float64{1, 0.5}, 1, 0, 1, base},
		{"tanh slope and scale", 1, []float64{1, 0.5}, 2, 0.46211715726000974, 2 * 0.7864477329659274, base},
		{"relu off", 0.5, []float64{0, 1}, 1, math.Tanh(-1.5), 1 - math.Pow(math.Tanh(-1.5), 2),
			// dW1 = [[0, 0], [-2*0, -2*1]], db1 = (0, -2), dW2 = h1 = (0, 1), db2 = 1
			[]float64{0, 0, 0, -2, 0, -2, 0, 1, 1}},
	} {
		m := tiny(t, tc.b2)
		work := make([]float64, m.WorkSize())
		if y := m.Forward(tc.x, work); !near(y, tc.y, 1e-12) {
			t.Errorf("%s: Forward = %v, want %v", tc.name, y, tc.y)
		}
		g := make([]float64, m.NumParams())
		y := Backward(m, tc.x, tc.scale, g, work)
		if !near(y, tc.y, 1e-12) {
			t.Errorf("%s: Backward returned %v, want %v", tc.name, y, tc.y)
		}
		for i := range g {
			if want := tc.want[i] * tc.factor; !near(g[i], want, 1e-12) {
				t.Errorf("%s: grad[%d] = %v, want %v", tc.name, i, g[i], want)
			}
		}
		// Backward accumulates: a second call doubles the gradient.
		Backward(m, tc.x, tc.scale, g, work)
		for i := range g {
			if want := 2 * tc.want[i] * tc.factor; !near(g[i], want, 1e-12) {
				t.Errorf("%s: accumulated grad[%d] = %v, want %v", tc.name, i, g[i], want)
			}
		}
	}
}

// TestFiniteDifference compares Backward with central differences on the
// RL-CC shape 7 -> 12 -> 12 -> 1 (the widths of
// RL-CC-NIC, Fuhrer 2023, Appendix A) at random inputs.
func TestFiniteDifference(t *testing.T) {
	m, err := Init([]int{7, 12, 12, 1}, 42, 1)
	if err != nil {
		t.Fatal(err)
	}
	work := make([]float64, m.WorkSize())
	xs := [][]float64{
		{0.3, 0.2, 1, 0, 0.1, 0.4, 0.5},
		{-1, 2, 0.5, 0.7, -0.3, 0.9, -0.2},
	}
	for _, x := range xs {
		g := make([]float64, m.NumParams())
		Backward(m, x, 1, g, work)
		gradcheck.Check(t, fmt.Sprintf("x=%v", x), m.Params, g, func() float64 { return m.Forward(x, work) }, false, m.NumParams()/3)
	}
}

// TestAdamByHand: one parameter p = 1, lr 0.1. Step 1 with g = 0.5:
// m = 0.05, v = 0.00025, m^ = 0.5, v^ = 0.25, p = 1 + 0.1 x 0.5/(0.5 +
// 1e-8) = 1.099999998. Step 2 with g = -0.5: m = -0.005, v = 0.00049975,
// m^ = -0.005/0.19 = -0.0263157895, v^ = 0.00049975/0.001999 = 0.25,
// p = 1.099999998 - 0.1 x 0.0263157895/(0.5 + 1e-8) = 1.0947368402.
func TestAdamByHand(t *testing.T) {
	a, err := NewAdam(1, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	p := []float64{1}
	a.Ascend(p, []float64{0.5})
	if !near(p[0], 1.099999998, 1e-12) {
		t.Fatalf("after step 1: %v", p[0])
	}
	a.Ascend(p, []float64{-0.5})
	if !near(p[0], 1.0947368402105262, 1e-12) {
		t.Fatalf("after step 2: %v", p[0])
	}
	d, _ := NewAdam(1, 0.1)
	q := []float64{1}
	d.Descend(q, []float64{0.5})
	if !near(q[0], 0.900000002, 1e-12) {
		t.Fatalf("descend: %v", q[0])
	}
	if _, err := NewAdam(1, 0); err == nil {
		t.Fatal("NewAdam accepted learning rate 0")
	}
}

// TestInitDeterministic: the same seed gives the same parameters, another
// seed others; the output layer's scale bounds its weights.
func TestInitDeterministic(t *testing.T) {
	a, _ := Init([]int{7, 12, 12, 1}, 5, 0.1)
	b, _ := Init([]int{7, 12, 12, 1}, 5, 0.1)
	c, _ := Init([]int{7, 12, 12, 1}, 6, 0.1)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	jc, _ := json.Marshal(c)
	if !bytes.Equal(ja, jb) || bytes.Equal(ja, jc) {
		t.Fatal("initialisation is not a function of the seed")
	}
	if a.NumParams() != 7*12+12+12*12+12+12+1 {
		t.Fatalf("NumParams = %d", a.NumParams())
	}
	w, b2 := a.Split(a.Params, 3)
	lim := 0.1 * math.Sqrt(6.0/12)
	for _, v := range w {
		if math.Abs(v) > lim {
			t.Fatalf("output weight %v beyond %v", v, lim)
		}
	}
	if b2[0] != 0 {
		t.Fatalf("output bias %v, want 0", b2[0])
	}
}
