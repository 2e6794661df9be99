package netcalc

// Run steps Algorithms 1-3 forward on the grid. NB: the paper's
// algorithms recompute Â and D over [t_event, t_end] after each event;
// since the convolutions with S_r, S_W and S are causal, computing them
// one step at a time (f⊗S_r(t_k) = min(f(t_k), f⊗S_r(t_{k-1}) + r*Dt))
// gives the same curves in O(steps x flows) instead of O(steps x events).

import (
	"math"

	"github.com/ccreplay/ccreplay/units"
)

// flow is the state of one flow during a run.
type flow struct {
	a, ahat, inj []float64 // A, Â (epoch coordinates), bytes sent to the server
	dRing, bRing []float64 // last ΔR+1 values of D (epoch) and of the backlog
	epoch        int32
	k0           int     // grid index of the current origin
	base, injAt0 float64 // origin value, and inj at the origin
	d, out       float64 // D (epoch) and server departures at the current step
	lo, hi       float64 // Theorem 1 bounds on out

	r   float64 // rate limit, bit/s
	kAI int     // time of the last increase or decrease (fix (7))

	w, wth, capB float64 // window, threshold, flight limit (Algorithm 2)

	slow         bool // Algorithm 3 state
	skip, nextEv int
	ahatKe       float64

	paused bool
	kR     int // resume step

	acc, marks float64 // ECN running sum and marks so far
	tn         int     // last or next notification step
	pending    []int   // notification arrival steps

	rttPtr int
	rtt    int // RTT in steps
}

// lookups in epoch coordinates: times at or before the origin are the
// origin (A^rem, Â^rem, D^rem are 0 for t <= 0, Section III-C).
func (f *flow) dAt(j int) float64 {
	if j <= f.k0 {
		return f.base
	}
	return f.dRing[j%len(f.dRing)]
}

func (f *flow) ahatAt(j int) float64 {
	if j <= f.k0 {
		return f.base
	}
	return f.ahat[j]
}

func (f *flow) bAt(j int) float64 {
	if j <= 0 {
		return 0
	}
	return f.bRing[j%len(f.bRing)]
}

type engine struct {
	cfg    *Config
	p      *plan
	fs     []*flow
	in     []float64 // aggregate Â: bytes sent to the server
	out    float64   // aggregate departures
	drop   float64   // bytes flushed by timeouts
	m      int       // Â^↑(D) pointer
	events []Event
}

// Run computes the model of Config and returns its curves and events. It
// returns an error for a bad Config and never panics on one.
func Run(cfg Config) (*Result, error) {
	p, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	e := &engine{cfg: &cfg, p: p, in: make([]float64, p.n+1)}
	for _, fc := range cfg.Flows {
		f := &flow{a: cfg.arrivalCurve(fc, p.n), ahat: make([]float64, p.n+1), inj: make([]float64, p.n+1),
			dRing: make([]float64, p.dR+1), bRing: make([]float64, p.dR+1), tn: math.MinInt / 2}
		f.r = float64(fc.InitRate)
		if f.r == 0 {
			f.r = float64(p.aimd.InitRate)
		}
		if f.r == 0 {
			f.r = float64(cfg.C)
		}
		switch cfg.CC {
		case AIMDWindow:
			f.w, f.wth = float64(cfg.Window.W0), float64(cfg.Window.Threshold)
			f.capB = f.w // fix (5): Â = A⊗S_W = min(A, W_o)
		case Vegas:
			f.w, f.slow, f.nextEv = float64(p.vegas.W0), true, p.dR
		}
		e.fs = append(e.fs, f)
	}
	return e.run(), nil
}

func (e *engine) run() *Result {
	p, cfg := e.p, e.cfg
	m := p.n/p.stride + 1
	rec := units.Time(p.stride) * cfg.Dt
	window := cfg.CC == AIMDWindow || cfg.CC == Vegas
	res := &Result{Dt: rec, Aggregate: newSeries(rec, m, false, !window, false)}
	for range e.fs {
		res.Flows = append(res.Flows, newSeries(rec, m, true, !window, window))
	}
	e.record(res, 0)
	for k := 1; k <= p.n; k++ {
		e.admit(k)
		e.serve(k)
		for i, f := range e.fs {
			e.measureRTT(f, k)
			e.mark(f, k)
			e.react(i, f, k)
		}
		if k%p.stride == 0 {
			e.record(res, k)
		}
	}
	res.Events = e.events
	return res
}

