package ingest

import (
	"net/netip"

	"github.com/ccreplay/ccreplay/ingest/roce"
)

// Message reconstruction from RoCEv2 packets.
//
// A queue pair is keyed by (source IP, destination IP, destination QP):
// the packets sent to one QP by one peer. Requests (SEND, RDMA WRITE, RDMA
// READ REQUEST, atomics) go to the responder's QP; ACKs, NAKs, READ
// RESPONSEs and CNPs come back to the requester's. The rules:
//
//   - Requests on a QP carry consecutive PSNs (24 bits, compared in a
//     window of 2^23 as in IBA §9.7.1). A request whose PSN is behind the
//     next expected one is a retransmission (go-back-N after a NAK or a
//     timeout): counted, never added to a message again. A PSN ahead of
//     the expected one means packets were lost before the capture point
//     (or not captured): counted as missing PSNs. After a READ REQUEST the
//     next PSN is unknown (a read uses one PSN per response packet), so
//     any PSN ahead is accepted.
//   - A message is FIRST, MIDDLE..., LAST, or one ONLY packet, of SEND or
//     RDMA WRITE. Its size is the RETH DMA length when it has one (RDMA
//     WRITE FIRST/ONLY), else the data of its packets (payload minus
//     padding, from the UDP length, so sliced captures count). A FIRST or
//     ONLY that arrives while a message is open closes that one as
//     incomplete; a MIDDLE or LAST with no open message starts an
//     incomplete message (the capture began in its middle).
//   - An RDMA READ is a message from the responder to the requester of
//     the READ REQUEST's RETH length, released at the request; its
//     responses (found by the request's PSN on the reverse path) set its
//     last packet. Responses whose request was not captured make a
//     message of their observed data, released at the first response.
//   - The message's release is its first packet's time; its end, used by
//     closed-loop timing, is its last packet's (first transmission).
//   - ACKs, NAKs (by AETH syndrome), CNPs and CE-marked packets (IP ECN
//     11) are counted on the QP they are sent to.

// qpKey identifies a queue pair as seen on the wire.
type qpKey struct {
	src, dst netip.Addr
	qp       uint32
}

// readKey finds the READ REQUEST a response answers.
type readKey struct {
	requester, responder netip.Addr
	psn                  uint32
}

// qpState is one queue pair's reconstruction state and counters.
type qpState struct {
	idx int32
	key qpKey
	rep QPReport

	// Requests sent to this QP.
	reqInit   bool
	reqNext   uint32 // next expected request PSN
	afterRead bool   // the last request was a READ: its PSN span is unknown
	open      int32  // message being assembled, or -1

	// READ RESPONSEs sent to this QP (it is a requester's).
	respInit bool
	respNext uint32
	resp     int32 // READ being answered, or -1
}

// msgKind is where a message came from.
type msgKind uint8

const (
	msgSend msgKind = iota
	msgWrite
	msgRead
	msgTCP
	msgUDP
)

// flowRef groups messages into trace flows (queue pairs): the sends and
// writes of a QP, the reads a QP requested, the reads answered on a QP
// whose requests were not captured, or a TCP/UDP flow.
type flowRef struct {
	kind uint8
	idx  int32
}

const (
	flowQP uint8 = iota
	flowQPReads
	flowQPResponses
	flowL4
)

// message is one reconstructed message.
type message struct {
	kind       msgKind
	src, dst   netip.Addr // the data's direction
	start, end int64      // first and last packet, ns since the epoch
	firstPkt   int64      // index of the first packet
	bytes      int64      // data bytes seen
	declared   int64      // RETH DMA length, or -1
	flow       flowRef
	chain      int32 // closed-loop chain (the requesting QP), or -1
	qp         int32 // the QP whose requests made it, or -1
	incomplete bool
}

// size is the message's size in bytes.
func (m *message) size() int64 {
	if m.declared >= 0 {
		return m.declared
	}
	return m.bytes
}

const (
	psnMask   = 1<<24 - 1
	psnWindow = 1 << 23
)

