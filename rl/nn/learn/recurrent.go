package learn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ccreplay/ccreplay/rl/nn"
)

// InitRecurrent makes the LSTM-encoder + MLP-head network of FDCC's
// memory-based TD3 (paper 002, Section 4.3) with parameters drawn from PCG
// generators seeded by seed: an LSTM of the given input and hidden widths
// with weights uniform in +-1/sqrt(hidden) (PyTorch's default), biases 0
// except the forget gate's, 1 (Jozefowicz et al. 2015); a head of sizes
// [hidden+extra, head..., 1] (head lists the head's hidden widths, which
// may be empty) initialised as Init does with outScale, and the given
// output activation (nn.OutputTanh or "" for an actor, nn.OutputLinear for
// a critic). extra is the number of inputs appended after the hidden state
// (1 for a critic's action).
func InitRecurrent(inputs, hidden int, head []int, extra int, seed uint64, outScale float64, output string) (*nn.Recurrent, error) {
	if output != "" && output != nn.OutputTanh && output != nn.OutputLinear {
		return nil, fmt.Errorf("nn: unknown output activation %q (want %q or %q)", output, nn.OutputTanh, nn.OutputLinear)
	}
	if extra < 0 {
		return nil, fmt.Errorf("nn: recurrent extra inputs must be >= 0, got %d", extra)
	}
	enc, err := nn.NewLSTM(inputs, hidden)
	if err != nil {
		return nil, err
	}
	sizes := append(append([]int{hidden + extra}, head...), 1)
	m, err := Init(sizes, seed, outScale)
	if err != nil {
		return nil, err
	}
	if output == nn.OutputLinear {
		m.Output = nn.OutputLinear
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e6e2d6c73746d)) // "nn-lstm"
	lim := 1 / math.Sqrt(float64(hidden))
	w, b := enc.Split(enc.Params)
	for i := range w {
		w[i] = (2*rng.Float64() - 1) * lim
	}
	for u := range hidden {
		b[hidden+u] = 1 // forget gate (gate order i, f, g, o)
	}
	return nn.NewRecurrent(enc, m, extra)
}

// BackwardLSTM adds scale x dL/dtheta to grad (len l.NumParams(), in the
// layout of l.Params) where L = dh . h_final and h_final = l.Final(xs,
// steps, work): backpropagation through time from the last step to the
// first. work must hold l.WorkSize(steps) floats; it is left holding the
// forward records (see nn.LSTM.Step) except the gate activations, which
// are overwritten with the gradients dL/dz of the gates' inputs. It does
// not allocate.
func BackwardLSTM(l *nn.LSTM, xs []float64, steps int, dh []float64, scale float64, grad, work []float64) {
	if len(dh) != l.Hidden || len(grad) != l.NumParams() {
		panic(fmt.Sprintf("learn.BackwardLSTM: dh has %d values (want %d), gradient %d (want %d)", len(dh), l.Hidden, len(grad), l.NumParams()))
	}
	l.Final(xs, steps, work)
	backwardLSTM(l, xs, steps, dh, scale, grad, work)
}

// backwardLSTM is BackwardLSTM after l.Final(xs, steps, work). With the
// gates after their activations and dh, dc the gradients reaching step t's
// outputs h_t, c_t:
//
//	dc  += dh * o * (1 - tanh(c_t)^2)
//	dz_i = dc * g * i(1-i),  dz_f = dc * c_{t-1} * f(1-f)
//	dz_g = dc * i * (1-g^2), dz_o = dh * tanh(c_t) * o(1-o)
//	dh_{t-1} = W_h^T dz,     dc_{t-1} = dc * f
//
// and, once every step's dz is known, dW += sum_t dz_t [x_t; h_{t-1}]^T,
// db += sum_t dz_t.
//
// NB: step t's gate activations are not needed once its dz is known, so
// dz overwrites them in work; the weight gradient is then accumulated
// four steps at a time, which reads and writes grad a quarter as often.
func backwardLSTM(l *nn.LSTM, xs []float64, steps int, dh []float64, scale float64, grad, work []float64) {
	H, I := l.Hidden, l.Inputs
	sc := l.Scratch(work)
	dhc, dc, dhn := sc[:H], sc[H:2*H], sc[2*H:3*H]
	for u := range H {
		dhc[u] = scale * dh[u]
		dc[u] = 0
	}
	w, _ := l.Split(l.Params)
	row := I + H
	for t := steps - 1; t >= 0; t-- {
		gates, _, tc, _ := l.Step(work, t)
		_, cp, _, _ := l.Step(work, t-1)
		gi, gf, gg, gout := gates[:H], gates[H:2*H], gates[2*H:3*H], gates[3*H:4*H]
		for u := range H {
			i, f, g, o := gi[u], gf[u], gg[u], gout[u]
			dhu := dhc[u]
			dcu := dc[u] + dhu*o*(1-tc[u]*tc[u])
			gi[u] = dcu * g * i * (1 - i)
			gf[u] = dcu * cp[u] * f * (1 - f)
			gg[u] = dcu * i * (1 - g*g)
			gout[u] = dhu * tc[u] * o * (1 - o)
			dc[u] = dcu * f
		}
		if t > 0 { // dh_{t-1} = W_h^T dz, four rows at a time
			clear(dhn)
			dz := gates
			for r := 0; r < 4*H; r += 4 {
				axpy4(dz[r], dz[r+1], dz[r+2], dz[r+3], w[r*row:(r+4)*row], row, I, dhn)
			}
			copy(dhc, dhn)
		}
	}
	gw, gb := l.Split(grad)
	for t := 0; t < steps; t += 4 {
		n := min(4, steps-t)
		// Gate gradients and inputs of steps t..t+n-1 (missing ones are 0).
		var dz [4][]float64
		var xv, hv [4][]float64
		for k := range 4 {
			j := t + min(k, n-1)
			dz[k], _, _, _ = l.Step(work, j)
			_, _, _, hv[k] = l.Step(work, j-1)
			xv[k] = xs[j*I : (j+1)*I]
		}
		for r := range 4 * H {
			d0, d1, d2, d3 := dz[0][r], dz[1][r], dz[2][r], dz[3][r]
			switch n { // the padding repeats the last step: zero its weight
			case 1:
				d1, d2, d3 = 0, 0, 0
			case 2:
				d2, d3 = 0, 0
			case 3:
				d3 = 0
			}
			gb[r] += d0 + d1 + d2 + d3
			gr := gw[r*row : (r+1)*row]
			outer4(d0, d1, d2, d3, xv, gr[:I])
			if t == 0 { // h_{-1} = 0
				d0 = 0
			}
			outer4(d0, d1, d2, d3, hv, gr[I:])
		}
	}
}

