// Package trace is ccreplay's workload model: the hosts of a run (and, for
// MPI jobs, the ranks placed on them) and the messages they send, with
// release times, queue pairs (flows), priorities, collective ids,
// iterations and dependencies between messages. It validates traces and
// reads and writes them as Parquet (the canonical format), CSV and JSON
// Lines.
//
// A trace knows nothing about packets or congestion control: the replay
// engine turns each message into packets on its queue pair. Synthetic
// traces come from the generators in the gen sub-package.
//
// Times are picoseconds (units.Time) in memory and integer nanoseconds in
// files, with the unit in the column name (release_ns, gap_ns).
//
// # Same-host messages and synchronization points
//
// A message whose Src and Dst are the same host is an intra-node transfer,
// e.g. between two MPI ranks on one node through shared memory: the replay
// completes it locally, without touching the network, at its release plus
// Bytes at the NIC's local copy rate (instantly by default). A zero-byte
// same-host message therefore completes at the instant it is released: it
// is a synchronization point (see Message.IsSync). Generators use one as a
// barrier: it depends on every message of a phase and the next phase's
// messages depend on it alone, which keeps a global barrier among n
// messages at 2n dependency edges instead of n^2.
package trace

import (
	"github.com/ccreplay/ccreplay/units"
)

// SchemaVersion names version 2 of the trace file formats, the one the
// writers produce. It is written into the key/value metadata of every
// Parquet trace under MetadataKey. A column is never renamed or retyped
// inside a version. Version 2 adds the columns priority, iteration,
// src_rank and dst_rank and the trace-level ranks and ppn to version 1.
const SchemaVersion = "ccreplay.trace.v2"

// SchemaVersionV1 names version 1 of the trace file formats, which the
// readers still accept: its messages get Priority 0, Iteration
// NoIteration and no ranks.
const SchemaVersionV1 = "ccreplay.trace.v1"

// NoFlow is the FlowID of a message that gets a queue pair of its own.
const NoFlow int64 = -1

// NoCollective is the CollectiveID of a message outside any collective.
const NoCollective int64 = -1

// NoIteration is the Iteration of a message outside any iteration.
const NoIteration int64 = -1

// NoRank is the SrcRank or DstRank of a message not sent between MPI
// ranks.
const NoRank int32 = -1

// MaxPriority is the highest Priority; 0 is the NIC's default data class.
const MaxPriority int32 = 7

// Message is one application message: Bytes of payload from host Src to
// host Dst, released no earlier than Release and, when it has
// dependencies, no earlier than Gap after the last of them completed.
type Message struct {
	// ID identifies the message; unique within a trace, >= 0.
	ID int64
	// Src and Dst are the sending and receiving host indices, in
	// 0..Hosts-1. Src == Dst is a same-host transfer that never touches
	// the network (see the package comment).
	Src, Dst int32
	// Bytes is the payload size in bytes, >= 0. A 0-byte message is sent
	// as one packet.
	Bytes int64
	// Release is the earliest time the message may be posted to its queue
	// pair, picoseconds, >= 0.
	Release units.Time
	// FlowID is the queue pair carrying the message, or NoFlow (-1) for a
	// queue pair of its own. Messages sharing a FlowID share Src and Dst
	// and are sent one after the other, in trace order (the order of
	// Trace.Messages).
	FlowID int64
	// CollectiveID groups the messages of one collective operation (e.g.
	// one MPI_Alltoall), or NoCollective (-1).
	CollectiveID int64
	// Deps are the ids of the messages that must complete (be fully
	// delivered at their receivers) before this one is released.
	Deps []int64
	// Gap is the compute time between the completion of the last
	// dependency and the release of this message, picoseconds, >= 0. It
	// is ignored when Deps is empty.
	Gap units.Time
	// Priority is the traffic class of the message's packets: 0 for the
	// NIC's default data class, 1..MaxPriority for that class. Messages
	// sharing a FlowID share their priority (a queue pair has one class).
	Priority int32
	// Iteration is the application iteration the message belongs to (an
	// OSU benchmark loop index, an SCF step, a training step), >= 0, or
	// NoIteration (-1).
	Iteration int64
	// SrcRank and DstRank are the MPI ranks sending and receiving, or
	// NoRank (-1) for a message no rank sends (a barrier) and in traces
	// without Ranks. In a trace with Ranks both are ranks or both are
	// NoRank, and Ranks[SrcRank] == Src, Ranks[DstRank] == Dst.
	//
	// NB: in a trace without Ranks they are only range-checked, so that
	// message literals leaving them 0 stay valid; readers and generators
	// set NoRank there.
	SrcRank, DstRank int32
}

// IsSync reports whether m is a synchronization point: a zero-byte
// same-host message, which transfers nothing and completes at the instant
// it is released (a barrier or a per-rank join in generated traces).
func (m *Message) IsSync() bool { return m.Src == m.Dst && m.Bytes == 0 }

// Trace is a workload: a number of hosts and the messages among them.
type Trace struct {
	// Hosts is the number of hosts; host indices run from 0 to Hosts-1.
	// Files may say 0, meaning "the largest host index used, plus one";
	// readers resolve it with InferHosts.
	Hosts int
	// Messages are the messages in trace order, which is the order in
	// which messages sharing a flow are sent.
	Messages []Message
	// Ranks places the ranks of an MPI job: rank r runs on host Ranks[r].
	// Empty when the trace is not an MPI job.
	Ranks []int32
	// PPN is the number of processes (ranks) per node of an MPI job: no
	// host runs more than PPN ranks. It is >= 1 when Ranks is set and 0
	// otherwise.
	PPN int
}

// InferHosts sets Hosts to the largest host index used by a message or a
// rank, plus one, when Hosts is 0, and leaves it alone otherwise. Negative
// indices are ignored here and reported by Validate.
func (t *Trace) InferHosts() {
	if t.Hosts != 0 {
		return
	}
	var maxHost int32 = -1
	for i := range t.Messages {
		maxHost = max(maxHost, t.Messages[i].Src, t.Messages[i].Dst)
	}
	for _, h := range t.Ranks {
		maxHost = max(maxHost, h)
	}
	t.Hosts = int(maxHost) + 1
}
