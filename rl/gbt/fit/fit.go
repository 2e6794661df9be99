// Package fit trains ccreplay's gradient-boosted regression trees (package
// rl/gbt): an exact squared-error booster with XGBoost's second-order leaf
// weights, L2 regularisation and monotone constraints. The distiller
// (rl/distill) uses it; the RL-CC runtime only evaluates ensembles and
// does not import it.
package fit

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/ccreplay/ccreplay/rl/gbt"
)

// validate checks p and sets MinLeaf 0 to 1.
func validate(p *gbt.Params) error {
	switch {
	case p.Trees < 1:
		return fmt.Errorf("gbt: trees %d must be >= 1", p.Trees)
	case p.Monotone != nil && slices.ContainsFunc(p.Monotone, func(c int8) bool { return c < -1 || c > 1 }):
		return fmt.Errorf("gbt: monotone constraints must be -1, 0 or +1, got %v", p.Monotone)
	case p.MaxDepth < 1 || p.MaxDepth > 30:
		return fmt.Errorf("gbt: max depth %d must be in [1,30]", p.MaxDepth)
	case !(p.LearningRate > 0 && p.LearningRate <= 1):
		return fmt.Errorf("gbt: learning rate %v must be in (0,1]", p.LearningRate)
	case p.MinLeaf < 0:
		return fmt.Errorf("gbt: min leaf %d must be >= 0", p.MinLeaf)
	case !(p.Lambda >= 0) || math.IsInf(p.Lambda, 1):
		return fmt.Errorf("gbt: lambda %v must be finite and >= 0", p.Lambda)
	}
	p.MinLeaf = cmp.Or(p.MinLeaf, 1)
	return nil
}

// Fit trains a squared-error gradient-boosted ensemble on the rows X (n
// samples of d features each) and targets y.
//
// The algorithm (Friedman's gradient boosting with XGBoost's second-order
// leaf weights; for squared error the gradient of sample i is
// g_i = F(x_i) - y_i and its hessian is 1):
//
//   - F_0 is the mean of y (the base score);
//   - each round grows one tree greedily from the root: at a node holding
//     the sample set I with G = sum g_i, every feature's values are scanned
//     in sorted order and every cut between two distinct consecutive values
//     is scored by gain = G_L^2/(n_L+lambda) + G_R^2/(n_R+lambda) -
//     G^2/(n+lambda); the best cut (first in feature then value order on
//     ties) is taken when both sides hold at least MinLeaf samples and the
//     gain is positive (above 1e-12 of the initial sum of squares), the
//     threshold being the midpoint of the two values;
//   - a leaf's value is -LearningRate * G/(n+lambda);
//   - F_t = F_{t-1} + tree_t; boosting stops early only when a round
//     produces a single leaf of value 0 (nothing left to learn).
//
// Fit is deterministic: the same inputs give the same ensemble bit for bit.
// names, when not nil, must hold d feature names.
func Fit(X [][]float64, y []float64, names []string, p gbt.Params) (*gbt.Ensemble, error) {
	if err := validate(&p); err != nil {
		return nil, err
	}
	n := len(X)
	if n == 0 {
		return nil, errors.New("gbt: no training samples")
	}
	if len(y) != n {
		return nil, fmt.Errorf("gbt: %d rows but %d targets", n, len(y))
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("gbt: %d rows is too many", n)
	}
	d := len(X[0])
	if d == 0 {
		return nil, errors.New("gbt: rows have no features")
	}
	for i, row := range X {
		if len(row) != d {
			return nil, fmt.Errorf("gbt: row %d has %d features, row 0 has %d", i, len(row), d)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("gbt: row %d feature %d is %v (must be finite)", i, j, v)
			}
		}
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return nil, fmt.Errorf("gbt: target %d is %v (must be finite)", i, y[i])
		}
	}
	if p.Monotone != nil && len(p.Monotone) != d {
		return nil, fmt.Errorf("gbt: %d monotone constraints for %d features", len(p.Monotone), d)
	}
	if names != nil && len(names) != d {
		return nil, fmt.Errorf("gbt: %d feature names for %d features", len(names), d)
	}

	var mean float64
	for _, v := range y {
		mean += v
	}
	mean /= float64(n)
	var sst float64
	for _, v := range y {
		sst += (v - mean) * (v - mean)
	}

	b, err := gbt.NewBuilder(mean, d, names)
	if err != nil {
		return nil, fmt.Errorf("gbt: %w", err)
	}
	f := &fitter{
		X: X, p: p, d: d, n: n,
		minGain: 1e-12 * sst,
		grad:    make([]float64, n),
		pred:    make([]float64, n),
		order:   make([][]int32, d),
		scratch: make([]int32, n),
		goLeft:  make([]bool, n),
	}
	for i := range f.pred {
		f.pred[i] = mean
	}
	// Sort each feature's sample indices once; nodes keep sub-ranges of
	// these orders, partitioned stably on every split.
	for j := 0; j < d; j++ {
		ord := make([]int32, n)
		for i := range ord {
			ord[i] = int32(i)
		}
		slices.SortStableFunc(ord, func(a, c int32) int { return cmp.Compare(X[a][j], X[c][j]) })
		f.order[j] = ord
	}
	sorted := make([][]int32, d)
	for t := 0; t < p.Trees; t++ {
		for i := range f.grad {
			f.grad[i] = f.pred[i] - y[i]
		}
		for j := range sorted {
			sorted[j] = append(sorted[j][:0], f.order[j]...)
		}
		f.sorted = sorted
		f.raw = f.raw[:0]
		f.grow(0, n, 0, math.Inf(-1), math.Inf(1))
		if len(f.raw) == 1 && f.raw[0].Value == 0 {
			break
		}
		if err := b.AddTree(f.raw, 0); err != nil {
			return nil, fmt.Errorf("gbt: %w", err)
		}
	}
	if b.NumTrees() == 0 {
		// y is constant: one leaf of value 0 keeps NumTrees >= 1.
		if err := b.AddTree([]gbt.Node{{Leaf: true}}, 0); err != nil {
			return nil, fmt.Errorf("gbt: %w", err)
		}
	}
	return b.Ensemble()
}