// admit computes Â(t_k) of every flow from the rule in force on
// (t_{k-1}, t_k].
func (e *engine) admit(k int) {
	var sent float64
	for _, f := range e.fs {
		prev := f.ahat[k-1]
		v := prev
		if !f.paused { // PFC: Â is flat while paused
			switch e.cfg.CC {
			case AIMDWindow: // Eq. (5): Â = A^rem ⊗ S_W
				v = math.Max(prev, math.Min(f.a[k], f.capB))
			case Vegas: // Alg. 3 lines 26-29, with Â(t_e) (see fix (3))
				v = math.Max(prev, math.Min(f.a[k], math.Max(f.ahatKe, f.w+f.dAt(k-e.p.dR))))
			default: // Eq. (2): Â = A^rem ⊗ S_r
				v = math.Min(f.a[k], prev+bytesPerStep(f.r, e.cfg.Dt))
			}
		}
		f.ahat[k] = v
		f.inj[k] = f.inj[k-1] + (v - prev)
		sent += v - prev
	}
	e.in[k] = e.in[k-1] + sent
}

// serve computes D = Â⊗S for the aggregate and splits it by Theorem 1.
func (e *engine) serve(k int) {
	e.out = math.Min(e.in[k], e.out+e.p.cStep)
	for e.m < k && e.in[e.m+1] <= e.out+Tol {
		e.m++
	}
	// Theorem 1: D_i(t) lies between Â_i(Â^↑(D(t))) and
	// Â_i(Â^↑(D(t))+ε); interpolating inside the step is exact for Â_i
	// linear in the step and makes Σ D_i = D.
	frac := 0.0
	if e.m < k {
		if gap := e.in[e.m+1] - e.in[e.m]; gap > 0 {
			frac = math.Max(0, math.Min(1, (e.out-e.in[e.m])/gap))
		}
	}
	for _, f := range e.fs {
		f.lo, f.hi = f.inj[e.m], f.inj[e.m]
		if e.m < k {
			f.hi = f.inj[e.m+1]
		}
		f.out = f.lo + frac*(f.hi-f.lo)
		e.setD(f, k)
	}
}

func (e *engine) setD(f *flow, k int) {
	f.d = f.base + math.Max(0, f.out-f.injAt0)
	f.dRing[k%len(f.dRing)] = f.d
	f.bRing[k%len(f.bRing)] = f.inj[k] - f.out
}

// measureRTT computes Eq. (1), RTT(t) = t - Â^↓(D(t-ΔR)), within the
// current epoch.
func (e *engine) measureRTT(f *flow, k int) {
	y := f.dAt(k - e.p.dR)
	f.rttPtr = max(f.rttPtr, f.k0)
	for f.rttPtr < k && f.ahatAt(f.rttPtr) < y-Tol {
		f.rttPtr++
	}
	f.rtt = k - f.rttPtr
}

// mark applies RED to the aggregate backlog and schedules notifications
// by the three cases of Section III-B-d.
func (e *engine) mark(f *flow, k int) {
	c := e.p.ecn
	if c == nil {
		return
	}
	b := e.in[k] - e.out
	var pr float64
	switch {
	case b >= float64(c.KMax)-Tol:
		pr = 1
	case b > float64(c.KMin)+Tol:
		pr = c.PMax * (b - float64(c.KMin)) / float64(c.KMax-c.KMin)
	default:
		return
	}
	f.acc += pr * (f.inj[k] - f.inj[k-1]) / float64(c.IMax)
	if n := math.Floor(f.acc); n > f.marks {
		f.marks = n
		switch d := k - f.tn; {
		case d >= e.p.dGap: // case 1: send now
			f.tn = k
		case d >= 0: // case 2: send Δτ_ecn after the previous one
			f.tn += e.p.dGap
		default: // case 3: one is already scheduled
			return
		}
		f.pending = append(f.pending, f.tn+e.p.dR)
	}
}

