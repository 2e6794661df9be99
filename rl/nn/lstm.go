package nn

import (
	"encoding/json"
	"fmt"
	"math"
)

// LSTM is a standard LSTM cell (Hochreiter and Schmidhuber 1997, with a
// forget gate, Gers et al. 2000; no peepholes) run over a short sequence of
// input vectors, the encoder of FDCC's memory-based TD3 (paper 002,
// Section 4.3). At step t, with x_t the input and (h, c) the previous
// state (both 0 before the first step):
//
//	z = W [x_t; h] + b                      (4 Hidden values)
//	i = sigmoid(z_i)   input gate
//	f = sigmoid(z_f)   forget gate
//	g = tanh(z_g)      candidate cell
//	o = sigmoid(z_o)   output gate
//	c' = f*c + i*g,  h' = o*tanh(c')
//
// Parameter layout (Params, and every gradient of it): W, 4*Hidden rows of
// Inputs+Hidden weights, row-major; the rows are grouped by gate in the
// order i, f, g, o (row k*Hidden+u is unit u of gate k), and each row holds
// the Inputs weights of x_t followed by the Hidden weights of h. Then b,
// 4*Hidden biases in the same gate order. There is one bias per row (not
// PyTorch's two, b_ih + b_hh).
//
// NB: the forget-gate bias is an ordinary parameter. NewLSTM sets it to 0
// like every other; learn.InitRecurrent sets it to 1 (Jozefowicz et al.
// 2015), so a fresh cell starts by keeping its memory.
type LSTM struct {
	// Inputs is the width of x_t; Hidden the width of h and c.
	Inputs, Hidden int
	// Params holds W then b, as above.
	Params []float64
}

// NewLSTM makes a cell with every parameter 0 (learn.InitRecurrent draws a
// random initialisation).
func NewLSTM(inputs, hidden int) (*LSTM, error) {
	l := &LSTM{Inputs: inputs, Hidden: hidden}
	if err := l.checkShape(); err != nil {
		return nil, err
	}
	l.Params = make([]float64, l.wantParams())
	return l, nil
}

// checkShape refuses widths outside 1..65536.
func (l *LSTM) checkShape() error {
	if l.Inputs < 1 || l.Hidden < 1 || l.Inputs > 1<<16 || l.Hidden > 1<<16 {
		return fmt.Errorf("nn: lstm widths must be in 1..65536, got inputs %d hidden %d", l.Inputs, l.Hidden)
	}
	return nil
}

// wantParams is the parameter count the shape implies.
func (l *LSTM) wantParams() int { return 4*l.Hidden*(l.Inputs+l.Hidden) + 4*l.Hidden }

// NumParams is the number of parameters (weights and biases).
func (l *LSTM) NumParams() int { return len(l.Params) }

// Split returns the weight matrix W (4*Hidden x (Inputs+Hidden),
// row-major) and the biases b within v, a vector in the layout of Params.
func (l *LSTM) Split(v []float64) (w, b []float64) {
	n := 4 * l.Hidden * (l.Inputs + l.Hidden)
	return v[:n], v[n : n+4*l.Hidden]
}

// stride is the length of one step's record in the work buffer.
func (l *LSTM) stride() int { return 7 * l.Hidden }

// WorkSize is the length of the work buffer Final (and
// learn.BackwardLSTM) need for sequences of up to maxSteps steps: a
// scratch area of 7*Hidden floats for backpropagation, then one record of
// 7*Hidden floats per step plus one for the zero initial state (see Step).
func (l *LSTM) WorkSize(maxSteps int) int { return l.stride() * (maxSteps + 2) }

// Scratch is the backpropagation scratch area at the start of work
// (7*Hidden floats); Final does not touch it.
func (l *LSTM) Scratch(work []float64) []float64 { return work[:l.stride()] }

// Step returns what Final left in work for step t (0-based; t = -1 is the
// initial state, whose c and h are 0 and whose gates are unused): the
// gate activations (i, f, g, o; 4*Hidden values, after their sigmoid or
// tanh), the cell state c, tanh(c) and the hidden state h after the step.
// learn.BackwardLSTM reads them.
func (l *LSTM) Step(work []float64, t int) (gates, c, tanhC, h []float64) {
	H := l.Hidden
	o := l.stride() * (t + 2)
	r := work[o : o+7*H]
	return r[:4*H], r[4*H : 5*H], r[5*H : 6*H], r[6*H : 7*H]
}

