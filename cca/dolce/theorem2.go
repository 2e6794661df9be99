package dolce

import (
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/units"
)

// Fluid holds the parameters of the DCQCN fluid model that Dolce-RC (Ye 2023)
// Theorem 2 revises: ref. [7], Zhu, Ghobadi, Misra and Padhye, "ECN or
// Delay: Lessons Learnt from Analysis of DCQCN and TIMELY", CoNEXT 2016.
// Rates, B and the marking probability are per packet in the model, so
// PacketBytes converts bits per second and bytes into packets.
type Fluid struct {
	// Tau is tau, "the CNP generation timer" (Dolce-RC, Ye 2023, after Eq. (3)),
	// picoseconds.
	Tau units.Time
	// TauPrime is tau', DCQCN's alpha update period K, picoseconds. It
	// only enters DCQCN's own fixed point, which gives the marking
	// probability p* (see MarkingProbability).
	TauPrime units.Time
	// AIRate is R_AI, the additive increase step, bits per second.
	AIRate units.BitsPerSec
	// ByteCounter is B, bytes per byte-counter increase event; 0 = off.
	ByteCounter units.Bytes
	// Timer is T, the rate increase timer, picoseconds.
	Timer units.Time
	// FastRecovery is F, the number of fast recovery steps.
	FastRecovery int
	// PacketBytes is the packet size the model counts in, bytes.
	PacketBytes units.Bytes
}

// PaperFluid is the model Dolce-RC's default arms are derived with: the
// settings the simulator runs Dolce-RC with. tau = 1 us is Dolce-RC's CNP
// interval (Dolce-RC, Ye 2023, Section IV-B.1, MIN_TIME_BETWEEN_CNPS = 1); R_AI =
// 5 Mb/s, B = 10 MB, T = tau' = 55 us and F = 5 are the dcqcn:dolce preset
// (DCQCN per CC-NetCalc (Lehal 2024), Table II, which the paper's DCQCN baseline, ref.
// [22], uses); packets are 1048 B on the wire (1000 B payload + 48 B of
// headers, nic.DefaultConfig).
func PaperFluid() Fluid {
	return Fluid{
		Tau: units.Microsecond, TauPrime: 55 * units.Microsecond,
		AIRate: 5 * units.Mbps, ByteCounter: 10 * units.MB, Timer: 55 * units.Microsecond,
		FastRecovery: 5, PacketBytes: 1048,
	}
}

// Aux are the auxiliary variables of ref. [7] Eq. (12) that Dolce-RC (Ye 2023)
// Eq. (3) and (17)-(20) use, at marking probability p and current rate
// R_C in packets per second:
//
//	a = 1 - (1-p)^(tau*R_C)
//	b = p / ((1-p)^-B - 1)            c = b*(1-p)^(F*B)
//	d = p / ((1-p)^-(T*R_C) - 1)      e = d*(1-p)^(F*T*R_C)
//
// (as they appear in Dolce-RC (Ye 2023), Eq. (15)-(16)). With the byte counter off
// (B infinite) b = c = 0.
type Aux struct{ A, B, C, D, E float64 }

// Aux evaluates the auxiliary variables at p in (0, 1) and rc packets per
// second.
func (m Fluid) Aux(p, rc float64) Aux {
	l := math.Log1p(-p) // log(1-p) < 0
	tau, t := m.Tau.Seconds(), m.Timer.Seconds()
	f := float64(m.FastRecovery)
	var x Aux
	x.A = -math.Expm1(tau * rc * l)
	// p/((1-p)^-n - 1) = p/expm1(-n*log(1-p)), 0 when that overflows.
	ratio := func(n float64) float64 {
		if y := -n * l; y < 700 {
			return p / math.Expm1(y)
		}
		return 0
	}
	if m.ByteCounter > 0 {
		bp := float64(m.ByteCounter) / float64(m.PacketBytes)
		x.B = ratio(bp)
		x.C = x.B * math.Exp(f*bp*l)
	}
	x.D = ratio(t * rc)
	x.E = x.D * math.Exp(f*t*rc*l)
	return x
}

// packetsPerSec converts a rate into packets per second.
func (m Fluid) packetsPerSec(r units.BitsPerSec) float64 {
	return float64(r) / (8 * float64(m.PacketBytes))
}

func (m Fluid) validate() error {
	switch {
	case m.Tau <= 0 || m.TauPrime <= 0 || m.Timer <= 0:
		return fmt.Errorf("fluid model: tau, tau' and T must be positive")
	case m.AIRate <= 0 || m.PacketBytes <= 0 || m.ByteCounter < 0:
		return fmt.Errorf("fluid model: R_AI and the packet size must be positive, B not negative")
	case m.FastRecovery < 1:
		return fmt.Errorf("fluid model: F must be at least 1")
	}
	return nil
}