// qp returns the state of p's queue pair, creating it on first sight.
func (in *ingester) qp(p *packet) *qpState {
	k := qpKey{p.src, p.dst, p.bth.DestQP}
	q, ok := in.qps[k]
	if !ok {
		q = &qpState{idx: int32(len(in.qpOrder)), key: k, open: -1, resp: -1}
		q.rep = QPReport{Src: k.src.String(), Dst: k.dst.String(), DestQP: k.qp, FirstNs: in.rel(p.t)}
		in.qps[k] = q
		in.qpOrder = append(in.qpOrder, q)
		in.see(p.src)
		in.see(p.dst)
	}
	return q
}

// roce accounts one RoCEv2 packet.
func (in *ingester) roce(p *packet) {
	in.nRoCE++
	r := in.roceRep
	r.Packets++
	b := p.bth
	in.opcodes[b.Opcode]++
	switch p.icrc {
	case icrcGood:
		r.ICRCChecked++
	case icrcBad:
		r.ICRCChecked++
		if r.ICRCBad++; r.ICRCBad == 1 {
			in.warnf("packet %d (%v) has a bad ICRC", p.index, b)
		}
	}
	q := in.qp(p)
	q.rep.Packets++
	q.rep.LastNs = in.rel(p.t)
	if p.ecn != 0 {
		q.rep.ECT++
		r.ECT++
		if p.ecn == ecnCE {
			q.rep.CEMarked++
			r.CEMarked++
		}
	}
	switch b.Opcode.Kind() {
	case roce.KindSend, roce.KindWrite, roce.KindReadRequest, roce.KindAtomic:
		in.request(q, p)
	case roce.KindReadResponse:
		in.readResponse(q, p)
	case roce.KindAck, roce.KindAtomicAck:
		switch b.AETH.Type() {
		case roce.AckTypeACK:
			q.rep.ACKs++
			r.ACKs++
		case roce.AckTypeNAK:
			q.rep.NAKs++
			r.NAKs++
		case roce.AckTypeRNRNAK:
			q.rep.RNRNAKs++
			r.RNRNAKs++
		}
	case roce.KindCNP:
		q.rep.CNPs++
		r.CNPs++
	}
}

// request accounts a request packet (SEND, WRITE, READ REQUEST, atomic)
// sent to q.
func (in *ingester) request(q *qpState, p *packet) {
	b := p.bth
	kind := b.Opcode.Kind()
	if !q.reqInit {
		q.reqInit, q.reqNext = true, b.PSN
	}
	d := (b.PSN - q.reqNext) & psnMask
	if d >= psnWindow { // behind: a retransmission
		q.rep.Retransmissions++
		in.roceRep.Retransmissions++
		if kind == roce.KindSend || kind == roce.KindWrite {
			q.rep.RetransmittedBytes += int64(p.data)
			in.roceRep.RetransmittedBytes += int64(p.data)
		}
		return
	}
	if d > 0 && !q.afterRead {
		q.rep.MissingPSNs += int64(d)
		in.roceRep.MissingPSNs += int64(d)
	}
	q.reqNext = (b.PSN + 1) & psnMask
	q.afterRead = false

	switch kind {
	case roce.KindReadRequest:
		in.closeOpen(q)
		q.afterRead = true
		q.rep.ReadRequests++
		i := in.newMessage(message{kind: msgRead, src: p.dst, dst: p.src, start: p.t, end: p.t, firstPkt: p.index,
			declared: int64(b.RETH.DMALength), flow: flowRef{flowQPReads, q.idx}, chain: q.idx, qp: q.idx})
		in.pending[readKey{requester: p.src, responder: p.dst, psn: b.PSN}] = i
		return
	case roce.KindAtomic:
		in.closeOpen(q)
		return
	}

	q.rep.DataPackets++
	in.roceRep.DataPackets++
	mk := msgSend
	if kind == roce.KindWrite {
		mk = msgWrite
	}
	pos := b.Opcode.Position()
	if q.open >= 0 && (pos == roce.PosFirst || pos == roce.PosOnly || in.msgs[q.open].kind != mk) {
		in.closeOpen(q)
	}
	if q.open < 0 {
		declared := int64(-1)
		if b.Opcode.Headers()&roce.HasRETH != 0 {
			declared = int64(b.RETH.DMALength)
		}
		q.open = in.newMessage(message{kind: mk, src: p.src, dst: p.dst, start: p.t, firstPkt: p.index, declared: declared,
			flow: flowRef{flowQP, q.idx}, chain: q.idx, qp: q.idx, incomplete: pos == roce.PosMiddle || pos == roce.PosLast})
	}
	m := &in.msgs[q.open]
	m.bytes += int64(p.data)
	m.end = p.t
	if pos == roce.PosLast || pos == roce.PosOnly {
		q.open = -1
	}
}

