package netcalc

import (
	"math"
	"math/rand"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

const (
	testDt = 100 * units.Nanosecond
	testH  = 200 * units.Microsecond
)

// must unwraps a curve constructor in tests; the inputs are constants.
func must(c Curve, err error) Curve {
	if err != nil {
		panic(err)
	}
	return c
}

func assertCurvesEqual(t *testing.T, what string, got, want Curve, upto int) {
	t.Helper()
	for k := 0; k < upto; k++ {
		if math.Abs(got.V[k]-want.V[k]) > 1e-6*math.Max(1, math.Abs(want.V[k])) {
			t.Fatalf("%s at %v: got %.9g want %.9g", what, units.Time(k)*got.Dt, got.V[k], want.V[k])
		}
	}
}

// Section II: β_{R1,T1}⊗β_{R2,T2} = β_{min(R1,R2),T1+T2} (concatenation of
// rate-latency servers).
func TestRateLatencyConcatenation(t *testing.T) {
	b1 := must(RateLatency(testDt, testH, 40*units.Gbps, 3*units.Microsecond))
	b2 := must(RateLatency(testDt, testH, 100*units.Gbps, 7*units.Microsecond))
	want := must(RateLatency(testDt, testH, 40*units.Gbps, 10*units.Microsecond))
	got := must(Convolve(b1, b2))
	assertCurvesEqual(t, "β⊗β", got, want, got.Len())
}

// Section II: for r <= R, γ_{r,b}⊘β_{R,T} = γ_{r,b+rT}; the backlog bound
// (vertical deviation) is b+rT and the delay bound (horizontal deviation)
// is T+b/R.
func TestTokenBucketThroughRateLatency(t *testing.T) {
	const b = 50e3 // bytes
	r, R, T := 20*units.Gbps, 100*units.Gbps, 4*units.Microsecond
	g := must(TokenBucket(testDt, testH, r, b))
	beta := must(RateLatency(testDt, testH, R, T))
	want := must(TokenBucket(testDt, testH, r, b+float64(r)/8*T.Seconds()))
	want.V[0] = b + float64(r)/8*T.Seconds() // ⊘ is not 0 at t = 0
	got := must(Deconvolve(g, beta))
	// Exact where the maximizing u = T stays on the grid: t <= horizon-T.
	assertCurvesEqual(t, "γ⊘β", got, want, got.Len()-int(T/testDt))
	v, _ := VDev(g, beta)
	if wantV := b + float64(r)/8*T.Seconds(); math.Abs(v-wantV) > Tol {
		t.Errorf("backlog bound %g, want b+rT = %g", v, wantV)
	}
	h, err := HDev(g, beta)
	if err != nil {
		t.Fatal(err)
	}
	// T + b/R = 4us + 4us; on the grid the first burst sample is b+r*dt,
	// which adds r*dt/R (0.02 us) rounded up to one step.
	if wantH := T + units.Time(b*8/float64(R)*1e12); h < wantH || h > wantH+testDt {
		t.Errorf("delay bound %v, want T+b/R = %v (within one step)", h, wantH)
	}
}

// Eq. (5) with fix (5): A⊗S_W = min(A, W) for the window server S_W.
func TestWindowConvolutionIsMin(t *testing.T) {
	a := must(TokenBucket(testDt, testH, 30*units.Gbps, 10e3))
	sw := must(TokenBucket(testDt, testH, 0, 64e3))
	got := ConvolveWindow(a, 64e3)
	ref := must(Convolve(a, sw))
	for k, v := range got.V {
		if want := math.Min(a.V[k], 64e3); v != want || ref.V[k] != want {
			t.Fatalf("at %v: ConvolveWindow %g, Convolve %g, min(A,W) %g", units.Time(k)*testDt, v, ref.V[k], want)
		}
	}
}

func randomCurve(rng *rand.Rand, n int) Curve {
	c := Curve{Dt: testDt, V: make([]float64, n)}
	for k := 1; k < n; k++ {
		inc := 0.0
		switch rng.Intn(4) {
		case 0: // flat
		case 1:
			inc = rng.Float64() * 2000
		case 2:
			inc = rng.Float64() * 100
		case 3:
			if rng.Intn(10) == 0 {
				inc = rng.Float64() * 1e5 // burst
			}
		}
		c.V[k] = c.V[k-1] + inc
	}
	return c
}

// Section II and Eq. (2): the O(n) convolutions with S_r, S = max(Ct,0)
// and S_W equal the O(n²) definition on random non-decreasing curves.
func TestFastConvolutionsMatchGeneral(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 20; trial++ {
		f := randomCurve(rng, 300)
		r := units.BitsPerSec(1+rng.Intn(200)) * units.Gbps
		h := units.Time(len(f.V)-1) * testDt
		sr := must(RateLatency(testDt, h, r, 0))
		assertCurvesEqual(t, "f⊗S_r", ConvolveRate(f, r), must(Convolve(f, sr)), f.Len())
		w := rng.Float64() * 3e5
		sw := must(TokenBucket(testDt, h, 0, w))
		assertCurvesEqual(t, "f⊗S_W", ConvolveWindow(f, w), must(Convolve(f, sw)), f.Len())
	}
}

// Appendix D-C, (P4): F(F^↑(y)) <= y < F(F^↑(y)+ε), with ε = Dt on the
// grid.
func TestUpperInverseP4(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	f := randomCurve(rng, 500)
	for i := 0; i < 2000; i++ {
		y := rng.Float64() * f.V[len(f.V)-1]
		x, ok := f.UpperInverse(y)
		if !ok {
			continue
		}
		if !(f.At(x) <= y+Tol && y < f.At(x+f.Dt)) {
			t.Fatalf("y=%g: F(F^↑)=%g F(F^↑+ε)=%g", y, f.At(x), f.At(x+f.Dt))
		}
	}
}

// Printed fix (1): F^↓(y) = inf{x | F(x) >= y} (Section II prints <=,
// which gives 0 for all y >= 0): F(F^↓(y)) >= y > F(F^↓(y)-ε).
func TestLowerInverseFix1(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	f := randomCurve(rng, 500)
	for i := 0; i < 2000; i++ {
		y := Tol + rng.Float64()*f.V[len(f.V)-1]
		x, ok := f.LowerInverse(y)
		if !ok {
			t.Fatalf("F^↓(%g) undetermined", y)
		}
		if !(f.At(x) >= y-Tol && f.At(x-f.Dt) < y) {
			t.Fatalf("y=%g x=%v: F(x)=%g F(x-ε)=%g", y, x, f.At(x), f.At(x-f.Dt))
		}
	}
	if x, _ := f.LowerInverse(0); x != 0 {
		t.Errorf("F^↓(0) = %v, want 0", x)
	}
}

func TestCurveErrors(t *testing.T) {
	a := Curve{Dt: testDt, V: []float64{0, 1}}
	b := Curve{Dt: 2 * testDt, V: []float64{0, 1}}
	if _, err := Convolve(a, b); err == nil {
		t.Error("Convolve accepted different grids")
	}
	if _, err := Deconvolve(a, b); err == nil {
		t.Error("Deconvolve accepted different grids")
	}
	if _, err := RateLatency(0, testH, units.Gbps, 0); err == nil {
		t.Error("RateLatency accepted dt = 0")
	}
	if _, err := TokenBucket(testDt, testH, units.Gbps, math.NaN()); err == nil {
		t.Error("TokenBucket accepted a NaN burst")
	}
	if _, err := HDev(Curve{Dt: testDt, V: []float64{0, 5}}, Curve{Dt: testDt, V: []float64{0, 1}}); err == nil {
		t.Error("HDev: want an error when g never reaches f")
	}
}