// Final runs the cell over steps input vectors stored row-major in xs
// (oldest first: x_0 = xs[0:Inputs], ...; len(xs) >= steps*Inputs, values
// beyond are ignored, so a padded buffer gives the same result as the
// unpadded sequence), starting from h = c = 0, and returns the hidden
// state after the last step, a slice into work (zeros when steps is 0).
// work must hold WorkSize(steps) floats; apart from the scratch area, its
// contents are overwritten with every step's record (see Step). Final
// does not allocate.
func (l *LSTM) Final(xs []float64, steps int, work []float64) []float64 {
	if steps < 0 || len(xs) < steps*l.Inputs || len(work) < l.WorkSize(steps) || len(l.Params) != l.wantParams() {
		panic(fmt.Sprintf("nn.LSTM: %d steps of %d inputs need %d inputs (got %d) and work %d (got %d); params %d (want %d)",
			steps, l.Inputs, steps*l.Inputs, len(xs), l.WorkSize(steps), len(work), len(l.Params), l.wantParams()))
	}
	H, I := l.Hidden, l.Inputs
	_, c0, _, h0 := l.Step(work, -1)
	clear(c0)
	clear(h0)
	w, b := l.Split(l.Params)
	row := I + H
	for t := range steps {
		x := xs[t*I : (t+1)*I]
		_, cp, _, hp := l.Step(work, t-1)
		z, c, tc, h := l.Step(work, t)
		// 4*H rows, four at a time (x_t and h are read once per four).
		for r := 0; r < 4*H; r += 4 {
			wr := w[r*row : (r+4)*row]
			s0, s1, s2, s3 := b[r], b[r+1], b[r+2], b[r+3]
			s0, s1, s2, s3 = dot4(wr, row, 0, x, s0, s1, s2, s3)
			if t > 0 { // h is 0 before the first step
				s0, s1, s2, s3 = dot4(wr, row, I, hp, s0, s1, s2, s3)
			}
			z[r], z[r+1], z[r+2], z[r+3] = s0, s1, s2, s3
		}
		zi, zf, zg, zo := z[:H], z[H:2*H], z[2*H:3*H], z[3*H:4*H]
		for u := range H {
			i, f, g, o := sigmoid(zi[u]), sigmoid(zf[u]), math.Tanh(zg[u]), sigmoid(zo[u])
			zi[u], zf[u], zg[u], zo[u] = i, f, g, o
			c[u] = f*cp[u] + i*g
			tc[u] = math.Tanh(c[u])
			h[u] = o * tc[u]
		}
	}
	_, _, _, h := l.Step(work, steps-1)
	return h
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// dot4 adds to s0..s3 the inner products of v with the four rows of w
// (row stride stride) starting at column off.
func dot4(w []float64, stride, off int, v []float64, s0, s1, s2, s3 float64) (float64, float64, float64, float64) {
	n := len(v)
	r0 := w[off : off+n]
	r1 := w[stride+off : stride+off+n]
	r2 := w[2*stride+off : 2*stride+off+n]
	r3 := w[3*stride+off : 3*stride+off+n]
	r1, r2, r3 = r1[:len(r0)], r2[:len(r0)], r3[:len(r0)]
	v = v[:len(r0)]
	for k, x := range v {
		s0 += r0[k] * x
		s1 += r1[k] * x
		s2 += r2[k] * x
		s3 += r3[k] * x
	}
	return s0, s1, s2, s3
}

// lstmJSON is the JSON form of an LSTM: W[r] is row r of W (Inputs
// weights of x, then Hidden weights of h), rows grouped by gate as Gates
// says.
type lstmJSON struct {
	Inputs int         `json:"inputs"`
	Hidden int         `json:"hidden"`
	Gates  string      `json:"gates"`
	W      [][]float64 `json:"w"`
	B      []float64   `json:"b"`
}

// LSTMGates names the gate order of the parameter layout in the JSON form.
const LSTMGates = "ifgo"

// MarshalJSON writes {"inputs", "hidden", "gates": "ifgo", "w": [[...]],
// "b": [...]} with W's 4*Hidden rows of Inputs+Hidden weights.
func (l *LSTM) MarshalJSON() ([]byte, error) {
	if err := l.checkShape(); err != nil {
		return nil, err
	}
	if len(l.Params) != l.wantParams() {
		return nil, fmt.Errorf("nn: lstm has %d parameters, want %d", len(l.Params), l.wantParams())
	}
	w, b := l.Split(l.Params)
	row := l.Inputs + l.Hidden
	out := lstmJSON{Inputs: l.Inputs, Hidden: l.Hidden, Gates: LSTMGates, W: make([][]float64, 4*l.Hidden), B: append([]float64(nil), b...)}
	for r := range out.W {
		out.W[r] = append([]float64(nil), w[r*row:(r+1)*row]...)
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads the form MarshalJSON writes and checks the shape and
// that every value is finite.
func (l *LSTM) UnmarshalJSON(data []byte) error {
	var in lstmJSON
	if err := json.Unmarshal(data, &in); err != nil {
		return fmt.Errorf("nn: lstm: %w", err)
	}
	if in.Gates != LSTMGates {
		return fmt.Errorf("nn: lstm gate order must be %q, got %q", LSTMGates, in.Gates)
	}
	n, err := NewLSTM(in.Inputs, in.Hidden)
	if err != nil {
		return err
	}
	row := n.Inputs + n.Hidden
	if len(in.W) != 4*n.Hidden || len(in.B) != 4*n.Hidden {
		return fmt.Errorf("nn: lstm: want %d weight rows and %d biases, got %d and %d", 4*n.Hidden, 4*n.Hidden, len(in.W), len(in.B))
	}
	w, b := n.Split(n.Params)
	for r, wr := range in.W {
		if len(wr) != row {
			return fmt.Errorf("nn: lstm row %d: want %d weights, got %d", r, row, len(wr))
		}
		copy(w[r*row:], wr)
	}
	copy(b, in.B)
	if err := finite(n.Params); err != nil {
		return fmt.Errorf("nn: lstm %w", err)
	}
	*l = *n
	return nil
}

// finite returns an error naming the first NaN or infinite value of p.
func finite(p []float64) error {
	for i, v := range p {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("parameter %d is not finite (%v)", i, v)
		}
	}
	return nil
}

// Clone returns an independent copy.
func (l *LSTM) Clone() *LSTM {
	return &LSTM{Inputs: l.Inputs, Hidden: l.Hidden, Params: append([]float64(nil), l.Params...)}
}
