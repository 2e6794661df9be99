package dataset

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/cca/dolce"
	"github.com/ccreplay/ccreplay/cca/hpcc"
	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/internal/replaytest/star"
	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// readRows reads decisions.parquet back with parquet-go.
func readRows(t *testing.T, path string) []v2.DecisionRow {
	t.Helper()
	rows, v := testfiles.ParquetRows[v2.DecisionRow](t, path, v2.MetadataKey)
	if v != v2.Version {
		t.Errorf("metadata %s = %q, want %q", v2.MetadataKey, v, v2.Version)
	}
	return rows
}

// paper gives c the RL-CC target and beta of RL-CC-NIC (Fuhrer 2023) and
// the arm count of Dolce-RC (Ye 2023) where they are zero.
func paper(c Config) Config {
	if c.Target == 0 {
		c.Target = reward.RLCCTarget
	}
	if c.Beta == 0 {
		c.Beta = reward.RLCCBeta
	}
	if c.DolcePlusArms == 0 {
		c.DolcePlusArms = reward.DolcePlusArms
	}
	return c
}

// fakeCC is a scripted algorithm: its rate and window are set by the test.
type fakeCC struct {
	rate  units.BitsPerSec
	win   units.Bytes
	calls []string
}

func (f *fakeCC) Name() string                               { return "fake" }
func (f *fakeCC) Start(units.Time, cca.FlowInfo)             { f.calls = append(f.calls, "start") }
func (f *fakeCC) OnSend(units.Time, units.Bytes)             { f.calls = append(f.calls, "send") }
func (f *fakeCC) OnAck(units.Time, *cca.Ack)                 { f.calls = append(f.calls, "ack") }
func (f *fakeCC) OnCNP(units.Time)                           { f.calls = append(f.calls, "cnp") }
func (f *fakeCC) OnNack(units.Time)                          { f.calls = append(f.calls, "nack") }
func (f *fakeCC) OnTimer(units.Time)                         { f.calls = append(f.calls, "timer") }
func (f *fakeCC) NextTimer() units.Time                      { return 77 }
func (f *fakeCC) Rate() units.BitsPerSec                     { return f.rate }
func (f *fakeCC) Window() units.Bytes                        { return f.win }
func (f *fakeCC) OnTimeout(units.Time)                       { f.calls = append(f.calls, "timeout") }
func (f *fakeCC) OnMessageStart(units.Time, cca.MessageInfo) { f.calls = append(f.calls, "msg") }

// plainCC has no optional interface.
type plainCC struct{ fakeCC }

func (p *plainCC) asAlgorithm() cca.Algorithm {
	return struct{ cca.Algorithm }{&p.fakeCC}
}

const us = units.Microsecond

