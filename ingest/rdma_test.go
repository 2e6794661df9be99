package ingest

import (
	"slices"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/ingest/internal/examplegen"
	"github.com/ccreplay/ccreplay/ingest/roce"
	"github.com/ccreplay/ccreplay/units"
)

// TestIngestGeneratedCaptures reconstructs generated all-to-alls in every
// encapsulation and file format and compares with the generator's ground
// truth: every message (hosts, bytes, release time), and every count.
func TestIngestGeneratedCaptures(t *testing.T) {
	loss := []examplegen.Loss{{Round: 0, Src: 2, Dst: 0, Packet: 0}, {Round: 1, Src: 0, Dst: 1, Packet: 3}}
	cases := []struct {
		name string
		c    examplegen.Config
	}{
		{"example", examplegen.Example()},
		{"write_ipv4", examplegen.Config{Hosts: 4, Rounds: 2, MessageBytes: 5000, HotHost: 1, CEEvery: 3, Losses: loss}},
		{"send_vlan_ipv6", examplegen.Config{Hosts: 5, Op: examplegen.OpSend, MessageBytes: 3001, VLAN: true, IPv6: true, HotHost: 2, CEEvery: 2, Losses: loss}},
		{"read", examplegen.Config{Hosts: 4, Rounds: 2, Op: examplegen.OpRead, MessageBytes: 2500, HotHost: 0, CEEvery: 2}},
		{"pcapng", examplegen.Config{Hosts: 3, Format: examplegen.Pcapng, MessageBytes: 1024, VLAN: true}},
		{"pcap_micro", examplegen.Config{Hosts: 3, Format: examplegen.PcapMicro, MessageBytes: 10000, RoundGap: 3 * time.Microsecond, Rounds: 3}},
		{"sliced_send", examplegen.Config{Hosts: 4, Op: examplegen.OpSend, Snaplen: 64, MessageBytes: 4097, Losses: loss, Rounds: 2}},
		{"sliced_read_vlan", examplegen.Config{Hosts: 3, Op: examplegen.OpRead, Snaplen: 80, VLAN: true, MessageBytes: 999}},
		{"zero_byte_messages", examplegen.Config{Hosts: 3, Op: examplegen.OpSend, MessageBytes: 0}},
		{"one_packet_writes", examplegen.Config{Hosts: 3, MessageBytes: 100}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, truth := generate(t, tc.c)
			tr, rep := load(t, data, Options{VerifyICRC: true})
			micro := tc.c.Format == examplegen.PcapMicro
			checkTruth(t, tr.Messages, rep, truth, micro)
			r := &rep.RoCE
			sliced := tc.c.Snaplen > 0
			if !sliced && (r.ICRCChecked != truth.Packets || r.ICRCBad != 0) {
				t.Errorf("ICRC: %d checked, %d bad; want %d, 0", r.ICRCChecked, r.ICRCBad, truth.Packets)
			}
			if want := countSliced(t, data); rep.SlicedPackets != want || (sliced && want == 0) {
				t.Errorf("sliced packets %d, want %d", rep.SlicedPackets, want)
			}
			if len(rep.Skipped) != 0 || rep.Truncated != nil || len(rep.Warnings) != 0 {
				t.Errorf("skipped %v, truncated %v, warnings %v", rep.Skipped, rep.Truncated, rep.Warnings)
			}
		})
	}
}

// checkTruth compares a trace's messages and a report with the truth.
func checkTruth(t *testing.T, msgs []traceMessage, rep *Report, truth *examplegen.Truth, micro bool) {
	t.Helper()
	want := slices.Clone(truth.Messages)
	slices.SortStableFunc(want, func(a, b examplegen.Message) int { return int(a.Start - b.Start) })
	if len(msgs) != len(want) {
		t.Fatalf("%d messages, want %d", len(msgs), len(want))
	}
	hostOf := addrHost(t, rep)
	ns := func(v int64) int64 {
		if micro {
			return v / 1000 * 1000
		}
		return v
	}
	for i, m := range msgs {
		w := want[i]
		release := units.Time(ns(w.Start)-ns(truth.FirstNs)) * units.Nanosecond
		if m.Src != hostOf[w.SrcIP] || m.Dst != hostOf[w.DstIP] || m.Bytes != w.Bytes || m.Release != release {
			t.Fatalf("message %d = %d->%d %d B at %v, want %v->%v (%d->%d) %d B at %v",
				i, m.Src, m.Dst, m.Bytes, m.Release, w.SrcIP, w.DstIP, hostOf[w.SrcIP], hostOf[w.DstIP], w.Bytes, release)
		}
	}
	r := &rep.RoCE
	for _, c := range []struct {
		name      string
		got, want int64
	}{
		{"packets", rep.Packets, truth.Packets},
		{"messages", r.Messages, int64(len(want))},
		{"incomplete messages", r.IncompleteMessages, 0},
		{"data packets", r.DataPackets, truth.DataPackets},
		{"read requests", sumQP(r.QPs, func(q QPReport) int64 { return q.ReadRequests }), truth.ReadRequests},
		{"ACKs", r.ACKs, truth.ACKs},
		{"NAKs", r.NAKs, truth.NAKs},
		{"CNPs", r.CNPs, truth.CNPs},
		{"CE marks", r.CEMarked, truth.CEMarked},
		{"retransmissions", r.Retransmissions, truth.Retransmissions},
		{"retransmitted bytes", r.RetransmittedBytes, truth.RetransmittedBytes},
		{"missing PSNs", r.MissingPSNs, 0},
		{"QPs", int64(r.QPCount), int64(truth.QPs)},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d", c.name, c.got, c.want)
		}
	}
}

