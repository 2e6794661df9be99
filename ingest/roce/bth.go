package roce

import (
	"encoding/binary"
	"fmt"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// The Base Transport Header, IBA Vol. 1 §9.2, as RoCEv2 carries it in UDP
// (Annex A17.4); FECN and BECN in the first two bits of the otherwise
// reserved byte after the P_Key (Annex A17.9.1).
//
//	 0                   1                   2                   3
//	 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|    OpCode     |S|M|Pad|  TVer |         Partition Key         |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|F|B| Reserved  |          Destination QP                       |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|A|  Reserved   |          Packet Sequence Number               |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|  extended transport headers (by opcode, see exth.go) ...      |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|  payload (PadCount bytes of padding at its end) ...           |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//	|                      Invariant CRC (ICRC)                     |
//	+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+

// UDPPort is RoCEv2's UDP destination port (IANA "roce", Annex A17.4).
const UDPPort = 4791

// LayerTypeBTH is the gopacket layer type of BTH, number 1791 in the
// range gopacket leaves to applications (1000-1999).
var LayerTypeBTH = gopacket.RegisterLayerType(1791, gopacket.LayerTypeMetadata{
	Name: "RoCEv2 BTH", Decoder: gopacket.DecodeFunc(decodeBTH),
})

func init() { layers.RegisterUDPPortLayerType(UDPPort, LayerTypeBTH) }

const mask24 = 1<<24 - 1

// BTH is a RoCEv2 packet's InfiniBand transport part: the Base Transport
// Header, the extended transport headers its opcode implies (each valid
// only when Opcode.Headers has it) and the trailing ICRC.
//
// Contents holds the BTH and the extended headers; Payload holds what
// follows them up to the ICRC, padding included (Data drops the padding).
// Both slice the decoded bytes without copying.
type BTH struct {
	layers.BaseLayer

	Opcode           Opcode // 8 bits
	SolicitedEvent   bool   // SE, 1 bit: ask the responder to raise an event
	MigReq           bool   // M, 1 bit: path migration state
	PadCount         uint8  // 2 bits: bytes of padding ending the payload, 0..3
	TransportVersion uint8  // TVer, 4 bits: 0
	PKey             uint16 // partition key, 16 bits
	FECN             bool   // 1 bit: forward explicit congestion notification
	BECN             bool   // 1 bit: backward explicit congestion notification (set in a CNP)
	Reserved6        uint8  // 6 bits, reserved
	DestQP           uint32 // destination queue pair, 24 bits
	AckReq           bool   // A, 1 bit: ask the responder for an acknowledgement
	Reserved7        uint8  // 7 bits, reserved
	PSN              uint32 // packet sequence number, 24 bits

	RDETH        RDETH        // RD only
	DETH         DETH         // UD, and RD requests
	XRCETH       XRCETH       // XRC requests
	RETH         RETH         // RDMA WRITE FIRST/ONLY, RDMA READ REQUEST
	AtomicETH    AtomicETH    // COMPARE_SWAP, FETCH_ADD
	AETH         AETH         // ACKNOWLEDGE, ATOMIC_ACKNOWLEDGE, READ RESPONSE FIRST/LAST/ONLY
	AtomicAckETH AtomicAckETH // ATOMIC_ACKNOWLEDGE
	ImmDt        uint32       // immediate data, 32 bits: *_WITH_IMMEDIATE
	IETH         uint32       // R_Key to invalidate, 32 bits: *_WITH_INVALIDATE

	// ICRC is the invariant CRC as its four bytes read big-endian (the
	// way Wireshark shows it; see ICRC). It is 0 when Truncated.
	ICRC uint32
	// Truncated is set when the packet ended before its ICRC, as in a
	// capture taken with a small snap length: the payload is then
	// incomplete and sizes must come from the UDP length.
	Truncated bool
}

// LayerType returns LayerTypeBTH.
func (b *BTH) LayerType() gopacket.LayerType { return LayerTypeBTH }

// CanDecode returns LayerTypeBTH.
func (b *BTH) CanDecode() gopacket.LayerClass { return LayerTypeBTH }

// NextLayerType returns gopacket.LayerTypePayload when the packet carries
// a payload, else gopacket.LayerTypeZero.
func (b *BTH) NextLayerType() gopacket.LayerType {
	if len(b.Payload) > 0 {
		return gopacket.LayerTypePayload
	}
	return gopacket.LayerTypeZero
}

// DecodeFromBytes decodes a UDP payload (exactly the UDP payload: a UDP
// layer trims Ethernet padding by the UDP length) as BTH, extended
// headers, payload and ICRC. It fails, and marks the packet truncated,
// when data is shorter than the headers its opcode implies; a packet whose
// headers are complete but whose ICRC is missing decodes with Truncated
// set.
func (b *BTH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < BTHLen {
		df.SetTruncated()
		return fmt.Errorf("RoCEv2 BTH: %d bytes, need %d", len(data), BTHLen)
	}
	be := binary.BigEndian
	b.Opcode = Opcode(data[0])
	b.SolicitedEvent = data[1]&0x80 != 0
	b.MigReq = data[1]&0x40 != 0
	b.PadCount = data[1] >> 4 & 3
	b.TransportVersion = data[1] & 0x0f
	b.PKey = be.Uint16(data[2:4])
	b.FECN = data[4]&0x80 != 0
	b.BECN = data[4]&0x40 != 0
	b.Reserved6 = data[4] & 0x3f
	b.DestQP = be.Uint32(data[4:8]) & mask24
	b.AckReq = data[8]&0x80 != 0
	b.Reserved7 = data[8] & 0x7f
	b.PSN = be.Uint32(data[8:12]) & mask24

	h := b.Opcode.Headers()
	hlen := BTHLen + h.Len()
	if len(data) < hlen {
		df.SetTruncated()
		return fmt.Errorf("RoCEv2 %v: %d bytes, need %d for the BTH and extended headers", b.Opcode, len(data), hlen)
	}
	b.clearExt()
	b.decodeExt(h, data[BTHLen:hlen])

	b.Contents = data[:hlen]
	if rest := len(data) - hlen; rest < ICRCLen {
		df.SetTruncated()
		b.Payload = data[hlen:]
		b.ICRC, b.Truncated = 0, true
		return nil
	}
	end := len(data) - ICRCLen
	b.Payload = data[hlen:end]
	b.ICRC = be.Uint32(data[end:])
	b.Truncated = false
	return nil
}

// clearExt zeroes the extended headers, so that fields of a previous
// packet never leak into a decoded one (DecodingLayerParser reuses the
// struct).
func (b *BTH) clearExt() {
	b.RDETH, b.DETH, b.XRCETH, b.RETH = RDETH{}, DETH{}, XRCETH{}, RETH{}
	b.AtomicETH, b.AETH, b.AtomicAckETH = AtomicETH{}, AETH{}, AtomicAckETH{}
	b.ImmDt, b.IETH = 0, 0
}

// SerializeTo writes the BTH and the extended headers its opcode implies
// in front of the bytes already in buf (the payload), and the ICRC field
// after them. With opts.FixLengths the payload is first padded with zeros
// to a multiple of 4 bytes and PadCount set to match. The ICRC written is
// b.ICRC: it covers the IP and UDP headers, which are serialized later,
// so compute it afterwards with SetICRC.
func (b *BTH) SerializeTo(buf gopacket.SerializeBuffer, opts gopacket.SerializeOptions) error {
	if opts.FixLengths {
		pad := (4 - len(buf.Bytes())%4) % 4
		if pad > 0 {
			p, err := buf.AppendBytes(pad)
			if err != nil {
				return err
			}
			clear(p)
		}
		b.PadCount = uint8(pad)
	}
	h := b.Opcode.Headers()
	hdr, err := buf.PrependBytes(BTHLen + h.Len())
	if err != nil {
		return err
	}
	be := binary.BigEndian
	hdr[0] = uint8(b.Opcode)
	hdr[1] = bit(b.SolicitedEvent, 0x80) | bit(b.MigReq, 0x40) | (b.PadCount&3)<<4 | b.TransportVersion&0x0f
	be.PutUint16(hdr[2:], b.PKey)
	be.PutUint32(hdr[4:], b.DestQP&mask24)
	hdr[4] = bit(b.FECN, 0x80) | bit(b.BECN, 0x40) | b.Reserved6&0x3f
	be.PutUint32(hdr[8:], b.PSN&mask24)
	hdr[8] = bit(b.AckReq, 0x80) | b.Reserved7&0x7f
	b.encodeExt(h, hdr[BTHLen:])
	tail, err := buf.AppendBytes(ICRCLen)
	if err != nil {
		return err
	}
	be.PutUint32(tail, b.ICRC)
	return nil
}

func bit(v bool, mask uint8) uint8 {
	if v {
		return mask
	}
	return 0
}

// Data returns the payload without its padding (empty when PadCount
// exceeds the payload, as in a malformed or truncated packet).
func (b *BTH) Data() []byte {
	n := len(b.Payload) - int(b.PadCount)
	if n < 0 {
		n = 0
	}
	return b.Payload[:n]
}

// String describes the packet on one line, e.g.
// "RC_RDMA_WRITE_FIRST dqp=0x000045 psn=12 len=4096 A", the form used in
// reports and test failures.
func (b *BTH) String() string {
	s := fmt.Sprintf("%v dqp=%#06x psn=%d", b.Opcode, b.DestQP, b.PSN)
	h := b.Opcode.Headers()
	if h&HasRETH != 0 {
		s += fmt.Sprintf(" len=%d", b.RETH.DMALength)
	}
	if h&HasAETH != 0 {
		s += fmt.Sprintf(" %v/%d msn=%d", b.AETH.Type(), b.AETH.Value(), b.AETH.MSN)
	}
	if b.FECN {
		s += " FECN"
	}
	if b.BECN {
		s += " BECN"
	}
	if b.AckReq {
		s += " A"
	}
	return s
}

// decodeBTH is LayerTypeBTH's decoder for gopacket.NewPacket.
func decodeBTH(data []byte, p gopacket.PacketBuilder) error {
	b := &BTH{}
	if err := b.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(b)
	if next := b.NextLayerType(); next != gopacket.LayerTypeZero {
		return p.NextDecoder(next)
	}
	return nil
}
