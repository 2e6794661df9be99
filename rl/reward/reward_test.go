package reward

import (
	"math"
	"testing"
)

// near reports |a-b| <= 1e-12 (relative for large values).
func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b))
}

func TestDolceRC(t *testing.T) {
	// Dolce-RC (Ye 2023), Eq. 4: X = 1 - marked/sent.
	cases := []struct{ ecn, want float64 }{
		{0, 1},
		{0.25, 0.75}, // 25 of 100 packets marked
		{1, 0},
		{-0.1, 1}, // clamped into [0, 1]: X in [0, 1] per Definition 2
		{1.5, 0},
	}
	for _, c := range cases {
		if got := DolceRC(c.ecn); !near(got, c.want) {
			t.Errorf("DolceRC(%v) = %v, want %v", c.ecn, got, c.want)
		}
	}
	if !math.IsNaN(DolceRC(math.NaN())) {
		t.Error("DolceRC(NaN) is not NaN")
	}
}

func TestDolcePlus(t *testing.T) {
	// Dolce-RC (Ye 2023), Eq. 5: X = ideal/actual * (1 - ECN)^i.
	cases := []struct {
		ideal, actual, ecn float64
		arm                int
		want               float64
	}{
		{10, 20, 0, 3, 0.5},          // slowdown 2, no marks
		{10, 20, 0.5, 2, 0.5 * 0.25}, // (1-0.5)^2 = 0.25
		{10, 40, 0.1, 3, 0.25 * 0.9 * 0.9 * 0.9},
		{10, 10, 0.9, 0, 1},    // arm 0: the ECN factor is 1
		{30, 20, 0, 1, 1},      // ratio clamped to 1
		{10, 0, 0.2, 1, 0.8},   // no MCT measured: ratio 1
		{10, 20, 0.5, -1, 0.5}, // negative arm counts as 0
	}
	for _, c := range cases {
		if got := DolcePlus(c.ideal, c.actual, c.ecn, c.arm); !near(got, c.want) {
			t.Errorf("DolcePlus(%v, %v, %v, %d) = %v, want %v", c.ideal, c.actual, c.ecn, c.arm, got, c.want)
		}
	}
}

func TestDolcePlusArm(t *testing.T) {
	// Dolce-RC (Ye 2023), Definition 3: r_i = C/2^(K-1-i); K = 4 gives
	// C/8, C/4, C/2, C.
	cases := []struct {
		frac float64
		k    int
		want int
	}{
		{1, 4, 3}, {0.5, 4, 2}, {0.25, 4, 1}, {0.125, 4, 0},
		{0.01, 4, 0}, // below the lowest arm
		{2, 4, 3},    // above C
		{0.7, 4, 2},  // 3 + log2(0.7) = 2.49 -> 2
		{0, 4, 0},    // no rate
		{0.3, 1, 0},  // one arm only
		{0.75, 8, 7}, // 7 - 0.415 = 6.58 -> 7
	}
	for _, c := range cases {
		if got := DolcePlusArm(c.frac, c.k); got != c.want {
			t.Errorf("DolcePlusArm(%v, %d) = %d, want %d", c.frac, c.k, got, c.want)
		}
	}
}

func TestRLCC(t *testing.T) {
	// RL-CC-NIC (Fuhrer 2023), Eq. 1:
	// r = -(target - max(infl - beta, 0) * sqrt(rate))^2.
	cases := []struct{ infl, rate, want float64 }{
		{1.0, 1, -RLCCTarget * RLCCTarget}, // below beta: max(...) = 0, r = -target^2
		{1.5, 1, -RLCCTarget * RLCCTarget}, // exactly beta
		// infl 2.5, rate 0.25: (0.064 - 1*0.5)^2 = 0.436^2 = 0.190096
		{2.5, 0.25, -0.190096},
		// infl 1.628, rate 1: 0.128*1 = 2 x target -> -(0.064)^2
		{1.628, 1, -0.064 * 0.064},
		// the fixed point: (infl-beta)*sqrt(rate) = target -> 0
		{1.5 + 0.064*2, 0.25, 0},
	}
	for _, c := range cases {
		if got := RLCC(c.infl, c.rate, RLCCTarget, RLCCBeta); !near(got, c.want) {
			t.Errorf("RLCC(%v, %v) = %v, want %v", c.infl, c.rate, got, c.want)
		}
	}
	// RL-CC-NIC (Fuhrer 2023), Eq. 2: at the optimum
	// E[infl] = target*sqrt(N/line) + beta; with rate as a fraction of line
	// rate, rate = 1/N: infl = target*sqrt(N) + beta.
	for _, n := range []float64{1, 4, 16, 64} {
		infl := RLCCTarget*math.Sqrt(n) + RLCCBeta
		if got := RLCC(infl, 1/n, RLCCTarget, RLCCBeta); !near(got, 0) {
			t.Errorf("N=%v: reward at the Eq. 2 fixed point = %v, want 0", n, got)
		}
	}
}