// fitter holds one Fit call's working state.
type fitter struct {
	X       [][]float64
	p       gbt.Params
	d, n    int
	minGain float64
	grad    []float64 // g_i = F(x_i) - y_i
	pred    []float64 // F(x_i) so far
	order   [][]int32 // per feature, all sample indices sorted by that feature
	sorted  [][]int32 // per feature, this round's copy, partitioned by node
	scratch []int32
	goLeft  []bool
	raw     []gbt.Node
}

// split is a candidate cut.
type split struct {
	feature   int
	threshold float64
	gain      float64
	nLeft     int
	// wLeft and wRight are the children's unshrunk weights, clamped.
	wLeft, wRight float64
}

// constraint is feature j's monotone constraint (0 when none).
func (f *fitter) constraint(j int) int8 {
	if f.p.Monotone == nil {
		return 0
	}
	return f.p.Monotone[j]
}

// clampW bounds a leaf weight to [lo, hi].
func clampW(w, lo, hi float64) float64 { return min(max(w, lo), hi) }

// leafFit is a leaf's best weight within [lo, hi] for a sum of gradients
// G over n samples, and twice the loss reduction it brings: G^2/(n +
// lambda) at the unconstrained optimum w = -G/(n + lambda), -(2 G w +
// (n + lambda) w^2) when the bound clamps w.
func leafFit(G, n, lam, lo, hi float64) (w, score float64) {
	w = -G / (n + lam)
	if w >= lo && w <= hi {
		return w, G * G / (n + lam)
	}
	w = clampW(w, lo, hi)
	return w, -(2*G*w + (n+lam)*w*w)
}

