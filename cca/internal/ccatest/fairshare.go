package ccatest

import (
	"math"
	"testing"
)

// FairShare is what a convergence test asserts of the goodputs of flows
// sharing one bottleneck; a zero bound is not checked.
type FairShare struct {
	// Capacity is the bottleneck's payload capacity, bit/s: C, and C/N
	// each flow's fair share.
	Capacity float64
	// Tol: every flow within Tol x C/N of C/N.
	Tol float64
	// Floor: no flow below Floor x C/N.
	Floor float64
	// Spread: the largest goodput at most Spread times the smallest.
	Spread float64
	// Jain: Jain's fairness index at least Jain.
	Jain float64
	// Used: the flows together carry at least Used x C.
	Used float64
}

// CheckFairShare logs each flow's goodput (rates, bit/s) against C/N and
// checks the bounds of want.
func CheckFairShare(t *testing.T, rates []float64, want FairShare) {
	t.Helper()
	n := float64(len(rates))
	fair := want.Capacity / n
	lo, hi, total, sq := math.Inf(1), 0.0, 0.0, 0.0
	for f, r := range rates {
		t.Logf("flow %d: %.2f Gb/s (C/N %.2f, %+.1f %%)", f, r/1e9, fair/1e9, 100*(r-fair)/fair)
		lo, hi, total, sq = min(lo, r), max(hi, r), total+r, sq+r*r
		if want.Tol > 0 && math.Abs(r-fair)/fair > want.Tol {
			t.Errorf("flow %d got %.2f Gb/s, C/N %.2f Gb/s (tolerance %.0f %%)", f, r/1e9, fair/1e9, want.Tol*100)
		}
		if r < want.Floor*fair {
			t.Errorf("flow %d starved: %.2f Gb/s, below %.2f x C/N", f, r/1e9, want.Floor)
		}
	}
	if want.Spread > 0 && hi/lo > want.Spread {
		t.Errorf("max/min goodput %.3f > %.2f", hi/lo, want.Spread)
	}
	if jain := total * total / n / sq; want.Jain > 0 && !(jain >= want.Jain) {
		t.Errorf("Jain's index %.4f < %.2f", jain, want.Jain)
	}
	if total < want.Used*want.Capacity {
		t.Errorf("bottleneck carried %.2f Gb/s of %.2f", total/1e9, want.Capacity/1e9)
	}
}