func TestRLCCBetaFree(t *testing.T) {
	// RL-CC (Tessler 2022), Section 4:
	// r_t = -(target - RTT/base-RTT * sqrt(rate))^2.
	cases := []struct{ infl, rate, want float64 }{
		{1, 1, -(0.064 - 1) * (0.064 - 1)},
		{2, 0.25, -(0.064 - 1) * (0.064 - 1)}, // 2 * 0.5 = 1
		{1.28, 0.0025, 0},                     // 1.28 * 0.05 = 0.064: the fixed point
		{3, 0, -0.064 * 0.064},                // no rate
		{3, -1, -0.064 * 0.064},               // negative rate counts as 0
	}
	for _, c := range cases {
		if got := RLCCBetaFree(c.infl, c.rate, RLCCTarget); !near(got, c.want) {
			t.Errorf("RLCCBetaFree(%v, %v) = %v, want %v", c.infl, c.rate, got, c.want)
		}
	}
	// With beta = 0 and infl >= 0, RL-CC-NIC (Fuhrer 2023), Eq. 1, reduces
	// to the form of RL-CC (Tessler 2022), Section 4.
	for _, infl := range []float64{0, 0.7, 1, 2.3} {
		for _, rate := range []float64{0.01, 0.3, 1} {
			if a, b := RLCC(infl, rate, 0.1, 0), RLCCBetaFree(infl, rate, 0.1); !near(a, b) {
				t.Errorf("infl %v rate %v: RLCC(beta=0) %v != RLCCBetaFree %v", infl, rate, a, b)
			}
		}
	}
}

func TestFDCC(t *testing.T) {
	// FDCC (Zhang 2023), Algorithm 1; FDCC reads THROUGHPUT over the fair
	// share (x = N x share), FDCCLiteral as printed.
	cases := []struct {
		name        string
		o           FDCCObs
		want, liter float64
	}{
		// line 2: 1.0 + 0.6 - 1 = 0.6 > 0.5 -> line 3: -RTT (both readings).
		{"draining", FDCCObs{SwitchRate: 1, QLen: 0.6, RTT: 3.2, Throughput: 0.9, Flows: 4}, -3.2, -3.2},
		// 1.0 + 0.5 - 1 = 0.5, not > 0.5 -> line 5. x = 4 x 0.25 = 1:
		// 1 + 1/2 - 0 = 1.5; literal 0.25 + 1/2 - (0.25 - 1/4)^2 = 0.75.
		{"at threshold", FDCCObs{SwitchRate: 1, QLen: 0.5, RTT: 2, Throughput: 0.25, Flows: 4}, 1.5, 0.75},
		// line 5, x = 2: 2 + 0.8 - 1 = 1.8; literal
		// 0.5 + 1/1.25 - (0.5 - 1/4)^2 = 1.2375.
		{"probing unfair", FDCCObs{SwitchRate: 0.9, QLen: 0.1, RTT: 1.25, Throughput: 0.5, Flows: 4}, 1.8, 1.2375},
		// one flow: x = 1: 1 + 1 - 0 = 2 in both.
		{"alone at line rate", FDCCObs{SwitchRate: 1, QLen: 0, RTT: 1, Throughput: 1, Flows: 1}, 2, 2},
		// Flows 0 counts as 1: x = 0.5: 0.5 + 1 - 0.25 = 1.25 in both.
		{"no flow count", FDCCObs{RTT: 1, Throughput: 0.5}, 1.25, 1.25},
		// no RTT sample: 1/RTT contributes 0: x = 1: 1; literal 0.5.
		{"no rtt", FDCCObs{Throughput: 0.5, Flows: 2}, 1, 0.5},
		// starved: x = 0: 0 + 1 - 1 = 0; literal 0 + 1 - 1/256.
		{"starved", FDCCObs{SwitchRate: 0.5, RTT: 1, Throughput: 0, Flows: 16}, 0, 1 - 1.0/256},
	}
	for _, c := range cases {
		if got := FDCC(c.o); !near(got, c.want) {
			t.Errorf("%s: FDCC(%+v) = %v, want %v", c.name, c.o, got, c.want)
		}
		if got := FDCCLiteral(c.o); !near(got, c.liter) {
			t.Errorf("%s: FDCCLiteral(%+v) = %v, want %v", c.name, c.o, got, c.liter)
		}
		if got := FDCCAsPrinted.Func()(c.o); !near(got, c.liter) {
			t.Errorf("%s: the fdcc-literal reading gives %v, want %v", c.name, got, c.liter)
		}
		if got := FDCCNormalised.Func()(c.o); !near(got, c.want) {
			t.Errorf("%s: the fdcc reading gives %v, want %v", c.name, got, c.want)
		}
	}
	nan := FDCCObs{SwitchRate: math.NaN(), QLen: 0.2, RTT: 1, Throughput: 1, Flows: 1}
	if !math.IsNaN(FDCC(nan)) || !math.IsNaN(FDCCLiteral(nan)) {
		t.Error("FDCC without telemetry is not NaN")
	}
	if !FDCCDraining(FDCCObs{SwitchRate: 0.8, QLen: 0.71}) || FDCCDraining(FDCCObs{SwitchRate: 0.8, QLen: 0.7}) {
		t.Error("FDCCDraining does not switch at SWITCHRATE + QLEN - 1 = 0.5")
	}
}

