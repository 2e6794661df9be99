// Package otf2 reads OTF2 archives, the trace format of Score-P (and of
// other tools built on the OTF2 library), natively, without the
// reference library, and turns their MPI activity into ccreplay traces
// with the rules of ingest/dumpi: point-to-point messages and collectives
// decomposed into messages between the ranks' hosts, with dependencies,
// compute gaps and synchronization points that make the replay behave
// like the application.
//
// Load is the entry point: give it the archive's anchor file
// (traces.otf2). Open, Archive.Events and the Defs type give the decoded
// definitions and events themselves; IsOTF2 recognizes an anchor file.
//
// # The archive
//
// References: the OTF2 user documentation (chapters Definitions and
// Events: one section per record, with its attributes), and the format
// as the reference library implements it (OTF2_Buffer.c for the
// encoding, OTF2_AnchorFile.c for the anchor file, the generated record
// lists otf2.defs and otf2.events with the version each attribute
// appeared in).
//
//	traces.otf2          anchor file: magic "OTF2", versions, chunk sizes,
//	                     substrate, compression, counts, strings, properties
//	traces.def           global definitions
//	traces/<loc>.def     local definitions of location <loc>: mapping tables, clock offsets
//	traces/<loc>.evt     events of location <loc>
//
// Definition and event files are sequences of chunks of the size the
// anchor file gives (the last one shorter). A chunk starts with a header
// (the byte 3, a byte-order mark: 0x42 little-endian or 0x23 big-endian,
// which holds for the chunk, and the full 64-bit numbers of its first and
// last event), then records; a 0 byte ends the chunk (padding follows)
// and a 2 byte ends the file. A record is its type byte, its length (one
// byte, or 0xff and a full 64-bit length) and its attributes; readers
// skip attributes beyond those they know, which is how later versions
// extend records, and records of types they do not know. Ten event types
// of OTF2 1.0/1.1 whose only attribute is one compressed integer (Enter,
// Leave, MpiIsendComplete, MpiIrecvRequest, MpiRequestTest,
// MpiRequestCancelled, OmpFork, OmpTaskCreate/Switch/Complete) carry no
// length; no later type may. In event files a timestamp record (type 5,
// full 64 bits) precedes the events whose time changed, and an attribute
// list (type 6) may precede an event; this reader skips attribute lists.
//
// Integers of 32 and 64 bits are compressed: a byte n, then the n
// low-order bytes in the chunk's byte order; n = 0 is zero, n = 0xff the
// undefined value (all bits set); negative numbers take all their bytes.
// Strings end with a 0 byte.
//
// Attributes are stored in the order of the versions that introduced
// them: the 1.0 attributes first (including retired ones, like Region's
// region type), then each later version's additions, which a reader
// takes only if the record is long enough (a 1.0 Group has its old group
// type only; a ClockProperties of before 3.0 has no realtime timestamp).
//
// Every length and count is checked against the bytes left in its
// record or chunk before it is used, so a damaged archive fails with a
// *DecodeError naming the file and the record ("traces/3.evt: event 57
// (offset 602): truncated MpiIsend") instead of panicking or allocating
// from a corrupt count. Zlib-compressed archives and the SIONlib
// substrate are refused.
//
// Times: events are in ticks of the timer of the ClockProperties
// definition (ticks per second, global offset). A location's clock
// offsets correct its times as the reference reader does: between two
// offsets linearly, before the first and after the last by the nearest
// interval's line, rounded to a tick; a single offset changes nothing.
// Local ids are mapped to global ones by the location's mapping tables.
//
// # From events to calls
//
// Ranks are the members of the MPI communication-locations group
// (Group of type COMM_LOCATIONS, paradigm MPI): world rank r is its r-th
// location; events of other locations (OpenMP threads, CUDA streams) are
// reported as skipped. A communicator (Comm) is its group: of type
// COMM_GROUP, ranks of MPI_COMM_WORLD; COMM_SELF, the calling rank. The
// ranks of an event (receiver, sender, root) are ranks of its
// communicator.
//
// A rank's MPI events happen inside the region of the MPI call that made
// them (Enter(MPI_Isend), MpiIsend, Leave(MPI_Isend)); the call's entry
// and exit are its region's Enter and Leave, and its function is the
// region's name when that is an MPI function. Per region: a send per
// MpiSend or MpiIsend, issued at the entry; a receive per MpiIrecvRequest
// (completed by the MpiIrecv of the same request, which gives its source,
// tag and communicator), MpiRecv or MpiIrecv without a request record;
// a collective per MpiCollectiveEnd; then one wait from entry to exit
// for what completed in the region (MpiSend and MpiRecv themselves,
// MpiIsendComplete, MpiIrecv). MPI events outside any region are calls
// of their own, at their time (a collective from MpiCollectiveBegin to
// MpiCollectiveEnd). Enter and Leave of other regions only delimit: the
// time between MPI calls is compute time, kept as gaps.
//
// These calls go to dumpi.BuildCollectives, which applies the rules of
// ingest/dumpi ("Dependencies, gaps and synchronization points" in its
// package comment): receives matched to sends in posting order per
// communicator and tag, eager and rendezvous completion, one
// synchronization point where a rank waits, collective algorithms per
// operation. Options.ComputeScale then multiplies every gap.
//
// Collectives: a rank's MpiCollectiveEnd records the bytes it sent and
// received summed over all its peers, itself included (Score-P's
// accounting); the rank's block follows from them (see collective in
// convert.go), and each operation becomes the messages of the algorithm
// ingest/dumpi uses for its MPI function: dissemination BARRIER,
// binomial-tree BCAST and REDUCE, recursive-doubling ALLREDUCE, linear
// GATHER(V) and SCATTER(V), ring ALLGATHER(V), pairwise ALLTOALL(V,W)
// and REDUCE_SCATTER(_BLOCK), Hillis-Steele SCAN and EXSCAN. The other
// operations (the handle and allocation operations of one-sided and
// SHMEM paradigms) are skipped.
//
// Hosts: rank r runs on host r / Options.PPN, on Options.Hosts[r], or,
// with Options.SystemTree, on one host per system-tree node that holds
// processes (the parent of each rank's location group).
//
// # Limitations
//
//   - Only MPI is modelled: one-sided communication (Rma*), I/O, threads
//     and tasks, metrics and parameters are skipped and reported.
//   - Per-peer sizes of ALLTOALLV/W are not recorded by OTF2: each peer
//     gets the rank's average. REDUCE_SCATTER_BLOCK is expanded as
//     REDUCE_SCATTER.
//   - Non-blocking collectives (OTF2 3.0 NonBlockingCollective*),
//     inter-communicators and communicators created during the run
//     (CommCreate) are not modelled.
//   - Times are the recording's (the tracer's overhead included); clocks
//     of different locations are taken as corrected by their offsets.
package otf2
