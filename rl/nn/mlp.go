// Package nn is a small fully connected network with one scalar output:
// ReLU hidden layers and a tanh output, the architecture of paper 001's
// artifact ("two fully-connected hidden layers of width 12, a ReLU
// activation, and a TanH output activation", Appendix A). It has what the
// RL-CC trainer needs and nothing more: a forward pass, the gradient of
// the output with respect to every parameter (backpropagation), Adam, a
// deterministic initialisation from a seed and a JSON form.
//
// Forward and Backward never allocate: the caller passes a work buffer of
// WorkSize floats, so one network can be shared by many agents that each
// own their buffer. An MLP is not safe for concurrent mutation.
package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// MLP is a network Sizes[0] -> Sizes[1] -> ... -> 1. Layer l (1-based)
// computes z_l = W_l h_{l-1} + b_l with h_0 = x; hidden layers apply ReLU,
// the last layer tanh.
type MLP struct {
	// Sizes are the layer widths, input first; the last is 1.
	Sizes []int
	// Params holds every layer's weights (row-major, out x in) followed by
	// its biases, layer after layer.
	Params []float64
	// offs[l] is where layer l+1's weights start in Params.
	offs []int
}

// New makes a network of the given sizes with parameters drawn from a
// PCG generator seeded by seed: weights of hidden layers uniform in
// +-sqrt(6/fan_in) (He initialisation for ReLU), those of the output layer
// uniform in +-outScale*sqrt(6/fan_in) (a small outScale starts the output
// near 0), biases 0.
func New(sizes []int, seed uint64, outScale float64) (*MLP, error) {
	m := &MLP{Sizes: append([]int(nil), sizes...)}
	if err := m.layout(); err != nil {
		return nil, err
	}
	if math.IsNaN(outScale) || math.IsInf(outScale, 0) || outScale < 0 {
		return nil, fmt.Errorf("nn: output scale must be finite and >= 0, got %v", outScale)
	}
	m.Params = make([]float64, m.offs[len(m.offs)-1])
	rng := rand.New(rand.NewPCG(seed, 0x6e6e2d6d6c70)) // "nn-mlp"
	for l := 1; l < len(m.Sizes); l++ {
		in, out := m.Sizes[l-1], m.Sizes[l]
		lim := math.Sqrt(6 / float64(in))
		if l == len(m.Sizes)-1 {
			lim *= outScale
		}
		w := m.Params[m.offs[l-1] : m.offs[l-1]+in*out]
		for i := range w {
			w[i] = (2*rng.Float64() - 1) * lim
		}
	}
	return m, nil
}

// layout checks Sizes and computes the parameter offsets.
func (m *MLP) layout() error {
	if len(m.Sizes) < 2 {
		return fmt.Errorf("nn: need at least an input and an output layer, got sizes %v", m.Sizes)
	}
	if m.Sizes[len(m.Sizes)-1] != 1 {
		return fmt.Errorf("nn: the output layer must have width 1, got sizes %v", m.Sizes)
	}
	m.offs = make([]int, len(m.Sizes))
	n := 0
	for l := 1; l < len(m.Sizes); l++ {
		in, out := m.Sizes[l-1], m.Sizes[l]
		if in < 1 || out < 1 || in > 1<<16 || out > 1<<16 {
			return fmt.Errorf("nn: layer widths must be in 1..65536, got sizes %v", m.Sizes)
		}
		m.offs[l-1] = n
		n += in*out + out
	}
	m.offs[len(m.Sizes)-1] = n
	return nil
}

// NumParams is the number of parameters (weights and biases).
func (m *MLP) NumParams() int { return len(m.Params) }

// Inputs is the input width.
func (m *MLP) Inputs() int { return m.Sizes[0] }

// WorkSize is the length of the work buffer Forward and Backward need.
func (m *MLP) WorkSize() int {
	n, widest := 0, 0
	for _, s := range m.Sizes[1:] {
		n += s
		widest = max(widest, s)
	}
	return n + 2*widest
}

// weights returns layer l's (1-based) weight matrix and biases.
func (m *MLP) weights(l int) (w, b []float64) {
	in, out := m.Sizes[l-1], m.Sizes[l]
	o := m.offs[l-1]
	return m.Params[o : o+in*out], m.Params[o+in*out : o+in*out+out]
}

// forward fills the activations h_1..h_L into work (layer after layer)
// and returns the output.
func (m *MLP) forward(x, work []float64) float64 {
	prev := x
	at := 0
	last := len(m.Sizes) - 1
	for l := 1; l <= last; l++ {
		in, out := m.Sizes[l-1], m.Sizes[l]
		w, b := m.weights(l)
		h := work[at : at+out]
		for j := range out {
			z := b[j]
			row := w[j*in : (j+1)*in]
			for i, v := range prev {
				z += row[i] * v
			}
			if l == last {
				h[j] = math.Tanh(z)
			} else {
				h[j] = max(z, 0) // ReLU
			}
		}
		prev = h
		at += out
	}
	return prev[0]
}

// Forward is the network's output for input x (len Inputs), in (-1, 1).
// work must hold WorkSize floats; its contents are overwritten.
func (m *MLP) Forward(x, work []float64) float64 {
	m.check(x, work)
	return m.forward(x, work)
}

// check panics on a caller's programming error (wrong buffer lengths).
func (m *MLP) check(x, work []float64) {
	if len(x) != m.Sizes[0] || len(work) < m.WorkSize() {
		panic(fmt.Sprintf("nn.MLP: input has %d values (want %d), work %d (want %d)", len(x), m.Sizes[0], len(work), m.WorkSize()))
	}
}

// Backward adds scale x d y / d theta to grad (len NumParams, in the
// layout of Params) for the output y at input x, and returns y. With y =
// tanh(z_L): dy/dz_L = 1 - y^2; for a hidden unit, dz_{l+1}/dz_l passes
// through W_{l+1} and the ReLU's 0/1 derivative (0 at z = 0).
func (m *MLP) Backward(x []float64, scale float64, grad, work []float64) float64 {
	m.check(x, work)
	if len(grad) != len(m.Params) {
		panic(fmt.Sprintf("nn.MLP: gradient has %d values, want %d", len(grad), len(m.Params)))
	}
	y := m.forward(x, work)
	last := len(m.Sizes) - 1
	// work holds the activations h_1..h_L (acts floats), then two
	// buffers of the widest layer for the deltas dy/dz of two layers.
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
		o := m.offs[l-1]
		gw, gb := grad[o:o+in*out], grad[o+in*out:o+in*out+out]
		w, _ := m.weights(l)
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
