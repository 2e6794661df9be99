package netcalc

import (
	"math"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

func mustRun(t *testing.T, c Config) *Result {
	t.Helper()
	r, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func eventsOf(r *Result, flow int, kind EventKind) []Event {
	var out []Event
	for _, e := range r.Events {
		if e.Flow == flow && e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// Section IV-A, Theorem 1 (with Â^† read as Â^↑, fix of App. D-C): three
// flows share a FIFO server; D_lo = Â_i(Â^↑(D(t))) <= D_i <= D_hi and
// Σ_i D_i = D.
func TestTheorem1FIFODemux(t *testing.T) {
	c := Config{Dt: testDt, Horizon: 100 * units.Microsecond, C: 100 * units.Gbps, DeltaR: 2 * units.Microsecond, CC: LineRate,
		Flows: []Flow{
			{Arrivals: []Arrival{{Bytes: 200 * units.KB}}},
			{Arrivals: []Arrival{{Rate: 60 * units.Gbps, At: 5 * units.Microsecond}}},
			{Arrivals: []Arrival{{Bytes: 100 * units.KB, At: 10 * units.Microsecond}, {Rate: 20 * units.Gbps}}, InitRate: 40 * units.Gbps},
		}}
	r := mustRun(t, c)
	agg := r.Aggregate
	for k := range agg.D.V {
		sum := 0.0
		m, _ := agg.Ahat.UpperInverse(agg.D.V[k])
		for i, f := range r.Flows {
			sum += f.D.V[k]
			if lo := f.Ahat.At(m); math.Abs(f.DLo.V[k]-lo) > Tol {
				t.Fatalf("flow %d at %v: DLo %g, Â_i(Â^↑(D)) = %g", i, r.T(k), f.DLo.V[k], lo)
			}
			if f.DLo.V[k] > f.D.V[k]+Tol || f.D.V[k] > f.DHi.V[k]+Tol {
				t.Fatalf("flow %d at %v: %g <= %g <= %g fails", i, r.T(k), f.DLo.V[k], f.D.V[k], f.DHi.V[k])
			}
		}
		if math.Abs(sum-agg.D.V[k]) > 1e-6*math.Max(1, agg.D.V[k]) {
			t.Fatalf("at %v: Σ D_i = %g, D = %g", r.T(k), sum, agg.D.V[k])
		}
	}
	if agg.Backlog[100] <= 0 {
		t.Fatal("the scenario should build a queue")
	}
}

// Section III-A: D <= Â <= A within each epoch, and Â and D do not drop
// inside an epoch (a DCQCN run without PFC, which has timeouts).
func TestCurvesOrderedWithinEpochs(t *testing.T) {
	r := incastNoPFC(t)
	epochs := 0
	for i, f := range r.Flows {
		for k := range f.D.V {
			if f.D.V[k] > f.Ahat.V[k]+Tol || f.Ahat.V[k] > f.A.V[k]+Tol {
				t.Fatalf("flow %d at %v: D %g Â %g A %g", i, r.T(k), f.D.V[k], f.Ahat.V[k], f.A.V[k])
			}
			if k > 0 && f.Epoch[k] == f.Epoch[k-1] && (f.D.V[k] < f.D.V[k-1]-Tol || f.Ahat.V[k] < f.Ahat.V[k-1]-Tol) {
				t.Fatalf("flow %d drops inside epoch %d at %v", i, f.Epoch[k], r.T(k))
			}
		}
		epochs += int(f.Epoch[len(f.Epoch)-1])
	}
	if epochs == 0 {
		t.Fatal("the run should contain timeouts")
	}
}

// aimd1 is a single greedy flow under Algorithm 1 that starts at r_o =
// 100 Gb/s into a 50 Gb/s server, so the queueing delay of the byte sent
// at s is s.
func aimd1(alpha units.BitsPerSec, flush bool) Config {
	return Config{Dt: testDt, Horizon: 2 * units.Millisecond, C: 50 * units.Gbps, DeltaR: 20 * units.Microsecond, CC: AIMDRate,
		AIMD: AIMDParams{Alpha: alpha, Beta: 0.5, Timeout: 100 * units.Microsecond, IncreaseEvery: 30 * units.Microsecond,
			InitRate: 100 * units.Gbps},
		Flows: []Flow{{Arrivals: []Arrival{{Bytes: GreedyBytes}}}}, FlushOnTimeout: flush}
}

// Printed fix (6): the timeout curve is Â(t-τ_o) (Fig. 2's caption), not
// Â(t-ΔR). With Â = 2Ct and D = Ct, D(t-ΔR) < Â(t-τ_o) first holds
// after t = 2τ_o-ΔR = 180 us; with Â(t-ΔR) it would hold at once.
func TestFix6TimeoutCurve(t *testing.T) {
	r := mustRun(t, aimd1(0, true))
	to := eventsOf(r, 0, EvTimeout)
	if len(to) == 0 {
		t.Fatal("no timeout")
	}
	if got, want := to[0].T, 180*units.Microsecond; got < want || got > want+2*testDt {
		t.Errorf("first timeout at %v, want just after 2τ_o-ΔR = %v", got, want)
	}
}

// Printed fix (2), Algorithm 1 step 7: the next timeout is searched after
// the current origin only. In the new epoch the timeout function
// Â^rem(t-τ_o) is 0 up to t_TO+τ_o, so timeouts are at least τ_o apart.
func TestFix2TimeoutsAfterOrigin(t *testing.T) {
	c := aimd1(0, true)
	c.AIMD.InitRate = 400 * units.Gbps // 400 -> 200 -> 100 -> 50 Gb/s
	r := mustRun(t, c)
	to := eventsOf(r, 0, EvTimeout)
	if len(to) != 3 {
		t.Fatalf("want 3 timeouts, got %d", len(to))
	}
	for i := 1; i < len(to); i++ {
		if d := to[i].T - to[i-1].T; d <= 100*units.Microsecond {
			t.Fatalf("timeouts at %v and %v are closer than τ_o", to[i-1].T, to[i].T)
		}
	}
}

// Printed fix (4), Algorithm 1 steps 22-27 (and Section III-C): after a
// timeout, Â and D restart at D(t_TO-ΔR) and, with the server flushed as
// in Algorithm 1, D = D(t_TO-ΔR) + Â^rem⊗S with Â^rem(t) = Â(t+t_TO) -
// D(t_TO-ΔR), through the later increases of the epoch.
func TestFix4TimeoutOrigin(t *testing.T) {
	c := aimd1(units.Gbps, true)
	r := mustRun(t, c)
	f := r.Flows[0]
	to := eventsOf(r, 0, EvTimeout)
	if len(to) < 2 || len(eventsOf(r, 0, EvInc)) == 0 {
		t.Fatal("want timeouts and increases")
	}
	k0, k1 := int(to[0].T/testDt), int(to[1].T/testDt)
	base := f.D.V[k0-int(c.DeltaR/testDt)]
	if f.Ahat.V[k0] != base || f.D.V[k0] != base {
		t.Fatalf("at t_TO: Â %g D %g, want D(t_TO-ΔR) = %g", f.Ahat.V[k0], f.D.V[k0], base)
	}
	rem := Curve{Dt: testDt}
	for k := k0; k < k1; k++ {
		rem.V = append(rem.V, f.Ahat.V[k]-base)
	}
	drem := ConvolveRate(rem, c.C)
	for j := range drem.V {
		if got := f.D.V[k0+j]; math.Abs(got-(base+drem.V[j])) > 1e-6*got {
			t.Fatalf("at %v: D %g, want D(t_TO-ΔR)+D^rem = %g", r.T(k0+j), got, base+drem.V[j])
		}
	}
}

// Printed fix (3), Algorithm 1 steps 19/21: an increase moves the origin
// to (t_AI, Â(t_AI)), so Â keeps the shaper backlog A-Â and never jumps
// to A(t_AI): Â grows by at most r*Dt per step.
func TestFix3IncreaseKeepsShaperBacklog(t *testing.T) {
	c := Config{Dt: testDt, Horizon: 300 * units.Microsecond, C: 100 * units.Gbps, DeltaR: 4 * units.Microsecond, CC: AIMDRate,
		AIMD:  AIMDParams{Alpha: units.Gbps, Beta: 0.5, IncreaseEvery: 10 * units.Microsecond, InitRate: 10 * units.Gbps},
		Flows: []Flow{{Arrivals: []Arrival{{Bytes: 1 * units.MB}}}}}
	r := mustRun(t, c)
	f := r.Flows[0]
	if len(eventsOf(r, 0, EvInc)) < 20 {
		t.Fatal("want increases")
	}
	for k := 1; k < len(f.Ahat.V); k++ {
		if inc := f.Ahat.V[k] - f.Ahat.V[k-1]; inc > bytesPerStep(f.Rate[k-1], testDt)+Tol {
			t.Fatalf("at %v: Â grows by %g B in a step at rate %v", r.T(k), inc, units.BitsPerSec(f.Rate[k-1]))
		}
	}
	if f.Ahat.V[len(f.Ahat.V)-1] >= float64(units.MB) {
		t.Fatal("the shaper should still hold a backlog")
	}
}

// Printed fix (7), Eq. (4): an increase needs Δτ_ai without a timeout or
// a CNP, so the increase clock restarts at every decrease (DCQCN run).
func TestFix7IncreaseClockRestartsOnDecrease(t *testing.T) {
	r := incastNoPFC(t)
	gap := DCQCNParams().IncreaseEvery
	last := units.Time(0)
	n := 0
	for _, e := range r.Events {
		if e.Flow != 0 {
			continue
		}
		switch e.Kind {
		case EvCNP, EvTimeout:
			last = e.T
		case EvInc:
			n++
			if e.T-last < gap {
				t.Fatalf("increase at %v only %v after the last change", e.T, e.T-last)
			}
			last = e.T
		}
	}
	if n == 0 {
		t.Fatal("no increases")
	}
}

func windowCfg() Config {
	return Config{Dt: testDt, Horizon: 3 * units.Millisecond, C: 10 * units.Gbps, DeltaR: 20 * units.Microsecond, CC: AIMDWindow,
		Window: WindowParams{Alpha: 1500, Beta: 0.5, Timeout: 300 * units.Microsecond, W0: 15000, Threshold: 1 * units.MB},
		Flows:  []Flow{{Arrivals: []Arrival{{Bytes: GreedyBytes}}}}}
}

// Printed fixes (5) and (8), Algorithm 2 steps 4 and 7: Â = A⊗S_W =
// min(A, W_o) at first, and a flight ends when the bytes acked since the
// origin reach W (>=; with > the flight would never end, since D <= Â <=
// origin+W). Eq. (7): W doubles below w_th.
func TestFix5And8WindowFlights(t *testing.T) {
	r := mustRun(t, windowCfg())
	f := r.Flows[0]
	fl := eventsOf(r, 0, EvFlight)
	if len(fl) < 3 {
		t.Fatalf("want flights, got %d", len(fl))
	}
	// W_o = 15 kB leaves in 12 us at 10 Gb/s; acked ΔR = 20 us later.
	if want := 32 * units.Microsecond; fl[0].T != want {
		t.Errorf("first flight ends at %v, want %v", fl[0].T, want)
	}
	for k := 0; k <= int(fl[0].T/testDt); k++ {
		if want := math.Min(f.A.V[k], 15000); f.Ahat.V[k] != want {
			t.Fatalf("at %v: Â %g, want min(A, W_o) = %g", r.T(k), f.Ahat.V[k], want)
		}
	}
	for i, e := range fl[:3] {
		if e.After != 2*e.Before {
			t.Errorf("flight %d: W %g -> %g, want doubling below w_th", i, e.Before, e.After)
		}
	}
}

// Algorithm 2 steps 10-17: a timeout sets w_th = βW and W = W_o, then
// slow start runs up to w_th and additive increase follows (Eq. (7)).
func TestAlgorithm2Timeout(t *testing.T) {
	r := mustRun(t, windowCfg())
	to := eventsOf(r, 0, EvTimeout)
	if len(to) == 0 {
		t.Fatal("no timeout")
	}
	wth := 0.5 * to[0].Before
	if to[0].After != 15000 {
		t.Fatalf("timeout: W -> %g, want W_o", to[0].After)
	}
	sawAI := false
	for _, e := range eventsOf(r, 0, EvFlight) {
		if e.T <= to[0].T || (len(to) > 1 && e.T >= to[1].T) {
			continue
		}
		switch {
		case e.Before < wth && e.After != 2*e.Before:
			t.Fatalf("%v: below w_th=%g want doubling", e, wth)
		case e.Before >= wth && e.After != e.Before+1500:
			t.Fatalf("%v: at or above w_th=%g want +α", e, wth)
		case e.Before >= wth:
			sawAI = true
		}
	}
	if !sawAI {
		t.Error("no additive increase after the timeout")
	}
}

// Section III-E, Algorithm 3: once the link is saturated, Vegas keeps
// diff ≈ backlog between w_low and w_high (one I_max of slack), and the
// window bounds the bytes in flight: Â(t) - D(t-ΔR) <= W (Alg. 3 line 27
// with Â(t_e), the analogue of fix (3)).
func TestVegasAlgorithm3(t *testing.T) {
	c := PaperVegas()
	r := mustRun(t, c)
	f, v := r.Flows[0], VegasDefaults()
	dR := int(c.DeltaR / c.Dt)
	maxW := 0.0
	for k := range f.Window {
		maxW = math.Max(maxW, f.Window[k])
		if k > dR && f.Ahat.V[k]-f.D.V[k-dR] > maxW+Tol {
			t.Fatalf("at %v: in flight %g > W %g", r.T(k), f.Ahat.V[k]-f.D.V[k-dR], maxW)
		}
	}
	for k := int(4 * units.Millisecond / c.Dt); k < len(f.Backlog); k++ {
		if b := f.Backlog[k]; b < float64(v.Low-v.IMax) || b > float64(v.High+v.IMax) {
			t.Fatalf("at %v: backlog %g outside [w_low-I_max, w_high+I_max]", r.T(k), b)
		}
	}
	k0, k1 := int(4*units.Millisecond/c.Dt), len(f.D.V)-1
	if thr := (f.D.V[k1] - f.D.V[k0]) * 8 / (r.T(k1) - r.T(k0)).Seconds(); thr < 0.95*float64(c.C) {
		t.Errorf("throughput %g b/s, want the link rate", thr)
	}
}

func TestConfigErrors(t *testing.T) {
	good := PaperIncast(true, true)
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"dt", func(c *Config) { c.Dt = 0 }, "dt"},
		{"horizon", func(c *Config) { c.Horizon = 1 }, "horizon"},
		{"c", func(c *Config) { c.C = 0 }, "bottleneck"},
		{"deltaR", func(c *Config) { c.DeltaR = 0 }, "deltaR"},
		{"flows", func(c *Config) { c.Flows = nil }, "no flows"},
		{"cc", func(c *Config) { c.CC = "cubic" }, "unknown cc"},
		{"beta", func(c *Config) { c.AIMD = DCQCNParams(); c.AIMD.Beta = 1 }, "beta"},
		{"ecn on window", func(c *Config) { c.CC = AIMDWindow; c.Window = windowCfg().Window }, "ecn needs"},
		{"kmin", func(c *Config) { c.ECN = &ECNParams{KMin: 10, KMax: 5, PMax: 0.1, IMax: 1} }, "kmin"},
		{"pfc", func(c *Config) { c.PFC = &PFCParams{XOff: 1, XOn: 2} }, "xon"},
		{"arrival", func(c *Config) { c.Flows[0].Arrivals[0].Bytes = -1 }, "flow 0"},
		{"curve dt", func(c *Config) { c.Flows[0] = Flow{Curve: &Curve{Dt: 1, V: []float64{0}}} }, "curve dt"},
		{"flush", func(c *Config) { c.FlushOnTimeout = true }, "one flow"},
		{"record", func(c *Config) { c.Record = c.Dt + 1 }, "record"},
		{"size", func(c *Config) { c.Dt = 1 }, "too large"},
		{"window w0", func(c *Config) { c.CC, c.ECN, c.Window = AIMDWindow, nil, WindowParams{Beta: 0.5} }, "w0"},
		{"aimd alpha", func(c *Config) { c.AIMD = DCQCNParams(); c.AIMD.Alpha = -1 }, "aimd alpha must not be negative"},
		{"aimd beta", func(c *Config) { c.AIMD = DCQCNParams(); c.AIMD.Beta = 1.5 }, "aimd beta 1.5 must be in (0,1)"},
		{"aimd timeout", func(c *Config) { c.AIMD = DCQCNParams(); c.AIMD.Timeout = -1 }, "aimd timeout must not be negative"},
		{"window alpha", func(c *Config) { c.CC, c.ECN, c.Window = AIMDWindow, nil, WindowParams{Alpha: -1, Beta: 0.5, W0: 1} }, "window alpha must not be negative"},
		{"window beta", func(c *Config) { c.CC, c.ECN, c.Window = AIMDWindow, nil, WindowParams{Beta: 1, W0: 1} }, "window beta 1 must be in (0,1)"},
		{"window timeout", func(c *Config) { c.CC, c.ECN, c.Window = AIMDWindow, nil, WindowParams{Beta: 0.5, W0: 1, Timeout: -1} }, "window timeout must not be negative"},
	} {
		c := good
		c.Flows = append([]Flow(nil), good.Flows...)
		c.Flows[0].Arrivals = append([]Arrival(nil), good.Flows[0].Arrivals...)
		if tc.name == "ecn on window" {
			c.ECN = &ECNParams{KMin: 1, KMax: 2, PMax: 1, IMax: 1}
		}
		tc.edit(&c)
		_, err := Run(c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestEventString(t *testing.T) {
	for _, tc := range []struct {
		e    Event
		want string
	}{
		{Event{T: 54600 * units.Nanosecond, Flow: 3, Kind: EvCNP, Before: 100e9, After: 75e9, IsRate: true}, "54.6us flow 3 cnp 100Gbps->75Gbps"},
		{Event{T: 32 * units.Microsecond, Kind: EvFlight, Before: 15000, After: 30000}, "32us flow 0 flight 15000B->30000B"},
		{Event{T: 132 * units.Microsecond, Flow: 1, Kind: EvPause, Before: 950100, After: 950100}, "132us flow 1 pause backlog 950100B"},
	} {
		if got := tc.e.String(); got != tc.want {
			t.Errorf("got %q want %q", got, tc.want)
		}
	}
}

// Section III-A: an arrival function given as a Curve gives the same run
// as the equivalent Arrivals (linerate, Eq. (2): Â = A⊗S_{r_o}).
func TestCurveArrival(t *testing.T) {
	c := Config{Dt: testDt, Horizon: 50 * units.Microsecond, C: 10 * units.Gbps, DeltaR: units.Microsecond, CC: LineRate,
		Flows: []Flow{{Arrivals: []Arrival{{Bytes: 20 * units.KB, At: units.Microsecond}, {Rate: 5 * units.Gbps}}, InitRate: 40 * units.Gbps}}}
	r1 := mustRun(t, c)
	a := r1.Flows[0].A
	c.Flows = []Flow{{Curve: &a, InitRate: 40 * units.Gbps}}
	r2 := mustRun(t, c)
	assertCurvesEqual(t, "D", r2.Flows[0].D, r1.Flows[0].D, a.Len())
	assertCurvesEqual(t, "Â = A⊗S_r", r1.Flows[0].Ahat, ConvolveRate(a, 40*units.Gbps), a.Len())
	assertCurvesEqual(t, "D = Â⊗S", r1.Flows[0].D, ConvolveRate(r1.Flows[0].Ahat, c.C), a.Len())
}
