package roce

import (
	"encoding/binary"
	"fmt"
)

// Extended transport headers, IBA §9.3. Each follows the BTH in the order
// of the ExtHeaders bits: RDETH, DETH, XRCETH, RETH, AtomicETH, AETH,
// AtomicAckETH, then ImmDt or IETH. All fields are big-endian.

// ExtHeaders is a set of extended transport headers.
type ExtHeaders uint16

// The extended headers, in the order they appear after the BTH.
const (
	HasRDETH        ExtHeaders = 1 << iota // reliable datagram, 4 bytes
	HasDETH                                // datagram (Q_Key, source QP), 8 bytes
	HasXRCETH                              // XRC shared receive queue, 4 bytes
	HasRETH                                // RDMA (address, R_Key, length), 16 bytes
	HasAtomicETH                           // atomic operation, 28 bytes
	HasAETH                                // acknowledge (syndrome, MSN), 4 bytes
	HasAtomicAckETH                        // atomic result, 8 bytes
	HasImmDt                               // immediate data, 4 bytes
	HasIETH                                // R_Key to invalidate, 4 bytes
)

// Header sizes in bytes.
const (
	BTHLen          = 12
	RDETHLen        = 4
	DETHLen         = 8
	XRCETHLen       = 4
	RETHLen         = 16
	AtomicETHLen    = 28
	AETHLen         = 4
	AtomicAckETHLen = 8
	ImmDtLen        = 4
	IETHLen         = 4
	ICRCLen         = 4
)

var extLens = [...]int{RDETHLen, DETHLen, XRCETHLen, RETHLen, AtomicETHLen, AETHLen, AtomicAckETHLen, ImmDtLen, IETHLen}

// Len returns the total size in bytes of the headers in h.
func (h ExtHeaders) Len() int {
	n := 0
	for i, l := range extLens {
		if h&(1<<i) != 0 {
			n += l
		}
	}
	return n
}

// RDETH is the Reliable Datagram Extended Transport Header (IBA §9.3.1).
//
//	 0                   1                   2                   3
//	 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|   Reserved    |                 EE-Context                    |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
type RDETH struct {
	Reserved  uint8  // 8 bits
	EEContext uint32 // 24 bits
}

// DETH is the Datagram Extended Transport Header (IBA §9.3.2), in UD and
// RD request packets.
//
//	 0                   1                   2                   3
//	 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|                            Q_Key                              |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|   Reserved    |                 Source QP                     |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
type DETH struct {
	QKey     uint32 // 32 bits
	Reserved uint8  // 8 bits
	SrcQP    uint32 // 24 bits
}

// XRCETH is the XRC Extended Transport Header (IBA §9.3.7), in XRC
// request packets.
//
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|   Reserved    |                  XRC SRQ                      |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
type XRCETH struct {
	Reserved uint8  // 8 bits
	XRCSRQ   uint32 // 24 bits
}

// RETH is the RDMA Extended Transport Header (IBA §9.3.3), in RDMA WRITE
// FIRST/ONLY and RDMA READ REQUEST packets: where the data goes (or comes
// from) and the length of the whole message.
//
//	 0                   1                   2                   3
//	 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|                                                               |
//	+                      Virtual Address (64)                     +
//	|                                                               |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|                            R_Key                              |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|                          DMA Length                           |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
type RETH struct {
	VirtualAddress uint64 // 64 bits
	RKey           uint32 // 32 bits
	DMALength      uint32 // 32 bits: bytes of the whole message
}

// AtomicETH is the Atomic Extended Transport Header (IBA §9.3.4), in
// COMPARE_SWAP and FETCH_ADD packets.
//
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|                      Virtual Address (64)                     |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|                            R_Key                              |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|                  Swap (or Add) Data (64)                      |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|                     Compare Data (64)                         |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
type AtomicETH struct {
	VirtualAddress uint64 // 64 bits
	RKey           uint32 // 32 bits
	SwapAdd        uint64 // 64 bits
	Compare        uint64 // 64 bits
}

// AETH is the ACK Extended Transport Header (IBA §9.3.5), in ACKNOWLEDGE,
// ATOMIC_ACKNOWLEDGE and RDMA READ RESPONSE FIRST/LAST/ONLY packets.
//
//	 0                   1                   2                   3
//	 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|   Syndrome    |              Message Sequence Number          |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//
// The syndrome's top 3 bits say ACK (000), RNR NAK (001) or NAK (011);
// its low 5 bits are the credit count, the RNR timer or the NAK code.
type AETH struct {
	Syndrome uint8  // 8 bits
	MSN      uint32 // 24 bits
}

// AckType is the kind of acknowledgement an AETH syndrome carries.
type AckType uint8

// Acknowledgement types (IBA table 43).
const (
	AckTypeACK      AckType = 0 // positive acknowledgement
	AckTypeRNRNAK   AckType = 1 // receiver not ready
	AckTypeReserved AckType = 2
	AckTypeNAK      AckType = 3 // negative acknowledgement, see NAKCode
)

// String returns "ACK", "RNR_NAK", "NAK" or "RESERVED_n".
func (t AckType) String() string {
	switch t {
	case AckTypeACK:
		return "ACK"
	case AckTypeRNRNAK:
		return "RNR_NAK"
	case AckTypeNAK:
		return "NAK"
	}
	return fmt.Sprintf("RESERVED_%d", uint8(t))
}

