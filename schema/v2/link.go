package v2

// LinkRow is one row of links.parquet (`ccreplay estimate`): one directed
// link that carries traffic, what crosses it and how the estimate treated
// it. A link is identified, as in ports.parquet, by its transmitting node
// and egress port.
type LinkRow struct {
	LinkID        int32   `parquet:"link_id"`        // row index, 0.. in (node, port) order
	Node          int32   `parquet:"node"`           // transmitting node id
	Port          int32   `parquet:"port"`           // egress port on that node
	PeerNode      int32   `parquet:"peer_node"`      // node at the other end
	Kind          string  `parquet:"kind,dict"`      // host-up, fabric or host-down
	RateBps       int64   `parquet:"rate_bps"`       // link rate, bit/s
	Flows         int64   `parquet:"flows"`          // flows crossing it
	Bytes         int64   `parquet:"bytes"`          // payload bytes of those flows
	OfferedLoad   float64 `parquet:"offered_load"`   // bytes*8 / (rate x the trace's arrival span)
	Cluster       int32   `parquet:"cluster"`        // cluster index (links sharing one simulation)
	Simulated     bool    `parquet:"simulated"`      // its own link simulation ran
	RepresentedBy int32   `parquet:"represented_by"` // link_id whose simulation stands for it (itself when simulated)
	WallNs        int64   `parquet:"wall_ns"`        // wall time of its simulation, ns; -1 unless recorded (--timings) or not simulated
	Events        int64   `parquet:"events"`         // events its simulation executed (0 when not simulated)
	SimEndNs      int64   `parquet:"sim_end_ns"`     // simulated time its simulation ended at, ns (0 when not simulated)
	PFCPausedNs   int64   `parquet:"pfc_paused_ns"`  // PFC pause time summed over the ports of its (representative's) simulation, ns
	DroppedPkts   int64   `parquet:"dropped_pkts"`   // packets dropped in its (representative's) simulation
	Unfinished    int64   `parquet:"unfinished"`     // flows of its (representative's) simulation that did not finish
	Warnings      string  `parquet:"warnings,dict"`  // ;-separated: pfc, drops, load>95%, unfinished; empty when none
	ReverseFlows  int64   `parquet:"reverse_flows"`  // flows its simulation carried for their ACKs only (--reverse-acks packets; 0 when not simulated)
	SenderFlows   int64   `parquet:"sender_flows"`   // flows its simulation carried for their senders' NICs only (--sender-nics shared; 0 when not simulated)
}
