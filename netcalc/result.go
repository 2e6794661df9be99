package netcalc

import "github.com/ccreplay/ccreplay/units"

// Series is the output of one flow, or of the aggregate, sampled every
// Result.Dt (sample k is at time k*Result.Dt).
type Series struct {
	// A is the arrival function in bytes (Section III-A).
	A Curve
	// Ahat is the admitted arrival function Â in bytes. For a flow it is
	// in the coordinates of its current epoch: a timeout moves the
	// origin to (t_TO, D(t_TO-ΔR)), so Ahat may drop (Section III-C).
	// For the aggregate it is Σ of the bytes the flows sent into the path
	// server, which never drops.
	Ahat Curve
	// D is the departure function in bytes. For a flow it is in epoch
	// coordinates and counts only the bytes sent in the current epoch:
	// the Theorem 1 value, exact when Â_j is linear within a grid step.
	// For the aggregate it is Â⊗S (without flushed bytes).
	D Curve
	// DLo and DHi are the bounds of Theorem 1 on D in bytes,
	// Â_i(Â^↑(D(t))) and Â_i(Â^↑(D(t))+Dt), with Â the aggregate
	// (flows only).
	DLo, DHi Curve
	// Out is the cumulative number of the series' bytes that left the
	// path server, in bytes, including bytes of earlier epochs; it never
	// drops (flows and aggregate).
	Out Curve
	// Backlog is the number of the series' bytes in the path server, in
	// bytes. It equals Ahat-D except while bytes of an earlier epoch
	// still drain.
	Backlog []float64
	// Rate is the rate limit r in bit/s (rate CCs and linerate; for the
	// aggregate the sum over flows); nil for window CCs.
	Rate []float64
	// Window is W in bytes (window CCs; nil otherwise and for the
	// aggregate).
	Window []float64
	// RTT is RTT(t) of Eq. (1) in picoseconds (flows only).
	RTT []units.Time
	// Paused says that PFC pauses the flow just after the sample time
	// (flows only).
	Paused []bool
	// Epoch counts the flow's timeouts so far (flows only).
	Epoch []int32
}

// Result is the output of Run.
type Result struct {
	// Dt is the sampling interval of the series in picoseconds.
	Dt units.Time
	// Flows are the per-flow series, in the order of Config.Flows.
	Flows []Series
	// Aggregate is the series of the path server.
	Aggregate Series
	// Events are the congestion events in time order (ties by flow).
	Events []Event
}

// T returns the time of sample k in picoseconds.
func (r *Result) T(k int) units.Time { return units.Time(k) * r.Dt }

func newSeries(dt units.Time, m int, flow, rate, window bool) Series {
	c := func() Curve { return Curve{Dt: dt, V: make([]float64, 0, m)} }
	s := Series{A: c(), Ahat: c(), D: c(), Out: c(), Backlog: make([]float64, 0, m)}
	if flow {
		s.DLo, s.DHi = c(), c()
		s.RTT = make([]units.Time, 0, m)
		s.Paused = make([]bool, 0, m)
		s.Epoch = make([]int32, 0, m)
	}
	if rate {
		s.Rate = make([]float64, 0, m)
	}
	if window && flow {
		s.Window = make([]float64, 0, m)
	}
	return s
}
