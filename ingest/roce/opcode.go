package roce

import "fmt"

// Opcode is the BTH's 8-bit operation code (IBA §9.2.1, table 37): the top
// 3 bits name the transport service (Transport), the low 5 bits the
// operation (Operation).
type Opcode uint8

// Transport is the service an opcode belongs to: the opcode's top 3 bits.
type Transport uint8

// Transport services (IBA table 37). TransportCNP is RoCEv2's congestion
// notification packet (Annex A17.9.3).
const (
	TransportRC  Transport = 0 // reliable connection
	TransportUC  Transport = 1 // unreliable connection
	TransportRD  Transport = 2 // reliable datagram
	TransportUD  Transport = 3 // unreliable datagram
	TransportCNP Transport = 4 // RoCEv2 congestion notification
	TransportXRC Transport = 5 // extended reliable connection
)

var transportNames = [8]string{"RC", "UC", "RD", "UD", "CNP", "XRC", "T6", "T7"}

// String returns "RC", "UC", "RD", "UD", "CNP", "XRC" (or "T6", "T7").
func (t Transport) String() string { return transportNames[t&7] }

// Operation is an opcode's low 5 bits: what the packet does within its
// transport.
type Operation uint8

// Operations (IBA table 37).
const (
	SendFirst          Operation = 0x00
	SendMiddle         Operation = 0x01
	SendLast           Operation = 0x02
	SendLastImmediate  Operation = 0x03
	SendOnly           Operation = 0x04
	SendOnlyImmediate  Operation = 0x05
	WriteFirst         Operation = 0x06
	WriteMiddle        Operation = 0x07
	WriteLast          Operation = 0x08
	WriteLastImmediate Operation = 0x09
	WriteOnly          Operation = 0x0a
	WriteOnlyImmediate Operation = 0x0b
	ReadRequest        Operation = 0x0c
	ReadResponseFirst  Operation = 0x0d
	ReadResponseMiddle Operation = 0x0e
	ReadResponseLast   Operation = 0x0f
	ReadResponseOnly   Operation = 0x10
	Acknowledge        Operation = 0x11
	AtomicAcknowledge  Operation = 0x12
	CompareSwap        Operation = 0x13
	FetchAdd           Operation = 0x14
	Resync             Operation = 0x15
	SendLastInvalidate Operation = 0x16
	SendOnlyInvalidate Operation = 0x17

	cnpOperation   Operation = 0x01 // the CNP's operation bits
	operationCount           = int(SendOnlyInvalidate) + 1
	transportShift           = 5
	operationMask            = 0x1f
)

// rc builds an RC opcode from an operation.
const rc = Opcode(TransportRC) << transportShift

// Frequently used opcodes, named after the IBA's (RC_SEND_FIRST is
// RCSendFirst).
const (
	RCSendFirst          = rc | Opcode(SendFirst)
	RCSendMiddle         = rc | Opcode(SendMiddle)
	RCSendLast           = rc | Opcode(SendLast)
	RCSendLastImmediate  = rc | Opcode(SendLastImmediate)
	RCSendOnly           = rc | Opcode(SendOnly)
	RCSendOnlyImmediate  = rc | Opcode(SendOnlyImmediate)
	RCWriteFirst         = rc | Opcode(WriteFirst)
	RCWriteMiddle        = rc | Opcode(WriteMiddle)
	RCWriteLast          = rc | Opcode(WriteLast)
	RCWriteLastImmediate = rc | Opcode(WriteLastImmediate)
	RCWriteOnly          = rc | Opcode(WriteOnly)
	RCWriteOnlyImmediate = rc | Opcode(WriteOnlyImmediate)
	RCReadRequest        = rc | Opcode(ReadRequest)
	RCReadResponseFirst  = rc | Opcode(ReadResponseFirst)
	RCReadResponseMiddle = rc | Opcode(ReadResponseMiddle)
	RCReadResponseLast   = rc | Opcode(ReadResponseLast)
	RCReadResponseOnly   = rc | Opcode(ReadResponseOnly)
	RCAcknowledge        = rc | Opcode(Acknowledge)
	RCAtomicAcknowledge  = rc | Opcode(AtomicAcknowledge)
	RCCompareSwap        = rc | Opcode(CompareSwap)
	RCFetchAdd           = rc | Opcode(FetchAdd)
	RCSendLastInvalidate = rc | Opcode(SendLastInvalidate)
	RCSendOnlyInvalidate = rc | Opcode(SendOnlyInvalidate)
	UDSendOnly           = Opcode(TransportUD)<<transportShift | Opcode(SendOnly)
	UDSendOnlyImmediate  = Opcode(TransportUD)<<transportShift | Opcode(SendOnlyImmediate)
	// CNP is RoCEv2's congestion notification packet, opcode 0x81.
	CNP = Opcode(TransportCNP)<<transportShift | Opcode(cnpOperation)
)

