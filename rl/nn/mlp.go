// Package nn holds small networks with one scalar output and what
// evaluating them needs: the parameter layout, a forward pass and a JSON
// form.
//
//   - MLP: ReLU hidden layers and a tanh output, the architecture of the
//     artifact of RL-CC-NIC (Fuhrer 2023), Appendix A ("two
//     fully-connected hidden layers of width 12, a ReLU activation, and a
//     TanH output activation"); a linear output is available for critics.
//   - LSTM: a standard LSTM cell run over a short observation history.
//   - Recurrent: an LSTM encoder followed by an MLP head, the actor and
//     critic networks of FDCC's memory-based TD3 (paper 002, Section 4.3).
//
// Training (a seeded initialisation, backpropagation, Adam) lives in
// package learn (rl/nn/learn), so the RL-CC runtime (cca/rlcc) does not
// carry it.
//
// Forward passes never allocate: the caller passes a work buffer of
// WorkSize floats, so one network can be shared by many agents that each
// own their buffer. A network is not safe for concurrent mutation.
package nn

import (
	"fmt"
	"math"
)

// Output activations of an MLP (the MLP.Output field).
const (
	// OutputTanh squashes the output into (-1, 1): policies. The empty
	// string means the same.
	OutputTanh = "tanh"
	// OutputLinear leaves the output unbounded: value functions (critics).
	OutputLinear = "linear"
)

// MLP is a network Sizes[0] -> Sizes[1] -> ... -> 1. Layer l (1-based)
// computes z_l = W_l h_{l-1} + b_l with h_0 = x; hidden layers apply ReLU,
// the last layer tanh (or nothing when Output is OutputLinear).
type MLP struct {
	// Sizes are the layer widths, input first; the last is 1.
	Sizes []int
	// Output is the output activation: "" or OutputTanh for tanh,
	// OutputLinear for the identity. UnmarshalJSON stores "" for tanh, so
	// a network read back equals one made by NewZero.
	Output string
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
	linear := m.Output == OutputLinear
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
			switch {
			case l < last:
				h[j] = max(z, 0) // ReLU
			case linear:
				h[j] = z
			default:
				h[j] = math.Tanh(z)
			}
		}
		prev = h
		at += out
	}
	return prev[0]
}

// Forward is the network's output for input x (len Inputs): in (-1, 1)
// for a tanh output, any real for a linear one.
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
	if !validOutput(m.Output) {
		panic(fmt.Sprintf("nn.MLP: unknown output activation %q (want %q or %q)", m.Output, OutputTanh, OutputLinear))
	}
}

// validOutput reports whether s names an output activation.
func validOutput(s string) bool { return s == "" || s == OutputTanh || s == OutputLinear }