// MarkingProbability is p*, the ECN marking probability at DCQCN's fixed
// point when n flows share capacity c (R_C* = C/N, ref. [7]). Setting
// ref. [7]'s equations for alpha, R_T and R_C to zero gives
// alpha* = 1 - (1-p)^(tau'*R_C), R_T - R_C = alpha*a/(tau*(b+d)) and
// (R_T - R_C)*a/tau = R_AI*R_C*(c+e), hence
//
//	alpha*(p) * a(p)^2 = tau^2 * R_AI * R_C * (b(p)+d(p)) * (c(p)+e(p))
//
// whose left side grows and right side shrinks with p; it is solved by
// bisection on log p.
//
// NB: Dolce-RC (Ye 2023) gives alpha as a function of beta and N, but in its
// steady state the marking probability is free (alpha is a constant, so
// the alpha equation that fixed p* in DCQCN is gone). We take p* from
// DCQCN's own fixed point: the paper says Eq. (3) "is reduced to the
// equation (11) for DCQCN in [7] when beta = 1", which holds exactly at
// this p*, where Alpha(c, n, 1) = alpha*.
func (m Fluid) MarkingProbability(c units.BitsPerSec, n float64) (float64, error) {
	if err := m.validate(); err != nil {
		return 0, err
	}
	if c <= 0 || !(n > 0) {
		return 0, fmt.Errorf("fluid model: capacity and number of flows must be positive")
	}
	rc := m.packetsPerSec(c) / n
	rai := m.packetsPerSec(m.AIRate)
	tau, taup := m.Tau.Seconds(), m.TauPrime.Seconds()
	g := func(p float64) float64 {
		x := m.Aux(p, rc)
		alpha := -math.Expm1(taup * rc * math.Log1p(-p))
		return alpha*x.A*x.A - tau*tau*rai*rc*(x.B+x.D)*(x.C+x.E)
	}
	lo, hi := math.Log(1e-15), math.Log(1-1e-12)
	if g(math.Exp(lo)) >= 0 || g(math.Exp(hi)) <= 0 {
		return 0, fmt.Errorf("fluid model: no fixed point for N = %v", n)
	}
	for range 200 {
		mid := (lo + hi) / 2
		if g(math.Exp(mid)) > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	return math.Exp((lo + hi) / 2), nil
}

// AlphaAt is Dolce-RC (Ye 2023), Theorem 2 in the form its proof ends with,
// Eq. (20), at marking probability p and rate rc (packets per second):
//
//	alpha = tau*R_C*(b+d)/a * (beta - 1 + tau*R_AI*(c+e)/a)
//
// NB: Eq. (3) as printed, (beta - 1 + tau*R_AI*(c+e)/a) / (tau*R_C*(b+d)),
// lacks the factor a of Eq. (20)'s denominator a/(tau*R_C*(b+d)). Eq. (20)
// is what Eq. (17) and (19) give, and only it reduces to DCQCN's alpha* at
// beta = 1 as the paper states, so it is the one implemented.
func (m Fluid) AlphaAt(p, rc, beta float64) float64 {
	x := m.Aux(p, rc)
	tau, rai := m.Tau.Seconds(), m.packetsPerSec(m.AIRate)
	return tau * rc * (x.B + x.D) / x.A * (beta - 1 + tau*rai*(x.C+x.E)/x.A)
}

// Alpha is the steady-state alpha of a connection with parameter beta
// when n connections share capacity c (Dolce-RC, Ye 2023, Theorem 2 with
// R_C* = C/N, "According to [7]"), at DCQCN's marking probability p*.
func (m Fluid) Alpha(c units.BitsPerSec, n, beta float64) (float64, error) {
	p, err := m.MarkingProbability(c, n)
	if err != nil {
		return 0, err
	}
	return m.AlphaAt(p, m.packetsPerSec(c)/n, beta), nil
}

// DeriveArms builds a Dolce-RC arm set from Theorem 2, one arm per beta:
// "Considering a practical range of N, we can choose proper values for
// alpha and beta based on this relation graph" (Dolce-RC, Ye 2023, Section IV-A,
// Fig. 3). The paper gives no rule; ours is minimax: for each beta, alpha
// is the midpoint of the range alpha(beta, N) covers for integer N in
// [nMin, nMax], the value whose largest distance to the steady state of
// any N in the range is smallest. An arm whose alpha falls outside (0, 1]
// is an error: Eq. (2) needs 0 <= alpha <= 1, and alpha = 0 never cuts.
func (m Fluid) DeriveArms(c units.BitsPerSec, nMin, nMax int, betas []float64) ([]Arm, error) {
	if nMin < 1 || nMax < nMin {
		return nil, fmt.Errorf("fluid model: want 1 <= nMin <= nMax, got %d and %d", nMin, nMax)
	}
	arms := make([]Arm, len(betas))
	for i, beta := range betas {
		lo, hi := math.Inf(1), math.Inf(-1)
		for n := nMin; n <= nMax; n++ {
			a, err := m.Alpha(c, float64(n), beta)
			if err != nil {
				return nil, err
			}
			lo, hi = min(lo, a), max(hi, a)
		}
		alpha := (lo + hi) / 2
		if !(alpha > 0 && alpha <= 1) {
			return nil, fmt.Errorf("fluid model: beta %v gives alpha %.4g (range %.4g..%.4g over N in [%d, %d]), outside (0, 1]", beta, alpha, lo, hi, nMin, nMax)
		}
		arms[i] = Arm{Alpha: alpha, Beta: beta}
	}
	return arms, nil
}
