package dataset

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/rl/reward"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// Recorder collects the decisions of one run. Use Wrap as
// replay.Config.WrapCC, run, then Close (or Abort on failure). A Recorder
// is not safe for concurrent use (a run is single-threaded).
type Recorder struct {
	cfg  Config
	dir  string // final folder
	tmp  string // scratch folder inside dir, removed by Close/Abort
	rows *output.Stream[v2.DecisionRow]
	side *os.File      // per row: flow id (int32), reward_fdcc (float64)
	sw   *bufio.Writer // buffers side
	n    int64         // rows emitted
	err  error         // first side-file write error

	flows  []*flowRec // by flow id, nil until wrapped
	active []int32    // by destination host: flows started, not fully acked
}

// sideRec is the byte size of one side-file record.
const sideRec = 4 + 8

// New starts a recorder whose Close writes dir/decisions.parquet.
func New(dir string, cfg Config) (*Recorder, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(dir, ".decisions-tmp-")
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	r := &Recorder{cfg: cfg, dir: dir, tmp: tmp}
	if r.rows, err = output.NewStream[v2.DecisionRow](filepath.Join(tmp, "spill.parquet"), cfg.Batch); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if r.side, err = os.Create(filepath.Join(tmp, "side.bin")); err != nil {
		r.rows.Abort()
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("dataset: %w", err)
	}
	r.sw = bufio.NewWriterSize(r.side, 64<<10)
	return r, nil
}

// Wrap is the replay.Config.WrapCC hook: it returns a wrapper of a that
// forwards every call unchanged and records flowID's decisions (a
// negative flowID gets a itself, unrecorded).
func (r *Recorder) Wrap(flowID int32, a cca.Algorithm) cca.Algorithm {
	if flowID < 0 {
		return a // not a flow of the run's numbering: nothing to record
	}
	f := &flowRec{r: r, inner: a, id: flowID, src: -1, dst: -1}
	f.msg, _ = a.(cca.MessageObserver)
	f.to, _ = a.(cca.TimeoutObserver)
	f.probe, _ = a.(cca.RTTProber)
	if int(flowID) < len(r.cfg.Flows) {
		m := r.cfg.Flows[flowID]
		f.src, f.dst, f.size, f.dstRate = m.Src, m.Dst, m.SizeBytes, m.DstRate
	}
	for int(flowID) >= len(r.flows) {
		r.flows = append(r.flows, nil)
	}
	r.flows[flowID] = f
	return f
}

// flowRec is one flow's recording wrapper around its algorithm.
type flowRec struct {
	r     *Recorder
	inner cca.Algorithm
	msg   cca.MessageObserver // inner, when it decides per message
	to    cca.TimeoutObserver // inner, when it reacts to RTO
	probe cca.RTTProber       // inner, when it may measure RTT with probes

	id, src, dst int32
	size         int64            // flow payload, bytes (0 unknown)
	dstRate      units.BitsPerSec // receiver link rate
	line         units.BitsPerSec
	base         units.Time
	interval     units.Time
	started      bool
	counted      bool // counted in r.active[dst]

	// At the previous row (or Start).
	lastT    units.Time
	lastRate units.BitsPerSec // capped at line rate
	lastWin  units.Bytes
	step     int64
	prevAct  float64
	prevRate float64
	prevInfl float64

	// Since the previous row.
	acks, ece, cnps, nacks, timeouts int64
	acked                            int64
	rttN                             int64
	rttSum                           units.Time
	intMaxQ                          units.Bytes // -1: no INT
	intMaxRate                       units.BitsPerSec
	msgs                             int64
	msgIdeal, msgMCT                 units.Time // -1: none

	// Carried across rows.
	lastRTT    units.Time // latest sample, 0 before any
	totalAcked int64
	cong       telemetry.Congestion // the previous INT sample, per hop
	qFrac      float64              // FDCC QLEN of the most congested hop (NaN before INT)
	txFrac     float64              // FDCC SWITCHRATE of that hop (NaN before INT)
}

