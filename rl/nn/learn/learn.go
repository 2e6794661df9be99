// Package learn trains the networks of package nn: a deterministic
// initialisation from a seed (Init, InitRecurrent), the gradient of the
// output with respect to every parameter and input (Backward,
// BackwardInput, BackwardLSTM, BackwardRecurrent) and the Adam optimiser.
// The RL-CC trainer (rl/train) and TD3 (rl/td3) use it; the runtime
// policies (cca/rlcc, cca/fdcc) only evaluate networks and do not import
// it.
//
// The backward passes never allocate: they use the caller's work buffer
// (nn.MLP.WorkSize, nn.LSTM.WorkSize or nn.Recurrent.WorkSize floats).
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
// With y = tanh(z_L): dy/dz_L = 1 - y^2 (1 for a linear output); for a
// hidden unit, dz_{l+1}/dz_l passes through W_{l+1} and the ReLU's 0/1
// derivative (0 at z = 0). work must hold m.WorkSize() floats.
func Backward(m *nn.MLP, x []float64, scale float64, grad, work []float64) float64 {
	checkMLP("learn.Backward", m, x, grad, work)
	if grad == nil {
		panic("learn.Backward: nil gradient")
	}
	m.Forward(x, work)
	return backward(m, x, scale, grad, nil, work)
}

// BackwardInput is Backward that also writes dy/dx, the gradient of the
// output with respect to the input (not multiplied by scale), into dx
// (len Inputs). grad may be nil: then only dx is computed. It returns y.
func BackwardInput(m *nn.MLP, x []float64, scale float64, grad, dx, work []float64) float64 {
	checkMLP("learn.BackwardInput", m, x, grad, work)
	if len(dx) != m.Inputs() {
		panic(fmt.Sprintf("learn.BackwardInput: dx has %d values, want %d", len(dx), m.Inputs()))
	}
	m.Forward(x, work)
	return backward(m, x, scale, grad, dx, work)
}

func checkMLP(fn string, m *nn.MLP, x, grad, work []float64) {
	if len(x) != m.Inputs() || len(work) < m.WorkSize() {
		panic(fmt.Sprintf("%s: input has %d values (want %d), work %d (want %d)", fn, len(x), m.Inputs(), len(work), m.WorkSize()))
	}
	if grad != nil && len(grad) != len(m.Params) {
		panic(fmt.Sprintf("%s: gradient has %d values, want %d", fn, len(grad), len(m.Params)))
	}
}

// backward is the backward pass after m.Forward(x, work): it adds scale x
// dy/dtheta to grad unless grad is nil, and writes dy/dx into dx unless dx
// is nil. It returns y.
//
// NB: without dx the deltas carry scale from the output on (the order of
// operations Backward has always had, so trained networks stay
// bit-identical); with dx they are unscaled and scale multiplies each
// delta where it is accumulated.
func backward(m *nn.MLP, x []float64, scale float64, grad, dx, work []float64) float64 {
	// Forward left the activations h_1..h_L (acts floats) at the start
	// of work; after them come two buffers of the widest layer for the
	// deltas dy/dz of two layers.
	last := len(m.Sizes) - 1
	acts := 0
	for _, s := range m.Sizes[1:] {
		acts += s
	}
	y := work[acts-1]
	wideN := (m.WorkSize() - acts) / 2
	delta := work[acts : acts+wideN]
	next := work[acts+wideN : acts+2*wideN]
	dydz := 1.0
	if m.Output != nn.OutputLinear {
		dydz = 1 - y*y
	}
	acc := 1.0 // multiplies each delta where it is accumulated
	if dx == nil {
		delta[0] = scale * dydz
	} else {
		delta[0] = dydz
		acc = scale
	}
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
		w, _ := m.Split(m.Params, l)
		if grad != nil {
			gw, gb := m.Split(grad, l)
			for j := range out {
				d := acc * delta[j]
				gb[j] += d
				if d == 0 {
					continue
				}
				row := gw[j*in : (j+1)*in]
				for i, v := range prev {
					row[i] += d * v
				}
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
		} else if dx != nil {
			for i := range in {
				s := 0.0
				for j := range out {
					s += delta[j] * w[j*in+i]
				}
				dx[i] = s
			}
		}
		end = start
	}
	return y
}
