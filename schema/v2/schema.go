// Package v2 is version 2 of ccreplay's output schemas: the row types of
// packets.parquet, flows.parquet, messages.parquet and ports.parquet.
//
// Rules (docs/OUTPUTS.md, "Versioning" and "Conventions"): a column is
// never renamed or retyped inside a version; times are int64 nanoseconds
// with the unit in the name; enumerations are dictionary-encoded strings;
// no unsigned integers.
//
// Changes from v1 (schema/v1, still read by metrics/arrowread):
// flows.parquet gains sender_finish_ns, sender_fct_ns and sender_slowdown
// (the sender-side completion, the HPCC ns-3 simulator's FCT) and
// concurrent_bytes (bytes delivered while every flow is active) and
// pfc_paused_ns (time the flow was held by a PFC pause at its sender), and
// its standalone_fct_ns is now exactly the simulator's formula
// (topology.NS3StandaloneFCT; v1 used ccreplay's own base RTT with the ACK).
//
// The row types version 2 did not change (packets, messages, ports,
// decisions, comparison, learning) and the packet event and kind names are
// version 1's, declared in this package as aliases: a later change to one
// of them replaces its alias by a declaration of its own, and schema/v1
// stays as version 1 files were written.
package v2

import v1 "github.com/ccreplay/ccreplay/schema/v1"

// Version is written into every file's key/value metadata (key
// "ccreplay.schema") and into summary.json.
const Version = "ccreplay.v2"

// MetadataKey is the Parquet key/value metadata key holding Version.
const MetadataKey = v1.MetadataKey

// Packet event names (PacketRow.Event), as in version 1.
const (
	EventDequeue = v1.EventDequeue // a packet left an egress queue onto a link
	EventDeliver = v1.EventDeliver // a data packet reached its destination NIC
	EventDrop    = v1.EventDrop    // a packet was dropped (buffer full)
)

// Packet kinds (PacketRow.Kind), as in version 1.
const (
	KindData   = v1.KindData
	KindAck    = v1.KindAck
	KindNack   = v1.KindNack
	KindCNP    = v1.KindCNP
	KindPause  = v1.KindPause
	KindResume = v1.KindResume
	// KindRTTReq and KindRTTResp are RTT probe packets (algorithms that
	// measure RTT with probes, e.g. RL-CC).
	KindRTTReq  = v1.KindRTTReq
	KindRTTResp = v1.KindRTTResp
)

// PacketRow is one packet event at one hop; unchanged from version 1
// (v1.PacketRow lists the columns and their units).
type PacketRow = v1.PacketRow

// FlowRow is one flow (queue pair): all messages between a source and a
// destination on one QP.
type FlowRow struct {
	FlowID        int64   `parquet:"flow_id"`
	Src           int32   `parquet:"src"`
	Dst           int32   `parquet:"dst"`
	SizeBytes     int64   `parquet:"size_bytes"`        // payload bytes of all its messages
	Packets       int64   `parquet:"packets"`           // data packets needed without retransmission
	Messages      int64   `parquet:"messages"`          // messages carried
	StartNs       int64   `parquet:"start_ns"`          // first message release, ns
	FinishNs      int64   `parquet:"finish_ns"`         // last byte delivered at the receiver, ns (-1 unfinished)
	FCTNs         int64   `parquet:"fct_ns"`            // finish - start, ns (-1 unfinished)
	IdealFCTNs    int64   `parquet:"ideal_fct_ns"`      // one-way lower bound on fct_ns, ns
	StandaloneNs  int64   `parquet:"standalone_fct_ns"` // HPCC simulator's standalone FCT (sender-side ideal), ns
	Slowdown      float64 `parquet:"slowdown"`          // fct_ns / ideal_fct_ns (0 unfinished)
	BaseRTTNs     int64   `parquet:"base_rtt_ns"`       // path base RTT, ns
	BottleneckBps int64   `parquet:"bottleneck_bps"`    // slowest link on the path, bit/s
	Hops          int32   `parquet:"hops"`              // links on the forward path
	DataPktsSent  int64   `parquet:"data_pkts_sent"`    // data packets sent incl. retransmissions
	DataBytesSent int64   `parquet:"data_bytes_sent"`   // wire bytes of those
	CEPkts        int64   `parquet:"ce_pkts"`           // data packets that arrived CE-marked
	CNPs          int64   `parquet:"cnps"`              // CNPs the sender received
	Nacks         int64   `parquet:"nacks"`             // NACKs the sender received
	Timeouts      int64   `parquet:"timeouts"`          // retransmission timeouts
	RetxBytes     int64   `parquet:"retx_bytes"`        // payload bytes retransmitted
	DroppedPkts   int64   `parquet:"dropped_pkts"`      // this flow's data packets dropped
	GoodputBps    float64 `parquet:"goodput_bps"`       // size_bytes*8 / fct (0 unfinished)
	FinalRateBps  int64   `parquet:"final_rate_bps"`    // CCA rate at the end, bit/s
	// Sender-side completion, the HPCC simulator's FCT: the ACK of the
	// flow's last byte reached the sender.
	SenderFinishNs int64   `parquet:"sender_finish_ns"` // last ACK at the sender, ns (-1 unfinished)
	SenderFCTNs    int64   `parquet:"sender_fct_ns"`    // sender_finish - start, whole ns truncated (-1 unfinished)
	SenderSlowdown float64 `parquet:"sender_slowdown"`  // sender_fct_ns / standalone_fct_ns (0 unfinished)
	// ConcurrentBytes is the payload this flow delivered in order to its
	// receiver inside the run's concurrency window: from the release of
	// the last flow's first message to the first flow's last delivery
	// (or the end of the run when no flow finished), the span in which
	// every flow of the run is active. 0 for every flow when that span is
	// empty (a flow finished before the last one started, or one never
	// started). metrics' *_concurrent fairness is computed from it.
	ConcurrentBytes int64 `parquet:"concurrent_bytes"`
	// PFCPausedNs is the time this flow was ready to send a data packet
	// (data released, window open, pacing time reached) but its sender
	// NIC held it because a PFC PAUSE stopped the flow's priority class:
	// from the moment it would have sent to the RESUME, summed over the
	// run (up to its end for a pause still on), ns. 0 without PFC pauses.
	// metrics' pfc_paused_frac_mean is pfc_paused_ns / fct_ns.
	PFCPausedNs int64 `parquet:"pfc_paused_ns"`
}

// MessageRow is one message of the trace; unchanged from version 1
// (v1.MessageRow lists the columns and their units).
type MessageRow = v1.MessageRow

// PortRow is one egress port of a node over the whole run; unchanged from
// version 1 (v1.PortRow lists the columns and their units).
type PortRow = v1.PortRow
