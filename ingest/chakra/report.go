package chakra

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/ingest/internal/depgraph"
)

// Report says what Load found in a Chakra execution trace and what it
// made of it.
type Report struct {
	// Files are the trace files read, by rank.
	Files []string `json:"files"`
	// Version is rank 0's GlobalMetadata version, or its "schema"
	// attribute when the version is unset ("" when neither is set).
	Version string `json:"version"`
	// Ranks is the number of ranks (files), Hosts the number of hosts
	// they were placed on, and PPN the ranks per host.
	Ranks int `json:"ranks"`
	Hosts int `json:"hosts"`
	PPN   int `json:"ppn"`
	// Nodes is the number of nodes over all ranks; NodeTypes counts them
	// by type ("COMP_NODE").
	Nodes     int64            `json:"nodes"`
	NodeTypes map[string]int64 `json:"node_types"`
	// PerRank holds each rank's counts.
	PerRank []RankReport `json:"per_rank"`
	// ComputeMicros is the sum of the durations of the compute and memory
	// nodes over all ranks, µs, before Options.ComputeScale.
	ComputeMicros int64 `json:"compute_us"`
	// SpanMicros is the recorded span, from the earliest start_time_micros
	// to the latest start + duration over all nodes, µs; 0 when no node
	// carries a start time.
	SpanMicros int64 `json:"span_us"`
	// P2P counts the point-to-point sends, which all became messages,
	// and their bytes, the receive nodes and their matching (Matched,
	// UnmatchedSends). UnmatchedReceives counts the receives that wait
	// for nothing.
	depgraph.P2P
	UnmatchedReceives int64 `json:"unmatched_receives"`
	// Collectives counts the collectives decomposed, by comm_type (one
	// per collective over its process group, not per rank), and
	// CollectiveBytes the bytes of the messages each kind became.
	Collectives     map[string]int64 `json:"collectives"`
	CollectiveBytes map[string]int64 `json:"collective_bytes"`
	// CollectiveMessages counts the messages the collectives became.
	CollectiveMessages int64 `json:"collective_messages"`
	// Groups lists the members (world ranks) of every process group a
	// collective used, by pg_name ("" for collectives without one).
	Groups map[string][]int32 `json:"groups"`
	// Counts are the data messages of the trace and the synchronization
	// points that carry each rank's dependencies and compute gaps.
	depgraph.Counts
	// Skipped lists the nodes and attributes left out of the trace, or
	// modelled only in part, by kind then reason. Attributes the reader
	// has no use for (most of a PyTorch recording's) are in Ignored
	// instead.
	Skipped []Skip `json:"skipped"`
	// Ignored counts the attributes the reader does not use, by name.
	Ignored map[string]int64 `json:"ignored_attributes"`
}

// RankReport is one rank's part of a Report.
type RankReport struct {
	// File is the rank's trace file.
	File string `json:"file"`
	// Nodes is the number of nodes in the file.
	Nodes int64 `json:"nodes"`
	// Sends and SendBytes count the rank's point-to-point sends, and their
	// bytes; Receives its receive nodes.
	Sends     int64 `json:"sends"`
	SendBytes int64 `json:"send_bytes"`
	Receives  int64 `json:"receives"`
}

// Skip is a kind of node or attribute left out of the trace or modelled
// only in part.
type Skip struct {
	// Kind is the node type, with the collective's comm_type for
	// collectives ("COMM_COLL_NODE GATHER"), or "attribute NAME".
	Kind string `json:"kind"`
	// Reason says why.
	Reason string `json:"reason"`
	// Count is how many, over all ranks.
	Count int64 `json:"count"`
}

// WriteText writes the report for people, one fact per line.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Chakra execution trace (schema %q): %d ranks on %d hosts (%d per host), %d nodes, recorded span %.6f s, compute %.6f s\n",
		r.Version, r.Ranks, r.Hosts, r.PPN, r.Nodes, float64(r.SpanMicros)/1e6, float64(r.ComputeMicros)/1e6)
	for _, k := range slices.Sorted(maps.Keys(r.NodeTypes)) {
		fmt.Fprintf(&b, "nodes %s: %d\n", k, r.NodeTypes[k])
	}
	fmt.Fprintf(&b, "point-to-point: %d sends, %d bytes; %d receives, %d matched; %d sends and %d receives unmatched\n",
		r.Sends, r.SendBytes, r.Receives, r.Matched, r.UnmatchedSends, r.UnmatchedReceives)
	for _, k := range slices.Sorted(maps.Keys(r.Collectives)) {
		fmt.Fprintf(&b, "collective %s: %d, %d bytes\n", k, r.Collectives[k], r.CollectiveBytes[k])
	}
	for _, k := range slices.Sorted(maps.Keys(r.Groups)) {
		fmt.Fprintf(&b, "process group %q: %d ranks\n", k, len(r.Groups[k]))
	}
	fmt.Fprintf(&b, "collectives: %d messages\n", r.CollectiveMessages)
	b.WriteString(r.Counts.Line())
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skipped %d %s: %s\n", s.Count, s.Kind, s.Reason)
	}
	if len(r.Ignored) > 0 {
		var names []string
		for _, k := range slices.Sorted(maps.Keys(r.Ignored)) {
			names = append(names, fmt.Sprintf("%s (%d)", k, r.Ignored[k]))
		}
		fmt.Fprintf(&b, "attributes not used: %s\n", strings.Join(names, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Warnings lists, one sentence each, what of the workload the trace does
// not carry: unmatched sends and receives, nodes and attributes left out
// or modelled only in part. A replay of the trace reports them (and
// refuses to run with --strict).
func (r *Report) Warnings() []string {
	out := r.P2P.Warnings()
	if r.UnmatchedReceives > 0 {
		out = append(out, fmt.Sprintf("%d point-to-point receives matched no send (they wait for nothing)", r.UnmatchedReceives))
	}
	for _, s := range r.Skipped {
		out = append(out, fmt.Sprintf("%d %s skipped: %s", s.Count, s.Kind, s.Reason))
	}
	return out
}