func TestRecorderAggregatesAnInterval(t *testing.T) {
	dir := t.TempDir()
	rec, err := New(dir, Config{
		Target: reward.RLCCTarget, Beta: reward.RLCCBeta, RunID: "unit", CCA: "fake", Interval: IntervalBaseRTT, Gamma: 0.5, NStep: 2,
		Rewards: All(),
		Flows:   []FlowMeta{{Src: 3, Dst: 7, SizeBytes: 1 << 30, DstRate: 50e9}},
	})
	if err != nil {
		t.Fatal(err)
	}
	fc := &fakeCC{rate: 100e9}
	a := rec.Wrap(0, fc)
	a.Start(0, cca.FlowInfo{LineRate: 100e9, BaseRTT: 10 * us, MTU: 1048, Hops: 2})
	hop := func(q units.Bytes, tx units.Bytes, ts units.Time) telemetry.Hop {
		return telemetry.Hop{QLen: q, TxBytes: tx, TS: ts, LinkRate: 100e9}
	}
	ack := &cca.Ack{AckedBytes: 1000, RTT: 12 * us, ECE: true, NumHops: 1}
	ack.Hops[0] = hop(2000, 0, 4*us)
	a.OnAck(5*us, ack)
	a.OnCNP(8 * us)
	fc.rate = 50e9 // a change inside the first base RTT: coalesced, no row yet
	a.OnSend(9*us, 1048)
	if rec.Rows() != 0 {
		t.Fatalf("a change before one base RTT gave %d rows", rec.Rows())
	}
	ack = &cca.Ack{AckedBytes: 1000, RTT: 14 * us, NumHops: 1, MessageDone: true, MsgBytes: 10000, MsgFirstTx: 1 * us}
	// 125000 bytes in 10 us = 100 Gb/s: SWITCHRATE 1; queue 31250 bytes =
	// a quarter of the 125000-byte BDP: QLEN 0.25.
	ack.Hops[0] = hop(31250, 125000, 14*us)
	a.OnAck(11*us, ack) // first event after the interval: the decision
	if rec.Rows() != 1 {
		t.Fatalf("%d rows after the decision, want 1", rec.Rows())
	}
	// Second decision: the window changes, the rate does not.
	fc.win = 5000
	a.OnNack(25 * us)
	a.OnTimer(26 * us) // no change since the row at 25 us
	fc.rate = 100e9
	a.(cca.TimeoutObserver).OnTimeout(30 * us) // inside the interval of the row at 25 us
	a.OnTimer(40 * us)
	if got := strings.Join(fc.calls, " "); got != "start ack cnp send ack nack timer timeout timer" {
		t.Errorf("calls forwarded: %q", got)
	}
	if a.NextTimer() != 77 || a.Name() != "fake" {
		t.Error("NextTimer or Name not forwarded")
	}
	st, err := rec.Close()
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != 3 || st.Flows != 1 || len(st.Rewards) != 6 {
		t.Fatalf("stats %+v", st)
	}
	rows := readRows(t, filepath.Join(dir, FileName))
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	r := rows[0]
	want := v2.DecisionRow{
		RunID: "unit", CCA: "fake", FlowID: 0, Src: 3, Dst: 7, Step: 0, TNs: 11000,
		IntervalNs: 11000, RateBps: 100e9, RateFrac: 1, LineRateBps: 100e9,
		RTTNs: 14000, RTTMeanNs: 13000, BaseRTTNs: 10000, RTTInflation: 1.4,
		CNPs: 1, Acks: 2, AckedBytes: 2000, ECNRatio: 0.5,
		IntMaxQLenBytes: 31250, IntLinkRateBps: 100e9, IntQLenFrac: 0.25, IntTxRateFrac: 1,
		GoodputBps: 1454545455, GoodputFrac: 1454545455 / 50e9, FlowsToDst: 1,
		MsgsDone: 1, MsgIdealMCTNs: 10800, MsgMCTNs: 10000, DolcePlusArm: 3,
		PrevAction: 1, PrevRateFrac: 1, PrevRTTInflation: 1.4,
		Action: 0.5, NewRateBps: 50e9, NextRow: 1,
	}
	// Rewards by hand: Dolce-RC (Ye 2023), Eq. 4: 1 - 0.5; Eq. 5:
	// min(1, 10.8/10) * (1-0.5)^3; RL-CC-NIC (Fuhrer 2023), Eq. 1: infl
	// 1.4 < beta: -(0.064)^2; RL-CC (Tessler 2022), Section 4:
	// -(0.064 - 1.4)^2; FDCC (Zhang 2023), Alg. 1: 1 + 0.25 - 1 = 0.25, not
	// > 0.5: 0.0290909 + 1/1.4 - (0.0290909 - 1/1)^2.
	want.RewardDolce = 0.5
	want.RewardDolcePlus = 0.125
	want.RewardRLCC = -0.064 * 0.064
	want.RewardRLCCBetaFree = -(0.064 - 1.4) * (0.064 - 1.4)
	g := want.GoodputFrac
	want.RewardFDCC = g + 1/1.4 - (g-1)*(g-1)
	r.ReturnFDCCNStep = 0
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"rtt_inflation", r.RTTInflation, want.RTTInflation},
		{"goodput_frac", r.GoodputFrac, want.GoodputFrac},
		{"int_qlen_frac", r.IntQLenFrac, want.IntQLenFrac},
		{"int_txrate_frac", r.IntTxRateFrac, want.IntTxRateFrac},
		{"reward_rlcc_betafree", r.RewardRLCCBetaFree, want.RewardRLCCBetaFree},
		{"reward_fdcc", r.RewardFDCC, want.RewardFDCC},
		{"prev_rtt_inflation", r.PrevRTTInflation, want.PrevRTTInflation},
	} {
		if math.Abs(c.got-c.want) > 1e-9 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	r.RTTInflation, r.GoodputFrac, r.IntQLenFrac, r.IntTxRateFrac = want.RTTInflation, want.GoodputFrac, want.IntQLenFrac, want.IntTxRateFrac
	r.RewardRLCCBetaFree, r.RewardFDCC, r.PrevRTTInflation = want.RewardRLCCBetaFree, want.RewardFDCC, want.PrevRTTInflation
	if r != want {
		t.Errorf("row 0:\n got %+v\nwant %+v", r, want)
	}

	// Row 1: the window change at 25 us, 14 us after row 0.
	r1 := rows[1]
	if r1.Step != 1 || r1.TNs != 25000 || r1.Nacks != 1 || r1.Acks != 0 || r1.RateBps != 50e9 ||
		r1.Action != 1 || r1.WindowBytes != 5000 || r1.PrevWindow != 0 || r1.NextRow != 2 || r1.Done {
		t.Errorf("row 1: %+v", r1)
	}
	// No ACK in the interval: the RTT sample carries over, ECN ratio 0,
	// no INT seen (-1) but FDCC's features carry over; prev_* are row 0's.
	if r1.RTTNs != 14000 || r1.RTTMeanNs != 14000 || r1.ECNRatio != 0 || r1.IntMaxQLenBytes != -1 ||
		r1.IntQLenFrac != rows[0].IntQLenFrac || r1.PrevAction != 0.5 || r1.PrevRateFrac != 1 || r1.MsgMCTNs != -1 ||
		!math.IsNaN(r1.RewardDolcePlus) || r1.RateFrac != 0.5 {
		t.Errorf("row 1 observation: %+v", r1)
	}
	// Row 2: the rate change at 30 us is inside row 1's interval; the timer
	// at 40 us records it, with the timeout counted.
	r2 := rows[2]
	if r2.TNs != 40000 || r2.Timeouts != 1 || r2.Action != 2 || r2.NextRow != -1 || !r2.Done {
		t.Errorf("row 2: %+v", r2)
	}
	// FDCC (Zhang 2023), Section 4.2: R_t = r_t + gamma r_{t+1} (n = 2),
	// truncated.
	rets := reward.Discounted([]float64{rows[0].RewardFDCC, rows[1].RewardFDCC, rows[2].RewardFDCC}, 0.5, 2)
	for i := range rows {
		if rows[i].ReturnFDCCNStep != rets[i] {
			t.Errorf("row %d: return_fdcc_nstep %v, want %v", i, rows[i].ReturnFDCCNStep, rets[i])
		}
	}
	noScratch(t, dir)
}

