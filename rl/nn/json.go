package nn

import (
	"encoding/json"
	"fmt"
	"math"
)

// Activation names written in the JSON form: the hidden layers' and the
// default output's (see OutputTanh and OutputLinear for the output).
const (
	HiddenActivation = "relu"
	OutputActivation = OutputTanh
)

// layerJSON is one layer: W[j][i] is the weight from input i to unit j.
type layerJSON struct {
	W [][]float64 `json:"w"`
	B []float64   `json:"b"`
}

// mlpJSON is the JSON form of an MLP.
type mlpJSON struct {
	Sizes  []int       `json:"sizes"`
	Hidden string      `json:"hidden"`
	Output string      `json:"output"`
	Layers []layerJSON `json:"layers"`
}

// MarshalJSON writes {"sizes", "hidden": "relu", "output": "tanh" (or
// "linear"), "layers": [{"w": [[...]], "b": [...]}]}. Floats are written in
// the shortest form that parses back exactly, so the same network always
// gives the same bytes.
func (m *MLP) MarshalJSON() ([]byte, error) {
	if !validOutput(m.Output) {
		return nil, fmt.Errorf("nn: unknown output activation %q (want %q or %q)", m.Output, OutputTanh, OutputLinear)
	}
	out := mlpJSON{Sizes: m.Sizes, Hidden: HiddenActivation, Output: OutputTanh}
	if m.Output == OutputLinear {
		out.Output = OutputLinear
	}
	for l := 1; l < len(m.Sizes); l++ {
		in, n := m.Sizes[l-1], m.Sizes[l]
		w, b := m.Split(m.Params, l)
		lj := layerJSON{W: make([][]float64, n), B: append([]float64(nil), b...)}
		for j := range n {
			lj.W[j] = append([]float64(nil), w[j*in:(j+1)*in]...)
		}
		out.Layers = append(out.Layers, lj)
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads the form MarshalJSON writes and checks that every
// layer has the shape Sizes says and every value is finite.
func (m *MLP) UnmarshalJSON(b []byte) error {
	var in mlpJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("nn: %w", err)
	}
	if in.Hidden != HiddenActivation || (in.Output != OutputTanh && in.Output != OutputLinear) {
		return fmt.Errorf("nn: activations must be hidden %q and output %q or %q, got %q and %q", HiddenActivation, OutputTanh, OutputLinear, in.Hidden, in.Output)
	}
	n := MLP{Sizes: in.Sizes}
	if in.Output == OutputLinear {
		n.Output = OutputLinear
	}
	if err := n.layout(); err != nil {
		return err
	}
	if len(in.Layers) != len(in.Sizes)-1 {
		return fmt.Errorf("nn: sizes %v need %d layers, got %d", in.Sizes, len(in.Sizes)-1, len(in.Layers))
	}
	n.Params = make([]float64, n.offs[len(n.offs)-1])
	for l := 1; l < len(n.Sizes); l++ {
		lj := in.Layers[l-1]
		ins, outs := n.Sizes[l-1], n.Sizes[l]
		if len(lj.W) != outs || len(lj.B) != outs {
			return fmt.Errorf("nn: layer %d: want %d weight rows and %d biases, got %d and %d", l, outs, outs, len(lj.W), len(lj.B))
		}
		w, bias := n.Split(n.Params, l)
		for j, row := range lj.W {
			if len(row) != ins {
				return fmt.Errorf("nn: layer %d row %d: want %d weights, got %d", l, j, ins, len(row))
			}
			copy(w[j*ins:], row)
		}
		copy(bias, lj.B)
	}
	for i, p := range n.Params {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return fmt.Errorf("nn: parameter %d is not finite (%v)", i, p)
		}
	}
	*m = n
	return nil
}

// Clone returns an independent copy.
func (m *MLP) Clone() *MLP {
	c := &MLP{Sizes: append([]int(nil), m.Sizes...), Output: m.Output, Params: append([]float64(nil), m.Params...)}
	c.offs = append([]int(nil), m.offs...)
	return c
}
