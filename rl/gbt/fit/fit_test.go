package fit

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/rl/gbt"
	"github.com/ccreplay/ccreplay/rl/gbt/internal/gbttest"
)

// piecewise is a depth-2 step function of two features whose first split
// (on x[0]) is also the greedy best, so a greedy depth-2 tree can find it.
func piecewise(x []float64) float64 {
	switch {
	case x[0] < 0.5 && x[1] < 0.3:
		return 1
	case x[0] < 0.5:
		return 2
	case x[1] < 0.7:
		return 10
	default:
		return 12
	}
}

func grid() ([][]float64, []float64) {
	var X [][]float64
	var y []float64
	for i := 0; i < 20; i++ {
		for j := 0; j < 20; j++ {
			x := []float64{float64(i) / 19, float64(j) / 19, float64((i*7 + j*3) % 11)}
			X = append(X, x)
			y = append(y, piecewise(x))
		}
	}
	return X, y
}

// TestFitPiecewiseExact: one unshrunk, unregularised tree of depth 2
// recovers a depth-2 step function exactly
// (RL-CC-NIC, Fuhrer 2023, Section V-C: the student h minimises the squared
// loss over the tree class, and this function is in the class).
func TestFitPiecewiseExact(t *testing.T) {
	X, y := grid()
	e, err := Fit(X, y, []string{"a", "b", "noise"}, gbt.Params{Trees: 1, MaxDepth: 2, LearningRate: 1, MinLeaf: 1, Lambda: 0})
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range X {
		if got := e.Predict(x); math.Abs(got-y[i]) > 1e-12 {
			t.Fatalf("row %d %v: predict %v, want %v", i, x, got, y[i])
		}
	}
	// Off-grid points fall on the same side of the midpoint thresholds.
	for _, x := range [][]float64{{0.2, 0.1, 0}, {0.1, 0.9, 3}, {0.9, 0.5, 1}, {0.99, 0.99, 2}} {
		if got := e.Predict(x); math.Abs(got-piecewise(x)) > 1e-12 {
			t.Fatalf("off-grid %v: predict %v, want %v", x, got, piecewise(x))
		}
	}
}

// TestFitBoostingConverges: with shrinkage alpha, F_t = F_{t-1} + alpha*h_t
// (RL-CC-NIC, Fuhrer 2023, Section V-C) leaves a residual of (1-alpha)^t on
// a function one tree can represent.
func TestFitBoostingConverges(t *testing.T) {
	X, y := grid()
	e, err := Fit(X, y, nil, gbt.Params{Trees: 10, MaxDepth: 2, LearningRate: 0.5, MinLeaf: 1})
	if err != nil {
		t.Fatal(err)
	}
	var maxErr, maxDev float64
	var mean float64
	for _, v := range y {
		mean += v
	}
	mean /= float64(len(y))
	for i, x := range X {
		maxErr = math.Max(maxErr, math.Abs(e.Predict(x)-y[i]))
		maxDev = math.Max(maxDev, math.Abs(y[i]-mean))
	}
	if want := maxDev * math.Pow(0.5, 10) * 1.0001; maxErr > want {
		t.Fatalf("max error after 10 rounds %v, want <= %v", maxErr, want)
	}
}