func TestWrapperForwardsOptionalInterfacesOnlyWhenImplemented(t *testing.T) {
	rec, err := New(t.TempDir(), paper(Config{Gamma: 0.9}))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Abort()
	p := &plainCC{fakeCC{rate: 10e9}}
	a := rec.Wrap(0, p.asAlgorithm())
	a.Start(0, cca.FlowInfo{LineRate: 100e9, BaseRTT: 10 * us})
	a.(cca.MessageObserver).OnMessageStart(1, cca.MessageInfo{})
	a.(cca.TimeoutObserver).OnTimeout(2)
	if got := strings.Join(p.calls, " "); got != "start" {
		t.Errorf("an algorithm without the optional interfaces got %q", got)
	}
}

// The readings of FDCC (Zhang 2023), Algorithm 1, line 5, fill
// reward_fdcc from the same columns: at 4 flows to the destination, a
// quarter of the receiver's link (the fair share, x = 1), SWITCHRATE 0.9
// and QLEN 0.1 (line 2: 0.9 + 0.1 - 1 = 0, the second stage).
func TestScoreFDCCReadings(t *testing.T) {
	row := v2.DecisionRow{IntTxRateFrac: 0.9, IntQLenFrac: 0.1, RTTInflation: 1.25, GoodputFrac: 0.25, FlowsToDst: 4}
	for _, c := range []struct {
		r    reward.FDCCReward
		want float64
		form string
	}{
		{reward.FDCCNormalised, 1 + 1/1.25 - 0.0, "x + 1/RTT - (x-1)^2"},
		{reward.FDCCAsPrinted, 0.25 + 1/1.25 - 0.0, "T + 1/RTT - (T-1/N)^2"},
		{reward.FDCCLinkShare, 0.9 + 1/1.25 - 0.0, "SWITCHRATE + 1/RTT - (x-1)^2"},
	} {
		Score(&row, &Config{Rewards: Rewards{FDCC: c.r}})
		if math.Abs(row.RewardFDCC-c.want) > 1e-12 {
			t.Errorf("%s: %v, want %s = %v", c.r, row.RewardFDCC, c.form, c.want)
		}
	}
	Score(&row, &Config{Rewards: Rewards{Dolce: true}})
	if !math.IsNaN(row.RewardFDCC) {
		t.Errorf("FDCC not selected: %v, want NaN", row.RewardFDCC)
	}
}

