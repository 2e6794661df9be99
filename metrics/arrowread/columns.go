package arrowread

import (
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// The expected columns of each file: names and types as in schema/v2's
// parquet tags (a test checks that every tagged column is here); columns
// added in version 2 are marked v2Only, those added to version 2 after its
// first files v2Late.

var packetCols = []col[v2.PacketRow]{
	int64Col("t_ns", func(r *v2.PacketRow) *int64 { return &r.TNs }),
	stringCol("event", func(r *v2.PacketRow) *string { return &r.Event }),
	stringCol("kind", func(r *v2.PacketRow) *string { return &r.Kind }),
	int32Col("node", func(r *v2.PacketRow) *int32 { return &r.Node }),
	int32Col("port", func(r *v2.PacketRow) *int32 { return &r.Port }),
	int32Col("prio", func(r *v2.PacketRow) *int32 { return &r.Prio }),
	int64Col("flow_id", func(r *v2.PacketRow) *int64 { return &r.FlowID }),
	int32Col("src", func(r *v2.PacketRow) *int32 { return &r.Src }),
	int32Col("dst", func(r *v2.PacketRow) *int32 { return &r.Dst }),
	int64Col("psn", func(r *v2.PacketRow) *int64 { return &r.PSN }),
	int32Col("bytes", func(r *v2.PacketRow) *int32 { return &r.Bytes }),
	boolCol("ce", func(r *v2.PacketRow) *bool { return &r.CE }),
	int64Col("qdepth_enq_bytes", func(r *v2.PacketRow) *int64 { return &r.QDepthBytes }),
	int64Col("queue_delay_ns", func(r *v2.PacketRow) *int64 { return &r.QueueDelayNs }),
}

var flowCols = []col[v2.FlowRow]{
	int64Col("flow_id", func(r *v2.FlowRow) *int64 { return &r.FlowID }),
	int32Col("src", func(r *v2.FlowRow) *int32 { return &r.Src }),
	int32Col("dst", func(r *v2.FlowRow) *int32 { return &r.Dst }),
	int64Col("size_bytes", func(r *v2.FlowRow) *int64 { return &r.SizeBytes }),
	int64Col("packets", func(r *v2.FlowRow) *int64 { return &r.Packets }),
	int64Col("messages", func(r *v2.FlowRow) *int64 { return &r.Messages }),
	int64Col("start_ns", func(r *v2.FlowRow) *int64 { return &r.StartNs }),
	int64Col("finish_ns", func(r *v2.FlowRow) *int64 { return &r.FinishNs }),
	int64Col("fct_ns", func(r *v2.FlowRow) *int64 { return &r.FCTNs }),
	int64Col("ideal_fct_ns", func(r *v2.FlowRow) *int64 { return &r.IdealFCTNs }),
	int64Col("standalone_fct_ns", func(r *v2.FlowRow) *int64 { return &r.StandaloneNs }),
	float64Col("slowdown", func(r *v2.FlowRow) *float64 { return &r.Slowdown }),
	int64Col("base_rtt_ns", func(r *v2.FlowRow) *int64 { return &r.BaseRTTNs }),
	int64Col("bottleneck_bps", func(r *v2.FlowRow) *int64 { return &r.BottleneckBps }),
	int32Col("hops", func(r *v2.FlowRow) *int32 { return &r.Hops }),
	int64Col("data_pkts_sent", func(r *v2.FlowRow) *int64 { return &r.DataPktsSent }),
	int64Col("data_bytes_sent", func(r *v2.FlowRow) *int64 { return &r.DataBytesSent }),
	int64Col("ce_pkts", func(r *v2.FlowRow) *int64 { return &r.CEPkts }),
	int64Col("cnps", func(r *v2.FlowRow) *int64 { return &r.CNPs }),
	int64Col("nacks", func(r *v2.FlowRow) *int64 { return &r.Nacks }),
	int64Col("timeouts", func(r *v2.FlowRow) *int64 { return &r.Timeouts }),
	int64Col("retx_bytes", func(r *v2.FlowRow) *int64 { return &r.RetxBytes }),
	int64Col("dropped_pkts", func(r *v2.FlowRow) *int64 { return &r.DroppedPkts }),
	float64Col("goodput_bps", func(r *v2.FlowRow) *float64 { return &r.GoodputBps }),
	int64Col("final_rate_bps", func(r *v2.FlowRow) *int64 { return &r.FinalRateBps }),
	// Version 2: a version 1 file reads as "unknown" (-1, 0).
	v2Only(int64Col("sender_finish_ns", func(r *v2.FlowRow) *int64 { return &r.SenderFinishNs }), func(r *v2.FlowRow) { r.SenderFinishNs = -1 }),
	v2Only(int64Col("sender_fct_ns", func(r *v2.FlowRow) *int64 { return &r.SenderFCTNs }), func(r *v2.FlowRow) { r.SenderFCTNs = -1 }),
	v2Only(float64Col("sender_slowdown", func(r *v2.FlowRow) *float64 { return &r.SenderSlowdown }), func(r *v2.FlowRow) { r.SenderSlowdown = 0 }),
	// -1: unknown, and metrics then leaves the *_concurrent fairness out.
	v2Only(int64Col("concurrent_bytes", func(r *v2.FlowRow) *int64 { return &r.ConcurrentBytes }), func(r *v2.FlowRow) { r.ConcurrentBytes = -1 }),
	// -1: unknown, and metrics then leaves pfc_paused_frac_mean at 0. Added
	// after version 2's first files, so a version 2 file may lack it too.
	v2Late(int64Col("pfc_paused_ns", func(r *v2.FlowRow) *int64 { return &r.PFCPausedNs }), func(r *v2.FlowRow) { r.PFCPausedNs = -1 }),
}

var messageCols = []col[v2.MessageRow]{
	int64Col("msg_id", func(r *v2.MessageRow) *int64 { return &r.MsgID }),
	int64Col("flow_id", func(r *v2.MessageRow) *int64 { return &r.FlowID }),
	int32Col("src", func(r *v2.MessageRow) *int32 { return &r.Src }),
	int32Col("dst", func(r *v2.MessageRow) *int32 { return &r.Dst }),
	int64Col("size_bytes", func(r *v2.MessageRow) *int64 { return &r.SizeBytes }),
	int64Col("collective_id", func(r *v2.MessageRow) *int64 { return &r.CollectiveID }),
	int64Col("release_ns", func(r *v2.MessageRow) *int64 { return &r.ReleaseNs }),
	int64Col("first_tx_ns", func(r *v2.MessageRow) *int64 { return &r.FirstTxNs }),
	int64Col("finish_ns", func(r *v2.MessageRow) *int64 { return &r.FinishNs }),
	int64Col("mct_ns", func(r *v2.MessageRow) *int64 { return &r.MCTNs }),
	int64Col("ideal_mct_ns", func(r *v2.MessageRow) *int64 { return &r.IdealMCTNs }),
	float64Col("slowdown", func(r *v2.MessageRow) *float64 { return &r.Slowdown }),
	int64Col("sender_done_ns", func(r *v2.MessageRow) *int64 { return &r.SenderDoneNs }),
}

var portCols = []col[v2.PortRow]{
	int32Col("node", func(r *v2.PortRow) *int32 { return &r.Node }),
	int32Col("port", func(r *v2.PortRow) *int32 { return &r.Port }),
	boolCol("is_switch", func(r *v2.PortRow) *bool { return &r.IsSwitch }),
	int32Col("peer_node", func(r *v2.PortRow) *int32 { return &r.PeerNode }),
	int64Col("rate_bps", func(r *v2.PortRow) *int64 { return &r.RateBps }),
	int64Col("sim_duration_ns", func(r *v2.PortRow) *int64 { return &r.SimDurationNs }),
	int64Col("tx_bytes", func(r *v2.PortRow) *int64 { return &r.TxBytes }),
	int64Col("tx_data_bytes", func(r *v2.PortRow) *int64 { return &r.TxDataBytes }),
	int64Col("tx_pkts", func(r *v2.PortRow) *int64 { return &r.TxPkts }),
	int64Col("ecn_marked_pkts", func(r *v2.PortRow) *int64 { return &r.MarkedPkts }),
	int64Col("dropped_pkts", func(r *v2.PortRow) *int64 { return &r.DroppedPkts }),
	int64Col("dropped_bytes", func(r *v2.PortRow) *int64 { return &r.DroppedBytes }),
	int64Col("paused_ns", func(r *v2.PortRow) *int64 { return &r.PausedNs }),
	int64Col("pauses_received", func(r *v2.PortRow) *int64 { return &r.PausesReceived }),
	int64Col("pauses_sent", func(r *v2.PortRow) *int64 { return &r.PausesSent }),
	int64Col("qlen_max_bytes", func(r *v2.PortRow) *int64 { return &r.QLenMaxBytes }),
	float64Col("qlen_avg_bytes", func(r *v2.PortRow) *float64 { return &r.QLenAvgBytes }),
	int64Col("qlen_p99_bytes", func(r *v2.PortRow) *int64 { return &r.QLenP99Bytes }),
}

var comparisonCols = []col[v2.ComparisonRow]{
	stringCol("cca", func(r *v2.ComparisonRow) *string { return &r.CCA }),
	int64Col("seed", func(r *v2.ComparisonRow) *int64 { return &r.Seed }),
	int32Col("bucket", func(r *v2.ComparisonRow) *int32 { return &r.Bucket }),
	int64Col("size_min_bytes", func(r *v2.ComparisonRow) *int64 { return &r.SizeMinBytes }),
	int64Col("size_max_bytes", func(r *v2.ComparisonRow) *int64 { return &r.SizeMaxBytes }),
	int64Col("flows", func(r *v2.ComparisonRow) *int64 { return &r.Flows }),
	int64Col("flows_finished", func(r *v2.ComparisonRow) *int64 { return &r.FlowsFinished }),
	int64Col("fct_p50_ns", func(r *v2.ComparisonRow) *int64 { return &r.FCTP50Ns }),
	int64Col("fct_p95_ns", func(r *v2.ComparisonRow) *int64 { return &r.FCTP95Ns }),
	int64Col("fct_p99_ns", func(r *v2.ComparisonRow) *int64 { return &r.FCTP99Ns }),
	float64Col("slowdown_p50", func(r *v2.ComparisonRow) *float64 { return &r.SlowdownP50 }),
	float64Col("slowdown_p95", func(r *v2.ComparisonRow) *float64 { return &r.SlowdownP95 }),
	float64Col("slowdown_p99", func(r *v2.ComparisonRow) *float64 { return &r.SlowdownP99 }),
	int64Col("mct_p50_ns", func(r *v2.ComparisonRow) *int64 { return &r.MCTP50Ns }),
	int64Col("mct_p99_ns", func(r *v2.ComparisonRow) *int64 { return &r.MCTP99Ns }),
	float64Col("cct_mean_ns", func(r *v2.ComparisonRow) *float64 { return &r.CCTMeanNs }),
	float64Col("ecn_ratio", func(r *v2.ComparisonRow) *float64 { return &r.ECNRatio }),
	float64Col("unfair_ratio", func(r *v2.ComparisonRow) *float64 { return &r.UnfairRatio }),
	float64Col("jain_index", func(r *v2.ComparisonRow) *float64 { return &r.JainIndex }),
	float64Col("goodput_bps", func(r *v2.ComparisonRow) *float64 { return &r.GoodputBps }),
	int64Col("qlen_max_bytes", func(r *v2.ComparisonRow) *int64 { return &r.QLenMaxBytes }),
	int64Col("qlen_p99_bytes", func(r *v2.ComparisonRow) *int64 { return &r.QLenP99Bytes }),
	float64Col("pfc_pause_fraction", func(r *v2.ComparisonRow) *float64 { return &r.PFCPauseFrac }),
	int64Col("drops_pkts", func(r *v2.ComparisonRow) *int64 { return &r.DropsPkts }),
	int64Col("sim_duration_ns", func(r *v2.ComparisonRow) *int64 { return &r.SimDurationNs }),
}

var linkCols = []col[v2.LinkRow]{
	int32Col("link_id", func(r *v2.LinkRow) *int32 { return &r.LinkID }),
	int32Col("node", func(r *v2.LinkRow) *int32 { return &r.Node }),
	int32Col("port", func(r *v2.LinkRow) *int32 { return &r.Port }),
	int32Col("peer_node", func(r *v2.LinkRow) *int32 { return &r.PeerNode }),
	stringCol("kind", func(r *v2.LinkRow) *string { return &r.Kind }),
	int64Col("rate_bps", func(r *v2.LinkRow) *int64 { return &r.RateBps }),
	int64Col("flows", func(r *v2.LinkRow) *int64 { return &r.Flows }),
	int64Col("bytes", func(r *v2.LinkRow) *int64 { return &r.Bytes }),
	float64Col("offered_load", func(r *v2.LinkRow) *float64 { return &r.OfferedLoad }),
	int32Col("cluster", func(r *v2.LinkRow) *int32 { return &r.Cluster }),
	boolCol("simulated", func(r *v2.LinkRow) *bool { return &r.Simulated }),
	int32Col("represented_by", func(r *v2.LinkRow) *int32 { return &r.RepresentedBy }),
	int64Col("wall_ns", func(r *v2.LinkRow) *int64 { return &r.WallNs }),
	int64Col("events", func(r *v2.LinkRow) *int64 { return &r.Events }),
	int64Col("sim_end_ns", func(r *v2.LinkRow) *int64 { return &r.SimEndNs }),
	int64Col("pfc_paused_ns", func(r *v2.LinkRow) *int64 { return &r.PFCPausedNs }),
	int64Col("dropped_pkts", func(r *v2.LinkRow) *int64 { return &r.DroppedPkts }),
	int64Col("unfinished", func(r *v2.LinkRow) *int64 { return &r.Unfinished }),
	stringCol("warnings", func(r *v2.LinkRow) *string { return &r.Warnings }),
	v2Late(int64Col("reverse_flows", func(r *v2.LinkRow) *int64 { return &r.ReverseFlows }), func(*v2.LinkRow) {}),
	v2Late(int64Col("sender_flows", func(r *v2.LinkRow) *int64 { return &r.SenderFlows }), func(*v2.LinkRow) {}),
}
