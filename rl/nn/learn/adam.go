package learn

import (
	"fmt"
	"math"
)

// Adam is the Adam optimiser (Kingma and Ba 2015) over a flat parameter
// vector: m = b1 m + (1-b1) g, v = b2 v + (1-b2) g^2, then
// p -= lr * (m / (1-b1^t)) / (sqrt(v / (1-b2^t)) + eps).
type Adam struct {
	// LR is the step size (parameter units per step); Beta1 and Beta2 the
	// moment decay rates in [0, 1); Eps the denominator's floor.
	LR, Beta1, Beta2, Eps float64
	m, v                  []float64
	t                     int
}

// NewAdam returns Adam for n parameters with step size lr and the usual
// constants beta1 = 0.9, beta2 = 0.999, eps = 1e-8.
func NewAdam(n int, lr float64) (*Adam, error) {
	if n < 1 {
		return nil, fmt.Errorf("adam: need at least one parameter, got %d", n)
	}
	if !(lr > 0) || math.IsInf(lr, 0) {
		return nil, fmt.Errorf("adam: learning rate must be positive and finite, got %v", lr)
	}
	return &Adam{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, m: make([]float64, n), v: make([]float64, n)}, nil
}

// Steps is the number of steps taken.
func (a *Adam) Steps() int { return a.t }

// Descend moves params against grad (minimisation).
func (a *Adam) Descend(params, grad []float64) { a.step(params, grad, -1) }

// Ascend moves params along grad (maximisation, as the policy-gradient
// step of RL-CC (Tessler 2022), Eq. 3).
func (a *Adam) Ascend(params, grad []float64) { a.step(params, grad, 1) }

func (a *Adam) step(params, grad []float64, sign float64) {
	if len(params) != len(a.m) || len(grad) != len(a.m) {
		panic(fmt.Sprintf("learn.Adam: %d parameters and %d gradients, want %d", len(params), len(grad), len(a.m)))
	}
	a.t++
	c1 := 1 - math.Pow(a.Beta1, float64(a.t))
	c2 := 1 - math.Pow(a.Beta2, float64(a.t))
	for i, g := range grad {
		a.m[i] = a.Beta1*a.m[i] + (1-a.Beta1)*g
		a.v[i] = a.Beta2*a.v[i] + (1-a.Beta2)*g*g
		params[i] += sign * a.LR * (a.m[i] / c1) / (math.Sqrt(a.v[i]/c2) + a.Eps)
	}
}