// Every reading of FDCC's reward the trainer takes (rl/reward.FDCCReadings)
// is a reward name of the dataset, alone or with "all".
func TestParseRewardsEveryFDCCReading(t *testing.T) {
	names := strings.Join(RewardNames(), ",")
	for _, f := range reward.FDCCReadings {
		if !strings.Contains(","+names+",", ","+string(f)+",") {
			t.Errorf("RewardNames %q lacks %s", names, f)
		}
		r, err := ParseRewards(string(f))
		if err != nil || r != (Rewards{FDCC: f}) || r.Names()[0] != string(f) {
			t.Errorf("%s gave %+v, %v", f, r, err)
		}
		if r, err := ParseRewards("all," + string(f)); err != nil || r.FDCC != f || !r.Dolce || !r.RLCCBetaFree {
			t.Errorf("all,%s gave %+v, %v (want every reward with that reading)", f, r, err)
		}
	}
}

func TestParseRewards(t *testing.T) {
	r, err := ParseRewards("dolce, rlcc-betafree,fdcc")
	if err != nil || r != (Rewards{Dolce: true, RLCCBetaFree: true, FDCC: reward.FDCCNormalised}) {
		t.Errorf("got %+v, %v", r, err)
	}
	if r, _ := ParseRewards("all"); r != (All()) || r.FDCC != reward.FDCCNormalised {
		t.Errorf("all gave %+v", r)
	}
	if r, err := ParseRewards("fdcc-literal,dolce"); err != nil || r != (Rewards{Dolce: true, FDCC: reward.FDCCAsPrinted}) || !r.AnyFDCC() {
		t.Errorf("fdcc-literal,dolce gave %+v, %v", r, err)
	}
	if r, err := ParseRewards("fdcc-literal,all"); err != nil || r.FDCC != reward.FDCCAsPrinted || !r.Dolce {
		t.Errorf("fdcc-literal,all gave %+v, %v (want every reward with FDCC as printed)", r, err)
	}
	if r, err := ParseRewards("fdcc-link,fdcc-link"); err != nil || r != (Rewards{FDCC: reward.FDCCLinkShare}) {
		t.Errorf("fdcc-link twice gave %+v, %v", r, err)
	}
	for _, two := range []string{"fdcc,fdcc-literal", "fdcc-link,fdcc", "fdcc-literal,all,fdcc-link"} {
		if _, err := ParseRewards(two); err == nil || !strings.Contains(err.Error(), "reward_fdcc") {
			t.Errorf("%s: %v, want an error naming the shared column", two, err)
		}
	}
	_, err = ParseRewards("dolce,bogus")
	if err == nil || !strings.Contains(err.Error(), `"bogus"`) || !strings.Contains(err.Error(), "rlcc-betafree") {
		t.Errorf("unknown reward error: %v", err)
	}
	if _, err := New(t.TempDir(), paper(Config{Gamma: 1.5})); err == nil || !strings.Contains(err.Error(), "gamma") {
		t.Errorf("gamma 1.5: %v", err)
	}
	if _, err := New(t.TempDir(), Config{Gamma: 0.5}); err == nil || !strings.Contains(err.Error(), "target") {
		t.Errorf("target 0: %v", err)
	}
}