func TestDiscounted(t *testing.T) {
	// FDCC (Zhang 2023), Section 4.2: R_t = sum_{i<n} gamma^i r_{t+i},
	// truncated at the episode's end.
	r := []float64{1, 2, 3, 4}
	got := Discounted(r, 0.5, 2)
	want := []float64{1 + 0.5*2, 2 + 0.5*3, 3 + 0.5*4, 4}
	for i := range want {
		if !near(got[i], want[i]) {
			t.Errorf("n=2: R_%d = %v, want %v", i, got[i], want[i])
		}
	}
	got = Discounted(r, 0.5, 3)
	want = []float64{1 + 1 + 0.75, 2 + 1.5 + 1, 3 + 2, 4}
	for i := range want {
		if !near(got[i], want[i]) {
			t.Errorf("n=3: R_%d = %v, want %v", i, got[i], want[i])
		}
	}
	// n = 1 is the instantaneous reward; n <= 0 and n >= len(r) are the
	// full discounted return.
	for i, v := range Discounted(r, 0.9, 1) {
		if v != r[i] {
			t.Errorf("n=1: R_%d = %v, want %v", i, v, r[i])
		}
	}
	full := []float64{1 + 0.9*2 + 0.81*3 + 0.729*4, 2 + 0.9*3 + 0.81*4, 3 + 0.9*4, 4}
	for _, n := range []int{0, -1, 4, 10} {
		for i, v := range Discounted(r, 0.9, n) {
			if !near(v, full[i]) {
				t.Errorf("n=%d: R_%d = %v, want %v", n, i, v, full[i])
			}
		}
	}
	if len(Discounted(nil, 0.9, 3)) != 0 {
		t.Error("empty episode gives a non-empty result")
	}
	if r[0] != 1 || r[3] != 4 {
		t.Error("Discounted modified its input")
	}
}

