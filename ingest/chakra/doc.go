// Package chakra reads MLCommons Chakra execution traces (ET), the graphs
// of compute and communication that ASTRA-sim and other simulators
// replay for AI training jobs, and turns them into ccreplay traces: the
// job's point-to-point messages and its collectives, decomposed into
// point-to-point messages, between the hosts its ranks run on, with the
// dependencies and compute gaps of every rank's graph.
//
// Load is the entry point: give it any rank's file (workload.3.et); the
// others are its numbered siblings (Files). ReadFile and Decode read one
// rank's file node by node, for tools that want the graph itself; Write
// writes one.
//
// # The file format
//
// Reference: MLCommons Chakra (https://github.com/mlcommons/chakra),
// schema/protobuf/et_def.proto for the messages, whose field numbers and
// enum values the project's own copy (etpb/et_def.proto) keeps, and
// src/third_party/utils/protoio.cc and protolib.py for the stream. One
// file per rank, prefix.R.et for rank R from 0; each is a stream of
// protobuf messages, each preceded by its length as a varint (32 bits at
// most): a GlobalMetadata (the schema version and attributes), then the
// rank's nodes. The stream may be gzip-compressed.
//
// A node has an id unique in its file, a type (COMP_NODE, MEM_LOAD_NODE,
// MEM_STORE_NODE, COMM_SEND_NODE, COMM_RECV_NODE, COMM_COLL_NODE,
// METADATA_NODE), data and control dependencies (ids of nodes of the same
// file that must finish before it starts), a start time and a duration
// (µs), and attributes. The reader uses: comm_size (bytes; tensor_size
// when comm_size is absent), comm_type (a CollectiveCommType value),
// comm_src and comm_dst (the peer's rank, i.e. its file number), comm_tag
// (0 when absent), pg_name (the collective's process group), involved_dim
// (reported when some dimension is left out: it is not modelled), num_ops
// (reported when it stands in for a duration), comm_priority (reported).
// Integers are accepted from any integer field of the attribute, since
// writers differ. Other attributes are counted in Report.Ignored.
//
// Every length is checked against what is left of the file, so a damaged
// file fails with a *DecodeError ("workload.3.et: node 17: node of 4096
// bytes at byte 812 runs past the end of the file (10 bytes left)")
// instead of allocating or panicking; nodes are counted from 0 after the
// metadata. Unknown or unset node types, data dependencies on ids not in
// the file or on the node itself, cycles of data dependencies, duplicate
// ids, comm_type values outside the schema and peers outside the trace's
// ranks are errors too.
//
// Control dependencies order nodes as data dependencies do, except those
// that cannot: on an id not in the file, on the node itself, or closing a
// cycle (broken at the earliest node, in file order, whose data
// dependencies are done). They are dropped and reported, not errors,
// because recorded traces have them: Chakra's PyTorch converter writes an
// op's parent as its control dependency (pytorch_converter.py), and its
// own test trace (tests/data/chakra.0.et) has 383 on the node itself,
// 1277 on removed parents and 554 closing cycles. Chakra's reference
// feeder (src/feeder/et_feeder.cpp) follows data dependencies only, and
// ASTRA-sim's own feeder makes either kind optional;
// Options.IgnoreCtrlDeps follows data dependencies only.
//
// # From nodes to messages
//
// Point-to-point: each COMM_SEND_NODE is one message of comm_size bytes
// from its rank to comm_dst. A COMM_RECV_NODE is matched to a send to
// know what it waits for: the k-th receive of rank d from rank s with tag
// t (in file order) takes the k-th send of s to d with tag t. A send or
// receive without a peer attribute (Chakra's PyTorch converter writes
// none) takes no time and is reported.
//
// Collectives: the k-th COMM_COLL_NODE (in file order) of every member of
// a process group is one collective, which becomes the messages of one
// algorithm per comm_type (collective.go): ring ALL_REDUCE (reduce-scatter
// then all-gather), ring REDUCE_SCATTER and REDUCE_SCATTER_BLOCK, ring
// ALL_GATHER, pairwise-exchange ALL_TO_ALL, binomial-tree BROADCAST from
// the group's first rank, dissemination BARRIER. REDUCE, GATHER and
// SCATTER, whose root the schema does not carry, are skipped and
// reported, as is a collective some member lacks; members that disagree
// on the k-th collective's kind are an error. All messages of one
// collective share a CollectiveID. A process group's members are
// Options.Groups[pg_name] when given; otherwise every rank for
// collectives without pg_name, and the ranks that have a collective with
// that pg_name, in rank order.
//
// Hosts: rank r runs on host r / Options.PPN; Trace.Ranks is the
// placement. Messages between two ranks of one host are same-host
// messages, which the replay completes without the network. Each pair of
// ranks has its own flow (queue pair), as in package dumpi.
//
// # Dependencies, gaps and synchronization points
//
// As in package dumpi, a rank's state is carried by synchronization
// points: zero-byte messages from its host to itself
// (trace.Message.IsSync, SrcRank = DstRank = the rank), which complete
// when released. Every rank starts with one, released at time 0 (the
// recorded start times are only reported: the graph, not the clock,
// orders a rank's work). Every node then has a completion set, the
// messages whose completion means it is done; a node starts when the
// union U of its dependencies' completion sets is complete (the rank's
// start point when it has no dependencies).
//
//   - A COMP_NODE, MEM_LOAD_NODE or MEM_STORE_NODE of d µs adds a point
//     depending on U with Gap = d x Options.ComputeScale: the compute
//     time is a gap on the dependency edge. One of 0 µs completes with U.
//     Memory nodes are delays only: the traffic of a remote memory
//     access is not modelled (reported).
//   - A COMM_SEND_NODE is its message, which depends on the point
//     reached after its dependencies (U itself when U is one message, a
//     point joining U otherwise) with Gap 0; the node completes when the
//     message is delivered.
//   - A COMM_RECV_NODE adds a point depending on U and on the matched
//     send, so it completes when that message is delivered; a receive
//     matched to no send completes with U (reported).
//   - A COMM_COLL_NODE adds X, a point depending on U that carries the
//     CollectiveID (the rank enters the collective), then the rank's
//     messages of the collective step by step: a message sent in a step
//     depends on X or on the messages the rank sent and received in its
//     previous step, as a send-receive exchange per step. A point J
//     depending on the messages of the rank's last step completes it.
//   - METADATA_NODE and skipped nodes complete with U.
//
// So the replay runs each rank's graph as a dataflow machine: a node
// starts once its dependencies are done, and compute takes its recorded
// time; communication takes what the network makes of it. The node's
// own duration_micros is used only for compute and memory nodes: that of
// a communication node is the recording's network time, which the
// replay replaces. Dependencies only ever point from a rank to its own
// points and to messages it sends or receives; the trace is in a
// topological order of them (earliest zero-network-time release first).
// Ranks whose receives and collectives wait for each other in a circle
// (a deadlock in the recorded graphs) are an error.
//
// # Limitations
//
//   - Collective algorithms are fixed textbook ones over a flat group, not
//     the collective library's choice, nor ASTRA-sim's multi-dimensional
//     ones (involved_dim); a reduction's compute time is not modelled.
//   - comm_size is taken as each member's input buffer, as Chakra's
//     PyTorch converter computes it (for ALL_GATHER, each member's
//     contribution); ASTRA-sim's ring (system/collective/Ring.cc) sizes
//     its messages from its data size the same way, but a writer that
//     means the gathered output would be read n times too large.
//   - Large sends are not held back until the receiver posts its receive
//     (no rendezvous); only their completion is.
//   - Compute nodes without duration_micros take no time (num_ops is not
//     turned into time); several compute streams of one rank are not
//     serialized unless the graph orders them (the graph is taken as
//     given: independent nodes overlap).
//   - Process groups without pg_name span every rank; Chakra traces whose
//     groups come from a separate file need Options.Groups.
package chakra
