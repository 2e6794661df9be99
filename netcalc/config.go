package netcalc

import (
	"cmp"
	"errors"
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/units"
)

// CCKind names a congestion control model.
type CCKind string

// The congestion control models.
const (
	// LineRate admits at the flow's initial rate, with no reaction to
	// congestion (use with PFC for the paper's "PFC" configuration).
	LineRate CCKind = "linerate"
	// AIMDRate is the rate-based AIMD of Section III-C, Algorithm 1:
	// timeouts (and CNPs when ECN is set) cut the rate by β, an increase
	// of α follows every Δτ_ai without a cut.
	AIMDRate CCKind = "aimd-rate"
	// DCQCN is the model of Section V-B: AIMDRate with ECN, CNPs as
	// decreases, β fixed, no hyper increase. Zero AIMD fields take the
	// values of DCQCNParams (so a zero Timeout means 3 ms here), and a
	// nil ECN takes DCQCNECN.
	DCQCN CCKind = "dcqcn"
	// AIMDWindow is the window-based AIMD of Section III-D, Algorithm 2
	// (Tahoe-like slow start, congestion avoidance, timeouts).
	AIMDWindow CCKind = "aimd-window"
	// Vegas is TCP Vegas without timeouts, Section III-E, Algorithm 3.
	Vegas CCKind = "vegas"
)

// GreedyBytes is the size of an Arrival that never runs out: a source
// that always has data (Section IV-B).
const GreedyBytes = units.MaxSize

// Arrival is one component of a flow's arrival function A (Section III-A).
type Arrival struct {
	// Bytes is the size of the component in bytes; for a rate component,
	// 0 means unlimited.
	Bytes units.Bytes
	// At is when the component starts, in picoseconds.
	At units.Time
	// Rate is 0 for a burst (A jumps by Bytes just after At), or the rate
	// in bit/s at which the component arrives from At on.
	Rate units.BitsPerSec
}

// Flow is one source with its congestion control (Fig. 1 and Fig. 5).
type Flow struct {
	// Arrivals are summed into A(t), in bytes.
	Arrivals []Arrival
	// Curve, if set, is A itself and Arrivals must be empty; its Dt must
	// equal Config.Dt and it must cover Config.Horizon.
	Curve *Curve
	// InitRate is r_o in bit/s for linerate and the rate CCs; 0 takes
	// AIMD.InitRate, or C when that is 0 too.
	InitRate units.BitsPerSec
}

// AIMDParams are the parameters of Algorithm 1 (and of DCQCN).
type AIMDParams struct {
	// Alpha is the additive increase α in bit/s per Δτ_ai (Eq. (4)).
	Alpha units.BitsPerSec
	// Beta is the multiplicative decrease β in (0,1) (Eq. (3)).
	Beta float64
	// Timeout is τ_o in picoseconds; 0 disables timeouts.
	Timeout units.Time
	// IncreaseEvery is Δτ_ai in picoseconds.
	IncreaseEvery units.Time
	// InitRate is the default r_o in bit/s; 0 means C.
	InitRate units.BitsPerSec
	// MaxRate caps r in bit/s; 0 means no cap (Algorithm 1 has none;
	// DCQCN's zero value is InitRate, the line rate).
	MaxRate units.BitsPerSec
}

// WindowParams are the parameters of Algorithm 2.
type WindowParams struct {
	// Alpha is the additive increase α in bytes per flight (Eq. (7)).
	Alpha units.Bytes
	// Beta is the factor β in (0,1) of w_th <- βW on a timeout.
	Beta float64
	// Timeout is τ_o in picoseconds; 0 disables timeouts.
	Timeout units.Time
	// W0 is the initial window W_o in bytes; also the window after a
	// timeout.
	W0 units.Bytes
	// Threshold is the initial slow-start threshold w_tho in bytes.
	Threshold units.Bytes
}

// VegasParams are the parameters of Algorithm 3; zero fields take the
// values of VegasDefaults.
type VegasParams struct {
	// W0 is the initial window in bytes.
	W0 units.Bytes
	// Low and High are w_low and w_high (Vegas' α and β) in bytes.
	Low, High units.Bytes
	// Gamma is γ, the slow-start exit threshold, in bytes.
	Gamma units.Bytes
	// IMax is the packet size I_max in bytes (the additive step).
	IMax units.Bytes
}