// The incentives of Algorithm 1's line 5 (FDCC, Zhang 2023) under both
// readings, which docs/FDCC.md ("The reward") uses to explain why policies
// trained on the literal one are unfair or starve the link, and why ccreplay
// trains on the normalised one.
//
// Literal (THROUGHPUT T = share of the link), FDCCLiteral:
//   - with the RTT fixed, a flow's reward rises with its own T until
//     1/N + 1/2 (d/dT [T - (T - 1/N)^2] = 1 - 2(T - 1/N)), so an agent
//     gains by taking more than its fair share 1/N, up to about half the
//     link whatever N;
//   - a flow at its fair share earns only 1/N + 1/N^2 more than a starved
//     one at the base RTT, less than what an RTT of 1.2 base RTTs costs
//     (1 - 1/1.2 = 1/6) once N >= 8.
//
// Normalised (x = N T), FDCC:
//   - a flow at its fair share earns 2 more than a starved one, whatever N,
//     ten times what an RTT of 1.2 base RTTs costs;
//   - the reward peaks at x = 3/2 and is back at the fair share's value
//     at x = 2: overshoot pays at most 1/4 (and moves the RTT term).
func TestFDCCRewardIncentives(t *testing.T) {
	t.Parallel()
	lit := func(share float64, rtt float64, n int) float64 {
		return FDCCLiteral(FDCCObs{SwitchRate: 0.5, QLen: 0, RTT: rtt, Throughput: share, Flows: n})
	}
	norm := func(share float64, rtt float64, n int) float64 {
		return FDCC(FDCCObs{SwitchRate: 0.5, QLen: 0, RTT: rtt, Throughput: share, Flows: n})
	}
	for _, n := range []int{2, 4, 16, 64} {
		fair := 1 / float64(n)
		// The literal reading's flaw.
		peak := fair + 0.5
		prev := lit(fair, 1, n)
		for s := fair + 0.01; s <= min(peak, 1); s += 0.01 {
			r := lit(s, 1, n)
			if r <= prev {
				t.Fatalf("N=%d: literal reward %.6f at share %.2f is not above %.6f just below it: line 5 should pay for more than the fair share up to 1/N + 1/2", n, r, s, prev)
			}
			prev = r
		}
		if peak < 1 {
			if a, b := lit(peak, 1, n), lit(peak+0.05, 1, n); b >= a {
				t.Errorf("N=%d: literal reward still rising past 1/N + 1/2 (%.6f -> %.6f)", n, a, b)
			}
		}
		gain := lit(fair, 1, n) - lit(0, 1, n)
		if want := fair + fair*fair; math.Abs(gain-want) > 1e-12 {
			t.Errorf("N=%d: literal fair share over starved = %.6f, want 1/N + 1/N^2 = %.6f", n, gain, want)
		}
		rttCost := lit(fair, 1, n) - lit(fair, 1.2, n)
		if n >= 8 && gain >= rttCost {
			t.Errorf("N=%d: the literal fair share's gain %.4f over starving is not below an RTT of 1.2's cost %.4f", n, gain, rttCost)
		}

		// The normalised reading's incentive.
		ngain := norm(fair, 1, n) - norm(0, 1, n)
		if math.Abs(ngain-2) > 1e-12 {
			t.Errorf("N=%d: normalised fair share over starved = %.6f, want 2", n, ngain)
		}
		if cost := norm(fair, 1, n) - norm(fair, 1.2, n); ngain < 10*cost {
			t.Errorf("N=%d: normalised fair share's gain %.4f over starving is not 10x an RTT of 1.2's cost %.4f", n, ngain, cost)
		}
		// Rising to x = 3/2, falling after; back at the fair share's value at x = 2.
		prev = norm(0, 1, n)
		for x := 0.05; x <= 1.5+1e-9; x += 0.05 {
			r := norm(x*fair, 1, n)
			if r <= prev {
				t.Fatalf("N=%d: normalised reward %.6f at x = %.2f not above %.6f below it", n, r, x, prev)
			}
			prev = r
		}
		for x := 1.55; x <= 3; x += 0.05 {
			r := norm(x*fair, 1, n)
			if r >= prev {
				t.Fatalf("N=%d: normalised reward %.6f at x = %.2f not below %.6f before it: overshoot should stop paying past x = 3/2", n, r, x, prev)
			}
			prev = r
		}
		if over := norm(1.5*fair, 1, n) - norm(fair, 1, n); math.Abs(over-0.25) > 1e-12 {
			t.Errorf("N=%d: best overshoot pays %.6f over the fair share, want 1/4", n, over)
		}
		if d := norm(2*fair, 1, n) - norm(fair, 1, n); math.Abs(d) > 1e-12 {
			t.Errorf("N=%d: twice the fair share pays %.6f more than the fair share, want 0", n, d)
		}
		// What a starved flow earns against a fair one, in ratio: the
		// normalised reading pays 0 against 2, the literal about 1 against 1+1/N.
		if s, f := norm(0, 1, n), norm(fair, 1, n); !(s <= 0.01*f) {
			t.Errorf("N=%d: normalised starved %.4f is not far below fair %.4f", n, s, f)
		}
		// (1 - 1/N^2 against 1 + 1/N: 0.75 of it at N = 4, 0.94 at N = 16.)
		if s, f := lit(0, 1, n), lit(fair, 1, n); n >= 4 && s < 0.7*f {
			t.Errorf("N=%d: literal starved %.4f against fair %.4f: expected about the same", n, s, f)
		}
	}
}

