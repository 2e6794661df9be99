// Package metrics computes a run's summary from its output rows: flow and
// message completion times, slowdowns, per-size buckets, ECN, fairness,
// goodput, switch utilization, queues and PFC (docs/OUTPUTS.md,
// "summary.json", lists them).
//
// Compute is a pure function of the rows of flows.parquet,
// messages.parquet and ports.parquet, used both at the end of a run and
// afterwards on rows read back from Parquet (metrics/arrowread), so both
// give identical numbers: integer metrics stay int64 nanoseconds or counts,
// floating-point sums run in row order, percentiles pick one of the values,
// and no map iteration decides an order.
//
// Definitions (the Summary fields repeat them with their inputs):
//
//	FCT          = last byte delivered at the receiver - first release at the sender
//	ideal FCT    = base RTT + (size + packets*header bytes)*8 / bottleneck rate
//	slowdown     = FCT / ideal FCT (the flow rows' slowdown column)
//	standalone slowdown = FCT / standalone FCT (FDCC thesis' FCTSD)
//	MCT          = message finish - release; a collective's: last finish - first release
//	ECN ratio    = Σ CE-marked data packets / Σ data packets sent
//	unfair ratio = (BW_max - BW_avg) / BW_avg        (FDCC thesis)
//	Jain index   = (Σ x)^2 / (n Σ x^2)
//	min/max      = min x / max x                     (PCC-RL fairness)
//	               over lifetime goodputs x = size*8 / FCT, and (*_concurrent)
//	               over x = concurrent_bytes*8 / window, window = [latest
//	               start, earliest finish] of the flows
//	goodput      = Σ payload bits / (last finish - first start)
//	normalized goodput = goodput / the receiver's link rate (n-to-1 runs)
//	switch util  = tx_bytes*8 / (rate_bps * sim_duration)
//	PFC fraction = Σ paused_ns / (ports * sim_duration_ns)
//	flow PFC fraction = mean of pfc_paused_ns / FCT over the flows
//
// Percentiles are nearest-rank on the sorted values, index = ceil(p*n) - 1
// clamped to [0, n-1] (p in per mille, computed in integers); no
// interpolation, so a percentile is always one of the values.
package metrics

// DefaultBuckets is the number of flow-size buckets when Options.Buckets is
// not positive.
const DefaultBuckets = 10

// Options tunes Compute.
type Options struct {
	// Buckets is the number of flow-size buckets of equal flow count
	// (DefaultBuckets when <= 0).
	Buckets int
}

