package v2

// The files of a `ccreplay netcalc` folder (docs/NETCALC.md): curves and
// events of the model (--format parquet), and with --compare the model
// beside the packet replay. Their root schema names are the names the
// files carried before these types moved here (ParquetSchemaName), so
// that files stay byte-identical.

// NetcalcCurveRow is one row of curves.parquet (the network-calculus
// model of CC-NetCalc, Lehal 2024): one flow (or the aggregate, flow_id
// -1) at one recorded time. Values not defined for the row are -1
// (the aggregate's epoch and rtt_ns, rate_bps of window CCs, window_bytes
// of rate CCs and of the aggregate).
type NetcalcCurveRow struct {
	TNs          int64   `parquet:"t_ns,delta"`    // sample time, ns
	FlowID       int64   `parquet:"flow_id"`       // model flow (summary.json flows), -1 = aggregate
	Epoch        int32   `parquet:"epoch"`         // timeouts of the flow so far
	ABytes       float64 `parquet:"a_bytes"`       // arrival function A, bytes
	AhatBytes    float64 `parquet:"ahat_bytes"`    // admitted Â, bytes, in epoch coordinates
	DBytes       float64 `parquet:"d_bytes"`       // departures D, bytes, in epoch coordinates
	DLoBytes     float64 `parquet:"d_lo_bytes"`    // Theorem 1 lower bound of D (aggregate: D)
	DHiBytes     float64 `parquet:"d_hi_bytes"`    // Theorem 1 upper bound of D (aggregate: D)
	BacklogBytes float64 `parquet:"backlog_bytes"` // bytes in the path server
	RateBps      float64 `parquet:"rate_bps"`      // rate limit r, bit/s (aggregate: the sum)
	WindowBytes  float64 `parquet:"window_bytes"`  // window W, bytes
	RTTNs        int64   `parquet:"rtt_ns"`        // Eq. (1) RTT, ns
	Paused       bool    `parquet:"paused"`        // PFC pauses the flow (aggregate: any flow)
}

// NetcalcEventRow is one row of events.parquet.
type NetcalcEventRow struct {
	TNs    int64   `parquet:"t_ns,delta"` // event time, ns
	FlowID int64   `parquet:"flow_id"`    // model flow
	Kind   string  `parquet:"kind,dict"`  // inc, cnp, timeout, pause, resume or flight
	Before float64 `parquet:"before"`     // value before, in unit
	After  float64 `parquet:"after"`      // value after, in unit
	Unit   string  `parquet:"unit,dict"`  // bps (rate) or bytes (window, backlog)
}

// NetcalcCompareRow is one row of compare.parquet: the model and the replay at
// one recorded step. Bytes are payload bytes (the model has no headers).
type NetcalcCompareRow struct {
	TNs                int64   `parquet:"t_ns,delta"`           // sample time, ns
	ModelBacklogBytes  float64 `parquet:"model_backlog_bytes"`  // model aggregate backlog, bytes
	ReplayBacklogBytes float64 `parquet:"replay_backlog_bytes"` // payload queued at the bottleneck port, bytes
	ModelRateBps       float64 `parquet:"model_rate_bps"`       // admitted Â over the last step, bit/s
	ReplayRateBps      float64 `parquet:"replay_rate_bps"`      // payload enqueued at the bottleneck over the last step, bit/s
	ModelPaused        int64   `parquet:"model_paused"`         // 1: PFC pauses some flow
	ReplayPaused       int64   `parquet:"replay_paused"`        // 1: some sender's link is paused
	// ModelDelayNs is the model's delay of the byte admitted at t: the
	// horizontal deviation inf{d >= 0 : Out(t+d) >= Â(t)} of the
	// aggregate, at the grid's resolution; -1 when that byte has not left
	// by the horizon.
	ModelDelayNs int64 `parquet:"model_delay_ns"`
	// ReplayDelayNs is the mean time (payload-weighted) the data packets
	// enqueued at the bottleneck port in the step ending at t spent there,
	// enqueue to the end of their transmission; -1 when none was
	// enqueued, or none of them left by the horizon.
	ReplayDelayNs int64 `parquet:"replay_delay_ns"`
}

// NetcalcFlowRow is one row of compare_flows.parquet: one flow of the model and
// the same flow (its messages) in the replay at one recorded step.
type NetcalcFlowRow struct {
	TNs                int64   `parquet:"t_ns,delta"`           // sample time, ns
	FlowID             int64   `parquet:"flow_id"`              // the model's flow index (summary.json flows)
	ModelRateBps       float64 `parquet:"model_rate_bps"`       // admitted ΔÂ_j over the last step (0 across a timeout), bit/s
	ReplayRateBps      float64 `parquet:"replay_rate_bps"`      // the flow's payload arriving at the bottleneck switch over the last step, bit/s
	ModelBacklogBytes  float64 `parquet:"model_backlog_bytes"`  // the flow's bytes in the path server, bytes
	ReplayBacklogBytes float64 `parquet:"replay_backlog_bytes"` // the flow's payload arrived at the bottleneck switch and not yet sent on the bottleneck port, bytes
}

// ParquetSchemaName is the name of the file's root schema element.
func (NetcalcCurveRow) ParquetSchemaName() string { return "ncCurveRow" }

// ParquetSchemaName is the name of the file's root schema element.
func (NetcalcEventRow) ParquetSchemaName() string { return "ncEventRow" }

// ParquetSchemaName is the name of the file's root schema element.
func (NetcalcCompareRow) ParquetSchemaName() string { return "ncCompareRow" }

// ParquetSchemaName is the name of the file's root schema element.
func (NetcalcFlowRow) ParquetSchemaName() string { return "ncFlowRow" }
