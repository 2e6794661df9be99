package replay

import (
	"fmt"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/nic"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

func ns(t units.Time) int64 {
	if t < 0 {
		return -1
	}
	return t.Nanoseconds()
}

// idealOneWay is the run's lower bound for delivering b payload bytes
// alone on path (topology.IdealOneWay with the NIC's packet sizes).
func (r *run) idealOneWay(path []topology.Hop, b units.Bytes) units.Time {
	return topology.IdealOneWay(path, b, r.cfg.NIC.MTUPayload, r.cfg.NIC.HeaderBytes)
}

// RowSink takes a run's flow and message rows as the run makes them
// (Config.RowSink) instead of their being kept for Result: a flow's row
// when the flow is retired (finished and quiet) and its messages' rows
// with it, the others at the end. Rows come in the order they are made,
// not in index order, each index once (flow id; message index in the
// trace); they are the rows Result.Flows[i] and Result.Messages[i] would
// hold, the same for any Threads. The calls come from the goroutine that
// runs the replay; a sink keeps a row only by copying it.
type RowSink interface {
	Flow(i int, row *v2.FlowRow)
	Message(i int, row *v2.MessageRow)
}

// startRows points the run's rows at cfg.RowSink, or at Result when it
// has none.
func (r *run) startRows() {
	if r.cfg.RowSink != nil {
		r.sink = r.cfg.RowSink
		return
	}
	r.resFlows = make([]v2.FlowRow, len(r.specs))
	r.sink = resultRows{r}
}

// resultRows keeps the rows for Result.
type resultRows struct{ r *run }

func (s resultRows) Flow(i int, row *v2.FlowRow) { s.r.resFlows[i] = *row }
func (s resultRows) Message(i int, row *v2.MessageRow) {
	if s.r.resMsgs == nil { // made at the end, in trace order
		s.r.resMsgs = make([]v2.MessageRow, len(s.r.msgs))
	}
	s.r.resMsgs[i] = *row
}

// putFlow hands flow i's row on.
func (r *run) putFlow(i int, row *v2.FlowRow) {
	r.dataPkts += row.DataPktsSent
	r.flowsOut++
	r.sink.Flow(i, row)
}

// putMessage hands message i's row on.
func (r *run) putMessage(i int, row *v2.MessageRow) {
	r.msgsOut++
	r.sink.Message(i, row)
}

// endRows makes the rows not made yet for the run ended at end, of the
// flows not retired (a flow that never started gets its state made here,
// for its path facts) and of their messages and the local ones, and
// checks that every row was handed on.
func (r *run) endRows(end units.Time) error {
	for i := range r.specs {
		if r.retired != nil && r.retired[i] {
			continue
		}
		f := r.flows[i]
		if f == nil {
			f = r.newFlow(int32(i))
		}
		row := r.flowRow(i, f, end)
		r.putFlow(i, &row)
	}
	lastF, lastPath := int32(-1), []topology.Hop(nil) // pathOf of the previous message's flow
	for i := range r.msgs {
		fid := r.msgF[i]
		if fid >= 0 && r.cfg.RowSink != nil && r.retired != nil && r.retired[fid] {
			continue // made when its flow was retired
		}
		if fid >= 0 && fid != lastF {
			lastF, lastPath = fid, r.pathOf(fid)
		}
		row := r.messageRow(i, lastPath)
		r.putMessage(i, &row)
	}
	if r.cfg.RowSink == nil && r.resMsgs == nil {
		r.resMsgs = []v2.MessageRow{} // no message at all
	}
	if r.flowsOut != len(r.specs) || r.msgsOut != len(r.msgs) {
		return fmt.Errorf("internal error: %d of %d flow rows and %d of %d message rows made", r.flowsOut, len(r.specs), r.msgsOut, len(r.msgs))
	}
	return nil
}

// pathOf is flow fid's path: the one kept while the flow is in progress,
// else the same one computed again from its ECMP hash.
func (r *run) pathOf(fid int32) []topology.Hop {
	if p := r.paths[fid]; p != nil {
		return p
	}
	sp := &r.specs[fid]
	return r.routes.Path(sp.src, sp.dst, sp.hash)
}

// flowRow is flow i's row at time end (f is its state).
func (r *run) flowRow(i int, f *nic.Flow, end units.Time) v2.FlowRow {
	path := r.paths[i]
	row := v2.FlowRow{
		FlowID: int64(f.ID), Src: f.Src, Dst: f.Dst, SizeBytes: int64(f.SizeBytes),
		StartNs: ns(f.Start), FinishNs: -1, FCTNs: -1, SenderFinishNs: -1, SenderFCTNs: -1,
		BaseRTTNs: f.BaseRTT.Nanoseconds(), BottleneckBps: int64(f.Bottleneck), Hops: int32(f.Hops),
		DataPktsSent: f.DataPktsSent, DataBytesSent: f.DataBytesSent, CEPkts: f.CEPkts,
		CNPs: f.CNPs, Nacks: f.Nacks, Timeouts: f.Timeouts, RetxBytes: f.RetxBytes, DroppedPkts: f.DroppedPkts,
		ConcurrentBytes: r.win.bytes[i], PFCPausedNs: f.PFCPausedUntil(end).Nanoseconds(),
	}
	msgs := f.Messages()
	row.Messages = int64(len(msgs))
	for _, m := range msgs {
		row.Packets += m.NPkts
	}
	if f.CC != nil {
		row.FinalRateBps = int64(f.CC.Rate())
	}
	// The flow's ideal: its last message cannot be delivered before its
	// own release plus its own one-way ideal (messages on a QP are in order).
	if n := len(msgs); n > 0 {
		last := msgs[n-1]
		ideal := last.Release - f.Start + r.idealOneWay(path, last.Bytes)
		row.IdealFCTNs = ideal.Nanoseconds()
		// The sender-side ideal: the HPCC simulator's standalone FCT
		// (base RTT with one payload serialization per hop, all bytes
		// with headers at the bottleneck) of the flow's bytes, and no
		// less than its last message's own from that message's release.
		mtu, hdr := r.cfg.NIC.MTUPayload, r.cfg.NIC.HeaderBytes-r.cfg.NIC.INTBytes
		standalone := max(topology.NS3StandaloneFCT(path, f.SizeBytes, mtu, hdr),
			last.Release-f.Start+topology.NS3StandaloneFCT(path, last.Bytes, mtu, hdr))
		row.StandaloneNs = standalone.Nanoseconds()
		allDone, senderDone := true, true
		var senderFinish units.Time
		for _, m := range msgs {
			allDone = allDone && m.Delivered >= 0
			senderDone = senderDone && m.SenderDone >= 0
			senderFinish = max(senderFinish, m.SenderDone)
		}
		complete := len(msgs) == len(r.msgsOfFlow(i))
		if allDone && complete {
			fct := f.Finish - f.Start
			row.FinishNs, row.FCTNs = ns(f.Finish), fct.Nanoseconds()
			row.Slowdown = float64(fct) / float64(ideal)
			if fct > 0 {
				row.GoodputBps = float64(f.SizeBytes) * 8 / fct.Seconds()
			}
		}
		if senderDone && complete {
			// Whole nanoseconds from the flow's start, truncated, as the
			// simulator's fct.txt counts them.
			sfct := (senderFinish - f.Start) / units.Nanosecond
			row.SenderFinishNs, row.SenderFCTNs = ns(senderFinish), int64(sfct)
			if standalone > 0 {
				row.SenderSlowdown = float64(sfct*units.Nanosecond) / float64(standalone)
			}
		}
	}
	return row
}

// msgsOfFlow counts the trace's messages on flow i (released or not).
func (r *run) msgsOfFlow(i int) []int32 {
	if r.flowMsgs == nil {
		r.flowMsgs = make([][]int32, len(r.flows))
		for m, f := range r.msgF {
			if f >= 0 {
				r.flowMsgs[f] = append(r.flowMsgs[f], int32(m))
			}
		}
	}
	return r.flowMsgs[i]
}

// messageRow is message i's row; path is its flow's (unused for a local
// message).
func (r *run) messageRow(i int, path []topology.Hop) v2.MessageRow {
	m := r.msgs[i]
	tm := &r.tr.Messages[i]
	fid := r.msgF[i]
	row := v2.MessageRow{
		MsgID: m.ID, FlowID: int64(fid), Src: tm.Src, Dst: tm.Dst, SizeBytes: tm.Bytes,
		CollectiveID: tm.CollectiveID, ReleaseNs: ns(m.Release), FirstTxNs: ns(m.FirstTx),
		FinishNs: ns(m.Delivered), MCTNs: -1, SenderDoneNs: ns(m.SenderDone),
	}
	var ideal units.Time
	if fid >= 0 {
		ideal = r.idealOneWay(path, m.Bytes)
	} else {
		ideal = r.localTime(m.Bytes) // same host: no network
	}
	row.IdealMCTNs = ideal.Nanoseconds()
	if m.Delivered >= 0 {
		mct := m.Delivered - m.Release
		row.MCTNs = mct.Nanoseconds()
		row.Slowdown = 1
		if ideal > 0 {
			row.Slowdown = float64(mct) / float64(ideal)
		}
	}
	return row
}

func (r *run) portRows(end units.Time) []v2.PortRow {
	topo := r.cfg.Topology
	n := 0
	for i := range topo.Nodes {
		n += len(topo.Nodes[i].Ports)
	}
	rows := make([]v2.PortRow, 0, n)
	si := 0
	for i := range topo.Nodes {
		n := &topo.Nodes[i]
		if n.Kind == topology.Host {
			x := r.nics[i]
			rows = append(rows, v2.PortRow{
				Node: n.ID, Port: 0, PeerNode: n.Ports[0].Peer, RateBps: int64(x.Port.Rate),
				SimDurationNs: end.Nanoseconds(), TxBytes: x.Port.TxBytes, TxDataBytes: x.Port.TxDataBytes,
				TxPkts: x.Port.TxPkts, PausedNs: x.PausedUntilNow(end).Nanoseconds(), PausesReceived: x.PausesReceived,
			})
			continue
		}
		sw := r.sws[si]
		si++
		for j := 0; j < sw.NumPorts(); j++ {
			e := sw.Port(j)
			mean, p99 := e.Stats.Finish(end)
			rows = append(rows, v2.PortRow{
				Node: n.ID, Port: int32(j), IsSwitch: true, PeerNode: n.Ports[j].Peer, RateBps: int64(e.Port.Rate),
				SimDurationNs: end.Nanoseconds(), TxBytes: e.Port.TxBytes, TxDataBytes: e.Port.TxDataBytes,
				TxPkts: e.Port.TxPkts, MarkedPkts: e.MarkedPkts, DroppedPkts: e.DroppedPkts, DroppedBytes: e.DroppedBytes,
				PausedNs: e.PausedUntilNow(end).Nanoseconds(), PausesReceived: e.PausesReceived, PausesSent: e.PausesSent,
				QLenMaxBytes: int64(e.Stats.Max), QLenAvgBytes: mean, QLenP99Bytes: int64(p99),
			})
		}
	}
	return rows
}

// Conservation is the data-byte balance of a run at one instant.
type Conservation struct {
	// Sent are wire bytes of data packets sent by NICs (retransmissions
	// included), Delivered those that reached a destination NIC, Dropped
	// those discarded by switches, InFlight those in queues and on links.
	Sent, Delivered, Dropped, InFlight int64
}

func (r *run) conservation() Conservation {
	var c Conservation
	count := func(p *fabric.Packet) {
		if p.Kind == fabric.Data {
			c.InFlight += int64(p.Size)
		}
	}
	for _, x := range r.nics {
		c.Sent += x.Counters.SentDataBytes
		c.Delivered += x.Counters.RecvDataBytes
		x.Port.InFlight(count)
	}
	for _, sw := range r.sws {
		c.Dropped += sw.DroppedDataBytes
		for j := 0; j < sw.NumPorts(); j++ {
			sw.Port(j).Queued(count)
			sw.Port(j).Port.InFlight(count)
		}
	}
	return c
}

// checkConservation verifies sent = delivered + dropped + in flight.
func (r *run) checkConservation() error {
	c := r.conservation()
	if c.Sent != c.Delivered+c.Dropped+c.InFlight {
		return fmt.Errorf("byte conservation violated: sent %d != delivered %d + dropped %d + in flight %d", c.Sent, c.Delivered, c.Dropped, c.InFlight)
	}
	return nil
}