// grow builds the subtree over the samples sorted[*][lo:hi] at depth and
// returns its index in f.raw. Its leaves' unshrunk weights are kept in
// [wlo, whi], the bounds monotone constraints above it impose.
func (f *fitter) grow(lo, hi, depth int, wlo, whi float64) int {
	idx := len(f.raw)
	f.raw = append(f.raw, gbt.Node{})
	var G float64
	for _, i := range f.sorted[0][lo:hi] {
		G += f.grad[i]
	}
	cnt := hi - lo
	best := split{feature: -1}
	if depth < f.p.MaxDepth && cnt >= 2*f.p.MinLeaf {
		best = f.bestSplit(lo, hi, G, wlo, whi)
	}
	if best.feature < 0 {
		w := f.p.LearningRate * clampW(-G/(float64(cnt)+f.p.Lambda), wlo, whi)
		if w == 0 {
			w = 0 // normalise -0
		}
		for _, i := range f.sorted[0][lo:hi] {
			f.pred[i] += w
		}
		f.raw[idx] = gbt.Node{Leaf: true, Value: w}
		return idx
	}
	mid := f.partition(lo, hi, best)
	llo, lhi, rlo, rhi := wlo, whi, wlo, whi
	if c := f.constraint(best.feature); c != 0 {
		// The children's weights stay on their side of the midpoint, so
		// every deeper leaf keeps the order (XGBoost's bound propagation).
		m := (best.wLeft + best.wRight) / 2
		if c > 0 {
			lhi, rlo = m, m
		} else {
			llo, rhi = m, m
		}
	}
	l := f.grow(lo, mid, depth+1, llo, lhi)
	r := f.grow(mid, hi, depth+1, rlo, rhi)
	f.raw[idx] = gbt.Node{Feature: best.feature, Threshold: best.threshold, Left: l, Right: r}
	return idx
}

// bestSplit scans every feature's sorted samples of the node for the cut
// of largest gain (RL-CC-NIC, Fuhrer 2023, Section V-C:
// h_t = argmin_h E[L(y, F_{t-1}+h)] over depth-limited trees, solved
// greedily one node at a time).
func (f *fitter) bestSplit(lo, hi int, G, wlo, whi float64) split {
	lam := f.p.Lambda
	cnt := hi - lo
	_, parent := leafFit(G, float64(cnt), lam, wlo, whi)
	best := split{feature: -1, gain: f.minGain}
	for j := 0; j < f.d; j++ {
		c := f.constraint(j)
		ord := f.sorted[j][lo:hi]
		var GL float64
		for k := 1; k < cnt; k++ {
			GL += f.grad[ord[k-1]]
			a, b := f.X[ord[k-1]][j], f.X[ord[k]][j]
			if a == b || k < f.p.MinLeaf || cnt-k < f.p.MinLeaf {
				continue
			}
			GR := G - GL
			nl, nr := float64(k), float64(cnt-k)
			wl, sl := leafFit(GL, nl, lam, wlo, whi)
			wr, sr := leafFit(GR, nr, lam, wlo, whi)
			if (c > 0 && wl > wr) || (c < 0 && wl < wr) {
				continue // the cut would break the feature's monotone constraint
			}
			gain := sl + sr - parent
			if gain > best.gain {
				thr := a + (b-a)/2
				if !(thr > a) { // a and b are adjacent floats
					thr = b
				}
				best = split{feature: j, threshold: thr, gain: gain, nLeft: k, wLeft: wl, wRight: wr}
			}
		}
	}
	return best
}

// partition reorders every feature's range [lo,hi) stably so the samples
// going left (x[feature] < threshold) come first, and returns the boundary.
func (f *fitter) partition(lo, hi int, s split) int {
	for _, i := range f.sorted[0][lo:hi] {
		f.goLeft[i] = f.X[i][s.feature] < s.threshold
	}
	mid := lo + s.nLeft
	for j := 0; j < f.d; j++ {
		ord := f.sorted[j][lo:hi]
		l, r := 0, s.nLeft
		for _, i := range ord {
			if f.goLeft[i] {
				f.scratch[l] = i
				l++
			} else {
				f.scratch[r] = i
				r++
			}
		}
		copy(ord, f.scratch[:hi-lo])
	}
	return mid
}
