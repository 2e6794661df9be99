package dolce

import (
	"math"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// testFluid has round numbers: tau = 50 us, T = 55 us, B = 100 packets of
// 1000 B, F = 5, R_AI = 40 Mb/s = 5000 packets/s; at R_C = 10^6 packets/s
// (8 Gb/s) tau*R_C = 50 and T*R_C = 55 packets.
var testFluid = Fluid{
	Tau: 50 * units.Microsecond, TauPrime: 55 * units.Microsecond, AIRate: 40 * units.Mbps,
	ByteCounter: 100_000, Timer: 55 * units.Microsecond, FastRecovery: 5, PacketBytes: 1000,
}

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

// Ref. [7] Eq. (12), as Dolce-RC (Ye 2023), Eq. (15)-(16) use the variables, at
// p = 0.01 and R_C = 10^6 packets/s, computed independently (Python):
//
//	a = 1 - 0.99^50                          = 0.39499393286246365
//	b = 0.01/(0.99^-100 - 1)                 = 0.0057736753008560465
//	c = b*0.99^500                           = 3.793583565668269e-05
//	d = 0.01/(0.99^-55 - 1)                  = 0.013549068309269174
//	e = d*0.99^275                           = 0.0008542558206845418
func TestAuxHandComputed(t *testing.T) {
	x := testFluid.Aux(0.01, 1e6)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"a", x.A, 0.39499393286246365}, {"b", x.B, 0.0057736753008560465},
		{"c", x.C, 3.793583565668269e-05}, {"d", x.D, 0.013549068309269174},
		{"e", x.E, 0.0008542558206845418},
	} {
		if !near(c.got, c.want, 1e-12) {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
}

// Paper 000 Theorem 2 in the form of Eq. (20),
// alpha = tau*R_C*(b+d)/a * (beta - 1 + tau*R_AI*(c+e)/a), at the point
// above: tau*R_C*(b+d)/a = 50*0.019322743610/0.394993932862 = 2.44594,
// tau*R_AI*(c+e)/a = 0.25*0.000892191656/0.394993932862 = 0.000564684:
//
//	beta = 0.9: 2.44594*(-0.1 + 0.000564684) = -0.24321424967022506
//	beta = 1.0: 2.44594*(0.000564684)        =  0.0013811985445880528
//	beta = 1.1: 2.44594*(0.1 + 0.000564684)  =  0.24597664675940142
//
// alpha grows with beta ("for a given number of connections N, alpha
// increases with beta"), linearly.
func TestAlphaAtHandComputed(t *testing.T) {
	for beta, want := range map[float64]float64{
		0.9: -0.24321424967022506, 1.0: 0.0013811985445880528, 1.1: 0.24597664675940142,
	} {
		if got := testFluid.AlphaAt(0.01, 1e6, beta); !near(got, want, 1e-9) {
			t.Errorf("alpha(beta=%v) = %.17g, want %.17g", beta, got, want)
		}
	}
}

// Paper 000 after Theorem 2: "(3) is reduced to the equation (11) for
// DCQCN in [7] when beta = 1": at DCQCN's fixed point p* for R_C* = C/N,
// alpha(beta = 1) is DCQCN's steady-state alpha* = 1 - (1-p*)^(tau'*R_C*).
// (Eq. (3) as printed gives 0.0013 instead of alpha* = 0.2553 at N = 1 of
// testFluid, see AlphaAt.)
func TestAlphaReducesToDCQCN(t *testing.T) {
	for _, m := range []Fluid{testFluid, PaperFluid()} {
		for _, n := range []float64{1, 10, 100} {
			c := 100 * units.Gbps
			p, err := m.MarkingProbability(c, n)
			if err != nil {
				t.Fatal(err)
			}
			rc := m.packetsPerSec(c) / n
			alphaStar := 1 - math.Pow(1-p, m.TauPrime.Seconds()*rc)
			got, err := m.Alpha(c, n, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got, alphaStar, 1e-6) {
				t.Errorf("N=%v: alpha(beta=1) = %v, DCQCN alpha* = %v (p* = %v)", n, got, alphaStar, p)
			}
			t.Logf("tau=%v N=%v: p* = %.4g, alpha* = %.4g", m.Tau, n, p, alphaStar)
		}
	}
}

// PaperArms are what DeriveArms gives for the paper's setting (see
// PaperArms), to 0.001.
func TestPaperArmsFromTheorem2(t *testing.T) {
	arms, err := PaperFluid().DeriveArms(100*units.Gbps, 1, 100, []float64{1, 1.01, 1.02, 1.03})
	if err != nil {
		t.Fatal(err)
	}
	paper := PaperArms()
	for i, a := range arms {
		t.Logf("arm %d: alpha %.5f beta %v", i, a.Alpha, a.Beta)
		if math.Abs(a.Alpha-paper[i].Alpha) > 0.0005 || a.Beta != paper[i].Beta {
			t.Errorf("arm %d: derived %+v, PaperArms has %+v", i, a, paper[i])
		}
	}
}

// DeriveArms's minimax rule: alpha is the midpoint of the range over N,
// so no N in the range is farther from it than half the range; betas whose
// alpha leaves (0, 1] are refused.
func TestDeriveArms(t *testing.T) {
	m, c := PaperFluid(), 100*units.Gbps
	arms, err := m.DeriveArms(c, 4, 16, []float64{1.02})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for n := 4; n <= 16; n++ {
		a, _ := m.Alpha(c, float64(n), 1.02)
		lo, hi = min(lo, a), max(hi, a)
	}
	if !near(arms[0].Alpha, (lo+hi)/2, 1e-12) {
		t.Errorf("alpha %v, want midpoint of [%v, %v]", arms[0].Alpha, lo, hi)
	}
	for _, tc := range []struct {
		betas      []float64
		nMin, nMax int
		want       string
	}{
		{[]float64{0.9}, 1, 100, "beta 0.9 gives alpha"},
		{[]float64{1.2}, 1, 100, "outside (0, 1]"},
		{[]float64{1}, 0, 100, "want 1 <= nMin <= nMax"},
	} {
		if _, err := m.DeriveArms(c, tc.nMin, tc.nMax, tc.betas); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DeriveArms(%v, %d, %d) = %v, want %q", tc.betas, tc.nMin, tc.nMax, err, tc.want)
		}
	}
	if _, err := (Fluid{}).MarkingProbability(c, 1); err == nil {
		t.Error("zero model accepted")
	}
}
