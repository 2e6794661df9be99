// Package learn trains the networks of package nn: a deterministic
// initialisation from a seed (Init), the gradient of the output with
// respect to every parameter (Backward) and the Adam optimiser. The RL-CC
// trainer (rl/train) uses it; the runtime policy (cca/rlcc) only evaluates
// networks and does not import it.
//
// Backward never allocates: it uses the caller's work buffer of
// nn.MLP.WorkSize floats.
package learn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ccreplay/ccreplay/rl/nn"
)

// Init makes a network of the given sizes with parameters drawn from a
// PCG generator seeded by seed: weights of hidden layers uniform in
// +-sqrt(6/fan_in) (He initialisation for ReLU), those of the output layer
// uniform in +-outScale*sqrt(6/fan_in) (a small outScale starts the output
// near 0), biases 0.
func Init(sizes []int, seed uint64, outScale float64) (*nn.MLP, error) {
	m, err := nn.NewZero(sizes)
	if err != nil {
		return nil, err
	}
	if math.IsNaN(outScale) || math.IsInf(outScale, 0) || outScale < 0 {
		return nil, fmt.Errorf("nn: output scale must be finite and >= 0, got %v", outScale)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e6e2d6d6c70)) // "nn-mlp"
	for l := 1; l < len(m.Sizes); l++ {
		in := m.Sizes[l-1]
		lim := math.Sqrt(6 / float64(in))
		if l == len(m.Sizes)-1 {
			lim *= outScale
		}
		w, _ := m.Split(m.Params, l)
		for i := range w {
			w[i] = (2*rng.Float64() - 1) * lim
		}
	}
	return m, nil
}

// Backward adds scale x d y / d theta to grad (len NumParams, in the
// layout of m.Params) for the output y of m at input x, and returns y.
// With y = tanh(z_L): dy/dz_L = 1 - y^2; for a hidden unit, dz_{l+1}/dz_l
// passes through W_{l+1} and the ReLU's 0/1 derivative (0 at z = 0). work
// must hold m.WorkSize() floats.
func Backward(m *nn.MLP, x []float64, scale float64, grad, work []float64) float64 {
	if len(x) != m.Inputs() || len(work) < m.WorkSize() {
		panic(fmt.Sprintf("learn.Backward: input has %d values (want %d), work %d (want %d)", len(x), m.Inputs(), len(work), m.WorkSize()))
	}
	if len(grad) != len(m.Params) {
		panic(fmt.Sprintf("learn.Backward: gradient has %d values, want %d", len(grad), len(m.Params)))
	}
	// Forward leaves the activations h_1..h_L (acts floats) at the start
	// of work; after them come two buffers of the widest layer for the
	// deltas dy/dz of two layers.
	y := m.Forward(x, work)
	last := len(m.Sizes) - 1
	acts := 0
	for _, s := range m.Sizes[1:] {
		acts += s
	}
	wideN := (m.WorkSize() - acts) / 2
	delta := work[acts : acts+wideN]
	next := work[acts+wideN : acts+2*wideN]
	delta[0] = scale * (1 - y*y)
	end := acts // end of layer l's activations
	for l := last; l >= 1; l-- {
		in, out := m.Sizes[l-1], m.Sizes[l]
		start := end - out
		var prev []float64
		if l == 1 {
			prev = x
		} else {
			prev = work[start-in : start]
		}
		gw, gb := m.Split(grad, l)
		w, _ := m.Split(m.Params, l)
		for j := range out {
			d := delta[j]
			gb[j] += d
			if d == 0 {
				continue
			}
			row := gw[j*in : (j+1)*in]
			for i, v := range prev {
				row[i] += d * v
			}
		}
		if l > 1 {
			for i := range in {
				s := 0.0
				if prev[i] > 0 { // ReLU derivative
					for j := range out {
						s += delta[j] * w[j*in+i]
					}
				}
				next[i] = s
			}
			delta, next = next, delta
		}
		end = start
	}
	return y
}