var (
	_ cca.Algorithm       = (*flowRec)(nil)
	_ cca.MessageObserver = (*flowRec)(nil)
	_ cca.TimeoutObserver = (*flowRec)(nil)
	_ cca.RTTProber       = (*flowRec)(nil)
)

// Name forwards.
func (f *flowRec) Name() string { return f.inner.Name() }

// Start forwards, then takes the flow's line rate, base RTT and initial
// rate and window as the state before its first decision.
func (f *flowRec) Start(now units.Time, fi cca.FlowInfo) {
	f.inner.Start(now, fi)
	f.started = true
	f.line, f.base = fi.LineRate, fi.BaseRTT
	f.interval = f.r.cfg.Interval
	if f.interval < 0 {
		f.interval = f.base
	}
	f.lastT = now
	f.lastRate, f.lastWin = f.rate(), f.inner.Window()
	f.prevAct = 1
	f.qFrac, f.txFrac = math.NaN(), math.NaN()
	f.reset()
	if f.dst >= 0 && (f.size <= 0 || f.totalAcked < f.size) {
		for int(f.dst) >= len(f.r.active) {
			f.r.active = append(f.r.active, 0)
		}
		f.r.active[f.dst]++
		f.counted = true
	}
}

// OnSend forwards.
func (f *flowRec) OnSend(now units.Time, bytes units.Bytes) {
	f.inner.OnSend(now, bytes)
	f.check(now)
}

// ProbesRTT forwards (false when the wrapped algorithm is no
// cca.RTTProber), so the NIC probes exactly as it would without the
// recorder.
func (f *flowRec) ProbesRTT() bool { return f.probe != nil && f.probe.ProbesRTT() }

// OnRTT forwards an RTT probe's sample and takes it as the flow's latest
// RTT (the observation's rtt and rtt_inflation).
func (f *flowRec) OnRTT(now, rtt units.Time) {
	if f.probe == nil {
		return
	}
	f.probe.OnRTT(now, rtt)
	if rtt > 0 {
		f.rttN++
		f.rttSum += rtt
		f.lastRTT = rtt
	}
	f.check(now)
}

// OnAck forwards, then accounts the ACK: RTT sample, ECN echo, acked
// bytes, INT stack, message completion.
func (f *flowRec) OnAck(now units.Time, a *cca.Ack) {
	f.inner.OnAck(now, a)
	f.acks++
	if a.ECE {
		f.ece++
	}
	f.acked += int64(a.AckedBytes)
	f.totalAcked += int64(a.AckedBytes)
	if a.RTT > 0 {
		f.rttN++
		f.rttSum += a.RTT
		f.lastRTT = a.RTT
	}
	if a.NumHops > 0 {
		f.observeINT(a)
	}
	if a.MessageDone {
		f.msgs++
		f.msgIdeal = f.base + units.TxTime(max(a.MsgBytes, 0), max(f.line, 1))
		f.msgMCT = now - a.MsgFirstTx
	}
	if f.counted && f.size > 0 && f.totalAcked >= f.size {
		f.r.active[f.dst]--
		f.counted = false
	}
	f.check(now)
}

// observeINT keeps the largest queue of the interval and FDCC's
// most-congested-hop features (FDCC, Zhang 2023, Section 4.2), computed by
// telemetry.Congestion, the same code the FDCC controller (cca/fdcc) uses.
func (f *flowRec) observeINT(a *cca.Ack) {
	for j := range a.NumHops {
		if h := &a.Hops[j]; h.QLen > f.intMaxQ {
			f.intMaxQ, f.intMaxRate = h.QLen, h.LinkRate
		}
	}
	if q, tx, _, ok := f.cong.Observe(a.Hops[:a.NumHops], f.base); ok {
		f.qFrac, f.txFrac = q, tx
	}
}

// OnCNP forwards and counts.
func (f *flowRec) OnCNP(now units.Time) {
	f.inner.OnCNP(now)
	f.cnps++
	f.check(now)
}

// OnNack forwards and counts.
func (f *flowRec) OnNack(now units.Time) {
	f.inner.OnNack(now)
	f.nacks++
	f.check(now)
}

// OnTimer forwards.
func (f *flowRec) OnTimer(now units.Time) {
	f.inner.OnTimer(now)
	f.check(now)
}

