// Package gradcheck is the finite-difference check of the learning code's
// tests (rl/nn/learn, rl/td3): a gradient computed by backpropagation
// against central differences of the function it differentiates.
package gradcheck

import (
	"math"
	"testing"
)

// Step is the central-difference step h: fd = (f(p+h) - f(p-h)) / 2h.
const Step = 1e-6

// Check compares grad with central differences of f over every element of
// p (restored after each), failing t where they differ by more than 1e-6
// (times 1+|fd| when relative is set), and when fewer than minNonzero of
// the gradients are non-zero: a check of mostly zero gradients is too weak
// to mean anything.
func Check(t testing.TB, name string, p, grad []float64, f func() float64, relative bool, minNonzero int) {
	t.Helper()
	nonzero := 0
	for i := range p {
		v := p[i]
		p[i] = v + Step
		up := f()
		p[i] = v - Step
		down := f()
		p[i] = v
		fd := (up - down) / (2 * Step)
		tol := 1e-6
		if relative {
			tol *= 1 + math.Abs(fd)
		}
		if math.Abs(fd-grad[i]) > tol {
			t.Errorf("%s: param %d: gradient %v, finite difference %v", name, i, grad[i], fd)
		}
		if grad[i] != 0 {
			nonzero++
		}
	}
	if nonzero < minNonzero {
		t.Fatalf("%s: only %d of %d gradients are non-zero: the check is too weak", name, nonzero, len(p))
	}
}
