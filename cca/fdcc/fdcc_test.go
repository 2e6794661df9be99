package fdcc

import (
	"math"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/rl/nn"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// constPolicy is a policy whose output is o whatever it observes: a zero
// LSTM of width 1 and a head whose only parameter is the bias atanh(o).
func constPolicy(t *testing.T, o float64, r Rescale) *Policy {
	t.Helper()
	enc, err := nn.NewLSTM(NumFeatures, 1)
	if err != nil {
		t.Fatal(err)
	}
	head, err := nn.NewZero([]int{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	head.Params[1] = math.Atanh(o)
	net, err := nn.NewRecurrent(enc, head, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPolicy(net, r, "test")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// flow is a 100 Gb/s flow with an 8 us base RTT and 1000 B packets: one
// BDP is 100000 B, 100 packets.
var flow = cca.FlowInfo{LineRate: 100 * units.Gbps, BaseRTT: 8 * units.Microsecond, MTU: 1000, Hops: 2}

func agent(t *testing.T, c Config) (*Agent, *[]Decision) {
	t.Helper()
	spec, err := NewSpec("fdcc:test", c)
	if err != nil {
		t.Fatal(err)
	}
	a := spec.New().(*Agent)
	var ds []Decision
	a.SetHook(func(d *Decision) { ds = append(ds, *d) })
	a.Start(0, flow)
	return a, &ds
}

// ackAt delivers an ACK of 1000 B with RTT rtt at now.
func ackAt(a *Agent, now, rtt units.Time, hops ...telemetry.Hop) {
	ack := &cca.Ack{AckedBytes: 1000, RTT: rtt, NumHops: len(hops)}
	copy(ack.Hops[:], hops)
	a.OnAck(now, ack)
}

// step makes one decision: an ACK one base RTT after the previous one.
func step(a *Agent, k int) {
	ackAt(a, units.Time(k+1)*flow.BaseRTT, flow.BaseRTT)
}

func TestStartsAtLineRateWithOneBDP(t *testing.T) {
	// FDCC (Zhang 2023), Section 4.2 ("the default initial rate in DCN is
	// set to link rate") and Section 5.3 (at most one BDP in flight).
	a, _ := agent(t, Config{Policy: constPolicy(t, 0, RescaleDirect)})
	if a.Rate() != flow.LineRate || a.Window() != 100000 {
		t.Fatalf("start: rate %v window %v, want line rate and 100000 B", a.Rate(), a.Window())
	}
}

func TestRescaleCompound(t *testing.T) {
	// Section 4.2: a_{t+1} = a_t (1 + α o) for o >= 0, a_t / (1 - α o)
	// for o < 0, α = 0.5; Table 3.1 clamps a to [0.5, 2].
	for _, tc := range []struct {
		o    float64
		want []float64
	}{
		{0.5, []float64{1.25, 1.5625, 1.953125, 2, 2}},
		{-0.5, []float64{0.8, 0.64, 0.512, 0.5, 0.5}},
		{0, []float64{1, 1, 1}},
	} {
		a, ds := agent(t, Config{Policy: constPolicy(t, tc.o, RescaleCompound)})
		for k := range tc.want {
			step(a, k)
		}
		for k, w := range tc.want {
			if got := (*ds)[k].Multiplier; math.Abs(got-w) > 1e-12 {
				t.Errorf("o=%v step %d: a = %v, want %v", tc.o, k, got, w)
			}
		}
	}
}

func TestRescaleDirect(t *testing.T) {
	// rescale=direct: a = 1 + α o or 1 / (1 - α o) at every step.
	for _, tc := range []struct{ o, want float64 }{{0.5, 1.25}, {1, 1.5}, {-1, 1 / 1.5}, {-0.5, 0.8}} {
		a, ds := agent(t, Config{Policy: constPolicy(t, tc.o, RescaleDirect)})
		for k := range 3 {
			step(a, k)
		}
		for k, d := range *ds {
			if math.Abs(d.Multiplier-tc.want) > 1e-12 {
				t.Errorf("o=%v step %d: a = %v, want %v", tc.o, k, d.Multiplier, tc.want)
			}
		}
	}
}

func TestWindowWholePacketsCappedFloored(t *testing.T) {
	// Section 5.2: WIN_{t+1} = WIN_t a, applied rounded down to whole 1000 B
	// packets; Section 5.3: at most one BDP (100000 B); floor min_window
	// packets. The state is the unrounded window: 100000 x (2/3)^k =
	// 66666.7, 44444.4, 29629.6, 19753.1, 13168.7, 8779.1, ...
	a, ds := agent(t, Config{Policy: constPolicy(t, -1, RescaleDirect)})
	want := []units.Bytes{66000, 44000, 29000, 19000, 13000, 8000, 5000, 3000, 2000, 1000, 1000}
	for k := range want {
		step(a, k)
	}
	for k, w := range want {
		if got := (*ds)[k].Window; got != w {
			t.Errorf("step %d: window %d, want %d", k, got, w)
		}
	}
	a, ds = agent(t, Config{Policy: constPolicy(t, 1, RescaleDirect), MinPackets: 3})
	step(a, 0)
	if got := (*ds)[0].Window; got != 100000 {
		t.Errorf("a = 1.5 from one BDP: window %d, want the cap 100000", got)
	}
	a, ds = agent(t, Config{Policy: constPolicy(t, -1, RescaleDirect), MinPackets: 3})
	for k := range 12 {
		step(a, k)
	}
	if got := (*ds)[11].Window; got != 3000 {
		t.Errorf("min_window=3: window %d, want 3000", got)
	}
	// Increases below a packet accumulate: from the 1-packet floor, a =
	// 1.5 gives 1500 B (1 packet applied), then 2250 B (2 packets).
	a, ds = agent(t, Config{Policy: constPolicy(t, -1, RescaleDirect)})
	for k := range 12 {
		step(a, k)
	}
	a.cfg = &Config{Policy: constPolicy(t, 1, RescaleDirect), Alpha: 0.5, AMin: 0.5, AMax: 2, Rescale: RescaleDirect, MinPackets: 1}
	for k := 12; k < 15; k++ {
		step(a, k)
	}
	if got := []units.Bytes{(*ds)[12].Window, (*ds)[13].Window, (*ds)[14].Window}; got[0] != 1000 || got[1] != 2000 || got[2] != 3000 {
		t.Errorf("climbing from one packet: windows %v, want 1000 2000 3000 (1500, 2250, 3375 B unrounded)", got)
	}
}

func TestRateIsWindowOverBaseRTT(t *testing.T) {
	// Section 4.2: INSRATE_{t+1} = WIN_{t+1} / baseRTT.
	for _, base := range []units.Time{0, 16 * units.Microsecond} {
		a, _ := agent(t, Config{Policy: constPolicy(t, -1, RescaleDirect), BaseRTT: base})
		step(a, 0)
		T := flow.BaseRTT
		if base > 0 {
			T = base
		}
		want := units.BitsPerSec(math.Round(float64(a.Window()) * 8 / T.Seconds()))
		if a.Rate() != want {
			t.Errorf("base_rtt %v: rate %v, want window %v x 8 / %v = %v", base, a.Rate(), a.Window(), T, want)
		}
	}
}

func TestFeaturesFromINT(t *testing.T) {
	// Section 4.2, "Observations", on a hand-built two-hop INT stack.
	a, ds := agent(t, Config{Policy: constPolicy(t, 0.2, RescaleDirect)})
	us := units.Microsecond
	seed := []telemetry.Hop{
		{QLen: 0, TxBytes: 1_000_000, TS: 10 * us, LinkRate: 100 * units.Gbps},
		{QLen: 0, TxBytes: 2_000_000, TS: 11 * us, LinkRate: 100 * units.Gbps},
	}
	// The first ACK (at 12 us, RTT 8 us) only seeds the hops' rates and
	// takes the first decision (no INT features yet, ΔRTT = ΔQLEN = 0).
	ackAt(a, 12*us, 8*us, seed...)
	// 5 us later: hop 0 sent 50000 B with 10000 B queued (SWITCHRATE
	// 50000 x 8 / 5 us / 100 Gb/s = 0.8, QLEN 10000 / 100000 = 0.1); hop
	// 1 sent 62500 B with 50000 B queued (1.0 and 0.5): hop 1 is the most
	// congested (1.5 > 0.9).
	next := []telemetry.Hop{
		{QLen: 10000, TxBytes: 1_050_000, TS: 15 * us, LinkRate: 100 * units.Gbps, Flows: 3},
		{QLen: 50000, TxBytes: 2_062_500, TS: 16 * us, LinkRate: 100 * units.Gbps, Flows: 7},
	}
	ackAt(a, 14*us, 12*us, next...) // too early: half of 8 us has not passed; its INT counts
	ackAt(a, 17*us, 12*us, next...) // 5 us after the first decision
	if len(*ds) != 2 {
		t.Fatalf("%d decisions, want 2", len(*ds))
	}
	d0, d1 := (*ds)[0], (*ds)[1]
	if d0.INT || d0.Obs[FeatQLen] != 0 || d0.Obs[FeatSwitchRate] != 0 {
		t.Errorf("first decision: INT %v qlen %v switchrate %v, want no telemetry yet", d0.INT, d0.Obs[FeatQLen], d0.Obs[FeatSwitchRate])
	}
	// The third ACK repeats the second's stack: its rates compare equal
	// timestamps and are skipped, so the features stay the second's.
	want := [NumFeatures]float64{
		FeatRTT:        1.5,                         // 12 us / 8 us
		FeatQLen:       0.5,                         // hop 1
		FeatSwitchRate: 1.0,                         // hop 1
		FeatGoodput:    2000 * 8 / 5e-6 / 100e9,     // two ACKs of 1000 B since the decision at 12 us
		FeatDRTT:       (1.5 - 1) / (5e-3),          // per ms
		FeatDQLen:      (0.5 - 0) / (5e-3),          // per ms
		FeatInsRate:    float64(d0.Rate) / 100e9,    // the first decision's rate
		FeatLastAction: math.Round(0.2*1e12) / 1e12, // o of the first decision
	}
	for i, w := range want {
		if math.Abs(d1.Obs[i]-w) > 1e-9*math.Max(1, math.Abs(w)) {
			t.Errorf("%s = %v, want %v", FeatureNames[i], d1.Obs[i], w)
		}
	}
	if !d1.INT || d1.Flows != 7 {
		t.Errorf("INT %v flows %d, want true and hop 1's count 7", d1.INT, d1.Flows)
	}
}

func TestDecisionsHalfAnRTTApart(t *testing.T) {
	// Section 4.4: the action interval is half the previous RTT.
	a, ds := agent(t, Config{Policy: constPolicy(t, 0, RescaleDirect)})
	us := units.Microsecond
	ackAt(a, 10*us, 20*us)   // decision 1, RTT 20 us
	ackAt(a, 20*us-1, 20*us) // 1 ps short of 10 us later: none
	ackAt(a, 20*us, 6*us)    // decision 2, RTT 6 us
	ackAt(a, 22*us, 6*us)    // 2 us < 3 us: none
	ackAt(a, 23*us, 6*us)    // decision 3
	if len(*ds) != 3 || (*ds)[1].Time != 20*us || (*ds)[2].Time != 23*us {
		t.Fatalf("decisions at %v, want 10, 20 and 23 us", times(*ds))
	}
}

func TestLatencyDelaysTheWindow(t *testing.T) {
	a, _ := agent(t, Config{Policy: constPolicy(t, -1, RescaleDirect), Latency: 2 * units.Microsecond})
	step(a, 0)
	if a.Window() != 100000 || a.NextTimer() != flow.BaseRTT+2*units.Microsecond {
		t.Fatalf("pending: window %v next timer %v", a.Window(), a.NextTimer())
	}
	a.OnTimer(a.NextTimer())
	if a.Window() != 66000 || a.NextTimer() != units.Never {
		t.Fatalf("applied: window %v next timer %v", a.Window(), a.NextTimer())
	}
}

func TestHistoryIsTheLastEight(t *testing.T) {
	// Section 4.3: the policy reads at most 8 observations, oldest first.
	a, _ := agent(t, Config{Policy: constPolicy(t, 0.1, RescaleDirect)})
	for k := range 12 {
		step(a, k)
		if want := min(k+1, History); a.n != want {
			t.Fatalf("after %d decisions the history holds %d, want %d", k+1, a.n, want)
		}
	}
}

func times(ds []Decision) []units.Time {
	var ts []units.Time
	for _, d := range ds {
		ts = append(ts, d.Time)
	}
	return ts
}

// BenchmarkDecision is one decision of the shipped policy on a full
// history: the observation, the LSTM over 8 steps and the head.
func BenchmarkDecision(b *testing.B) {
	spec, err := Build("", nil)
	if err != nil {
		b.Fatal(err)
	}
	a := spec.New().(*Agent)
	a.Start(0, flow)
	hop := telemetry.Hop{QLen: 20000, LinkRate: 100 * units.Gbps}
	for k := range 8 {
		hop.TS, hop.TxBytes = units.Time(k)*flow.BaseRTT, units.Bytes(k)*90000
		ackAt(a, units.Time(k+1)*flow.BaseRTT, flow.BaseRTT, hop)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		k := i + 8
		hop.TS, hop.TxBytes = units.Time(k)*flow.BaseRTT, units.Bytes(k)*90000
		ackAt(a, units.Time(k+1)*flow.BaseRTT, flow.BaseRTT, hop)
	}
}