// axpy4 adds d0*w0 + d1*w1 + d2*w2 + d3*w3 to y, where w_k is columns
// off..off+len(y) of row k of w (row stride stride).
func axpy4(d0, d1, d2, d3 float64, w []float64, stride, off int, y []float64) {
	n := len(y)
	w0 := w[off : off+n]
	w1 := w[stride+off : stride+off+n]
	w2 := w[2*stride+off : 2*stride+off+n]
	w3 := w[3*stride+off : 3*stride+off+n]
	w1, w2, w3 = w1[:len(w0)], w2[:len(w0)], w3[:len(w0)]
	y = y[:len(w0)]
	for k := range y {
		y[k] += d0*w0[k] + d1*w1[k] + d2*w2[k] + d3*w3[k]
	}
}

// outer4 adds d0*v[0] + d1*v[1] + d2*v[2] + d3*v[3] to y.
func outer4(d0, d1, d2, d3 float64, v [4][]float64, y []float64) {
	v0, v1, v2, v3 := v[0][:len(y)], v[1][:len(y)], v[2][:len(y)], v[3][:len(y)]
	for k := range y {
		y[k] += d0*v0[k] + d1*v1[k] + d2*v2[k] + d3*v3[k]
	}
}

// BackwardRecurrent runs r.Forward(xs, steps, extra, work), adds scale x
// dy/dtheta to grad (len r.NumParams(), in the flat layout of
// r.ParamsInto: the encoder's parameters, then the head's) unless grad is
// nil, writes dy/dextra (not multiplied by scale) into dExtra (len
// r.Extra) unless dExtra is nil, and returns y. work must hold
// r.WorkSize(steps) floats. It does not allocate.
func BackwardRecurrent(r *nn.Recurrent, xs []float64, steps int, extra []float64, scale float64, grad, dExtra, work []float64) float64 {
	r.Forward(xs, steps, extra, work)
	return BackwardRecurrentAfter(r, xs, steps, scale, grad, dExtra, work)
}

// BackwardRecurrentAfter is BackwardRecurrent without the forward pass:
// work must hold what r.Forward(xs, steps, extra, work) left in it (the
// caller needed y before choosing scale, as in a squared loss). With grad
// nil only the head is traversed (dExtra does not depend on the encoder),
// which is what the actor update of TD3 needs from a critic.
func BackwardRecurrentAfter(r *nn.Recurrent, xs []float64, steps int, scale float64, grad, dExtra, work []float64) float64 {
	ne := r.Enc.NumParams()
	if grad != nil && len(grad) != r.NumParams() {
		panic(fmt.Sprintf("learn.BackwardRecurrent: gradient has %d values, want %d", len(grad), r.NumParams()))
	}
	if dExtra != nil && len(dExtra) != r.Extra {
		panic(fmt.Sprintf("learn.BackwardRecurrent: dExtra has %d values, want %d", len(dExtra), r.Extra))
	}
	in, din, hw, ew := r.Parts(work)
	var gHead []float64
	if grad != nil {
		gHead = grad[ne:]
	}
	y := backward(r.Head, in, scale, gHead, din, hw)
	H := r.Enc.Hidden
	copy(dExtra, din[H:])
	if grad != nil {
		backwardLSTM(r.Enc, xs, steps, din[:H], scale, grad[:ne], ew)
	}
	return y
}
