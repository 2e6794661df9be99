// Package hpccfmt reads and writes the file formats of the HPCC ns-3 RDMA
// simulator (github.com/alibaba-edu/High-Precision-Congestion-Control,
// simulation/scratch/third.cc), so that a scenario written for it can be
// replayed unchanged and its analysis scripts can read ccreplay's results:
//
//	flow.txt    ReadFlows, WriteFlows   the flows to start
//	config.txt  ParseConfig             every key third.cc reads (docs/HPCC_CONFIG.md);
//	                                    Config.Unsupported refuses what ccreplay lacks
//	fct.txt     WriteFCT, ReadFCT       one line per finished flow
//
// (topology.txt is read by the topology package, ReadHPCC.)
//
// flow.txt is a flow count on the first line, then one flow per line:
//
//	src dst priority dport size_bytes start_seconds
//	2 1 3 100 200000000 2
//
// src and dst are node ids of the HPCC topology, priority is the
// priority group (queue) 0..7, dport the destination UDP port, size the
// payload in bytes (a 32-bit field in the simulator) and start the start
// time in seconds, in ascending order. The simulator reads exactly the
// declared number of flows; lines after them are ignored (its sample
// declares 2 flows and carries 255 more lines and a help text). The
// research fork's backends (Parsimon, m3) put a flow id first on each
// line, "id src dst priority dport size_bytes start_seconds"; ReadFlows
// reads both, telling them apart by each line's field count (Flow.ID).
//
// fct.txt has one line per finished flow, as third.cc's qp_finish prints
// it:
//
//	%08x %08x %u %u %lu %lu %lu %lu
//	src_ip dst_ip sport dport size_bytes start_ns fct_ns standalone_fct_ns
//
// where a node's IP is 0x0b000001 + (id/256)*0x10000 + (id%256)*0x100
// (node_id_to_ip) and sport counts up from 10000 per (source,
// destination) pair in flow file order. The research fork prints a flow
// id before the eight fields; ReadFCT reads both (FCTRow.ID).
//
// Errors locate the problem as "name:line: message" (trace.ParseError).
package hpccfmt
