package ingest

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// build turns the reconstructed messages into a trace:
//
//   - messages are ordered by first packet (time, then packet number) and
//     numbered from 0 in that order;
//   - each message source (a QP's sends and writes, the reads a QP
//     requested, a TCP/UDP flow) is one trace flow, numbered in order of
//     its first message, so the replay keeps each queue pair's order;
//   - open loop: Release is the first packet's time relative to the
//     capture's first packet;
//   - closed loop: the first message of each requesting QP is released
//     like that; each later one gets Deps = [the QP's previous message],
//     Gap = its first packet minus the previous message's last packet
//     (at least 0) and Release 0, so it starts when the previous one has
//     completed in the replay, plus the captured think time. TCP/UDP
//     flows and reads whose request was not captured stay open loop.
func (in *ingester) build(hf *hostFile) (*trace.Trace, error) {
	for k, n := range map[string]int64{"rocev2": in.nRoCE, "tcp": in.nTCP, "udp": in.nUDP} {
		if n > 0 {
			in.rep.Kinds[k] = n
		}
	}
	in.finishRoCE()
	l4 := in.finishL4()
	in.rep.DurationNs = in.tLast - in.t0
	if in.reordered > 0 {
		in.warnf("%d packets are stamped before the capture's first packet; their times count as 0", in.reordered)
	}
	if in.rep.LinkType == "" {
		in.rep.LinkType = "none (no packets)"
	}

	msgs := in.msgs
	useL4 := in.opt.Flows == FlowsAlways || (in.opt.Flows == FlowsAuto && len(msgs) == 0)
	if useL4 {
		msgs = append(msgs, l4...)
	} else if len(l4) > 0 {
		in.warnf("%d TCP/UDP flows with payload are reported but not in the trace (the capture has RoCEv2 messages)", len(l4))
	}
	slices.SortStableFunc(msgs, func(a, b message) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.firstPkt, b.firstPkt))
	})

	hostOf, hosts, err := in.hostMap(msgs, hf)
	if err != nil {
		return nil, err
	}
	t := &trace.Trace{Hosts: hosts, Messages: make([]trace.Message, len(msgs))}
	rt := &in.rep.Trace
	rt.Timing, rt.Hosts, rt.Messages = in.opt.Timing.String(), hosts, len(msgs)
	flowID := map[flowRef]int64{}
	lastOnChain := map[int32]int{} // requesting QP -> index of its latest message
	for i := range msgs {
		m := &msgs[i]
		id, ok := flowID[m.flow]
		if !ok {
			id = int64(len(flowID))
			flowID[m.flow] = id
		}
		tm := newMessage(int64(i), hostOf[m.src], hostOf[m.dst], m.size(), id)
		if rel := in.rel(m.start); rel > maxRelNs {
			return nil, fmt.Errorf("packet %d is stamped %.4g s after the capture's first packet, beyond the limit of %s (a damaged timestamp, or a capture too long to replay)",
				m.firstPkt, float64(rel)/1e9, limits.Describe(limits.MaxTime))
		}
		tm.Release = nsToTime(in.rel(m.start))
		if in.opt.Timing == ClosedLoop && m.chain >= 0 {
			if j, ok := lastOnChain[m.chain]; ok {
				tm.Deps = []int64{int64(j)}
				tm.Gap = nsToTime(max(0, m.start-msgs[j].end))
				tm.Release = 0
				rt.Dependent++
			}
			lastOnChain[m.chain] = i
		}
		t.Messages[i] = tm
		rt.Bytes += tm.Bytes
		if m.kind >= msgTCP {
			rt.FromTCPUDP++
		} else {
			rt.FromRoCE++
		}
		if tm.Src == tm.Dst {
			rt.SameHost++
		}
	}
	rt.Flows = len(flowID)
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("internal error: the trace built is invalid: %w", err)
	}
	return t, nil
}

// maxRelNs is limits.MaxTime in nanoseconds: the latest a message may
// start after the capture's first packet.
const maxRelNs = int64(limits.MaxTime / units.Nanosecond)

// newMessage makes a trace message with every field ingest does not set
// at its "none" value.
func newMessage(id int64, src, dst int32, bytes, flow int64) trace.Message {
	return trace.Message{ID: id, Src: src, Dst: dst, Bytes: bytes, FlowID: flow, CollectiveID: trace.NoCollective,
		Iteration: trace.NoIteration, SrcRank: trace.NoRank, DstRank: trace.NoRank}
}

// nsToTime converts nanoseconds to simulator time.
func nsToTime(ns int64) units.Time { return units.Time(ns) * units.Nanosecond }
