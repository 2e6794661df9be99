// Package nn is a small fully connected network with one scalar output: ReLU
// hidden layers and a tanh output, the architecture of the artifact of
// RL-CC-NIC (Fuhrer 2023), Appendix A ("two fully-connected hidden layers of
// width 12, a ReLU activation, and a TanH output activation"). It holds what
// evaluating a policy needs and nothing more: the parameter layout, a
// forward pass and a JSON form. Training (a seeded initialisation,
// backpropagation, Adam) lives in package learn (rl/nn/learn), so the RL-CC
// runtime (cca/rlcc) does not carry it.
//
// Forward never allocates: the caller passes a work buffer of WorkSize
// floats, so one network can be shared by many agents that each own their
// buffer. An MLP is not safe for concurrent mutation.
package nn

import (
	"fmt"
	"math"
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

// NewZero makes a network of the given sizes with every parameter 0
// (learn.Init draws a random initialisation).
func NewZero(sizes []int) (*MLP, error) {
	m := &MLP{Sizes: append([]int(nil), sizes...)}
	if err := m.layout(); err != nil {
		return nil, err
	}
	m.Params = make([]float64, m.offs[len(m.offs)-1])
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

// WorkSize is the length of the work buffer Forward and learn.Backward
// need: the activations of every layer, then two buffers of the widest
// layer for backpropagation.
func (m *MLP) WorkSize() int {
	n, widest := 0, 0
	for _, s := range m.Sizes[1:] {
		n += s
		widest = max(widest, s)
	}
	return n + 2*widest
}

// Split returns layer l's (1-based) weight matrix (row-major, out x in)
// and biases within v, a vector in the layout of Params (Params itself or
// a gradient of the same length).
func (m *MLP) Split(v []float64, l int) (w, b []float64) {
	in, out := m.Sizes[l-1], m.Sizes[l]
	o := m.offs[l-1]
	return v[o : o+in*out], v[o+in*out : o+in*out+out]
}

// forward fills the activations h_1..h_L into work (layer after layer)
// and returns the output.
func (m *MLP) forward(x, work []float64) float64 {
	prev := x
	at := 0
	last := len(m.Sizes) - 1
	for l := 1; l <= last; l++ {
		in, out := m.Sizes[l-1], m.Sizes[l]
		w, b := m.Split(m.Params, l)
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
// work must hold WorkSize floats; its contents are overwritten: on return
// it starts with the activations h_1..h_L, layer after layer (Sizes[1]
// values, then Sizes[2], ...), which learn.Backward reads.
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