// react applies the events at t_k; they govern (t_k, t_{k+1}].
func (e *engine) react(i int, f *flow, k int) {
	p, cfg := e.p, e.cfg
	t := units.Time(k) * cfg.Dt
	for len(f.pending) > 0 && f.pending[0] <= k {
		f.pending = f.pending[1:]
		e.decrease(i, f, k, EvCNP)
	}
	// Timeout (Section III-B-b with fix (6)): D(t-ΔR) < Â(t-τ_o), only
	// for t after the current origin (fix (2)).
	if p.timeout && f.dAt(k-p.dR) < f.ahatAt(k-p.dTo)-Tol {
		base := f.dAt(k - p.dR)
		e.decrease(i, f, k, EvTimeout)
		// Go-Back-N: origin (t_TO, D(t_TO-ΔR)); Â and D restart there
		// (fix (4)).
		f.epoch++
		f.k0, f.base, f.injAt0 = k, base, f.inj[k]
		f.ahat[k], f.rttPtr = base, k
		if cfg.FlushOnTimeout {
			e.drop += e.in[k] - e.out
			e.out, e.m = e.in[k], k
			f.out = f.inj[k]
		}
		e.setD(f, k)
		f.capB = base + f.w
	} else {
		switch cfg.CC {
		case AIMDRate, DCQCN: // Eq. (4), fix (7): Δτ_ai since the last change
			if k-f.kAI >= p.dAI {
				f.kAI = k
				before := f.r
				f.r += float64(p.aimd.Alpha)
				if p.aimd.MaxRate > 0 {
					f.r = math.Min(f.r, float64(p.aimd.MaxRate))
				}
				if f.r != before {
					e.events = append(e.events, Event{T: t, Flow: i, Kind: EvInc, Before: before, After: f.r, IsRate: true})
				}
			}
		case AIMDWindow: // flight end, fix (8): acked since origin >= W
			if f.dAt(k-p.dR) >= f.capB-Tol {
				before := f.w
				if f.w < f.wth { // Eq. (7)
					f.w *= 2
				} else {
					f.w += float64(cfg.Window.Alpha)
				}
				f.capB = f.ahat[k] + f.w
				e.events = append(e.events, Event{T: t, Flow: i, Kind: EvFlight, Before: before, After: f.w})
			}
		case Vegas:
			if k >= f.nextEv {
				e.vegas(i, f, k)
			}
		}
	}
	if c := p.pfc; c != nil {
		if f.paused && k >= f.kR {
			f.paused = false
			b := f.bAt(k)
			e.events = append(e.events, Event{T: t, Flow: i, Kind: EvResume, Before: b, After: b})
		}
		// t_P = inf{s >= t | B(s-ΔR) > X_off}, t_R = t_P + (X_off-X_on)/C.
		if b := f.bAt(k - p.dR); !f.paused && b > float64(c.XOff)+Tol {
			f.paused, f.kR = true, k+p.dPFC
			e.events = append(e.events, Event{T: t, Flow: i, Kind: EvPause, Before: b, After: b})
		}
	}
}

// decrease applies Eq. (3) for a timeout or a CNP, or the window cut of
// Algorithm 2 for a timeout, and restarts the increase clock (fix (7)).
func (e *engine) decrease(i int, f *flow, k int, kind EventKind) {
	ev := Event{T: units.Time(k) * e.cfg.Dt, Flow: i, Kind: kind}
	switch e.cfg.CC {
	case AIMDWindow:
		ev.Before = f.w
		f.wth = e.cfg.Window.Beta * f.w
		f.w = float64(e.cfg.Window.W0)
		ev.After = f.w
	default:
		ev.Before, ev.IsRate = f.r, true
		f.r *= e.p.aimd.Beta
		ev.After = f.r
	}
	f.kAI = k
	e.events = append(e.events, ev)
}

// vegas is one pass of Algorithm 3 lines 6-25 at t_event = t_k.
func (e *engine) vegas(i int, f *flow, k int) {
	v, base := e.p.vegas, float64(e.p.dR)
	minRTT := float64(f.rtt) // line 7, Eq. (1)
	diff := base * (f.w/base - f.w/minRTT)
	before := f.w
	if f.slow {
		if diff > float64(v.Gamma) {
			f.w *= base / minRTT
			f.slow = false
		} else {
			if f.skip == 0 {
				f.w *= 2
			}
			f.skip = (f.skip + 1) % 2
		}
	} else if diff < float64(v.Low) {
		f.w += float64(v.IMax)
	} else if diff > float64(v.High) {
		f.w -= float64(v.IMax)
	}
	f.ahatKe = f.ahat[k]
	f.nextEv = k + max(1, f.rtt) // line 6 of the next pass
	e.events = append(e.events, Event{T: units.Time(k) * e.cfg.Dt, Flow: i, Kind: EvFlight, Before: before, After: f.w})
}

// record appends sample k to the series.
func (e *engine) record(res *Result, k int) {
	agg := &res.Aggregate
	var a, rate float64
	for i, f := range e.fs {
		s := &res.Flows[i]
		s.A.V = append(s.A.V, f.a[k])
		s.Ahat.V = append(s.Ahat.V, f.ahat[k])
		s.D.V = append(s.D.V, f.d)
		s.DLo.V = append(s.DLo.V, f.base+math.Max(0, f.lo-f.injAt0))
		s.DHi.V = append(s.DHi.V, f.base+math.Max(0, f.hi-f.injAt0))
		s.Out.V = append(s.Out.V, f.out)
		s.Backlog = append(s.Backlog, f.inj[k]-f.out)
		if s.Rate != nil {
			s.Rate = append(s.Rate, f.r)
		}
		if s.Window != nil {
			s.Window = append(s.Window, f.w)
		}
		s.RTT = append(s.RTT, units.Time(f.rtt)*e.cfg.Dt)
		s.Paused = append(s.Paused, f.paused)
		s.Epoch = append(s.Epoch, f.epoch)
		a += f.a[k]
		rate += f.r
	}
	agg.A.V = append(agg.A.V, a)
	agg.Ahat.V = append(agg.Ahat.V, e.in[k])
	agg.D.V = append(agg.D.V, e.out-e.drop)
	agg.Out.V = append(agg.Out.V, e.out)
	agg.Backlog = append(agg.Backlog, e.in[k]-e.out)
	if agg.Rate != nil {
		agg.Rate = append(agg.Rate, rate)
	}
}