// ECNParams configure RED marking and notifications (Section III-B-d).
type ECNParams struct {
	// KMin and KMax are the RED thresholds in bytes of the aggregate
	// backlog (K_min < K_max).
	KMin, KMax units.Bytes
	// PMax is the marking probability at K_max- in (0,1].
	PMax float64
	// Gap is Δτ_ecn, the least time between notifications to one flow,
	// in picoseconds.
	Gap units.Time
	// IMax is the packet size in bytes: a flow's marks happen when the
	// running sum of p(B) per admitted IMax bytes crosses an integer.
	IMax units.Bytes
}

// PFCParams configure per-ingress PFC (Section III-B-e).
type PFCParams struct {
	// XOff and XOn are the pause and resume thresholds in bytes of a
	// flow's ingress backlog (XOn < XOff).
	XOff, XOn units.Bytes
}

// Config describes one run of the model.
type Config struct {
	// Dt is the grid step in picoseconds, e.g. 100ns = 100000.
	Dt units.Time
	// Horizon is t_end in picoseconds.
	Horizon units.Time
	// Record is the output sampling interval in picoseconds, a multiple
	// of Dt; 0 means Dt.
	Record units.Time
	// C is the bottleneck rate of the path server in bit/s.
	C units.BitsPerSec
	// DeltaR is the propagation round-trip time ΔR in picoseconds, at
	// least Dt.
	DeltaR units.Time
	// Flows share the FIFO path server (Section IV).
	Flows []Flow
	// CC selects the congestion control model.
	CC CCKind
	// AIMD parameterizes AIMDRate and DCQCN.
	AIMD AIMDParams
	// Window parameterizes AIMDWindow.
	Window WindowParams
	// Vegas parameterizes Vegas.
	Vegas VegasParams
	// ECN, if set, marks traffic (rate CCs only). DCQCN sets it to
	// DCQCNECN when nil.
	ECN *ECNParams
	// PFC, if set, pauses flows whose ingress backlog exceeds XOff.
	PFC *PFCParams
	// FlushOnTimeout makes a timeout empty the path server as in
	// Algorithm 1 (single flow only). Otherwise the timed-out flow's
	// queued bytes still drain.
	FlushOnTimeout bool
}

// DCQCNParams are the AIMD parameters of Section V-B: α = 5 Mb/s per
// Δτ_ai = 55 us, β = 0.75, τ_o = 3 ms, rate capped at the line rate.
func DCQCNParams() AIMDParams {
	return AIMDParams{Alpha: 5 * units.Mbps, Beta: 0.75, Timeout: 3 * units.Millisecond,
		IncreaseEvery: 55 * units.Microsecond}
}

// DCQCNECN is the ECN setting of Table II: K_min 5 kB, K_max 200 kB,
// P_max 1 %, Δτ_ecn = T_gap = 50 us; I_max = 1000 B (the paper is
// silent on the packet size).
func DCQCNECN() ECNParams {
	return ECNParams{KMin: 5 * units.KB, KMax: 200 * units.KB, PMax: 0.01,
		Gap: 50 * units.Microsecond, IMax: 1000}
}

// VegasDefaults are the proposed Algorithm 3 parameters, from ns-3
// TcpVegas (α = 2, β = 4, γ = 1 segments) and its initial window of 10
// segments, with I_max = 1500 B (the paper does not give them).
func VegasDefaults() VegasParams {
	return VegasParams{W0: 15000, Low: 3000, High: 6000, Gamma: 1500, IMax: 1500}
}

// maxGridCells bounds steps*flows so that a run's memory stays bounded
// (about 40 bytes per cell).
const maxGridCells = 100_000_000

// run parameters in grid steps and bytes, derived by validate.
type plan struct {
	n               int // last grid index
	stride          int
	dR, dTo, dAI    int
	dGap, dPFC      int
	cStep           float64 // C*Dt in bytes
	aimd            AIMDParams
	vegas           VegasParams
	ecn             *ECNParams
	pfc             *PFCParams
	rateCC, timeout bool
}