func sumQP(qps []QPReport, f func(QPReport) int64) int64 {
	var s int64
	for _, q := range qps {
		s += f(q)
	}
	return s
}

// TestIngestClosedLoop checks the closed-loop chains: each QP's messages
// depend on the previous one with the captured gap (floored at 0), the
// first of each QP keeps its captured release.
func TestIngestClosedLoop(t *testing.T) {
	c := examplegen.Config{Hosts: 3, Rounds: 3, MessageBytes: 2048, RoundGap: 7 * time.Microsecond}
	data, truth := generate(t, c)
	open, _ := load(t, data, Options{})
	closed, rep := load(t, data, Options{Timing: ClosedLoop})
	want := slices.Clone(truth.Messages)
	slices.SortStableFunc(want, func(a, b examplegen.Message) int { return int(a.Start - b.Start) })
	type qpID struct {
		src string
		qp  uint32
	}
	prev := map[qpID]int{}
	deps := 0
	for i, m := range closed.Messages {
		w := want[i]
		k := qpID{w.SrcIP.String(), w.DestQP}
		j, chained := prev[k]
		prev[k] = i
		if !chained {
			if len(m.Deps) != 0 || m.Release != open.Messages[i].Release {
				t.Errorf("message %d is its QP's first: deps %v release %v, want none and %v", i, m.Deps, m.Release, open.Messages[i].Release)
			}
			continue
		}
		deps++
		gap := units.Time(max(0, w.Start-want[j].End)) * units.Nanosecond
		if !slices.Equal(m.Deps, []int64{int64(j)}) || m.Gap != gap || m.Release != 0 {
			t.Errorf("message %d: deps %v gap %v release %v, want [%d] %v 0", i, m.Deps, m.Gap, m.Release, j, gap)
		}
		if m.FlowID != closed.Messages[j].FlowID {
			t.Errorf("message %d: flow %d, its predecessor's %d", i, m.FlowID, closed.Messages[j].FlowID)
		}
	}
	// 3 rounds of 6 QPs: every QP has 2 dependent messages, and the round
	// gap makes them positive.
	if deps != 12 || rep.Trace.Dependent != 12 {
		t.Errorf("%d dependent messages (report %d), want 12", deps, rep.Trace.Dependent)
	}
	if rep.Trace.Flows != 6 || rep.Trace.Timing != "closed" {
		t.Errorf("trace report %+v", rep.Trace)
	}
}

