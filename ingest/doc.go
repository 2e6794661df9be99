// Package ingest turns real traffic into ccreplay traces: packet captures
// (pcap and pcapng, through gopacket's pure-Go pcapgo) of RoCEv2 or of
// plain TCP/UDP. It is the only package that imports gopacket, so the
// dependency can be swapped in one place.
//
// Load reads a capture and returns a trace.Trace and a Report. Packets go
// through a gopacket DecodingLayerParser (Ethernet with or without 802.1Q
// tags, Linux cooked captures and raw IP; IPv4 and IPv6; UDP, TCP and the
// RoCEv2 BTH of the roce sub-package). RoCEv2 packets, recognised by UDP
// destination port 4791 only, are grouped by queue pair and assembled
// into SEND, RDMA WRITE and RDMA READ messages (rdma.go states the rules,
// retransmissions included); other TCP and UDP traffic forms flows by
// 5-tuple (flows.go). IP addresses become hosts (hosts.go) and messages
// are released open loop or closed loop (build.go). Ingest streams: it
// keeps per-QP and per-flow state and the messages, never the packets.
//
// Sub-packages: roce is the gopacket layer for the BTH and its extended
// headers, the CNP and the ICRC; examplegen writes the synthetic RoCEv2
// captures the project ships and tests with; dumpi reads SST DUMPI MPI
// traces (its own entry point: MPI traces are not packet captures).
package ingest
