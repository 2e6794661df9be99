package v2

// ComparisonRow is one row of comparison.parquet (`ccreplay compare`): one
// run (algorithm, seed) and one flow-size bucket of it. Bucket -1 is the
// whole run; the run-wide metrics repeat on every row of a run so that a
// reader can filter on bucket alone.
type ComparisonRow struct {
	CCA           string  `parquet:"cca,dict"`           // algorithm spec as resolved, e.g. dcqcn:zhu2015
	Seed          int64   `parquet:"seed"`               // the run's seed
	Bucket        int32   `parquet:"bucket"`             // flow-size bucket index, -1 = all flows
	SizeMinBytes  int64   `parquet:"size_min_bytes"`     // smallest flow in the bucket, bytes
	SizeMaxBytes  int64   `parquet:"size_max_bytes"`     // largest flow in the bucket, bytes
	Flows         int64   `parquet:"flows"`              // flows in the bucket
	FlowsFinished int64   `parquet:"flows_finished"`     // of which finished
	FCTP50Ns      int64   `parquet:"fct_p50_ns"`         // ns
	FCTP95Ns      int64   `parquet:"fct_p95_ns"`         // ns
	FCTP99Ns      int64   `parquet:"fct_p99_ns"`         // ns
	SlowdownP50   float64 `parquet:"slowdown_p50"`       // FCT / ideal FCT
	SlowdownP95   float64 `parquet:"slowdown_p95"`       //
	SlowdownP99   float64 `parquet:"slowdown_p99"`       //
	MCTP50Ns      int64   `parquet:"mct_p50_ns"`         // run-wide, ns
	MCTP99Ns      int64   `parquet:"mct_p99_ns"`         // run-wide, ns
	CCTMeanNs     float64 `parquet:"cct_mean_ns"`        // run-wide collective completion, ns
	ECNRatio      float64 `parquet:"ecn_ratio"`          // run-wide
	UnfairRatio   float64 `parquet:"unfair_ratio"`       // run-wide
	JainIndex     float64 `parquet:"jain_index"`         // run-wide
	GoodputBps    float64 `parquet:"goodput_bps"`        // run-wide aggregate, bit/s
	QLenMaxBytes  int64   `parquet:"qlen_max_bytes"`     // run-wide worst switch port, bytes
	QLenP99Bytes  int64   `parquet:"qlen_p99_bytes"`     // run-wide worst switch port, bytes
	PFCPauseFrac  float64 `parquet:"pfc_pause_fraction"` // run-wide
	DropsPkts     int64   `parquet:"drops_pkts"`         // run-wide
	SimDurationNs int64   `parquet:"sim_duration_ns"`    // run-wide, ns
}