// NextTimer forwards.
func (f *flowRec) NextTimer() units.Time { return f.inner.NextTimer() }

// Rate forwards.
func (f *flowRec) Rate() units.BitsPerSec { return f.inner.Rate() }

// Window forwards.
func (f *flowRec) Window() units.Bytes { return f.inner.Window() }

// OnMessageStart forwards when the wrapped algorithm decides per message
// (cca.MessageObserver) and does nothing otherwise, as the NIC would.
func (f *flowRec) OnMessageStart(now units.Time, m cca.MessageInfo) {
	if f.msg != nil {
		f.msg.OnMessageStart(now, m)
		f.check(now)
	}
}

// OnTimeout forwards when the wrapped algorithm reacts to RTO
// (cca.TimeoutObserver); the timeout is counted either way.
func (f *flowRec) OnTimeout(now units.Time) {
	if f.to != nil {
		f.to.OnTimeout(now)
	}
	f.timeouts++
	f.check(now)
}

// rate is the algorithm's rate capped at the line rate, as the NIC paces.
func (f *flowRec) rate() units.BitsPerSec {
	r := f.inner.Rate()
	if f.line > 0 && r > f.line {
		r = f.line
	}
	return r
}

// reset clears the interval's accumulators.
func (f *flowRec) reset() {
	f.acks, f.ece, f.cnps, f.nacks, f.timeouts, f.acked = 0, 0, 0, 0, 0, 0
	f.rttN, f.rttSum = 0, 0
	f.intMaxQ, f.intMaxRate = -1, -1
	f.msgs, f.msgIdeal, f.msgMCT = 0, -1, -1
}

// check emits a row when the rate or window changed and the interval
// has passed since the previous row.
func (f *flowRec) check(now units.Time) {
	if !f.started {
		return
	}
	rate, win := f.rate(), f.inner.Window()
	if rate == f.lastRate && win == f.lastWin {
		return
	}
	if now-f.lastT < f.interval {
		return
	}
	f.emit(now, rate, win)
}

// emit writes the row of a decision taken at now.
func (f *flowRec) emit(now units.Time, rate units.BitsPerSec, win units.Bytes) {
	c := &f.r.cfg
	rtt := f.lastRTT
	if rtt <= 0 {
		rtt = f.base
	}
	mean := rtt
	if f.rttN > 0 {
		mean = (f.rttSum + units.Time(f.rttN/2)) / units.Time(f.rttN)
	}
	rateFrac, infl := 0.0, math.NaN()
	if f.line > 0 {
		rateFrac = float64(f.lastRate) / float64(f.line)
	}
	if f.base > 0 {
		infl = float64(rtt) / float64(f.base)
	}
	ecn := 0.0
	if f.acks > 0 {
		ecn = float64(f.ece) / float64(f.acks)
	}
	dt := now - f.lastT
	var goodput int64
	if dt > 0 {
		goodput = int64(math.Round(float64(f.acked) * 8 / dt.Seconds()))
	}
	recvRate := f.dstRate
	if recvRate <= 0 {
		recvRate = f.line
	}
	goodFrac := 0.0
	if recvRate > 0 {
		goodFrac = float64(goodput) / float64(recvRate)
	}
	flowsToDst := int32(-1)
	if f.dst >= 0 && int(f.dst) < len(f.r.active) {
		flowsToDst = f.r.active[f.dst]
	}
	if !f.counted && flowsToDst >= 0 {
		flowsToDst++ // a flow fully acknowledged still counts at its own decision
	}
	action := 1.0
	if f.lastRate > 0 {
		action = float64(rate) / float64(f.lastRate)
	}
	prevRate, prevInfl := f.prevRate, f.prevInfl
	if f.step == 0 {
		prevRate, prevInfl = rateFrac, infl
	}
	row := v2.DecisionRow{
		RunID: c.RunID, CCA: c.CCA, FlowID: int64(f.id), Src: f.src, Dst: f.dst,
		Step: f.step, TNs: now.Nanoseconds(),
		IntervalNs: now.Nanoseconds() - f.lastT.Nanoseconds(), RateBps: int64(f.lastRate), RateFrac: rateFrac,
		LineRateBps: int64(f.line), RTTNs: rtt.Nanoseconds(), RTTMeanNs: mean.Nanoseconds(),
		BaseRTTNs: f.base.Nanoseconds(), RTTInflation: infl,
		CNPs: f.cnps, Nacks: f.nacks, Timeouts: f.timeouts, Acks: f.acks, AckedBytes: f.acked,
		ECNRatio: ecn, IntMaxQLenBytes: int64(f.intMaxQ), IntLinkRateBps: int64(f.intMaxRate),
		IntQLenFrac: f.qFrac, IntTxRateFrac: f.txFrac,
		GoodputBps: goodput, GoodputFrac: goodFrac, FlowsToDst: flowsToDst,
		MsgsDone: f.msgs, MsgIdealMCTNs: nsOrNone(f.msgIdeal), MsgMCTNs: nsOrNone(f.msgMCT),
		DolcePlusArm: int32(reward.DolcePlusArm(rateFrac, c.DolcePlusArms)),
		PrevAction:   f.prevAct, PrevRateFrac: prevRate, PrevRTTInflation: prevInfl,
		Action: action, NewRateBps: int64(rate), WindowBytes: int64(win), PrevWindow: int64(f.lastWin),
		NextRow: -1,
	}
	Score(&row, c)
	f.r.append(&row)

	f.step++
	f.prevAct, f.prevRate, f.prevInfl = action, rateFrac, infl
	f.lastT, f.lastRate, f.lastWin = now, rate, win
	f.reset()
}