// runCase runs workload under algorithm spec with an optional recorder and
// returns the run folder.
func runCase(t *testing.T, workload, spec string, rec bool, dcfg Config) string {
	t.Helper()
	cc, tr, cfg := starCase(t, workload, spec)
	cfg.Seed = 7
	topo := cfg.Topology
	dir := t.TempDir()
	var r *Recorder
	var err error
	if rec {
		dcfg.Flows = Flows(tr, topo)
		dcfg.CCA = cc.Name
		if r, err = New(dir, paper(dcfg)); err != nil {
			t.Fatal(err)
		}
		cfg.WrapCC = r.Wrap
	}
	res, _, err := runner.Run(context.Background(), &runner.Scenario{Config: &cfg, Trace: tr}, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rec {
		if _, err := r.Close(); err != nil {
			t.Fatal(err)
		}
		checkFlowMeta(t, dcfg.Flows, res.Flows)
	}
	return dir
}

// starCase is workload (workloadOf) on the default star under the
// algorithm spec: the algorithm, the trace and the replay configuration.
func starCase(t *testing.T, workload, spec string) (cca.Spec, *trace.Trace, replay.Config) {
	t.Helper()
	cc := star.Spec(t, spec, nil, dcqcn.Register, dolce.Register, hpcc.Register, rlcc.Register)
	tr, err := workloadOf(workload)
	if err != nil {
		t.Fatal(err)
	}
	return cc, tr, star.Config(t, tr, cc)
}

// workloadOf builds a generator's trace, or for "qps" two senders with
// 30 messages of 20 KB each on one queue pair apiece into a third host,
// plus a same-host message (no flow): per-message decisions for Dolce-RC+.
func workloadOf(spec string) (*trace.Trace, error) {
	if spec != "qps" {
		return gen.Parse(spec, 1)
	}
	tr := &trace.Trace{Hosts: 3}
	tr.Messages = append(tr.Messages, trace.Message{ID: 0, Src: 1, Dst: 1, Bytes: 100, FlowID: trace.NoFlow, CollectiveID: trace.NoCollective})
	for i := range 60 {
		tr.Messages = append(tr.Messages, trace.Message{
			ID: int64(i + 1), Src: int32(i % 2), Dst: 2, Bytes: 20000, FlowID: int64(i % 2),
			CollectiveID: trace.NoCollective, Release: units.Time(i/2) * 5 * us,
		})
	}
	return tr, nil
}

// checkFlowMeta requires Flows to number flows as replay does.
func checkFlowMeta(t *testing.T, meta []FlowMeta, flows []v2.FlowRow) {
	t.Helper()
	if len(meta) != len(flows) {
		t.Fatalf("Flows gave %d flows, the run %d", len(meta), len(flows))
	}
	for i, f := range flows {
		m := meta[f.FlowID]
		if m.Src != f.Src || m.Dst != f.Dst || m.SizeBytes != f.SizeBytes {
			t.Errorf("flow %d: meta %+v, run src %d dst %d size %d", i, m, f.Src, f.Dst, f.SizeBytes)
		}
	}
}

func TestRecorderDoesNotChangeTheRun(t *testing.T) {
	all := Config{Rewards: All(), Gamma: DefaultGamma, NStep: DefaultNStep, Interval: IntervalBaseRTT}
	for _, c := range []struct{ workload, cca string }{
		{"incast:n=4,size=200KB", "dcqcn"},
		{"incast:n=4,size=200KB", "hpcc"}, // INT, window
		{"qps", "dolceplus"},              // cca.MessageObserver
		{"incast:n=4,size=2MB", "rlcc"},   // cca.RTTProber: no probes, no decisions
	} {
		t.Run(c.cca, func(t *testing.T) {
			plain := runCase(t, c.workload, c.cca, false, Config{})
			with := runCase(t, c.workload, c.cca, true, all)
			for _, name := range []string{runfolder.FlowsFile, runfolder.MessagesFile, runfolder.PortsFile} {
				a, _ := os.ReadFile(filepath.Join(plain, name))
				b, _ := os.ReadFile(filepath.Join(with, name))
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Errorf("%s differs with the recorder (%d vs %d bytes)", name, len(a), len(b))
				}
			}
			rows := readRows(t, filepath.Join(with, FileName))
			if len(rows) == 0 {
				t.Fatal("no decisions recorded")
			}
			if c.cca == "rlcc" && rows[len(rows)-1].RTTNs <= 0 {
				t.Errorf("RL-CC rows carry no RTT probe sample: %+v", rows[len(rows)-1])
			}
			checkRows(t, rows, &all, true)
		})
	}
}

