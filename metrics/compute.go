package metrics

import (
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Compute summarizes a run from its rows. Empty inputs give zeros. The
// inputs are not modified.
func Compute(flows []v2.FlowRow, msgs []v2.MessageRow, ports []v2.PortRow, opt Options) Summary {
	if opt.Buckets <= 0 {
		opt.Buckets = DefaultBuckets
	}
	s := Summary{
		Flows:    int64(len(flows)),
		Messages: int64(len(msgs)),
	}
	s.SimDurationNs = simDuration(flows, msgs, ports)
	flowStats(&s, flows)
	s.GoodputNorm = goodputNorm(s.GoodputBps, flows, ports)
	s.PFCPausedFracMean = pfcPausedFracMean(flows)
	concurrentStats(&s, flows)
	s.Buckets = buckets(flows, opt.Buckets)
	messageStats(&s, msgs)
	collectiveStats(&s, msgs)
	portStats(&s, ports)
	return s
}

// finished reports whether a flow or message completed.
func finished(finishNs int64) bool { return finishNs >= 0 }

// simDuration is the largest sim_duration_ns of the ports, or without
// ports the latest finish of a flow or message.
func simDuration(flows []v2.FlowRow, msgs []v2.MessageRow, ports []v2.PortRow) int64 {
	var d int64
	for i := range ports {
		d = max(d, ports[i].SimDurationNs)
	}
	if len(ports) > 0 {
		return d
	}
	for i := range flows {
		d = max(d, flows[i].FinishNs)
	}
	for i := range msgs {
		d = max(d, msgs[i].FinishNs)
	}
	return d
}

// flowStats fills the FCT, slowdown, counter, goodput and fairness fields.
func flowStats(s *Summary, flows []v2.FlowRow) {
	var (
		fcts      []int64
		slowdowns []float64
		sdStand   []float64 // fct / standalone FCT
		rates     []float64 // per-flow goodput, bit/s, in row order
		bits      int64     // payload bits of finished flows
		first     int64     // earliest start of a finished flow
		last      int64     // latest finish of a finished flow
	)
	for i := range flows {
		f := &flows[i]
		s.DataPktsSent += f.DataPktsSent
		s.CEPkts += f.CEPkts
		s.CNPs += f.CNPs
		s.Nacks += f.Nacks
		s.Timeouts += f.Timeouts
		s.RetxBytes += f.RetxBytes
		if !finished(f.FinishNs) {
			continue
		}
		if s.FlowsFinished == 0 {
			first, last = f.StartNs, f.FinishNs
		}
		s.FlowsFinished++
		first, last = min(first, f.StartNs), max(last, f.FinishNs)
		bits += f.SizeBytes * 8
		fcts = append(fcts, f.FCTNs)
		if isFinite(f.Slowdown) {
			slowdowns = append(slowdowns, f.Slowdown)
		}
		if f.StandaloneNs > 0 {
			sdStand = append(sdStand, float64(f.FCTNs)/float64(f.StandaloneNs))
		}
		if f.FCTNs > 0 {
			rates = append(rates, goodput(f.SizeBytes, f.FCTNs))
		}
	}
	s.ECNRatio = ratio(float64(s.CEPkts), float64(s.DataPktsSent))
	s.GoodputBps = ratio(float64(bits)*1e9, float64(last-first))
	s.UnfairRatio = unfairRatio(rates)
	s.JainIndex = jainIndex(rates)
	s.MinMaxRateRatio = minMaxRatio(rates)
	var sum float64
	for _, r := range rates {
		sum += r
	}
	s.GoodputMeanBps = ratio(sum, float64(len(rates)))

	st := intSummary(fcts)
	s.FCTMeanNs, s.FCTP50Ns, s.FCTP90Ns, s.FCTP95Ns = st.mean, st.p50, st.p90, st.p95
	s.FCTP99Ns, s.FCTP999Ns, s.FCTMaxNs = st.p99, st.p999, st.max
	sd := floatSummary(slowdowns)
	s.SlowdownMean, s.SlowdownP50, s.SlowdownP90, s.SlowdownP95 = sd.mean, sd.p50, sd.p90, sd.p95
	s.SlowdownP99, s.SlowdownP999, s.SlowdownMax = sd.p99, sd.p999, sd.max
	ss := floatSummary(sdStand)
	s.SlowdownStandaloneMean, s.SlowdownStandaloneP50, s.SlowdownStandaloneP99 = ss.mean, ss.p50, ss.p99
}

// goodputNorm is the aggregate goodput over the receiver's link rate when
// every flow has one destination (an n-to-1 run), else 0. The rate is the
// destination host's NIC port's: hosts are nodes 0..hosts-1, so its ports
// row has node = dst and is_switch false.
func goodputNorm(goodputBps float64, flows []v2.FlowRow, ports []v2.PortRow) float64 {
	if len(flows) == 0 {
		return 0
	}
	dst := flows[0].Dst
	for i := range flows {
		if flows[i].Dst != dst {
			return 0
		}
	}
	for i := range ports {
		p := &ports[i]
		if p.Node == dst && !p.IsSwitch && p.RateBps > 0 {
			// NB: times the reciprocal, so that at 100 Gb/s this is
			// bit-identical to goodput_bps * 1e-11 (1/1e11 rounds to the
			// literal 1e-11), what reproduce's fdcc-table6.2 reported before.
			return finite(goodputBps * (1 / float64(p.RateBps)))
		}
	}
	return 0
}

// pfcPausedFracMean is the mean of pfc_paused_ns / fct_ns over the finished
// flows with fct_ns > 0, in row order; 0 when any row's pfc_paused_ns is
// unknown (negative).
func pfcPausedFracMean(flows []v2.FlowRow) float64 {
	var sum float64
	var n int
	for i := range flows {
		f := &flows[i]
		if f.PFCPausedNs < 0 {
			return 0
		}
		if finished(f.FinishNs) && f.FCTNs > 0 {
			sum += float64(f.PFCPausedNs) / float64(f.FCTNs)
			n++
		}
	}
	return ratio(sum, float64(n))
}

// goodput is a flow's rate, size*8 / fct, in bit/s.
func goodput(sizeBytes, fctNs int64) float64 {
	return finite(float64(sizeBytes) * 8e9 / float64(fctNs))
}

// messageStats fills the message counts and MCT fields.
func messageStats(s *Summary, msgs []v2.MessageRow) {
	var mcts []int64
	for i := range msgs {
		if finished(msgs[i].FinishNs) {
			mcts = append(mcts, msgs[i].MCTNs)
		}
	}
	s.MessagesFinished = int64(len(mcts))
	st := intSummary(mcts)
	s.MCTMeanNs, s.MCTP50Ns, s.MCTP90Ns, s.MCTP95Ns = st.mean, st.p50, st.p90, st.p95
	s.MCTP99Ns, s.MCTP999Ns, s.MCTMaxNs = st.p99, st.p999, st.max
}

// collectiveStats groups messages by collective_id >= 0 and fills the CCT
// fields. NB: the map only groups; the completion times are sorted before
// use, so its iteration order decides nothing.
func collectiveStats(s *Summary, msgs []v2.MessageRow) {
	type coll struct {
		start, finish int64
		done          bool
	}
	colls := make(map[int64]*coll)
	for i := range msgs {
		m := &msgs[i]
		if m.CollectiveID < 0 {
			continue
		}
		c := colls[m.CollectiveID]
		if c == nil {
			c = &coll{start: m.ReleaseNs, finish: m.FinishNs, done: true}
			colls[m.CollectiveID] = c
		}
		c.start = min(c.start, m.ReleaseNs)
		c.finish = max(c.finish, m.FinishNs)
		c.done = c.done && finished(m.FinishNs)
	}
	var ccts []int64
	for _, c := range colls {
		if c.done {
			ccts = append(ccts, c.finish-c.start)
		}
	}
	s.Collectives = int64(len(colls))
	s.CollectivesFinished = int64(len(ccts))
	st := intSummary(ccts)
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