var operationNames = [operationCount]string{
	"SEND_FIRST", "SEND_MIDDLE", "SEND_LAST", "SEND_LAST_WITH_IMMEDIATE", "SEND_ONLY",
	"SEND_ONLY_WITH_IMMEDIATE", "RDMA_WRITE_FIRST", "RDMA_WRITE_MIDDLE", "RDMA_WRITE_LAST",
	"RDMA_WRITE_LAST_WITH_IMMEDIATE", "RDMA_WRITE_ONLY", "RDMA_WRITE_ONLY_WITH_IMMEDIATE",
	"RDMA_READ_REQUEST", "RDMA_READ_RESPONSE_FIRST", "RDMA_READ_RESPONSE_MIDDLE",
	"RDMA_READ_RESPONSE_LAST", "RDMA_READ_RESPONSE_ONLY", "ACKNOWLEDGE", "ATOMIC_ACKNOWLEDGE",
	"COMPARE_SWAP", "FETCH_ADD", "RESYNC", "SEND_LAST_WITH_INVALIDATE", "SEND_ONLY_WITH_INVALIDATE",
}

// String returns the operation's IBA name, e.g. "RDMA_WRITE_FIRST".
func (o Operation) String() string {
	if int(o) < operationCount {
		return operationNames[o]
	}
	return fmt.Sprintf("OPERATION_0x%02x", uint8(o))
}

// Transport returns the opcode's transport service (its top 3 bits).
func (o Opcode) Transport() Transport { return Transport(o >> transportShift) }

// Operation returns the opcode's operation (its low 5 bits).
func (o Opcode) Operation() Operation { return Operation(o & operationMask) }

// Valid reports whether the IBA (or RoCEv2, for the CNP) defines o. The
// layer decodes undefined opcodes too, as a BTH with no extended headers.
func (o Opcode) Valid() bool {
	op := o.Operation()
	switch o.Transport() {
	case TransportRC:
		return op <= SendOnlyInvalidate && op != Resync
	case TransportUC:
		return op <= WriteOnlyImmediate
	case TransportRD:
		return op <= Resync
	case TransportUD:
		return op == SendOnly || op == SendOnlyImmediate
	case TransportCNP:
		return op == cnpOperation
	case TransportXRC:
		return op <= SendOnlyInvalidate && op != Resync
	}
	return false
}

// String returns the transport and operation, "RC_SEND_FIRST",
// "UD_SEND_ONLY", "CNP", or "OPCODE_0xNN" for an opcode the IBA does not
// define.
func (o Opcode) String() string {
	switch {
	case o == CNP:
		return "CNP"
	case !o.Valid():
		return fmt.Sprintf("OPCODE_0x%02x", uint8(o))
	}
	return o.Transport().String() + "_" + o.Operation().String()
}

// Kind groups opcodes by what message reconstruction does with them.
type Kind uint8

// Kinds of packets.
const (
	KindOther        Kind = iota // undefined, RESYNC
	KindSend                     // SEND_* (carries message data)
	KindWrite                    // RDMA_WRITE_* (carries message data)
	KindReadRequest              // RDMA_READ_REQUEST
	KindReadResponse             // RDMA_READ_RESPONSE_* (carries the read data)
	KindAck                      // ACKNOWLEDGE (an ACK or a NAK, see AETH)
	KindAtomic                   // COMPARE_SWAP, FETCH_ADD
	KindAtomicAck                // ATOMIC_ACKNOWLEDGE
	KindCNP                      // congestion notification
)

var kindNames = [...]string{"other", "send", "write", "read_request", "read_response", "ack", "atomic", "atomic_ack", "cnp"}