// checkRows checks the invariants of a dataset: per flow, steps 0..k in
// time order linked by next_row, done on the last; the observation of a
// row continues the previous row's action; rewards are the reward
// functions of the row's columns.
func checkRows(t *testing.T, rows []v2.DecisionRow, c *Config, baseRTTInterval bool) {
	t.Helper()
	cc := paper(*c) // as the recorder got it
	c = &cc
	last := map[int64]int{} // flow -> index of its latest row
	byFlow := map[int64][]float64{}
	for i := range rows {
		r := &rows[i]
		if i > 0 && r.TNs < rows[i-1].TNs {
			t.Fatalf("row %d: time goes back (%d < %d)", i, r.TNs, rows[i-1].TNs)
		}
		p, seen := last[r.FlowID]
		switch {
		case !seen && (r.Step != 0 || r.PrevAction != 1 || r.PrevRateFrac != r.RateFrac):
			t.Fatalf("row %d: first row of flow %d: %+v", i, r.FlowID, r)
		case seen:
			q := &rows[p]
			if q.NextRow != int64(i) || q.Done || r.Step != q.Step+1 {
				t.Fatalf("row %d (flow %d step %d): previous row %d has next_row %d done %v step %d", i, r.FlowID, r.Step, p, q.NextRow, q.Done, q.Step)
			}
			// The action is multiplicative: rate_{t+1} = a_t * rate_t.
			if r.RateBps != q.NewRateBps || r.PrevAction != q.Action || r.PrevRateFrac != q.RateFrac || r.PrevRTTInflation != q.RTTInflation {
				t.Fatalf("row %d does not continue row %d", i, p)
			}
			if r.IntervalNs != r.TNs-q.TNs {
				t.Fatalf("row %d: interval_ns %d, want %d", i, r.IntervalNs, r.TNs-q.TNs)
			}
		}
		if baseRTTInterval && r.Step > 0 && r.IntervalNs < r.BaseRTTNs {
			t.Fatalf("row %d: %d ns after the flow's previous row, less than its base RTT %d ns", i, r.IntervalNs, r.BaseRTTNs)
		}
		if r.RateBps > 0 && math.Abs(r.Action-float64(r.NewRateBps)/float64(r.RateBps)) > 1e-12 {
			t.Fatalf("row %d: action %v, new/old %d/%d", i, r.Action, r.NewRateBps, r.RateBps)
		}
		if r.NewRateBps == r.RateBps && r.WindowBytes == r.PrevWindow {
			t.Fatalf("row %d records no change", i)
		}
		last[r.FlowID] = i
		want := *r
		Score(&want, c)
		for _, v := range [][3]any{
			{"reward_dolce", r.RewardDolce, want.RewardDolce},
			{"reward_dolceplus", r.RewardDolcePlus, want.RewardDolcePlus},
			{"reward_rlcc", r.RewardRLCC, want.RewardRLCC},
			{"reward_rlcc_betafree", r.RewardRLCCBetaFree, want.RewardRLCCBetaFree},
			{"reward_fdcc", r.RewardFDCC, want.RewardFDCC},
		} {
			a, b := v[1].(float64), v[2].(float64)
			if a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
				t.Fatalf("row %d: %s = %v, the reward function gives %v", i, v[0], a, b)
			}
		}
		byFlow[r.FlowID] = append(byFlow[r.FlowID], r.RewardFDCC)
	}
	for f, p := range last {
		if rows[p].NextRow != -1 || !rows[p].Done {
			t.Errorf("flow %d: last row %d has next_row %d done %v", f, p, rows[p].NextRow, rows[p].Done)
		}
	}
	if !c.Rewards.AnyFDCC() {
		return
	}
	// return_fdcc_nstep is the n-step sum of FDCC (Zhang 2023) within each
	// flow.
	for f, rs := range byFlow {
		want := reward.Discounted(rs, c.Gamma, c.NStep)
		k := 0
		for i := range rows {
			if rows[i].FlowID != f {
				continue
			}
			a, b := rows[i].ReturnFDCCNStep, want[k]
			if a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
				t.Fatalf("flow %d step %d: return %v, want %v", f, k, a, b)
			}
			k++
		}
	}
}