func (c *Config) validate() (*plan, error) {
	n, err := steps(c.Dt, c.Horizon)
	if err != nil {
		return nil, err
	}
	p := &plan{n: n - 1, stride: 1, aimd: c.AIMD, vegas: c.Vegas, ecn: c.ECN, pfc: c.PFC}
	switch {
	case c.Horizon < c.Dt:
		return nil, fmt.Errorf("horizon %v must be at least dt %v", c.Horizon, c.Dt)
	case c.C <= 0:
		return nil, errors.New("bottleneck rate c must be positive")
	case c.DeltaR < c.Dt || c.DeltaR > c.Horizon:
		return nil, fmt.Errorf("deltaR %v must be at least dt %v and at most the horizon", c.DeltaR, c.Dt)
	case len(c.Flows) == 0:
		return nil, errors.New("no flows")
	case n > maxGridCells/len(c.Flows):
		return nil, fmt.Errorf("%d flows x %d grid points is too large (limit %d): raise dt or shorten the horizon", len(c.Flows), n, maxGridCells)
	case c.FlushOnTimeout && len(c.Flows) != 1:
		return nil, errors.New("flushOnTimeout needs exactly one flow")
	case c.Record < 0 || c.Record%c.Dt != 0:
		return nil, fmt.Errorf("record %v must be a non-negative multiple of dt %v", c.Record, c.Dt)
	}
	if c.Record > 0 {
		p.stride = int(c.Record / c.Dt)
	}
	p.dR = c.stepsOf(c.DeltaR)
	p.cStep = bytesPerStep(float64(c.C), c.Dt)
	for i, f := range c.Flows {
		if err := c.validateFlow(f); err != nil {
			return nil, fmt.Errorf("flow %d: %w", i, err)
		}
	}
	switch c.CC {
	case LineRate:
	case DCQCN:
		d, a := DCQCNParams(), &p.aimd
		a.Alpha = cmp.Or(a.Alpha, d.Alpha)
		a.Beta = cmp.Or(a.Beta, d.Beta)
		a.Timeout = cmp.Or(a.Timeout, d.Timeout)
		a.IncreaseEvery = cmp.Or(a.IncreaseEvery, d.IncreaseEvery)
		if p.ecn == nil {
			e := DCQCNECN()
			p.ecn = &e
		}
		p.aimd.MaxRate = cmp.Or(p.aimd.MaxRate, p.aimd.InitRate, c.C)
		fallthrough
	case AIMDRate:
		a := p.aimd
		if err := checkIncDec("aimd", int64(a.Alpha), a.Beta, a.Timeout); err != nil {
			return nil, err
		}
		switch {
		case a.IncreaseEvery < c.Dt:
			return nil, fmt.Errorf("aimd increaseEvery %v must be at least dt %v", a.IncreaseEvery, c.Dt)
		case a.InitRate < 0 || a.MaxRate < 0:
			return nil, errors.New("aimd rates must not be negative")
		}
		p.rateCC, p.timeout = true, a.Timeout > 0
		p.dTo, p.dAI = c.stepsOf(a.Timeout), c.stepsOf(a.IncreaseEvery)
	case AIMDWindow:
		w := c.Window
		if err := checkIncDec("window", int64(w.Alpha), w.Beta, w.Timeout); err != nil {
			return nil, err
		}
		if w.W0 <= 0 || w.Threshold < 0 {
			return nil, errors.New("window w0 must be positive and threshold non-negative")
		}
		p.timeout, p.dTo = w.Timeout > 0, c.stepsOf(w.Timeout)
	case Vegas:
		d := VegasDefaults()
		v := &p.vegas
		for _, f := range []struct {
			p *units.Bytes
			d units.Bytes
		}{{&v.W0, d.W0}, {&v.Low, d.Low}, {&v.High, d.High}, {&v.Gamma, d.Gamma}, {&v.IMax, d.IMax}} {
			*f.p = cmp.Or(*f.p, f.d)
			if *f.p < 0 {
				return nil, errors.New("vegas parameters must not be negative")
			}
		}
		if v.Low > v.High {
			return nil, fmt.Errorf("vegas low %v must not exceed high %v", v.Low, v.High)
		}
	default:
		return nil, fmt.Errorf("unknown cc %q (want linerate, aimd-rate, dcqcn, aimd-window or vegas)", c.CC)
	}
	if e := p.ecn; e != nil {
		switch {
		case !p.rateCC:
			return nil, fmt.Errorf("ecn needs a rate-based cc (aimd-rate or dcqcn), not %q", c.CC)
		case e.KMin < 0 || e.KMin >= e.KMax:
			return nil, fmt.Errorf("ecn needs 0 <= kmin < kmax, got %v and %v", e.KMin, e.KMax)
		case !(e.PMax > 0 && e.PMax <= 1):
			return nil, fmt.Errorf("ecn pmax %v must be in (0,1]", e.PMax)
		case e.Gap < 0 || e.IMax <= 0:
			return nil, errors.New("ecn gap must not be negative and imax must be positive")
		}
		p.dGap = c.stepsOf(e.Gap)
	}
	if f := p.pfc; f != nil {
		if f.XOn <= 0 || f.XOn >= f.XOff {
			return nil, fmt.Errorf("pfc needs 0 < xon < xoff, got %v and %v", f.XOn, f.XOff)
		}
		// t_R - t_P = (X_off - X_on)/C, at least one step.
		p.dPFC = max(1, int(math.Round(float64(f.XOff-f.XOn)/p.cStep)))
	}
	return p, nil
}

