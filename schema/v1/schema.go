// Package v1 is version 1 of ccreplay's output schemas: the row types of
// packets.parquet, flows.parquet, messages.parquet and ports.parquet.
//
// Rules (docs/OUTPUTS.md, "Versioning" and "Conventions"): a column is
// never renamed or retyped inside a version; times are int64 nanoseconds
// with the unit in the name; enumerations are dictionary-encoded strings;
// no unsigned integers.
//
// Version 1 is frozen: these declarations stay as version 1 files were
// written, and readers of old files use them. Version 2 (schema/v2) names
// the rows it did not change (every one but FlowRow) as aliases of these,
// so a change for version 2 is a new declaration there, never an edit here.
package v1

// Version is written into every file's key/value metadata (key
// "ccreplay.schema") and into summary.json.
const Version = "ccreplay.v1"

// MetadataKey is the Parquet key/value metadata key holding Version.
const MetadataKey = "ccreplay.schema"

// Packet event names (PacketRow.Event).
const (
	EventDequeue = "dequeue" // a packet left an egress queue onto a link
	EventDeliver = "deliver" // a data packet reached its destination NIC
	EventDrop    = "drop"    // a packet was dropped (buffer full)
)

// Packet kinds (PacketRow.Kind).
const (
	KindData   = "DATA"
	KindAck    = "ACK"
	KindNack   = "NACK"
	KindCNP    = "CNP"
	KindPause  = "PAUSE"
	KindResume = "RESUME"
	// KindRTTReq and KindRTTResp are RTT probe packets (algorithms that
	// measure RTT with probes, e.g. RL-CC).
	KindRTTReq  = "RTT_REQ"
	KindRTTResp = "RTT_RESP"
)

// PacketRow is one packet event at one hop.
type PacketRow struct {
	TNs          int64  `parquet:"t_ns,delta"`           // event time, ns
	Event        string `parquet:"event,dict"`           // dequeue, deliver or drop
	Kind         string `parquet:"kind,dict"`            // DATA, ACK, NACK, CNP, PAUSE, RESUME, RTT_REQ, RTT_RESP
	Node         int32  `parquet:"node"`                 // node id where the event happened
	Port         int32  `parquet:"port"`                 // port index on that node (-1 for deliver)
	Prio         int32  `parquet:"prio"`                 // priority class (0 = highest)
	FlowID       int64  `parquet:"flow_id"`              // flow (queue pair) id, -1 for PAUSE/RESUME
	Src          int32  `parquet:"src"`                  // source host
	Dst          int32  `parquet:"dst"`                  // destination host
	PSN          int64  `parquet:"psn"`                  // packet sequence number (data) or acked PSN
	Bytes        int32  `parquet:"bytes"`                // wire size, bytes
	CE           bool   `parquet:"ce"`                   // ECN congestion experienced
	QDepthBytes  int64  `parquet:"qdepth_enq_bytes"`     // egress queue depth when it was enqueued, bytes
	QueueDelayNs int64  `parquet:"queue_delay_ns,delta"` // time spent in this queue, ns
}

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
	StandaloneNs  int64   `parquet:"standalone_fct_ns"` // HPCC simulator's standalone FCT, ns
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
}

// MessageRow is one message of the trace.
type MessageRow struct {
	MsgID        int64   `parquet:"msg_id"`
	FlowID       int64   `parquet:"flow_id"`
	Src          int32   `parquet:"src"`
	Dst          int32   `parquet:"dst"`
	SizeBytes    int64   `parquet:"size_bytes"`
	CollectiveID int64   `parquet:"collective_id"`  // -1 when none
	ReleaseNs    int64   `parquet:"release_ns"`     // when it became ready to send, ns
	FirstTxNs    int64   `parquet:"first_tx_ns"`    // first packet left the NIC, ns
	FinishNs     int64   `parquet:"finish_ns"`      // last byte delivered, ns (-1 unfinished)
	MCTNs        int64   `parquet:"mct_ns"`         // finish - release, ns (-1 unfinished)
	IdealMCTNs   int64   `parquet:"ideal_mct_ns"`   // one-way lower bound, ns
	Slowdown     float64 `parquet:"slowdown"`       // mct / ideal (0 unfinished)
	SenderDoneNs int64   `parquet:"sender_done_ns"` // completion notice reached the sender, ns
}

// PortRow is one egress port of a node over the whole run.
type PortRow struct {
	Node           int32   `parquet:"node"`
	Port           int32   `parquet:"port"`
	IsSwitch       bool    `parquet:"is_switch"`
	PeerNode       int32   `parquet:"peer_node"`
	RateBps        int64   `parquet:"rate_bps"`
	SimDurationNs  int64   `parquet:"sim_duration_ns"` // length of the run, ns (same in every row)
	TxBytes        int64   `parquet:"tx_bytes"`        // wire bytes sent, all kinds
	TxDataBytes    int64   `parquet:"tx_data_bytes"`   // wire bytes of data packets
	TxPkts         int64   `parquet:"tx_pkts"`
	MarkedPkts     int64   `parquet:"ecn_marked_pkts"` // CE marks applied at this queue
	DroppedPkts    int64   `parquet:"dropped_pkts"`
	DroppedBytes   int64   `parquet:"dropped_bytes"`
	PausedNs       int64   `parquet:"paused_ns"` // time this port was PFC-paused, ns
	PausesReceived int64   `parquet:"pauses_received"`
	PausesSent     int64   `parquet:"pauses_sent"` // PAUSE frames sent to this port's peer
	QLenMaxBytes   int64   `parquet:"qlen_max_bytes"`
	QLenAvgBytes   float64 `parquet:"qlen_avg_bytes"` // time-weighted mean over the run
	QLenP99Bytes   int64   `parquet:"qlen_p99_bytes"` // time-weighted 99th percentile
}