func TestHPCCDatasetHasINT(t *testing.T) {
	c := Config{Rewards: Rewards{FDCC: reward.FDCCNormalised, RLCC: true}, Gamma: 0.9, NStep: 0, Interval: IntervalBaseRTT}
	dir := runCase(t, "incast:n=4,size=200KB", "hpcc", true, c)
	rows := readRows(t, filepath.Join(dir, FileName))
	intRows, drain := 0, 0
	for i, r := range rows {
		if r.IntMaxQLenBytes >= 0 {
			intRows++
			if r.IntLinkRateBps <= 0 {
				t.Fatalf("row %d: INT queue without a link rate", i)
			}
		}
		if !math.IsNaN(r.RewardFDCC) && reward.FDCCDraining(reward.FDCCObs{SwitchRate: r.IntTxRateFrac, QLen: r.IntQLenFrac}) {
			drain++
		}
		if r.FlowsToDst < 1 || r.FlowsToDst > 4 {
			t.Fatalf("row %d: flows_to_dst %d in a 4-to-1 incast", i, r.FlowsToDst)
		}
	}
	if intRows == 0 {
		t.Error("HPCC stamps INT, yet no row has an INT queue")
	}
	t.Logf("%d rows, %d with INT, %d in FDCC's draining stage", len(rows), intRows, drain)
	checkRows(t, rows, &c, true)
}

func TestEveryChangeGivesMoreRows(t *testing.T) {
	every := Config{Rewards: Rewards{Dolce: true}, Gamma: 0.9, NStep: 3, Interval: 0}
	rtt := every
	rtt.Interval = IntervalBaseRTT
	// HPCC updates its window on every ACK (several per base RTT).
	a := readRows(t, filepath.Join(runCase(t, "incast:n=4,size=200KB", "hpcc", true, every), FileName))
	b := readRows(t, filepath.Join(runCase(t, "incast:n=4,size=200KB", "hpcc", true, rtt), FileName))
	if len(a) <= len(b) || len(b) == 0 {
		t.Errorf("every change: %d rows, once per base RTT: %d", len(a), len(b))
	}
	checkRows(t, a, &every, false)
	for i, r := range a {
		if !math.IsNaN(r.RewardRLCC) || !math.IsNaN(r.ReturnFDCCNStep) {
			t.Fatalf("row %d: unrequested reward columns are not NaN", i)
		}
	}
}

func TestSameSeedByteIdentical(t *testing.T) {
	c := Config{Rewards: All(), Gamma: 0.99, NStep: 4, Interval: IntervalBaseRTT, Batch: 7}
	a, _ := os.ReadFile(filepath.Join(runCase(t, "incast:n=4,size=200KB", "dcqcn", true, c), FileName))
	b, _ := os.ReadFile(filepath.Join(runCase(t, "incast:n=4,size=200KB", "dcqcn", true, c), FileName))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("two runs gave different "+runfolder.DecisionsFile+" (%d vs %d bytes)", len(a), len(b))
	}
}

func TestManyBlocks(t *testing.T) {
	// More rows than one pass block (4096), through a small write batch:
	// the backward pass must link rows across block boundaries.
	dir := t.TempDir()
	c := Config{Rewards: Rewards{FDCC: reward.FDCCNormalised, Dolce: true}, Gamma: 0.8, NStep: 3, Interval: 0, Batch: 100}
	rec, err := New(dir, paper(c))
	if err != nil {
		t.Fatal(err)
	}
	algs := make([]*fakeCC, 3)
	wr := make([]cca.Algorithm, 3)
	for i := range algs {
		algs[i] = &fakeCC{rate: 10e9}
		wr[i] = rec.Wrap(int32(i), algs[i])
		wr[i].Start(0, cca.FlowInfo{LineRate: 100e9, BaseRTT: 10 * us})
	}
	for k := 1; k <= 9000; k++ {
		i := (k * 7) % 3
		if k%5 == 0 {
			i = 2
		}
		algs[i].rate = units.BitsPerSec(10e9 + (k%2)*1e9)
		ack := &cca.Ack{AckedBytes: 1000, RTT: units.Time(10+k%5) * us, ECE: k%3 == 0, NumHops: 1}
		ack.Hops[0] = telemetry.Hop{QLen: units.Bytes(k % 50000), TxBytes: units.Bytes(k) * 1000, TS: units.Time(k) * us, LinkRate: 100e9}
		wr[i].OnAck(units.Time(k)*us, ack)
	}
	if _, err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, filepath.Join(dir, FileName))
	if len(rows) < 4097 {
		t.Fatalf("%d rows: not enough to cross a block", len(rows))
	}
	checkRows(t, rows, &c, false)
	noScratch(t, dir)
}

// noScratch fails if the recorder left scratch files behind.
func noScratch(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".decisions-tmp-") || strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("scratch left behind: %s", e.Name())
		}
	}
}
