package otf2

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/ingest/dumpi"
	"github.com/ccreplay/ccreplay/ingest/internal/depgraph"
	"github.com/ccreplay/ccreplay/trace"
)

// Report says what Load found in an OTF2 archive and what it made of it.
type Report struct {
	// Anchor is the anchor file read.
	Anchor string `json:"anchor"`
	// Version is the OTF2 version that wrote the archive ("3.0.2");
	// Creator and Machine are the writer's strings.
	Version string `json:"version"`
	Creator string `json:"creator,omitempty"`
	Machine string `json:"machine,omitempty"`
	// Locations is the number of locations (threads) defined; Ranks the
	// number of MPI ranks; Hosts the hosts they were placed on, PPN the
	// most ranks on one host, Placement how (see Options).
	Locations int    `json:"locations"`
	Ranks     int    `json:"ranks"`
	Hosts     int    `json:"hosts"`
	PPN       int    `json:"ppn"`
	Placement string `json:"placement"`
	// TimerResolution (ticks per second) and GlobalOffset (ticks) are the
	// archive's clock properties; ClockOffsets counts the clock offsets
	// of all locations.
	TimerResolution uint64 `json:"timer_resolution"`
	GlobalOffset    uint64 `json:"global_offset"`
	ClockOffsets    int64  `json:"clock_offsets"`
	// StartNs and DurationNs are the span of the events, ns after the
	// global offset.
	StartNs    int64 `json:"start_ns"`
	DurationNs int64 `json:"duration_ns"`
	// EventCount is the number of event records read; Events counts them
	// by kind ("MpiIsend").
	EventCount int64            `json:"event_count"`
	Events     map[string]int64 `json:"events"`
	// P2P counts the point-to-point sends that became messages, the
	// receives and their matching.
	depgraph.P2P
	// Collectives counts the collective operations expanded, by MPI
	// function (one per operation over the communicator), and
	// CollectiveBytes the bytes of their messages.
	Collectives     map[string]int64 `json:"collectives"`
	CollectiveBytes map[string]int64 `json:"collective_bytes"`
	// CollectiveMessages is the number of messages the collectives
	// became.
	CollectiveMessages int64 `json:"collective_messages"`
	// Counts are the data messages of the trace and the per-rank
	// synchronization points.
	depgraph.Counts
	// Skipped lists the events (or MPI calls) left out of the trace, by
	// kind and reason.
	Skipped []Skip `json:"skipped"`

	warnings []string
}

// Skip is a kind of event or call left out of the trace.
type Skip struct {
	// Kind is the event record ("OmpFork", "MpiCollectiveEnd
	// CREATE_HANDLE") or the MPI call ("MPI_Isend").
	Kind string `json:"kind"`
	// Reason says why.
	Reason string `json:"reason"`
	// Count is how many, over all locations.
	Count int64 `json:"count"`
}

// fill takes the builder's counts.
func (r *Report) fill(d *dumpi.Report, tr *trace.Trace, fns []dumpi.FuncID) {
	r.Hosts, r.PPN = d.Hosts, d.PPN
	r.P2P, r.Counts = d.Shared()
	r.CollectiveMessages = d.CollectiveMessages
	for k, v := range d.Collectives {
		r.Collectives[k] += v
		r.CollectiveBytes[k] += 0
	}
	for i := range tr.Messages {
		m := &tr.Messages[i]
		if m.CollectiveID >= 0 && m.CollectiveID < int64(len(fns)) && !m.IsSync() {
			r.CollectiveBytes[fns[m.CollectiveID].String()] += m.Bytes
		}
	}
	for _, s := range d.Skipped {
		r.Skipped = append(r.Skipped, Skip{Kind: s.Call, Reason: s.Reason, Count: s.Count})
	}
}

func (r *Report) sortSkipped() {
	slices.SortFunc(r.Skipped, func(x, y Skip) int {
		if c := strings.Compare(x.Kind, y.Kind); c != 0 {
			return c
		}
		return strings.Compare(x.Reason, y.Reason)
	})
}

// WriteText writes the report for people, one fact per line; not the
// warnings (Warnings), which a caller prints apart (the CLI on stderr).
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "OTF2 %s archive %s: %d locations, %d ranks on %d hosts (%d per host, %s), %d events over %.6f s\n",
		r.Version, r.Anchor, r.Locations, r.Ranks, r.Hosts, r.PPN, r.Placement, r.EventCount, float64(r.DurationNs)/1e9)
	fmt.Fprintf(&b, "clock: %d ticks/s, global offset %d, %d clock offsets\n", r.TimerResolution, r.GlobalOffset, r.ClockOffsets)
	b.WriteString(r.P2P.Line())
	for _, k := range slices.Sorted(maps.Keys(r.Collectives)) {
		fmt.Fprintf(&b, "collective %s: %d, %d bytes\n", k, r.Collectives[k], r.CollectiveBytes[k])
	}
	fmt.Fprintf(&b, "collectives: %d messages\n", r.CollectiveMessages)
	b.WriteString(r.Counts.Line())
	for _, k := range slices.Sorted(maps.Keys(r.Events)) {
		fmt.Fprintf(&b, "events %s: %d\n", k, r.Events[k])
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skipped %d %s: %s\n", s.Count, s.Kind, s.Reason)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Warnings lists, one sentence each, what of the application the trace
// does not carry or carries only approximately: sends no receive matched,
// events left out, and what the archive lacks.
func (r *Report) Warnings() []string {
	out := append(slices.Clone(r.warnings), r.P2P.Warnings()...)
	for _, s := range r.Skipped {
		out = append(out, fmt.Sprintf("%d %s skipped: %s", s.Count, s.Kind, s.Reason))
	}
	return out
}
