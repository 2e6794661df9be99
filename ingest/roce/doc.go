// Package roce is a gopacket layer for RoCEv2, InfiniBand transport over
// UDP/IP: the Base Transport Header (BTH), the extended transport headers
// that follow it (RETH, AETH, ImmDt, IETH, DETH, RDETH, XRCETH,
// AtomicETH, AtomicAckETH), the congestion notification packet (CNP) and
// the invariant CRC (ICRC).
//
// References: InfiniBand Architecture Specification Vol. 1 Release 1.4
// (IBA), chapter 9 "Transport layer" (§9.2 BTH, §9.3 extended headers,
// table 38 for which headers each opcode carries) and §7.8.1 (ICRC);
// Annex A17 "RoCEv2" (§A17.4 UDP port 4791, §A17.9 the CNP and the
// FECN/BECN bits in the BTH).
//
// Importing the package registers LayerTypeBTH with gopacket and binds it
// to UDP port 4791, so both gopacket.NewPacket and a
// gopacket.DecodingLayerParser holding a *BTH decode RoCEv2 after UDP.
// NB: gopacket picks the next layer from the UDP destination port first
// and falls back to the source port; RoCEv2 is identified by the
// destination port alone, so callers that classify traffic should also
// check layers.UDP.DstPort == UDPPort.
package roce