func TestFDCCLink(t *testing.T) {
	t.Parallel()
	// FDCC (Zhang 2023), Algorithm 1 in the fdcc-link reading: line 3
	// -RTT; line 5 SWITCHRATE + 1/RTT - (N x THROUGHPUT - 1)^2.
	cases := []struct {
		name string
		o    FDCCObs
		want float64
	}{
		// line 2: 1.0 + 0.6 - 1 = 0.6 > 0.5 -> -RTT.
		{"draining", FDCCObs{SwitchRate: 1, QLen: 0.6, RTT: 3.2, Throughput: 0.9, Flows: 4}, -3.2},
		// full link, fair (x = 4 x 0.25 = 1), base RTT: 1 + 1 - 0 = 2.
		{"full and fair", FDCCObs{SwitchRate: 1, RTT: 1, Throughput: 0.25, Flows: 4}, 2},
		// full link, starved: 1 + 1 - 1 = 1.
		{"starved on a full link", FDCCObs{SwitchRate: 1, RTT: 1, Throughput: 0, Flows: 16}, 1},
		// link at 0.57, every flow fair (x = 16 x 0.57/16): 0.57 + 1 - 0.43^2.
		{"fair on an under-used link", FDCCObs{SwitchRate: 0.57, RTT: 1, Throughput: 0.57 / 16, Flows: 16}, 0.57 + 1 - 0.43*0.43},
		// x = 2 with RTT 1.25: 0.9 + 0.8 - 1 = 0.7.
		{"probing unfair", FDCCObs{SwitchRate: 0.9, QLen: 0.1, RTT: 1.25, Throughput: 0.5, Flows: 4}, 0.7},
		// no RTT sample: 1/RTT contributes 0.
		{"no rtt", FDCCObs{SwitchRate: 1, Throughput: 0.5, Flows: 2}, 1},
	}
	for _, c := range cases {
		if got := FDCCLink(c.o); !near(got, c.want) {
			t.Errorf("%s: FDCCLink(%+v) = %v, want %v", c.name, c.o, got, c.want)
		}
		if got := FDCCLinkShare.Func()(c.o); !near(got, c.want) {
			t.Errorf("%s: the fdcc-link reading gives %v, want %v", c.name, got, c.want)
		}
	}
	if !math.IsNaN(FDCCLink(FDCCObs{SwitchRate: 1, QLen: math.NaN(), RTT: 1})) {
		t.Error("FDCCLink without telemetry is not NaN")
	}
	// The incentives docs/FDCC.md states: with the link and the RTT fixed
	// the reward is highest at exactly the fair share (x = 1), whatever N;
	// filling the link pays every flow one-for-one.
	for _, n := range []int{2, 4, 16, 64, 128} {
		share := 1 / float64(n)
		at := func(x, link float64) float64 {
			return FDCCLink(FDCCObs{SwitchRate: link, RTT: 1, Throughput: x * share, Flows: n})
		}
		best := at(1, 1)
		for x := 0.0; x <= 3; x += 0.05 {
			if math.Abs(x-1) > 1e-9 && at(x, 1) >= best {
				t.Errorf("N=%d: x = %.2f earns %.4f, not below the fair share's %.4f", n, x, at(x, 1), best)
			}
		}
		if d := at(1, 1) - at(1, 0.5); !near(d, 0.5) {
			t.Errorf("N=%d: a full link over a half-used one pays %.4f to a fair flow, want 0.5", n, d)
		}
		if d := best - at(0, 1); !near(d, 1) {
			t.Errorf("N=%d: fair over starved on a full link = %.4f, want 1", n, d)
		}
	}
	for _, r := range FDCCReadings {
		if !r.Known() {
			t.Errorf("%q is listed but not known", r)
		}
	}
	if FDCCReward("fdcc-nope").Known() {
		t.Error("an unknown reading is known")
	}
}