// String returns the kind's lower-case name, e.g. "read_response".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind%d", uint8(k))
}

// Position is where a packet sits in a multi-packet message.
type Position uint8

// Positions in a message.
const (
	PosNone   Position = iota // not part of a data message (ACK, CNP, READ request, ...)
	PosFirst                  // *_FIRST
	PosMiddle                 // *_MIDDLE
	PosLast                   // *_LAST, *_LAST_WITH_*
	PosOnly                   // *_ONLY, *_ONLY_WITH_*: a one-packet message
)

// opInfo is what each operation implies: its kind, position and the
// extended headers of the RC/UC form (transport-specific ones are added
// by Headers).
type opInfo struct {
	kind Kind
	pos  Position
	ext  ExtHeaders
}

var opTable = [operationCount]opInfo{
	SendFirst:          {KindSend, PosFirst, 0},
	SendMiddle:         {KindSend, PosMiddle, 0},
	SendLast:           {KindSend, PosLast, 0},
	SendLastImmediate:  {KindSend, PosLast, HasImmDt},
	SendOnly:           {KindSend, PosOnly, 0},
	SendOnlyImmediate:  {KindSend, PosOnly, HasImmDt},
	WriteFirst:         {KindWrite, PosFirst, HasRETH},
	WriteMiddle:        {KindWrite, PosMiddle, 0},
	WriteLast:          {KindWrite, PosLast, 0},
	WriteLastImmediate: {KindWrite, PosLast, HasImmDt},
	WriteOnly:          {KindWrite, PosOnly, HasRETH},
	WriteOnlyImmediate: {KindWrite, PosOnly, HasRETH | HasImmDt},
	ReadRequest:        {KindReadRequest, PosNone, HasRETH},
	ReadResponseFirst:  {KindReadResponse, PosFirst, HasAETH},
	ReadResponseMiddle: {KindReadResponse, PosMiddle, 0},
	ReadResponseLast:   {KindReadResponse, PosLast, HasAETH},
	ReadResponseOnly:   {KindReadResponse, PosOnly, HasAETH},
	Acknowledge:        {KindAck, PosNone, HasAETH},
	AtomicAcknowledge:  {KindAtomicAck, PosNone, HasAETH | HasAtomicAckETH},
	CompareSwap:        {KindAtomic, PosNone, HasAtomicETH},
	FetchAdd:           {KindAtomic, PosNone, HasAtomicETH},
	Resync:             {KindOther, PosNone, 0},
	SendLastInvalidate: {KindSend, PosLast, HasIETH},
	SendOnlyInvalidate: {KindSend, PosOnly, HasIETH},
}

// info returns what o implies, the zero opInfo (KindOther, no headers)
// for an undefined opcode.
func (o Opcode) info() opInfo {
	if o == CNP {
		return opInfo{kind: KindCNP}
	}
	if !o.Valid() {
		return opInfo{}
	}
	return opTable[o.Operation()]
}

// Kind returns what the packet does for message reconstruction.
func (o Opcode) Kind() Kind { return o.info().kind }

// Position returns where the packet sits in its message: first, middle,
// last, only, or none for packets that carry no message data.
func (o Opcode) Position() Position { return o.info().pos }

// isResponse reports whether o is sent by a responder (ACKs and READ
// responses), which carry no RD DETH and no XRCETH.
func (o Opcode) isResponse() bool {
	k := o.Kind()
	return k == KindAck || k == KindAtomicAck || k == KindReadResponse
}

// Headers returns the extended transport headers that follow the BTH in
// a packet with opcode o (IBA table 38), none for an undefined opcode.
func (o Opcode) Headers() ExtHeaders {
	h := o.info().ext
	switch o.Transport() {
	case TransportRD:
		h |= HasRDETH
		if !o.isResponse() {
			h |= HasDETH
		}
	case TransportUD:
		if o.Valid() {
			h |= HasDETH
		}
	case TransportXRC:
		if o.Valid() && !o.isResponse() {
			h |= HasXRCETH
		}
	}
	return h
}

// HeaderLen returns the bytes of BTH plus extended headers that a packet
// with opcode o starts with.
func (o Opcode) HeaderLen() int { return BTHLen + o.Headers().Len() }
