package replay

import (
	"fmt"

	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
)

// What a run holds in memory, per item, bytes: peak resident set size
// measured with /usr/bin/time -v on this project's machine (ccreplay run
// --packets none, dcqcn, a star or leaf-spine network; docs/LIMITS.md,
// "Memory"), differences between two runs that differ in one count only.
const (
	// MemBase is what a run holds whatever its size: the program, the
	// algorithms' tables, the Go runtime (about 45 MB measured), with room
	// for the output encoders.
	MemBase = 64_000_000
	// MemPerMessage is one message of the trace and its flow (a flow per
	// queue pair; each message of an incast is a flow): the trace's row,
	// the NIC's message and flow state, the flow's path, its flow and
	// message rows at the end. 3.5 KB measured (100,000 vs 1,000 flows of
	// 1 KB on a 100,001-host star).
	MemPerMessage = 3600
	// MemPerHost is one host: its NIC, its link and the switch port at the
	// far end, its route entries. 2.9 KB measured (200,001 vs 10,001-host
	// stars).
	MemPerHost = 3000
	// MemPerLink is one link between two switches: two switch ports with
	// their queues and counters. 2.7 KB measured (a leaf-spine of 200,000
	// vs 2,000 uplinks).
	MemPerLink = 2800
)

// MemoryEstimate is what a run is expected to hold at its peak.
type MemoryEstimate struct {
	Messages, Hosts, FabricLinks int
	Bytes                        int64
}

// EstimateMemory estimates the peak memory of replaying tr on topo from
// the costs above.
func EstimateMemory(topo *topology.Topology, tr *trace.Trace) MemoryEstimate {
	e := MemoryEstimate{Messages: len(tr.Messages), Hosts: topo.NumHosts, FabricLinks: max(topo.NumLinks()-topo.NumHosts, 0)}
	e.Bytes = MemBase + int64(e.Messages)*MemPerMessage + int64(e.Hosts)*MemPerHost + int64(e.FabricLinks)*MemPerLink
	return e
}

// String says what the estimate is made of, for a message:
// "about 6.2 GB: 1000000 messages x 3.6 KB + 1048576 hosts x 3 KB + 0 links
// between switches x 2.8 KB + 64 MB".
func (e MemoryEstimate) String() string {
	return fmt.Sprintf("about %s: %d messages x %s + %d hosts x %s + %d links between switches x %s + %s",
		FormatMemory(e.Bytes), e.Messages, FormatMemory(MemPerMessage), e.Hosts, FormatMemory(MemPerHost),
		e.FabricLinks, FormatMemory(MemPerLink), FormatMemory(MemBase))
}

// FormatMemory formats a byte count with two significant decimals at most:
// "3.6 KB", "64 MB", "6.25 GB" (decimal units, as --max-memory takes them).
func FormatMemory(b int64) string {
	v, unit := float64(b), "B"
	for _, u := range []string{"KB", "MB", "GB", "TB"} {
		if v < 1000 {
			break
		}
		v, unit = v/1000, u
	}
	s := fmt.Sprintf("%.2f", v)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	s = trimDot(s)
	return s + " " + unit
}

func trimDot(s string) string {
	if s[len(s)-1] == '.' {
		return s[:len(s)-1]
	}
	return s
}