// TestFitFirstSplitByHand checks the first split and leaf values against
// a hand computation. Data x = 1,2,3,4, y = 1,1,3,5, lambda = 1:
// F_0 = mean(y) = 2.5; g = F_0 - y = 1.5, 1.5, -0.5, -2.5; G = 0.
// Cut after x=1: 1.5^2/2 + 1.5^2/4 = 1.6875
// Cut after x=2: 3^2/3 + 3^2/3 = 6  (best)
// Cut after x=3: 2.5^2/4 + 2.5^2/2 = 4.6875
// Threshold (2+3)/2 = 2.5; leaves -G_L/(n_L+lambda) = -3/3 = -1 and
// 3/3 = +1 (learning rate 1).
func TestFitFirstSplitByHand(t *testing.T) {
	X := [][]float64{{1}, {2}, {3}, {4}}
	y := []float64{1, 1, 3, 5}
	e, err := Fit(X, y, nil, gbt.Params{Trees: 1, MaxDepth: 1, LearningRate: 1, MinLeaf: 1, Lambda: 1})
	if err != nil {
		t.Fatal(err)
	}
	if e.BaseScore() != 2.5 {
		t.Fatalf("base %v, want 2.5", e.BaseScore())
	}
	want := []gbt.Node{
		{Feature: 0, Threshold: 2.5, Left: 1, Right: 2},
		{Leaf: true, Value: -1},
		{Leaf: true, Value: 1},
	}
	if got := e.Tree(0); e.NumTrees() != 1 || !slices.Equal(got, want) {
		t.Fatalf("%d trees, nodes %+v, want 1 tree %+v", e.NumTrees(), got, want)
	}
	// The gain of the chosen cut, recomputed through bestSplit.
	f := &fitter{X: X, p: gbt.Params{MinLeaf: 1, Lambda: 1}, d: 1, grad: []float64{1.5, 1.5, -0.5, -2.5},
		sorted: [][]int32{{0, 1, 2, 3}}}
	if s := f.bestSplit(0, 4, 0, math.Inf(-1), math.Inf(1)); s.feature != 0 || s.threshold != 2.5 || s.gain != 6 || s.nLeft != 2 {
		t.Fatalf("best split %+v, want feature 0 threshold 2.5 gain 6 nLeft 2", s)
	}
}

// leafCounts returns, per (tree, node index), how many training rows
// reach that leaf.
func leafCounts(e *gbt.Ensemble, X [][]float64) map[[2]int]int {
	c := map[[2]int]int{}
	for t := range e.NumTrees() {
		nodes := e.Tree(t)
		for _, x := range X {
			i := 0
			for !nodes[i].Leaf {
				if x[nodes[i].Feature] < nodes[i].Threshold {
					i = nodes[i].Left
				} else {
					i = nodes[i].Right
				}
			}
			c[[2]int{t, i}]++
		}
	}
	return c
}

