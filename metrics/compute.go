package metrics

import (
	"slices"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Compute summarizes a run from its rows. Empty inputs give zeros. The
// inputs are not modified. It is an Accumulator given every row.
func Compute(flows []v2.FlowRow, msgs []v2.MessageRow, ports []v2.PortRow, opt Options) Summary {
	a := NewAccumulator(opt)
	a.Grow(len(flows), len(msgs))
	for i := range flows {
		a.AddFlow(&flows[i])
	}
	for i := range msgs {
		a.AddMessage(&msgs[i])
	}
	return a.Summary(ports)
}

// Accumulator computes a run's Summary from its flow and message rows
// given one at a time, each table in row order (sums of floating-point
// values run in that order, so the Summary is the one Compute gives of
// the same rows). It keeps what the percentiles, buckets and fairness
// need of each flow (about 90 bytes), not the rows: a run can write its
// rows as it makes them and still summarize them.
type Accumulator struct {
	opt Options
	s   Summary

	// Flows, in row order.
	fcts      []int64   // fct_ns of finished flows
	slowdowns []float64 // finite slowdowns of finished flows
	sdStand   []float64 // fct / standalone FCT of finished flows
	rates     []float64 // per-flow goodput of finished flows with fct > 0, bit/s
	bits      int64     // payload bits of finished flows
	first     int64     // earliest start of a finished flow
	last      int64     // latest finish of a finished flow
	maxFinish int64     // latest finish_ns of any flow or message (simDuration without ports)
	dst       int32     // the first flow's destination
	oneDst    bool      // every flow so far has dst
	pfcSum    float64   // pfc_paused_ns / fct_ns summed over finished flows with fct > 0
	pfcN      int
	pfcKnown  bool    // no flow has pfc_paused_ns < 0
	concOK    bool    // every flow started and has concurrent_bytes >= 0
	concStart int64   // latest start
	concEnd   int64   // earliest finish of a finished flow (when hasEnd)
	hasEnd    bool    // concEnd is set
	conc      []int64 // concurrent_bytes per flow
	sized     []sizedFlow

	// Messages.
	mcts  []int64
	colls map[int64]*collSpanAcc
}

// sizedFlow is what the flow-size buckets need of one flow.
type sizedFlow struct {
	size, id, fct int64
	slowdown      float64
	finished      bool
}

type collSpanAcc struct {
	start, finish int64
	done          bool
}

// NewAccumulator starts an empty summary.
func NewAccumulator(opt Options) *Accumulator {
	if opt.Buckets <= 0 {
		opt.Buckets = DefaultBuckets
	}
	return &Accumulator{opt: opt, oneDst: true, pfcKnown: true, concOK: true, colls: make(map[int64]*collSpanAcc)}
}

// Grow makes room for flows more flow rows and msgs more message rows,
// so that the Accumulator's slices do not grow (and copy themselves) row
// by row when the caller knows how many there are.
func (a *Accumulator) Grow(flows, msgs int) {
	flows, msgs = max(flows, 0), max(msgs, 0)
	a.fcts, a.slowdowns, a.sdStand = slices.Grow(a.fcts, flows), slices.Grow(a.slowdowns, flows), slices.Grow(a.sdStand, flows)
	a.rates, a.conc, a.sized = slices.Grow(a.rates, flows), slices.Grow(a.conc, flows), slices.Grow(a.sized, flows)
	a.mcts = slices.Grow(a.mcts, msgs)
}

// AddFlow takes the next flow row.
func (a *Accumulator) AddFlow(f *v2.FlowRow) {
	s := &a.s
	if s.Flows == 0 {
		a.dst = f.Dst
		a.concStart = f.StartNs
	}
	s.Flows++
	a.maxFinish = max(a.maxFinish, f.FinishNs)
	a.oneDst = a.oneDst && f.Dst == a.dst
	s.DataPktsSent += f.DataPktsSent
	s.CEPkts += f.CEPkts
	s.CNPs += f.CNPs
	s.Nacks += f.Nacks
	s.Timeouts += f.Timeouts
	s.RetxBytes += f.RetxBytes
	if f.PFCPausedNs < 0 {
		a.pfcKnown = false
	}
	if f.StartNs < 0 || f.ConcurrentBytes < 0 {
		a.concOK = false
	}
	if a.concOK {
		a.concStart = max(a.concStart, f.StartNs)
		if finished(f.FinishNs) {
			if !a.hasEnd {
				a.concEnd, a.hasEnd = f.FinishNs, true
			}
			a.concEnd = min(a.concEnd, f.FinishNs)
		}
		a.conc = append(a.conc, f.ConcurrentBytes)
	}
	a.sized = append(a.sized, sizedFlow{size: f.SizeBytes, id: f.FlowID, fct: f.FCTNs, slowdown: f.Slowdown, finished: finished(f.FinishNs)})
	if !finished(f.FinishNs) {
		return
	}
	if s.FlowsFinished == 0 {
		a.first, a.last = f.StartNs, f.FinishNs
	}
	s.FlowsFinished++
	a.first, a.last = min(a.first, f.StartNs), max(a.last, f.FinishNs)
	a.bits += f.SizeBytes * 8
	a.fcts = append(a.fcts, f.FCTNs)
	if isFinite(f.Slowdown) {
		a.slowdowns = append(a.slowdowns, f.Slowdown)
	}
	if f.StandaloneNs > 0 {
		a.sdStand = append(a.sdStand, float64(f.FCTNs)/float64(f.StandaloneNs))
	}
	if f.FCTNs > 0 {
		a.rates = append(a.rates, goodput(f.SizeBytes, f.FCTNs))
		if a.pfcKnown {
			a.pfcSum += float64(f.PFCPausedNs) / float64(f.FCTNs)
			a.pfcN++
		}
	}
}

// AddMessage takes the next message row.
func (a *Accumulator) AddMessage(m *v2.MessageRow) {
	a.s.Messages++
	a.maxFinish = max(a.maxFinish, m.FinishNs)
	if finished(m.FinishNs) {
		a.mcts = append(a.mcts, m.MCTNs)
	}
	if m.CollectiveID < 0 {
		return
	}
	c := a.colls[m.CollectiveID]
	if c == nil {
		c = &collSpanAcc{start: m.ReleaseNs, finish: m.FinishNs, done: true}
		a.colls[m.CollectiveID] = c
	}
	c.start = min(c.start, m.ReleaseNs)
	c.finish = max(c.finish, m.FinishNs)
	c.done = c.done && finished(m.FinishNs)
}

// Summary is the summary of the rows given, with the run's ports. The
// Accumulator is spent: its percentile slices are sorted in place.
func (a *Accumulator) Summary(ports []v2.PortRow) Summary {
	s := a.s
	s.SimDurationNs = a.maxFinish
	if len(ports) > 0 {
		var d int64
		for i := range ports {
			d = max(d, ports[i].SimDurationNs)
		}
		s.SimDurationNs = d
	}
	a.flowStats(&s)
	s.GoodputNorm = a.goodputNorm(s.GoodputBps, ports)
	if a.pfcKnown {
		s.PFCPausedFracMean = ratio(a.pfcSum, float64(a.pfcN))
	}
	a.concurrentStats(&s)
	s.Buckets = buckets(a.sized, a.opt.Buckets)
	a.messageStats(&s)
	portStats(&s, ports)
	return s
}

// finished reports whether a flow or message completed.
func finished(finishNs int64) bool { return finishNs >= 0 }

// flowStats fills the FCT, slowdown, goodput and fairness fields.
func (a *Accumulator) flowStats(s *Summary) {
	s.ECNRatio = ratio(float64(s.CEPkts), float64(s.DataPktsSent))
	s.GoodputBps = ratio(float64(a.bits)*1e9, float64(a.last-a.first))
	s.UnfairRatio = unfairRatio(a.rates)
	s.JainIndex = jainIndex(a.rates)
	s.MinMaxRateRatio = minMaxRatio(a.rates)
	var sum float64
	for _, r := range a.rates {
		sum += r
	}
	s.GoodputMeanBps = ratio(sum, float64(len(a.rates)))

	st := summary(a.fcts)
	s.FCTMeanNs, s.FCTP50Ns, s.FCTP90Ns, s.FCTP95Ns = st.mean, st.p50, st.p90, st.p95
	s.FCTP99Ns, s.FCTP999Ns, s.FCTMaxNs = st.p99, st.p999, st.max
	sd := summary(a.slowdowns)
	s.SlowdownMean, s.SlowdownP50, s.SlowdownP90, s.SlowdownP95 = sd.mean, sd.p50, sd.p90, sd.p95
	s.SlowdownP99, s.SlowdownP999, s.SlowdownMax = sd.p99, sd.p999, sd.max
	ss := summary(a.sdStand)
	s.SlowdownStandaloneMean, s.SlowdownStandaloneP50, s.SlowdownStandaloneP99 = ss.mean, ss.p50, ss.p99
}

// goodputNorm is the aggregate goodput over the receiver's link rate when
// every flow has one destination (an n-to-1 run), else 0. The rate is the
// destination host's NIC port's: hosts are nodes 0..hosts-1, so its ports
// row has node = dst and is_switch false.
func (a *Accumulator) goodputNorm(goodputBps float64, ports []v2.PortRow) float64 {
	if a.s.Flows == 0 || !a.oneDst {
		return 0
	}
	for i := range ports {
		p := &ports[i]
		if p.Node == a.dst && !p.IsSwitch && p.RateBps > 0 {
			// NB: times the reciprocal, so that at 100 Gb/s this is
			// bit-identical to goodput_bps * 1e-11 (1/1e11 rounds to the
			// literal 1e-11), what reproduce's fdcc-table6.2 reported before.
			return finite(goodputBps * (1 / float64(p.RateBps)))
		}
	}
	return 0
}

// goodput is a flow's rate, size*8 / fct, in bit/s.
func goodput(sizeBytes, fctNs int64) float64 {
	return finite(float64(sizeBytes) * 8e9 / float64(fctNs))
}

// messageStats fills the message counts, MCT and CCT fields. NB: the
// collectives' map only groups; their completion times are sorted before
// use, so its iteration order decides nothing.
func (a *Accumulator) messageStats(s *Summary) {
	s.MessagesFinished = int64(len(a.mcts))
	st := summary(a.mcts)
	s.MCTMeanNs, s.MCTP50Ns, s.MCTP90Ns, s.MCTP95Ns = st.mean, st.p50, st.p90, st.p95
	s.MCTP99Ns, s.MCTP999Ns, s.MCTMaxNs = st.p99, st.p999, st.max
	var ccts []int64
	for _, c := range a.colls {
		if c.done {
			ccts = append(ccts, c.finish-c.start)
		}
	}
	s.Collectives = int64(len(a.colls))
	s.CollectivesFinished = int64(len(ccts))
	st = summary(ccts)
	s.CCTMeanNs, s.CCTP50Ns, s.CCTP90Ns, s.CCTP95Ns = st.mean, st.p50, st.p90, st.p95
	s.CCTP99Ns, s.CCTP999Ns, s.CCTMaxNs = st.p99, st.p999, st.max
}

// portStats fills the drop, utilization, queue and PFC fields.
func portStats(s *Summary, ports []v2.PortRow) {
	var (
		pausedNs, durNs int64
		utilSum         float64
		utilN           int
	)
	for i := range ports {
		p := &ports[i]
		s.DropsPkts += p.DroppedPkts
		s.DropsBytes += p.DroppedBytes
		s.PauseFrames += p.PausesSent
		s.ECNMarkedPkts += p.MarkedPkts
		pausedNs += p.PausedNs
		durNs += p.SimDurationNs
		s.PFCPauseFractionMax = max(s.PFCPauseFractionMax,
			ratio(float64(p.PausedNs), float64(p.SimDurationNs)))
		if !p.IsSwitch {
			continue
		}
		s.QLenAvgBytes = max(s.QLenAvgBytes, finite(p.QLenAvgBytes))
		s.QLenP99Bytes = max(s.QLenP99Bytes, p.QLenP99Bytes)
		s.QLenMaxBytes = max(s.QLenMaxBytes, p.QLenMaxBytes)
		if p.TxBytes > 0 && p.RateBps > 0 && p.SimDurationNs > 0 {
			u := ratio(float64(p.TxBytes)*8e9, float64(p.RateBps)*float64(p.SimDurationNs))
			s.SwitchUtilMax = max(s.SwitchUtilMax, u)
			utilSum += u
			utilN++
		}
	}
	s.SwitchUtilMean = ratio(utilSum, float64(utilN))
	s.PFCPauseFraction = ratio(float64(pausedNs), float64(durNs))
}
