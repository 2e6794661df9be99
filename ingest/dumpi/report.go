package dumpi

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/ingest/internal/depgraph"
)

// Report says what Load found in a DUMPI trace and what it made of it.
type Report struct {
	// Files are the trace files read, by rank.
	Files []string
	// Ranks is the number of MPI ranks, Hosts the number of hosts they
	// were placed on, and PPN the most ranks on one host.
	Ranks, Hosts, PPN int
	// Version is the DUMPI version that wrote rank 0's file ("1.1.0").
	Version string
	// Hostname is rank 0's host as recorded.
	Hostname string
	// StartTime is when tracing started, Unix seconds.
	StartTime int64
	// Records is the number of recorded calls over all ranks.
	Records int64
	// DurationNs is the trace's wall-clock span, from the first call's
	// entry to the last call's exit over all ranks, nanoseconds.
	DurationNs int64
	// Calls counts the recorded calls by MPI function over all ranks.
	Calls map[string]int64
	// NotRecorded counts, by MPI function, the calls the tracer counted
	// but did not record (the footers' "ignored" counts): they are missing
	// from the trace.
	NotRecorded map[string]int64
	// PerRank holds each rank's counts.
	PerRank []RankReport
	// Sends and SendBytes count the point-to-point sends that became
	// messages, and their bytes.
	Sends, SendBytes int64
	// Receives counts the receives posted; Matched those matched to a
	// send. UnmatchedSends counts sends no receive matched (they are in
	// the trace all the same).
	Receives, Matched, UnmatchedSends int64
	// Collectives counts collective calls decomposed, by function (one per
	// call over the communicator, not per rank).
	Collectives map[string]int64
	// CollectiveMessages and CollectiveBytes count the messages the
	// collectives became, and their bytes.
	CollectiveMessages, CollectiveBytes int64
	// Messages and Bytes count the data messages of the trace
	// (point-to-point and collective).
	Messages, Bytes int64
	// SyncPoints counts the zero-byte same-host synchronization messages
	// that carry each rank's program order (see the package comment).
	SyncPoints int64
	// Skipped lists the calls left out of the trace, or modelled only in
	// part (an unknown datatype counts as 0 bytes), and why, by call then
	// reason.
	Skipped []Skip
}

// RankReport is one rank's part of a Report.
type RankReport struct {
	// File is the rank's trace file.
	File string
	// Records is the number of calls recorded.
	Records int64
	// Calls counts the recorded calls by MPI function.
	Calls map[string]int64
	// Sends and SendBytes count the rank's point-to-point sends that became
	// messages, and their bytes.
	Sends, SendBytes int64
	// Receives counts the receives the rank posted.
	Receives int64
}

// Skip is a kind of call left out of the trace or modelled only in part.
type Skip struct {
	// Call is the MPI function, e.g. "MPI_Put".
	Call string
	// Reason says why, e.g. "one-sided communication is not modelled".
	Reason string
	// Count is how many calls, over all ranks.
	Count int64
}

// Shared returns r's point-to-point and message counts as every
// application-trace reader's report has them (r's fields keep their
// names in JSON).
func (r *Report) Shared() (depgraph.P2P, depgraph.Counts) {
	return depgraph.P2P{Sends: r.Sends, SendBytes: r.SendBytes, Receives: r.Receives, Matched: r.Matched, UnmatchedSends: r.UnmatchedSends},
		depgraph.Counts{Messages: r.Messages, Bytes: r.Bytes, SyncPoints: r.SyncPoints}
}

// WriteText writes the report for people, one fact per line.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "DUMPI %s trace from %s: %d ranks on %d hosts (%d per host), %d calls over %.6f s\n",
		r.Version, r.Hostname, r.Ranks, r.Hosts, r.PPN, r.Records, float64(r.DurationNs)/1e9)
	p2p, counts := r.Shared()
	b.WriteString(p2p.Line())
	for _, k := range slices.Sorted(maps.Keys(r.Collectives)) {
		fmt.Fprintf(&b, "collective %s: %d\n", k, r.Collectives[k])
	}
	fmt.Fprintf(&b, "collectives: %d messages, %d bytes\n", r.CollectiveMessages, r.CollectiveBytes)
	b.WriteString(counts.Line())
	for _, k := range slices.Sorted(maps.Keys(r.NotRecorded)) {
		fmt.Fprintf(&b, "not recorded by the tracer: %d %s\n", r.NotRecorded[k], k)
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skipped %d %s: %s\n", s.Count, s.Call, s.Reason)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Warnings lists, one sentence each, what of the application the trace
// does not carry: sends no receive matched, calls the tracer counted but
// did not record, calls left out or modelled only in part. A replay of
// the trace reports them (and refuses to run with --strict).
func (r *Report) Warnings() []string {
	p2p, _ := r.Shared()
	out := p2p.Warnings()
	for _, k := range slices.Sorted(maps.Keys(r.NotRecorded)) {
		out = append(out, fmt.Sprintf("%d %s calls were counted but not recorded by the tracer: they are missing from the replay", r.NotRecorded[k], k))
	}
	for _, s := range r.Skipped {
		out = append(out, fmt.Sprintf("%d %s calls skipped: %s", s.Count, s.Call, s.Reason))
	}
	return out
}