// Type returns the acknowledgement type, from syndrome bits 6:5 (bit 7 is
// reserved).
func (a AETH) Type() AckType { return AckType(a.Syndrome>>5) & 3 }

// Value returns the syndrome's low 5 bits: the credit count of an ACK, the
// timer of an RNR NAK or the code of a NAK.
func (a AETH) Value() uint8 { return a.Syndrome & 0x1f }

// NAK codes (IBA table 44), the Value of an AETH whose Type is AckTypeNAK.
const (
	NAKPSNSequenceError     = 0 // a PSN was skipped: go-back-N retransmission follows
	NAKInvalidRequest       = 1
	NAKRemoteAccessError    = 2
	NAKRemoteOperationError = 3
	NAKInvalidRDRequest     = 4
)

// AtomicAckETH is the Atomic Acknowledge Extended Transport Header (IBA
// §9.3.6): the remote data before the atomic operation.
//
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|                 Original Remote Data (64)                     |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
type AtomicAckETH struct {
	OrigRemoteData uint64 // 64 bits
}

// decodeExt decodes the headers in h from data, which holds exactly
// h.Len() bytes.
func (b *BTH) decodeExt(h ExtHeaders, data []byte) {
	be := binary.BigEndian
	if h&HasRDETH != 0 {
		b.RDETH = RDETH{Reserved: data[0], EEContext: be.Uint32(data[0:4]) & mask24}
		data = data[RDETHLen:]
	}
	if h&HasDETH != 0 {
		b.DETH = DETH{QKey: be.Uint32(data[0:4]), Reserved: data[4], SrcQP: be.Uint32(data[4:8]) & mask24}
		data = data[DETHLen:]
	}
	if h&HasXRCETH != 0 {
		b.XRCETH = XRCETH{Reserved: data[0], XRCSRQ: be.Uint32(data[0:4]) & mask24}
		data = data[XRCETHLen:]
	}
	if h&HasRETH != 0 {
		b.RETH = RETH{VirtualAddress: be.Uint64(data[0:8]), RKey: be.Uint32(data[8:12]), DMALength: be.Uint32(data[12:16])}
		data = data[RETHLen:]
	}
	if h&HasAtomicETH != 0 {
		b.AtomicETH = AtomicETH{VirtualAddress: be.Uint64(data[0:8]), RKey: be.Uint32(data[8:12]),
			SwapAdd: be.Uint64(data[12:20]), Compare: be.Uint64(data[20:28])}
		data = data[AtomicETHLen:]
	}
	if h&HasAETH != 0 {
		b.AETH = AETH{Syndrome: data[0], MSN: be.Uint32(data[0:4]) & mask24}
		data = data[AETHLen:]
	}
	if h&HasAtomicAckETH != 0 {
		b.AtomicAckETH = AtomicAckETH{OrigRemoteData: be.Uint64(data[0:8])}
		data = data[AtomicAckETHLen:]
	}
	if h&HasImmDt != 0 {
		b.ImmDt = be.Uint32(data[0:4])
		data = data[ImmDtLen:]
	}
	if h&HasIETH != 0 {
		b.IETH = be.Uint32(data[0:4])
	}
}

// encodeExt writes the headers in h into data, which holds exactly h.Len()
// bytes.
func (b *BTH) encodeExt(h ExtHeaders, data []byte) {
	be := binary.BigEndian
	if h&HasRDETH != 0 {
		be.PutUint32(data, uint32(b.RDETH.Reserved)<<24|b.RDETH.EEContext&mask24)
		data = data[RDETHLen:]
	}
	if h&HasDETH != 0 {
		be.PutUint32(data, b.DETH.QKey)
		be.PutUint32(data[4:], uint32(b.DETH.Reserved)<<24|b.DETH.SrcQP&mask24)
		data = data[DETHLen:]
	}
	if h&HasXRCETH != 0 {
		be.PutUint32(data, uint32(b.XRCETH.Reserved)<<24|b.XRCETH.XRCSRQ&mask24)
		data = data[XRCETHLen:]
	}
	if h&HasRETH != 0 {
		be.PutUint64(data, b.RETH.VirtualAddress)
		be.PutUint32(data[8:], b.RETH.RKey)
		be.PutUint32(data[12:], b.RETH.DMALength)
		data = data[RETHLen:]
	}
	if h&HasAtomicETH != 0 {
		be.PutUint64(data, b.AtomicETH.VirtualAddress)
		be.PutUint32(data[8:], b.AtomicETH.RKey)
		be.PutUint64(data[12:], b.AtomicETH.SwapAdd)
		be.PutUint64(data[20:], b.AtomicETH.Compare)
		data = data[AtomicETHLen:]
	}
	if h&HasAETH != 0 {
		be.PutUint32(data, uint32(b.AETH.Syndrome)<<24|b.AETH.MSN&mask24)
		data = data[AETHLen:]
	}
	if h&HasAtomicAckETH != 0 {
		be.PutUint64(data, b.AtomicAckETH.OrigRemoteData)
		data = data[AtomicAckETHLen:]
	}
	if h&HasImmDt != 0 {
		be.PutUint32(data, b.ImmDt)
		data = data[ImmDtLen:]
	}
	if h&HasIETH != 0 {
		be.PutUint32(data, b.IETH)
	}
}
