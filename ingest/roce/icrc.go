package roce

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
)

// The invariant CRC (IBA §7.8.1; Annex A17.3.3 for RoCEv2) is a CRC-32,
// the Ethernet polynomial with the Ethernet conventions, over the fields of
// a packet that no switch or router changes, with every variant field
// replaced by ones:
//
//	8 bytes of 0xff               (stands for the LRH, absent in RoCEv2)
//	IPv4 header, TOS, TTL and header checksum set to 0xff..
//	  or IPv6 header, traffic class, flow label and hop limit set to 1s
//	UDP header, checksum set to 0xffff
//	BTH, the FECN/BECN/reserved byte (byte 4) set to 0xff
//	extended headers and payload, unchanged
//
// The CRC is sent least significant byte first; ICRC values here are the
// four bytes on the wire read big-endian, as Wireshark shows them (a CNP
// captured from a ConnectX-4 Lx NIC has 0x82fd002a).

// maskedLRH is the LRH's stand-in.
var maskedLRH = [8]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

// ICRC returns the invariant CRC of a RoCEv2 packet given its IP header
// (IPv4 with options, or the 40-byte IPv6 header), its 8-byte UDP header
// and its transport part: the BTH through the end of the payload, without
// the ICRC. The value is the wire bytes read big-endian, comparable to
// BTH.ICRC.
func ICRC(ipHeader, udpHeader, transport []byte) (uint32, error) {
	return icrc(ipHeader, udpHeader, transport, nil)
}

// icrc computes the ICRC over the transport part given in two pieces
// (BTH.Contents and BTH.Payload slice the packet separately).
func icrc(ipHeader, udpHeader, transport, more []byte) (uint32, error) {
	var ipBuf [60]byte
	if len(ipHeader) == 0 {
		return 0, errors.New("ICRC: empty IP header")
	}
	switch ipHeader[0] >> 4 {
	case 4:
		if len(ipHeader) < 20 || len(ipHeader) > 60 {
			return 0, fmt.Errorf("ICRC: IPv4 header of %d bytes, want 20..60", len(ipHeader))
		}
		copy(ipBuf[:], ipHeader)
		ipBuf[1] = 0xff                   // type of service (DSCP, ECN)
		ipBuf[8] = 0xff                   // time to live
		ipBuf[10], ipBuf[11] = 0xff, 0xff // header checksum
	case 6:
		if len(ipHeader) != 40 {
			return 0, fmt.Errorf("ICRC: IPv6 header of %d bytes, want 40", len(ipHeader))
		}
		copy(ipBuf[:], ipHeader)
		ipBuf[0] |= 0x0f                // traffic class, high 4 bits
		ipBuf[1] = 0xff                 // traffic class low 4 bits, flow label high 4 bits
		ipBuf[2], ipBuf[3] = 0xff, 0xff // flow label
		ipBuf[7] = 0xff                 // hop limit
	default:
		return 0, fmt.Errorf("ICRC: IP version %d", ipHeader[0]>>4)
	}
	if len(udpHeader) != 8 {
		return 0, fmt.Errorf("ICRC: UDP header of %d bytes, want 8", len(udpHeader))
	}
	if len(transport)+len(more) < BTHLen {
		return 0, fmt.Errorf("ICRC: transport part of %d bytes, shorter than a BTH", len(transport)+len(more))
	}
	var udp [8]byte
	copy(udp[:], udpHeader)
	udp[6], udp[7] = 0xff, 0xff
	var bth [BTHLen]byte
	if n := copy(bth[:], transport); n < BTHLen { // the BTH straddles the two pieces
		more = more[copy(bth[n:], more):]
		transport = nil
	} else {
		transport = transport[BTHLen:]
	}
	bth[4] = 0xff

	t := crc32.IEEETable
	c := crc32.Update(0, t, maskedLRH[:])
	c = crc32.Update(c, t, ipBuf[:len(ipHeader)])
	c = crc32.Update(c, t, udp[:])
	c = crc32.Update(c, t, bth[:])
	c = crc32.Update(c, t, transport)
	c = crc32.Update(c, t, more)
	return bits.ReverseBytes32(c), nil
}

// ComputeICRC returns the ICRC that b's packet should carry, given the
// packet's IP and UDP headers (for example layers.IPv4.Contents and
// layers.UDP.Contents). b must have been decoded, so that its Contents and
// Payload hold the packet's bytes.
func (b *BTH) ComputeICRC(ipHeader, udpHeader []byte) (uint32, error) {
	return icrc(ipHeader, udpHeader, b.Contents, b.Payload)
}

// VerifyICRC reports whether b's ICRC is right for a packet with these IP
// and UDP headers. A truncated packet, whose ICRC was not captured, does
// not verify.
func (b *BTH) VerifyICRC(ipHeader, udpHeader []byte) bool {
	if b.Truncated {
		return false
	}
	c, err := b.ComputeICRC(ipHeader, udpHeader)
	return err == nil && c == b.ICRC
}

// SetICRC computes the ICRC of a serialized RoCEv2 packet and writes it
// into the packet's last four bytes. transport runs from the BTH to the
// end of the packet, ICRC field included.
func SetICRC(ipHeader, udpHeader, transport []byte) error {
	if len(transport) < BTHLen+ICRCLen {
		return fmt.Errorf("SetICRC: transport part of %d bytes, need at least %d", len(transport), BTHLen+ICRCLen)
	}
	end := len(transport) - ICRCLen
	c, err := ICRC(ipHeader, udpHeader, transport[:end])
	if err != nil {
		return err
	}
	binary.BigEndian.PutUint32(transport[end:], c)
	return nil
}
