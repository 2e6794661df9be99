// Package dumpi reads SST DUMPI binary MPI traces and turns them into
// ccreplay traces: the application's point-to-point messages and its
// collectives, decomposed into point-to-point messages, between the hosts
// its ranks ran on, with dependencies and compute gaps that make the
// replay behave like the application.
//
// Load is the entry point: give it a trace set's .meta file or any rank's
// .bin. Open, NewFile and File.Records read one rank's file record by
// record, with every argument of every call, for tools that want the
// calls themselves.
//
// # The file format
//
// Reference: sst-dumpi, dumpi/common/io.c (sections, index),
// dumpi/common/iodefs.h (records), dumpi/common/dumpiio.c (arguments of
// each call). All integers are big-endian; a 64-bit value is its high 32
// bits then its low 32 bits. One file per rank, prefix-NNNN.bin, and a
// text prefix.meta (key=value: numprocs, fileprefix, hostname, ...).
//
//	offset 0        magic  ff aa dd 44 55 4d 50 49 ("\xff\xaa\xddDUMPI")
//	body            i32 CPU-time offset, i32 wall-time offset (seconds)
//	                records ...
//	                u16 end-of-stream label (293; 292 before MPI_Pcontrol)
//	header          u8[3] version, u64 start time (Unix s), u16-length host
//	                name, u16-length user name, i32-count mesh coordinates,
//	                i32-count mesh size (only with a mesh)
//	footer          u64 0xf007fee7, u32 calls[291], u32 ignored[291]
//	                (by function id; the last is the total)
//	perf labels     i32 count, u16-length names of PAPI counters
//	datatype sizes  i32 count, i32 size of each built-in datatype
//	addresses       i32 count, (u64 address, u16-length name) of profiled functions
//	index (last)    magic, u64 offsets of: datatype sizes, addresses, perf
//	                labels, header, body, footer, key/values (0 = absent;
//	                older files lack the first one to three)
//
// A record:
//
//	+--------+------+--------+-----------------------+----------------------+--------+-----------+
//	| label  | mask | thread | CPU start, stop       | wall start, stop     | PAPI   | arguments |
//	| u16    | u8   | u16    | (u16 s, u32 ns) x 2   | (u16 s, u32 ns) x 2  | u8 n,  | (layout   |
//	|        |      | if 0x40| if 0x04               | if 0x08              | 2n x   |  of the   |
//	|        |      |        |                       |                      | u64    |  call)    |
//	|        |      |        |                       |                      | if 0x80|           |
//	+--------+------+--------+-----------------------+----------------------+--------+-----------+
//
// The label is the function's index in DUMPI's enum (FuncID; 0 is
// MPI_Send, 8 MPI_Isend, 60 MPI_Alltoall); seconds are relative to the
// body's time offsets. The mask says which optional parts follow; bits
// 0x03 say whether statuses are stored among the arguments. Arguments
// follow a fixed layout per function (functable.go): int32 counts, ranks,
// tags and requests; u16 datatype, communicator, group and other handles;
// u8 operations and other enumerations; arrays as an i32 count and the
// elements; strings as an i32 length and the bytes; statuses as an i32
// count (0 = MPI_STATUS_IGNORE) and per status i32 bytes, i32 source, u8
// cancelled, u8 error, i32 tag. Root-only arguments (MPI_Gather's
// recvcount on the root) are stored only on the root. Handles are DUMPI's
// own: MPI_COMM_WORLD is 2, MPI_COMM_SELF 3, MPI_INT 9, MPI_DOUBLE 14; a
// datatype's size comes from the file's datatype-size section, or from
// the calls that build derived datatypes.
//
// The reader checks every length against what is left of its section, so
// corrupt counts fail with a *DecodeError ("testbgp-0003.bin: record
// 1234: truncated MPI_Isend arguments") instead of allocating or
// panicking. The tests read every shared trace in lockstep with the text
// dump the upstream dumpi2ascii tool made of it and compare every call,
// argument and time.
//
// # From calls to messages
//
// Point-to-point: each send (MPI_Send, Bsend, Rsend, Ssend, their
// nonblocking forms, persistent requests started by MPI_Start(all), the
// send half of MPI_Sendrecv(_replace)) is one message from the sender's
// rank to the destination's world rank, of count x datatype size bytes.
// Receives are matched to sends only to know what a rank waits for:
// within a communicator, each receive takes the first unmatched send
// from its source with a matching tag, in the order the receives were
// posted (MPI's non-overtaking rule); MPI_ANY_SOURCE takes the source its
// recorded status names, else the earliest-sent candidate. Sends to
// MPI_PROC_NULL are left out.
//
// Collectives: each collective call, the k-th on a communicator by every
// member, becomes the messages of one algorithm (collective.go):
// dissemination MPI_Barrier (0-byte messages), binomial-tree MPI_Bcast and
// MPI_Reduce, recursive-doubling MPI_Allreduce (MPICH's, with the
// non-power-of-two fold), MPI_Scan and MPI_Exscan, pairwise-exchange
// MPI_Alltoall(v,w) and MPI_Reduce_scatter, ring MPI_Allgather(v), linear
// MPI_Gather(v) and MPI_Scatter(v). All messages of one call share a
// CollectiveID; their sizes come from each rank's own arguments.
//
// Communicators: MPI_COMM_WORLD, MPI_COMM_SELF and the communicators made
// by MPI_Comm_dup, MPI_Comm_create (with MPI_Comm_group and the
// MPI_Group_* calls), MPI_Comm_split, MPI_Cart_create and
// MPI_Graph_create (without reordering) are resolved across ranks, so
// that ranks in them map to world ranks (comm.go).
//
// Hosts: rank r runs on host r / Options.PPN, or on Options.Hosts[r];
// Trace.Hosts is the number of hosts used and Trace.Ranks the placement.
// Messages between two ranks of one host are same-host messages, which
// the replay completes without the network.
//
// # Dependencies, gaps and synchronization points
//
// Each rank is a sequential process. Its state in the trace is its
// current synchronization point: a zero-byte message from its host to
// itself (trace.Message.IsSync, with SrcRank = DstRank = the rank), which
// completes when released. With cur the current point and anchor the
// recorded wall time at which it stands:
//
//   - the rank's first point has no dependencies and is released at the
//     rank's first recorded call, relative to the earliest first call of
//     all ranks;
//   - a message the rank issues depends on cur, with Gap = the issuing
//     call's entry - anchor: the compute time, and the time spent in
//     calls that did not wait, since the rank last stopped waiting;
//   - a call that waits for messages to complete (MPI_Wait, Waitall,
//     Waitany, Waitsome, a successful MPI_Test*, MPI_Recv, MPI_Sendrecv, a
//     blocking send above the eager limit or synchronous) adds two points:
//     R, depending on cur with Gap = the call's entry - anchor (the rank
//     reaches the call), and J, depending on R and on the messages waited
//     for (the sends matched to its receives; its own sends when they
//     complete on delivery, see Options.EagerLimit). Then cur = J and
//     anchor = the call's exit. A call that waited for nothing modelled
//     changes nothing, so its time stays in the next gap;
//   - a collective adds X, depending on cur with Gap = entry - anchor (the
//     rank enters the collective; it carries the CollectiveID), then the
//     rank's messages of the collective step by step: a message sent in a
//     step depends on X or on the messages the rank sent and received in
//     its previous step(s) (a step is an MPI_Sendrecv that ends when its
//     messages are delivered), and J depends on the messages of the rank's
//     last step; cur = J, anchor = the collective's exit.
//
// So the replay releases a rank's messages in program order, never before
// the recorded compute allows, and later than recorded exactly when the
// network makes the rank wait longer than it did: with a network that
// takes no time (and the ranks' clocks in step), every message is
// released no later than its recorded time. Dependencies only ever point from a rank to its own points and to
// messages it sends or receives; the trace is in a topological order of
// them that follows the recorded times.
//
// # Limitations
//
//   - Times are the recording's: compute gaps include the tracer's
//     overhead, and the clocks of different ranks are assumed in step
//     (only each rank's start uses another rank's clock).
//   - Large sends are not held back until the receiver posts its receive
//     (no rendezvous handshake); only their completion is.
//   - MPI_ANY_SOURCE receives without a usable recorded status are matched
//     to the earliest-sent candidate, which may differ from the run's
//     arrival order.
//   - Probes, one-sided communication (MPI_Put, Get, Accumulate), MPI-IO,
//     inter-communicators and MPI_Cart_sub communicators are not
//     modelled; calls on them are reported in Report.Skipped. MPI_Pcontrol
//     records cannot be read (DUMPI stores no layout for them).
//   - Collective algorithms are fixed textbook ones, not the MPI library's
//     choice for the message size; a reduction's compute time is not
//     modelled. Collectives are matched per communicator by call order,
//     and a call some member lacks is left out.
//   - MPI_Cart_create and MPI_Graph_create are assumed not to reorder
//     ranks.
//   - Sizes of derived datatypes follow their constructors (or an
//     MPI_Type_size record); MPI_Type_create_darray's is approximated, and
//     an unknown datatype counts as 0 bytes (reported).
package dumpi