// stepsOf rounds a duration to the nearest number of grid steps.
// checkIncDec checks what the rate and the window AIMD (what: "aimd",
// "window") share: the increase α not negative, the decrease β in (0,1)
// and the timeout τ_o not negative.
func checkIncDec(what string, alpha int64, beta float64, timeout units.Time) error {
	switch {
	case alpha < 0:
		return errors.New(what + " alpha must not be negative")
	case !(beta > 0 && beta < 1):
		return fmt.Errorf("%s beta %v must be in (0,1)", what, beta)
	case timeout < 0:
		return errors.New(what + " timeout must not be negative")
	}
	return nil
}

func (c *Config) stepsOf(d units.Time) int { return int((d + c.Dt/2) / c.Dt) }

func (c *Config) validateFlow(f Flow) error {
	if f.InitRate < 0 {
		return errors.New("initRate must not be negative")
	}
	if f.Curve != nil {
		switch {
		case len(f.Arrivals) > 0:
			return errors.New("set arrivals or curve, not both")
		case f.Curve.Dt != c.Dt:
			return fmt.Errorf("curve dt %v differs from dt %v", f.Curve.Dt, c.Dt)
		case f.Curve.Horizon() < c.Horizon:
			return fmt.Errorf("curve ends at %v, before the horizon %v", f.Curve.Horizon(), c.Horizon)
		case f.Curve.V[0] != 0:
			return errors.New("curve must be 0 at t = 0")
		}
		for k := 1; k < len(f.Curve.V); k++ {
			if v := f.Curve.V[k]; math.IsNaN(v) || math.IsInf(v, 0) || v < f.Curve.V[k-1] {
				return fmt.Errorf("curve must be finite and non-decreasing (at %v)", units.Time(k)*c.Dt)
			}
		}
		return nil
	}
	for _, a := range f.Arrivals {
		if a.Bytes < 0 || a.At < 0 || a.Rate < 0 {
			return errors.New("arrival bytes, at and rate must not be negative")
		}
		if a.Rate == 0 && a.Bytes == 0 {
			return errors.New("a burst arrival needs bytes > 0")
		}
	}
	return nil
}

// arrivalCurve materializes A on the grid 0..n.
func (c *Config) arrivalCurve(f Flow, n int) []float64 {
	if f.Curve != nil {
		return f.Curve.V[:n+1]
	}
	a := make([]float64, n+1)
	for k := 1; k <= n; k++ {
		t := units.Time(k) * c.Dt
		for _, x := range f.Arrivals {
			if t <= x.At {
				continue
			}
			if x.Rate == 0 {
				a[k] += float64(x.Bytes)
				continue
			}
			v := float64(x.Rate) / 8 * (t - x.At).Seconds()
			if x.Bytes > 0 {
				v = math.Min(v, float64(x.Bytes))
			}
			a[k] += v
		}
	}
	return a
}
