// Package trace is ccreplay's workload model: the hosts of a run and the
// messages they send, with release times, queue pairs (flows), collective
// ids and dependencies between messages. It validates traces and reads and
// writes them as Parquet (the canonical format), CSV and JSON Lines.
//
// A trace knows nothing about packets or congestion control: the replay
// engine turns each message into packets on its queue pair. Synthetic
// traces come from the generators in the gen sub-package.
//
// Times are picoseconds (units.Time) in memory and integer nanoseconds in
// files, with the unit in the column name (release_ns, gap_ns).
package trace

import (
	"github.com/ccreplay/ccreplay/units"
)

// SchemaVersion names version 1 of the trace file formats. It is written
// into the key/value metadata of every Parquet trace under MetadataKey. A
// column is never renamed or retyped inside a version.
const SchemaVersion = "ccreplay.trace.v1"

// NoFlow is the FlowID of a message that gets a queue pair of its own.
const NoFlow int64 = -1

// NoCollective is the CollectiveID of a message outside any collective.
const NoCollective int64 = -1

// Message is one application message: Bytes of payload from host Src to
// host Dst, released no earlier than Release and, when it has
// dependencies, no earlier than Gap after the last of them completed.
type Message struct {
	// ID identifies the message; unique within a trace, >= 0.
	ID int64
	// Src and Dst are the sending and receiving host indices, in
	// 0..Hosts-1, with Src != Dst.
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
}

// Trace is a workload: a number of hosts and the messages among them.
type Trace struct {
	// Hosts is the number of hosts; host indices run from 0 to Hosts-1.
	// Files may say 0, meaning "the largest host index used, plus one";
	// readers resolve it with InferHosts.
	Hosts int
	// Messages are the messages in trace order, which is the order in
	// which messages sharing a flow are sent.
	Messages []Message
}

// InferHosts sets Hosts to the largest host index used plus one when Hosts
// is 0, and leaves it alone otherwise. Negative indices are ignored here
// and reported by Validate.
func (t *Trace) InferHosts() {
	if t.Hosts != 0 {
		return
	}
	var maxHost int32 = -1
	for i := range t.Messages {
		maxHost = max(maxHost, t.Messages[i].Src, t.Messages[i].Dst)
	}
	t.Hosts = int(maxHost) + 1
}
