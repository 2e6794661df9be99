// Package gbttest holds what the tests of rl/gbt and rl/gbt/fit share:
// seeded regression data to fit, and the check that two ensembles are the
// same model. Tests only.
package gbttest

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ccreplay/ccreplay/rl/gbt"
)

// RandomData is n rows of d features uniform in [0, 1) and their targets
// sin(6 x0) + x1 x2 plus Gaussian noise of standard deviation 0.1 (d >= 3),
// drawn from seed: the same seed gives the same data.
func RandomData(n, d int, seed uint64) ([][]float64, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		X[i] = make([]float64, d)
		for j := range X[i] {
			X[i][j] = r.Float64()
		}
		y[i] = math.Sin(6*X[i][0]) + X[i][1]*X[i][2] + 0.1*r.NormFloat64()
	}
	return X, y
}

// SameModel fails t unless got writes the same ccreplay JSON bytes as want
// and predicts the same as want on every row of X.
func SameModel(t testing.TB, want, got *gbt.Ensemble, X [][]float64) {
	t.Helper()
	var a, b bytes.Buffer
	if err := want.WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	if err := got.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the ensembles' JSON differs")
	}
	for _, x := range X {
		if want.Predict(x) != got.Predict(x) {
			t.Fatalf("prediction differs for %v", x)
		}
	}
}