// TestFitLimits: tree count, depth and samples per leaf never exceed the
// parameters (RL-CC-NIC, Fuhrer 2023, Section V-C: <= 10 trees of
// depth <= 4).
func TestFitLimits(t *testing.T) {
	X, y := gbttest.RandomData(2000, 5, 3)
	for _, p := range []gbt.Params{
		{Trees: 10, MaxDepth: 4, LearningRate: 0.3, MinLeaf: 20, Lambda: 1},
		{Trees: 3, MaxDepth: 1, LearningRate: 1, MinLeaf: 1},
		{Trees: 25, MaxDepth: 7, LearningRate: 0.1, MinLeaf: 50, Lambda: 5},
	} {
		e, err := Fit(X, y, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		if e.NumTrees() != p.Trees {
			t.Errorf("%+v: %d trees, want %d", p, e.NumTrees(), p.Trees)
		}
		if e.MaxDepth() != p.MaxDepth {
			t.Errorf("%+v: depth %d, want exactly %d on noisy data", p, e.MaxDepth(), p.MaxDepth)
		}
		if err := e.CheckLimits(p.Trees, p.MaxDepth); err != nil {
			t.Error(err)
		}
		if err := e.CheckLimits(p.Trees-1, p.MaxDepth); err == nil {
			t.Errorf("CheckLimits(%d trees) passed with %d trees", p.Trees-1, e.NumTrees())
		}
		if err := e.CheckLimits(p.Trees, p.MaxDepth-1); err == nil {
			t.Errorf("CheckLimits(depth %d) passed with depth %d", p.MaxDepth-1, e.MaxDepth())
		}
		for i, c := range leafCounts(e, X) {
			if c < p.MinLeaf {
				t.Errorf("%+v: leaf %d holds %d rows, min %d", p, i, c, p.MinLeaf)
			}
		}
		for i := range e.NumTrees() {
			leaves := 0
			for _, n := range e.Tree(i) {
				if n.Leaf {
					leaves++
				}
			}
			if leaves > 1<<p.MaxDepth {
				t.Errorf("tree %d has %d leaves, more than 2^%d", i, leaves, p.MaxDepth)
			}
		}
	}
}

// TestFitReducesError: more trees, lower training RMSE (the boosting
// objective F^ = argmin E[L(y, F(x))]; RL-CC-NIC, Fuhrer 2023, Section V-C).
func TestFitReducesError(t *testing.T) {
	X, y := gbttest.RandomData(3000, 4, 5)
	prev := math.Inf(1)
	for _, k := range []int{1, 3, 10} {
		e, err := Fit(X, y, nil, gbt.Params{Trees: k, MaxDepth: 4, LearningRate: 0.5, MinLeaf: 5, Lambda: 1})
		if err != nil {
			t.Fatal(err)
		}
		var se float64
		for i, x := range X {
			d := e.Predict(x) - y[i]
			se += d * d
		}
		rmse := math.Sqrt(se / float64(len(y)))
		if !(rmse < prev) {
			t.Fatalf("%d trees: RMSE %v not below %v", k, rmse, prev)
		}
		prev = rmse
	}
	if prev > 0.2 {
		t.Fatalf("RMSE with 10 trees %v, want < 0.2 (noise sd 0.1)", prev)
	}
}

func TestFitDeterministic(t *testing.T) {
	X, y := gbttest.RandomData(1500, 6, 9)
	var fits [2]*gbt.Ensemble
	for i := range fits {
		e, err := Fit(X, y, nil, gbt.DefaultParams())
		if err != nil {
			t.Fatal(err)
		}
		fits[i] = e
	}
	gbttest.SameModel(t, fits[0], fits[1], X)
}

func TestFitConstantTarget(t *testing.T) {
	X := [][]float64{{1}, {2}, {3}}
	e, err := Fit(X, []float64{4, 4, 4}, nil, gbt.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if e.NumTrees() != 1 || e.MaxDepth() != 0 || e.Predict([]float64{7}) != 4 {
		t.Fatalf("trees %d depth %d predict %v, want 1 0 4", e.NumTrees(), e.MaxDepth(), e.Predict([]float64{7}))
	}
}

func TestFitRejects(t *testing.T) {
	ok := gbt.Params{Trees: 1, MaxDepth: 1, LearningRate: 1}
	X := [][]float64{{1, 2}, {3, 4}}
	y := []float64{1, 2}
	cases := []struct {
		name  string
		X     [][]float64
		y     []float64
		names []string
		p     gbt.Params
		want  string
	}{
		{"no rows", nil, nil, nil, ok, "no training samples"},
		{"targets", X, []float64{1}, nil, ok, "2 rows but 1 targets"},
		{"ragged", [][]float64{{1, 2}, {3}}, y, nil, ok, "row 1 has 1 features"},
		{"nan", [][]float64{{1, 2}, {3, math.NaN()}}, y, nil, ok, "row 1 feature 1 is NaN"},
		{"inf target", X, []float64{1, math.Inf(1)}, nil, ok, "target 1 is +Inf"},
		{"names", X, y, []string{"a"}, ok, "1 feature names for 2 features"},
		{"trees", X, y, nil, gbt.Params{Trees: 0, MaxDepth: 1, LearningRate: 1}, "trees 0"},
		{"depth", X, y, nil, gbt.Params{Trees: 1, MaxDepth: 0, LearningRate: 1}, "max depth 0"},
		{"rate", X, y, nil, gbt.Params{Trees: 1, MaxDepth: 1, LearningRate: 0}, "learning rate 0"},
		{"rate nan", X, y, nil, gbt.Params{Trees: 1, MaxDepth: 1, LearningRate: math.NaN()}, "learning rate NaN"},
		{"min leaf", X, y, nil, gbt.Params{Trees: 1, MaxDepth: 1, LearningRate: 1, MinLeaf: -1}, "min leaf -1"},
		{"lambda", X, y, nil, gbt.Params{Trees: 1, MaxDepth: 1, LearningRate: 1, Lambda: -1}, "lambda -1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Fit(c.X, c.y, c.names, c.p)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// BenchmarkFit measures training on a distillation-sized data set.
func BenchmarkFit(b *testing.B) {
	X, y := gbttest.RandomData(20000, 7, 19)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Fit(X, y, nil, gbt.DefaultParams()); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMonotoneByHand: y = (1, 3, 2, 0) at x = 0, 1, 2, 3 has its
// unconstrained best first cut between 2 and 3 (left mean 2, right 0;
// lambda 0, one sample per leaf allowed; base score the mean 1.5).
// Constrained non-decreasing, a cut whose left weight exceeds its right
// is refused: x < 1.5 (weights 0.5, -0.5) and x < 2.5 (0.5, -1.5) are, and
// the only one left is x < 0.5 (weights 1 - 1.5 = -0.5 and 5/3 - 1.5 =
// 1/6), so the stump predicts 1 then 5/3. Constrained non-increasing,
// the unconstrained cut x < 2.5 stands: 2, 2, 2, 0.
func TestMonotoneByHand(t *testing.T) {
	X := [][]float64{{0}, {1}, {2}, {3}}
	y := []float64{1, 3, 2, 0}
	fit := func(c int8) *gbt.Ensemble {
		t.Helper()
		e, err := Fit(X, y, nil, gbt.Params{Trees: 1, MaxDepth: 1, LearningRate: 1, MinLeaf: 1, Lambda: 0, Monotone: []int8{c}})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	up := fit(+1)
	for x, want := range []float64{1, 5.0 / 3, 5.0 / 3, 5.0 / 3} {
		if got := up.Predict([]float64{float64(x)}); math.Abs(got-want) > 1e-12 {
			t.Errorf("non-decreasing: Predict(%v) = %v, want %v", x, got, want)
		}
	}
	down := fit(-1)
	for x, want := range []float64{2, 2, 2, 0} {
		if got := down.Predict([]float64{float64(x)}); math.Abs(got-want) > 1e-12 {
			t.Errorf("non-increasing: Predict(%v) = %v, want %v", x, got, want)
		}
	}
	if _, err := Fit(X, y, nil, gbt.Params{Trees: 1, MaxDepth: 1, LearningRate: 1, Monotone: []int8{2}}); err == nil {
		t.Error("constraint 2 accepted")
	}
	if _, err := Fit(X, y, nil, gbt.Params{Trees: 1, MaxDepth: 1, LearningRate: 1, Monotone: []int8{1, 0}}); err == nil {
		t.Error("two constraints for one feature accepted")
	}
}

// TestMonotoneRandom: on noisy data rising and falling in feature 0,
// deep constrained ensembles never decrease along feature 0 whatever the
// other features (checked on a grid), while the unconstrained fit does.
func TestMonotoneRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 2000
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		X[i] = []float64{r.Float64(), r.Float64()}
		y[i] = math.Sin(6*X[i][0]) + X[i][1] + 0.3*r.NormFloat64()
	}
	p := gbt.Params{Trees: 10, MaxDepth: 4, LearningRate: 0.5, MinLeaf: 5, Lambda: 1}
	free, err := Fit(X, y, nil, p)
	if err != nil {
		t.Fatal(err)
	}
	p.Monotone = []int8{1, 0}
	mono, err := Fit(X, y, nil, p)
	if err != nil {
		t.Fatal(err)
	}
	freeDrops := 0
	for b := 0.0; b <= 1; b += 0.05 {
		prevM, prevF := math.Inf(-1), math.Inf(-1)
		for a := 0.0; a <= 1; a += 0.01 {
			m, f := mono.Predict([]float64{a, b}), free.Predict([]float64{a, b})
			if m < prevM {
				t.Fatalf("constrained prediction falls from %v to %v at x0 = %v, x1 = %v", prevM, m, a, b)
			}
			if f < prevF {
				freeDrops++
			}
			prevM, prevF = m, f
		}
	}
	if freeDrops == 0 {
		t.Fatal("the unconstrained fit never falls along feature 0: the test data does not exercise the constraint")
	}
}
