package netcalc

// Curves and the min-plus operations of Section II of CC-NetCalc
// (Lehal, Luangsomboon, Liebeherr 2024).
//
// NB: the paper works in continuous time. A Curve is its discrete-time
// counterpart: the values at the grid points t_k = k*Dt, k = 0..Len()-1.
// Every operation below is the exact discrete-time operation on those
// samples (infimum and supremum over grid points only); pseudo-inverses
// return grid times, so the ε of Section II/Appendix D-C is one step Dt.

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/ccreplay/ccreplay/units"
)

// Tol is the tie tolerance of every comparison between curve values, in
// bytes: values closer than Tol are equal.
const Tol = 1e-6

// Curve is a cumulative traffic function or a service curve sampled on a
// uniform grid: V[k] is the value in bytes at time k*Dt. A traffic curve
// is non-decreasing with V[0] = 0 (curves are 0 for t <= 0); the result of
// Deconvolve may have V[0] > 0. Times beyond the grid are not represented.
type Curve struct {
	// Dt is the grid step in picoseconds; it must be positive.
	Dt units.Time
	// V holds the values in bytes at times 0, Dt, 2*Dt, ...
	V []float64
}

// Len is the number of grid points.
func (c Curve) Len() int { return len(c.V) }

// Horizon is the time of the last grid point, in picoseconds.
func (c Curve) Horizon() units.Time { return units.Time(len(c.V)-1) * c.Dt }

// At returns the value in bytes at time t: 0 for t < 0, the value at the
// first grid point at or after t (curves are left-continuous, so a jump
// recorded at k*Dt happens just after (k-1)*Dt), and the last value
// beyond the horizon.
func (c Curve) At(t units.Time) float64 {
	if t < 0 || len(c.V) == 0 {
		return 0
	}
	k := int((t + c.Dt - 1) / c.Dt)
	if k >= len(c.V) {
		k = len(c.V) - 1
	}
	return c.V[k]
}

// bytesPerStep is the number of bytes rate r (bit/s) carries in dt.
func bytesPerStep(r float64, dt units.Time) float64 { return r / 8 * dt.Seconds() }

// steps returns the number of grid points for a horizon, and an error for
// a bad step or horizon.
func steps(dt, horizon units.Time) (int, error) {
	if dt <= 0 {
		return 0, fmt.Errorf("dt %v must be positive", dt)
	}
	if horizon < 0 {
		return 0, fmt.Errorf("horizon %v must not be negative", horizon)
	}
	return int(horizon/dt) + 1, nil
}

// RateLatency returns β_{R,T}(t) = R*max(t-T, 0) in bytes (R in bit/s,
// T in picoseconds) on the grid [0, horizon]. With T = 0 it is the rate
// server S(t) = max(Ct, 0) of Section II and S_r of Eq. (2).
func RateLatency(dt, horizon units.Time, r units.BitsPerSec, t units.Time) (Curve, error) {
	n, err := steps(dt, horizon)
	if err != nil {
		return Curve{}, err
	}
	if r < 0 || t < 0 {
		return Curve{}, fmt.Errorf("rate-latency curve needs rate >= 0 and latency >= 0, got %v and %v", r, t)
	}
	c := Curve{Dt: dt, V: make([]float64, n)}
	for k := range c.V {
		if d := units.Time(k)*dt - t; d > 0 {
			c.V[k] = float64(r) / 8 * d.Seconds()
		}
	}
	return c, nil
}

// TokenBucket returns γ_{r,b}(t) = b + r*t for t > 0 and 0 at t = 0, in
// bytes (r in bit/s, b in bytes). With r = 0 it is a burst of b bytes at
// time 0, and the window server S_W of Section III-D when b = W.
func TokenBucket(dt, horizon units.Time, r units.BitsPerSec, b float64) (Curve, error) {
	n, err := steps(dt, horizon)
	if err != nil {
		return Curve{}, err
	}
	if r < 0 || b < 0 || math.IsNaN(b) || math.IsInf(b, 0) {
		return Curve{}, fmt.Errorf("token bucket needs rate >= 0 and a finite burst >= 0, got %v and %v", r, b)
	}
	c := Curve{Dt: dt, V: make([]float64, n)}
	for k := 1; k < n; k++ {
		c.V[k] = b + float64(r)/8*(units.Time(k)*dt).Seconds()
	}
	return c, nil
}

var errGrid = errors.New("curves must share a positive dt")

func sameGrid(f, g Curve) error {
	if f.Dt <= 0 || f.Dt != g.Dt {
		return errGrid
	}
	return nil
}

// Convolve returns the min-plus convolution f⊗g(t) = min_{0<=s<=t}
// f(s) + g(t-s) (Section II) on the common part of the grids, in O(n²).
// It serves as the reference for the O(n) special cases.
func Convolve(f, g Curve) (Curve, error) {
	if err := sameGrid(f, g); err != nil {
		return Curve{}, err
	}
	n := min(f.Len(), g.Len())
	out := Curve{Dt: f.Dt, V: make([]float64, n)}
	for k := 0; k < n; k++ {
		m := math.Inf(1)
		for j := 0; j <= k; j++ {
			m = math.Min(m, f.V[j]+g.V[k-j])
		}
		out.V[k] = m
	}
	return out, nil
}