// readResponse accounts a READ RESPONSE packet sent to q (the requester's
// QP).
func (in *ingester) readResponse(q *qpState, p *packet) {
	b := p.bth
	if q.respInit && (b.PSN-q.respNext)&psnMask >= psnWindow {
		q.rep.Retransmissions++
		q.rep.RetransmittedBytes += int64(p.data)
		in.roceRep.Retransmissions++
		in.roceRep.RetransmittedBytes += int64(p.data)
		return
	}
	q.respInit, q.respNext = true, (b.PSN+1)&psnMask
	q.rep.DataPackets++
	in.roceRep.DataPackets++
	pos := b.Opcode.Position()
	if pos == roce.PosFirst || pos == roce.PosOnly {
		if q.resp >= 0 {
			in.msgs[q.resp].incomplete = true
		}
		k := readKey{requester: p.dst, responder: p.src, psn: b.PSN}
		if i, ok := in.pending[k]; ok {
			delete(in.pending, k)
			q.resp = i
		} else {
			q.resp = -1
		}
	}
	if q.resp < 0 { // the request was not captured
		q.resp = in.newMessage(message{kind: msgRead, src: p.src, dst: p.dst, start: p.t, firstPkt: p.index, declared: -1,
			flow: flowRef{flowQPResponses, q.idx}, chain: -1, qp: -1, incomplete: pos == roce.PosMiddle || pos == roce.PosLast})
	}
	m := &in.msgs[q.resp]
	m.bytes += int64(p.data)
	m.end = p.t
	if pos == roce.PosLast || pos == roce.PosOnly {
		q.resp = -1
	}
}

// closeOpen ends q's open message as incomplete: its LAST was never seen.
func (in *ingester) closeOpen(q *qpState) {
	if q.open >= 0 {
		in.msgs[q.open].incomplete = true
		q.open = -1
	}
}

// newMessage appends m and returns its index.
func (in *ingester) newMessage(m message) int32 {
	in.msgs = append(in.msgs, m)
	return int32(len(in.msgs) - 1)
}

// finishRoCE closes what the capture's end left open and fills the RoCE
// report.
func (in *ingester) finishRoCE() {
	r := in.roceRep
	for _, q := range in.qpOrder {
		in.closeOpen(q)
		if q.resp >= 0 {
			in.msgs[q.resp].incomplete = true
			q.resp = -1
		}
	}
	for i := range in.msgs {
		m := &in.msgs[i]
		if m.kind > msgRead {
			continue
		}
		r.Messages++
		r.MessageBytes += m.size()
		if m.incomplete {
			r.IncompleteMessages++
		}
		if m.qp >= 0 {
			q := &in.qpOrder[m.qp].rep
			q.Messages++
			q.MessageBytes += m.size()
		}
	}
	r.QPCount = len(in.qpOrder)
	r.QPs = make([]QPReport, len(in.qpOrder))
	for i, q := range in.qpOrder {
		r.QPs[i] = q.rep
	}
	r.Opcodes = map[string]int64{}
	for op, n := range in.opcodes {
		if n > 0 {
			r.Opcodes[roce.Opcode(op).String()] = n
		}
	}
	if r.IncompleteMessages > 0 {
		in.warnf("%d RoCEv2 messages are incomplete (cut by the capture's start or end, or a FIRST/LAST packet missing): their sizes are what was captured unless a RETH gave the length", r.IncompleteMessages)
	}
}