// Summary is every metric of one run, as written into summary.json. JSON
// names carry their unit (_ns, _bytes, _bps, _pkts); ratios and fractions
// are plain numbers in [0, 1] unless said otherwise. No field is ever NaN
// or Inf: an undefined ratio (no flows, zero denominator) is 0.
type Summary struct {
	// Flows is the number of flow rows; FlowsFinished those with
	// finish_ns >= 0. Only finished flows enter FCT, slowdown, goodput and
	// fairness statistics.
	Flows         int64 `json:"flows"`
	FlowsFinished int64 `json:"flows_finished"`
	// Messages is the number of message rows; MessagesFinished those with
	// finish_ns >= 0.
	Messages         int64 `json:"messages"`
	MessagesFinished int64 `json:"messages_finished"`
	// Collectives is the number of distinct collective_id >= 0 among the
	// messages; a collective is finished when all its messages are.
	Collectives         int64 `json:"collectives"`
	CollectivesFinished int64 `json:"collectives_finished"`
	// SimDurationNs is the run's length: the largest sim_duration_ns of
	// the port rows, or without ports the latest finish_ns of any flow or
	// message.
	SimDurationNs int64 `json:"sim_duration_ns"`

	// FCT (flow completion time) of finished flows, ns: the last byte
	// delivered at the receiver minus the first message's release at the
	// sender (fct_ns = finish_ns - start_ns).
	FCTMeanNs float64 `json:"fct_mean_ns"`
	FCTP50Ns  int64   `json:"fct_p50_ns"`
	FCTP90Ns  int64   `json:"fct_p90_ns"`
	FCTP95Ns  int64   `json:"fct_p95_ns"`
	FCTP99Ns  int64   `json:"fct_p99_ns"`
	FCTP999Ns int64   `json:"fct_p999_ns"`
	FCTMaxNs  int64   `json:"fct_max_ns"`

	// Slowdown of finished flows: the slowdown column, fct_ns divided by
	// the flow's ideal FCT (>= 1 in a correct simulator). Rows whose
	// slowdown is NaN or Inf are left out.
	SlowdownMean float64 `json:"slowdown_mean"`
	SlowdownP50  float64 `json:"slowdown_p50"`
	SlowdownP90  float64 `json:"slowdown_p90"`
	SlowdownP95  float64 `json:"slowdown_p95"`
	SlowdownP99  float64 `json:"slowdown_p99"`
	SlowdownP999 float64 `json:"slowdown_p999"`
	SlowdownMax  float64 `json:"slowdown_max"`

	// Slowdown against the standalone FCT of finished flows (FDCC thesis,
	// Sec. 5.4 and Table 6.2, "FCTSD": "the ratio between the practical
	// absolute flow completion time and the standalone flow completion
	// time"): fct_ns / standalone_fct_ns, with the receiver-side fct_ns of
	// every other metric (the slowdown_* fields above divide it by the
	// ideal FCT instead). NB: standalone_fct_ns is the HPCC simulator's
	// sender-side ideal, which includes the way back of the ACK, so a
	// short flow's value can be below 1; flows.parquet's sender_slowdown
	// is the sender-side ratio. Rows with standalone_fct_ns <= 0 are left
	// out.
	SlowdownStandaloneMean float64 `json:"slowdown_standalone_mean"`
	SlowdownStandaloneP50  float64 `json:"slowdown_standalone_p50"`
	SlowdownStandaloneP99  float64 `json:"slowdown_standalone_p99"`

	// MCT (message completion time) of finished messages, ns:
	// mct_ns = finish_ns - release_ns.
	MCTMeanNs float64 `json:"mct_mean_ns"`
	MCTP50Ns  int64   `json:"mct_p50_ns"`
	MCTP90Ns  int64   `json:"mct_p90_ns"`
	MCTP95Ns  int64   `json:"mct_p95_ns"`
	MCTP99Ns  int64   `json:"mct_p99_ns"`
	MCTP999Ns int64   `json:"mct_p999_ns"`
	MCTMaxNs  int64   `json:"mct_max_ns"`

	// CCT (collective completion time) of finished collectives, ns: the
	// last finish_ns of its messages minus their first release_ns
	// (a collective completes when its last message completes, measured
	// from the collective's start).
	CCTMeanNs float64 `json:"cct_mean_ns"`
	CCTP50Ns  int64   `json:"cct_p50_ns"`
	CCTP90Ns  int64   `json:"cct_p90_ns"`
	CCTP95Ns  int64   `json:"cct_p95_ns"`
	CCTP99Ns  int64   `json:"cct_p99_ns"`
	CCTP999Ns int64   `json:"cct_p999_ns"`
	CCTMaxNs  int64   `json:"cct_max_ns"`

	// Buckets are the flows sorted by (size_bytes, flow_id) and cut into
	// groups of equal count, smallest sizes first (HPCC style).
	Buckets []Bucket `json:"buckets"`

	// Sums over all flows, finished or not.
	DataPktsSent int64 `json:"data_pkts_sent"` // data packets sent incl. retransmissions
	CEPkts       int64 `json:"ce_pkts"`        // data packets that arrived CE-marked
	// ECNRatio = Σ ce_pkts / Σ data_pkts_sent over all flows (Dolce-RC's
	// reward is 1 - this ratio).
	ECNRatio  float64 `json:"ecn_ratio"`
	CNPs      int64   `json:"cnps"`       // CNPs received by senders
	Nacks     int64   `json:"nacks"`      // NACKs received by senders
	Timeouts  int64   `json:"timeouts"`   // retransmission timeouts
	RetxBytes int64   `json:"retx_bytes"` // payload bytes retransmitted

	// Sums over all ports of all nodes.
	DropsPkts  int64 `json:"drops_pkts"`  // Σ dropped_pkts
	DropsBytes int64 `json:"drops_bytes"` // Σ dropped_bytes

	// Fairness over the goodputs x_i = size_bytes*8 / fct of the finished
	// flows with fct_ns > 0. NB: these are meaningful when the flows share
	// one bottleneck, as in an incast; for a mixed workload compute them
	// over the rows of one incast.
	//
	// UnfairRatio = (max x - mean x) / mean x (FDCC thesis).
	UnfairRatio float64 `json:"unfair_ratio"`
	// JainIndex = (Σ x)^2 / (n Σ x^2).
	JainIndex float64 `json:"jain_index"`
	// MinMaxRateRatio = min x / max x (PCC-RL's fairness).
	MinMaxRateRatio float64 `json:"min_max_rate_ratio"`

	// The same fairness during the incast (FDCC thesis, Sec. 5.4: "the
	// deviation of the normalized bandwidth of each flow during an incast
	// event"), over the run's concurrency window: from the latest start_ns
	// of the flows to their earliest finish_ns (or sim_duration_ns when no
	// flow finished), the span in which every flow is active. The rates are
	// x_i = concurrent_bytes*8 / window, every flow included, so flows
	// released apart (an incast with jitter) are compared over the same
	// span; the lifetime metrics above are not.
	//
	// ConcurrentWindowStartNs is the window's start and ConcurrentWindowNs
	// its length, ns. Both are 0, and so are the three *Concurrent
	// metrics, when the run has no usable window: a flow finished before
	// the last one started, a flow never started, the window is shorter
	// than MinConcurrentWindowNs, or the rows lack concurrent_bytes
	// (schema v1). concurrent_window_ns > 0 says the metrics are defined.
	ConcurrentWindowStartNs int64 `json:"concurrent_window_start_ns"`
	ConcurrentWindowNs      int64 `json:"concurrent_window_ns"`
	// UnfairRatioConcurrent = (max x - mean x) / mean x over the window.
	UnfairRatioConcurrent float64 `json:"unfair_ratio_concurrent"`
	// JainIndexConcurrent = (Σ x)^2 / (n Σ x^2) over the window.
	JainIndexConcurrent float64 `json:"jain_index_concurrent"`
	// MinMaxRateRatioConcurrent = min x / max x over the window.
	MinMaxRateRatioConcurrent float64 `json:"min_max_rate_ratio_concurrent"`

	// GoodputBps = Σ size_bytes*8 of the finished flows / (their last
	// finish_ns - their first start_ns), bit/s.
	GoodputBps float64 `json:"goodput_bps"`
	// GoodputMeanBps is the mean of the per-flow goodputs x_i, bit/s.
	GoodputMeanBps float64 `json:"goodput_mean_bps"`
	// GoodputNorm is GoodputBps over the receiver's link rate (FDCC
	// thesis, Table 6.1 and Table 6.2, "Goodput"): the payload bits of
	// the finished flows / (receiver link rate * (their last finish_ns -
	// their first start_ns)), the link rate being rate_bps of the
	// receiver's NIC port (the ports row with node = dst and is_switch
	// false). Defined for n-to-1 runs only: 0 when the flows have more
	// than one destination, none finished, or the receiver's port row is
	// missing (no ports rows) or has no rate.
	GoodputNorm float64 `json:"goodput_norm"`

	// Switch utilization of each switch port with tx_bytes > 0:
	// tx_bytes*8 / (rate_bps * sim_duration_ns / 1e9); the max and the mean
	// over those ports.
	SwitchUtilMax  float64 `json:"switch_util_max"`
	SwitchUtilMean float64 `json:"switch_util_mean"`

	// Queue lengths over switch ports, bytes: the largest time-weighted
	// mean, the largest time-weighted p99 and the largest maximum.
	QLenAvgBytes float64 `json:"qlen_avg_bytes"`
	QLenP99Bytes int64   `json:"qlen_p99_bytes"`
	QLenMaxBytes int64   `json:"qlen_max_bytes"`

	// PFCPauseFraction = Σ paused_ns / Σ sim_duration_ns over all ports of
	// all nodes, i.e. Σ paused_ns / (ports * sim_duration_ns); the max is
	// paused_ns / sim_duration_ns of the most paused port.
	PFCPauseFraction    float64 `json:"pfc_pause_fraction"`
	PFCPauseFractionMax float64 `json:"pfc_pause_fraction_max"`
	// PFCPausedFracMean is the mean over the finished flows with
	// fct_ns > 0 of pfc_paused_ns / fct_ns: the share of its completion
	// time a flow had data ready to send but was held by a PFC pause at
	// its sender (FDCC thesis, Fig. 6.3b, "PFC pause time over flow
	// completion time"). 0 when the rows lack pfc_paused_ns (read as -1,
	// files of schema v1 or written before the column).
	PFCPausedFracMean float64 `json:"pfc_paused_frac_mean"`
	// PauseFrames = Σ pauses_sent over all ports.
	PauseFrames int64 `json:"pause_frames"`
	// ECNMarkedPkts = Σ ecn_marked_pkts over all ports (marks applied).
	ECNMarkedPkts int64 `json:"ecn_marked_pkts"`
}

// Bucket is one flow-size bucket. Bucket boundaries depend only on the
// workload (all flows, finished or not), so runs of the same trace under
// different CCAs have the same buckets; the percentiles are over the
// bucket's finished flows.
type Bucket struct {
	SizeMinBytes  int64   `json:"size_min_bytes"` // smallest flow size in the bucket
	SizeMaxBytes  int64   `json:"size_max_bytes"` // largest flow size in the bucket
	Flows         int64   `json:"flows"`
	FlowsFinished int64   `json:"flows_finished"`
	FCTP50Ns      int64   `json:"fct_p50_ns"`
	FCTP95Ns      int64   `json:"fct_p95_ns"`
	FCTP99Ns      int64   `json:"fct_p99_ns"`
	SlowdownP50   float64 `json:"slowdown_p50"`
	SlowdownP95   float64 `json:"slowdown_p95"`
	SlowdownP99   float64 `json:"slowdown_p99"`
}