// ConvolveRate returns f⊗S_r in O(n), for the rate server S_r(t) =
// max(r*t, 0) (r in bit/s): the rate shaper of Eq. (2) and the path
// server S(t) = max(Ct, 0). It uses f⊗S_r(t_k) = min(f(t_k),
// f⊗S_r(t_{k-1}) + r*Dt).
func ConvolveRate(f Curve, r units.BitsPerSec) Curve {
	out := Curve{Dt: f.Dt, V: make([]float64, f.Len())}
	step := bytesPerStep(float64(r), f.Dt)
	for k, v := range f.V {
		if k > 0 {
			v = math.Min(v, out.V[k-1]+step)
		}
		out.V[k] = v
	}
	return out
}

// ConvolveWindow returns f⊗S_W in O(n) for the window server S_W (0 at
// t <= 0, W bytes for t > 0) of Section III-D: min(f(t), f(0)+W), which
// is min(f, W) for a traffic curve (f(0) = 0). f must be non-decreasing.
func ConvolveWindow(f Curve, w float64) Curve {
	out := Curve{Dt: f.Dt, V: make([]float64, f.Len())}
	for k, v := range f.V {
		if k > 0 {
			v = math.Min(v, f.V[0]+w)
		}
		out.V[k] = v
	}
	return out
}

// Deconvolve returns the min-plus deconvolution f⊘g(t) = max_{u>=0}
// f(t+u) - g(u), in O(n²). NB: u ranges over the grid only, so the value
// at t is exact when the maximum is attained at t+u <= f's horizon.
func Deconvolve(f, g Curve) (Curve, error) {
	if err := sameGrid(f, g); err != nil {
		return Curve{}, err
	}
	n := f.Len()
	out := Curve{Dt: f.Dt, V: make([]float64, n)}
	for k := 0; k < n; k++ {
		m := math.Inf(-1)
		for u := 0; k+u < n && u < g.Len(); u++ {
			m = math.Max(m, f.V[k+u]-g.V[u])
		}
		out.V[k] = m
	}
	return out, nil
}

// UpperInverse returns F^↑(y) = sup{t | F(t) <= y} over the grid, in
// picoseconds, for a non-decreasing curve (Section II). ok is false when
// the supremum is not determined on the grid: F stays <= y up to the
// horizon (the horizon is returned), or F(0) > y (0 is returned).
// It satisfies F(F^↑(y)) <= y < F(F^↑(y)+Dt) (Appendix D-C, (P4)).
func (c Curve) UpperInverse(y float64) (t units.Time, ok bool) {
	k := sort.Search(len(c.V), func(i int) bool { return c.V[i] > y+Tol }) - 1
	switch {
	case k < 0:
		return 0, false
	case k == len(c.V)-1:
		return units.Time(k) * c.Dt, false
	}
	return units.Time(k) * c.Dt, true
}

// LowerInverse returns F^↓(y) = inf{t | F(t) >= y} over the grid, in
// picoseconds, for a non-decreasing curve. NB: Section II prints "<=";
// with "<=" the infimum would be 0 for every y >= 0 (printed error (1)).
// ok is false when F stays below y up to the horizon (the horizon is
// returned).
func (c Curve) LowerInverse(y float64) (t units.Time, ok bool) {
	k := sort.Search(len(c.V), func(i int) bool { return c.V[i] >= y-Tol })
	if k == len(c.V) {
		return c.Horizon(), false
	}
	return units.Time(k) * c.Dt, true
}

// HDev returns the horizontal deviation h(f,g) = max_t (g^↓(f(t)) - t)^+
// in picoseconds: the delay bound when f is an arrival curve and g a
// service curve. It is an error when g does not reach f(t) on the grid.
func HDev(f, g Curve) (units.Time, error) {
	if err := sameGrid(f, g); err != nil {
		return 0, err
	}
	var h units.Time
	j := 0
	for k, y := range f.V {
		for j < g.Len() && g.V[j] < y-Tol {
			j++
		}
		if j == g.Len() {
			return 0, fmt.Errorf("horizontal deviation undetermined: g stays below %g B up to its horizon", y)
		}
		h = max(h, units.Time(j-k)*f.Dt)
	}
	return h, nil
}

// VDev returns the vertical deviation v(f,g) = max_t f(t) - g(t) in bytes
// over the common grid: the backlog bound when f is an arrival curve and
// g a service curve.
func VDev(f, g Curve) (float64, error) {
	if err := sameGrid(f, g); err != nil {
		return 0, err
	}
	v := math.Inf(-1)
	for k := 0; k < min(f.Len(), g.Len()); k++ {
		v = math.Max(v, f.V[k]-g.V[k])
	}
	return v, nil
}