// nsOrNone converts t to ns, keeping -1 for "none".
func nsOrNone(t units.Time) int64 {
	if t < 0 {
		return -1
	}
	return t.Nanoseconds()
}

// Score fills row's reward columns from its observation columns with the
// functions of package rl/reward (NaN for the rewards c does not select;
// return_fdcc_nstep is left to Close, which needs the flow's later rows).
// It is exported so that tests and tools can recompute a dataset's
// rewards from its columns.
func Score(row *v2.DecisionRow, c *Config) {
	nan := math.NaN()
	row.RewardDolce, row.RewardDolcePlus, row.RewardRLCC = nan, nan, nan
	row.RewardRLCCBetaFree, row.RewardFDCC, row.ReturnFDCCNStep = nan, nan, nan
	sel := c.Rewards
	if sel.Dolce {
		row.RewardDolce = reward.DolceRC(row.ECNRatio)
	}
	if sel.DolcePlus && row.MsgsDone > 0 {
		row.RewardDolcePlus = reward.DolcePlus(float64(row.MsgIdealMCTNs), float64(row.MsgMCTNs), row.ECNRatio, int(row.DolcePlusArm))
	}
	if sel.RLCC {
		row.RewardRLCC = reward.RLCC(row.RTTInflation, row.RateFrac, c.Target, c.Beta)
	}
	if sel.RLCCBetaFree {
		row.RewardRLCCBetaFree = reward.RLCCBetaFree(row.RTTInflation, row.RateFrac, c.Target)
	}
	if sel.AnyFDCC() {
		row.RewardFDCC = sel.FDCC.Func()(reward.FDCCObs{
			SwitchRate: row.IntTxRateFrac, QLen: row.IntQLenFrac, RTT: row.RTTInflation,
			Throughput: row.GoodputFrac, Flows: int(row.FlowsToDst),
		})
	}
}

// append streams a row and its side record.
func (r *Recorder) append(row *v2.DecisionRow) {
	r.rows.Append(*row)
	var b [sideRec]byte
	binary.LittleEndian.PutUint32(b[0:4], uint32(row.FlowID))
	binary.LittleEndian.PutUint64(b[4:12], math.Float64bits(row.RewardFDCC))
	if _, err := r.sw.Write(b[:]); err != nil && r.err == nil {
		r.err = fmt.Errorf("dataset: %w", err)
	}
	r.n++
}

// Rows is the number of decisions recorded so far.
func (r *Recorder) Rows() int64 { return r.n }