// TestIngestPartialCaptures removes packets from a generated capture: a
// capture starting after a message's FIRST, one missing a MIDDLE (lost
// before the capture point) and one ending before a LAST.
func TestIngestPartialCaptures(t *testing.T) {
	for _, op := range []examplegen.Op{examplegen.OpWrite, examplegen.OpSend} {
		c := examplegen.Config{Hosts: 3, MessageBytes: 2500, MTU: 1000, Op: op} // 1000 + 1000 + 500
		data, truth := generate(t, c)
		n := int(truth.Packets)
		isFirst := func(f []byte) bool { p := opcodeOf(f, false).Position(); return p == roce.PosFirst }
		isMiddle := func(f []byte) bool { return opcodeOf(f, false).Position() == roce.PosMiddle }
		isLast := func(f []byte) bool { return opcodeOf(f, false).Position() == roce.PosLast }

		// The first FIRST is not in the capture.
		dropped := false
		noFirst := filterCapture(t, data, func(i int, f []byte) bool {
			if !dropped && isFirst(f) {
				dropped = true
				return false
			}
			return true
		})
		_, rep := load(t, noFirst, Options{})
		if rep.RoCE.IncompleteMessages != 1 || rep.RoCE.Messages != 6 || rep.RoCE.MessageBytes != 5*2500+1500 || rep.RoCE.MissingPSNs != 0 {
			t.Errorf("op %d, no FIRST: %d messages, %d bytes, %d incomplete, %d missing PSNs; want 6, %d, 1, 0",
				op, rep.RoCE.Messages, rep.RoCE.MessageBytes, rep.RoCE.IncompleteMessages, rep.RoCE.MissingPSNs, 5*2500+1500)
		}

		// One MIDDLE lost before the capture point: a PSN gap. The RETH
		// still gives a WRITE its size; a SEND loses the packet's bytes.
		dropped = false
		noMiddle := filterCapture(t, data, func(i int, f []byte) bool {
			if !dropped && isMiddle(f) {
				dropped = true
				return false
			}
			return true
		})
		_, rep = load(t, noMiddle, Options{})
		wantBytes := int64(6 * 2500)
		if op == examplegen.OpSend {
			wantBytes -= 1000
		}
		if rep.RoCE.MissingPSNs != 1 || rep.RoCE.MessageBytes != wantBytes || rep.RoCE.IncompleteMessages != 0 || rep.RoCE.Retransmissions != 0 {
			t.Errorf("op %d, no MIDDLE: %d missing PSNs, %d bytes, %d incomplete, %d retx; want 1, %d, 0, 0",
				op, rep.RoCE.MissingPSNs, rep.RoCE.MessageBytes, rep.RoCE.IncompleteMessages, rep.RoCE.Retransmissions, wantBytes)
		}

		// The capture ends before the last LAST.
		lastLast := -1
		filterCapture(t, data, func(i int, f []byte) bool {
			if isLast(f) {
				lastLast = i
			}
			return true
		})
		cut := filterCapture(t, data, func(i int, f []byte) bool { return i < lastLast })
		_, rep = load(t, cut, Options{})
		if rep.RoCE.IncompleteMessages != 1 || rep.RoCE.Messages != 6 || rep.Packets >= int64(n) {
			t.Errorf("op %d, cut before the last LAST: %d messages, %d incomplete", op, rep.RoCE.Messages, rep.RoCE.IncompleteMessages)
		}
	}
}

// TestIngestDuplicateNotCounted feeds every data packet twice (as a
// capture on both sides of a link might): the copies are retransmissions
// by PSN and no message grows.
func TestIngestDuplicateNotCounted(t *testing.T) {
	data, truth := generate(t, examplegen.Config{Hosts: 3, MessageBytes: 3000, MTU: 1024})
	plain, _ := load(t, data, Options{})
	var frames []frameAt
	i := 0
	filterCapture(t, data, func(_ int, f []byte) bool {
		frames = append(frames, frameAt{at: time.Duration(i), data: f})
		if k := opcodeOf(f, false).Kind(); k == roce.KindWrite {
			frames = append(frames, frameAt{at: time.Duration(i), data: f})
		}
		i++
		return true
	})
	doubled := writePcap(t, 1, frames)
	tr, rep := load(t, doubled, Options{})
	if rep.RoCE.Retransmissions != truth.DataPackets || rep.RoCE.MessageBytes != 6*3000 || rep.RoCE.Messages != 6 {
		t.Errorf("doubled data: %d retransmissions, %d messages of %d bytes; want %d, 6, %d",
			rep.RoCE.Retransmissions, rep.RoCE.Messages, rep.RoCE.MessageBytes, truth.DataPackets, 6*3000)
	}
	for i := range tr.Messages {
		if tr.Messages[i].Bytes != plain.Messages[i].Bytes {
			t.Errorf("message %d: %d bytes, %d without duplicates", i, tr.Messages[i].Bytes, plain.Messages[i].Bytes)
		}
	}
}

// TestIngestCommittedExample checks examples/alltoall_roce.pcap ingests
// cleanly with what its generator promises.
func TestIngestCommittedExample(t *testing.T) {
	tr, rep, err := Load("../examples/alltoall_roce.pcap", Options{VerifyICRC: true})
	if err != nil {
		t.Fatal(err)
	}
	checkReport(t, rep)
	r := &rep.RoCE
	if len(tr.Messages) != 112 || tr.Hosts != 8 || r.QPCount != 56 || r.CEMarked == 0 || r.CNPs == 0 ||
		r.NAKs != 1 || r.Retransmissions != 2 || r.ICRCBad != 0 || r.ICRCChecked != rep.Packets ||
		len(rep.Skipped) != 0 || len(rep.Warnings) != 0 || rep.Truncated != nil {
		t.Errorf("example: %d messages on %d hosts; report %+v", len(tr.Messages), tr.Hosts, rep.RoCE)
	}
	for _, op := range []string{"RC_RDMA_WRITE_FIRST", "RC_RDMA_WRITE_MIDDLE", "RC_RDMA_WRITE_LAST", "RC_ACKNOWLEDGE", "CNP"} {
		if r.Opcodes[op] == 0 {
			t.Errorf("example has no %s", op)
		}
	}
}
