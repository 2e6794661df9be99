package v2

// DecisionRow is one row of decisions.parquet: one congestion-control
// decision of one flow (a change of the algorithm's rate or window,
// coalesced to at most one row per decision interval), the observation the
// algorithm had when it made it, the action it took, the link to the
// flow's next decision and the rewards of the requested reward functions
// (package rl/reward). docs/DATASETS.md describes every column.
//
// Observation columns aggregate what happened since the flow's previous
// row (or since the flow started, for step 0). Reward columns that were
// not requested hold NaN, so that the file has the same columns whatever
// was asked for.
type DecisionRow struct {
	RunID  string `parquet:"run_id,dict"` // identifies the run (workload, algorithm, seed)
	CCA    string `parquet:"cca,dict"`    // algorithm as resolved, "name:preset"
	FlowID int64  `parquet:"flow_id"`     // flow (queue pair) id, as in flows.parquet
	Src    int32  `parquet:"src"`         // source host (-1 when unknown)
	Dst    int32  `parquet:"dst"`         // destination host (-1 when unknown)
	Step   int64  `parquet:"step"`        // 0-based index of this decision within its flow
	TNs    int64  `parquet:"t_ns,delta"`  // decision time, ns

	// Observation: the state before the decision.
	IntervalNs       int64   `parquet:"interval_ns"`        // time since the flow's previous decision (or start), ns
	RateBps          int64   `parquet:"rate_bps"`           // rate in force before the decision (capped at line rate), bit/s
	RateFrac         float64 `parquet:"rate_frac"`          // rate_bps / line rate, fraction
	LineRateBps      int64   `parquet:"line_rate_bps"`      // sender NIC line rate, bit/s
	RTTNs            int64   `parquet:"rtt_ns"`             // latest RTT sample (carried over when none in the interval; base RTT before any), ns
	RTTMeanNs        int64   `parquet:"rtt_mean_ns"`        // mean of the interval's RTT samples (rtt_ns when none), ns
	BaseRTTNs        int64   `parquet:"base_rtt_ns"`        // path base RTT, ns
	RTTInflation     float64 `parquet:"rtt_inflation"`      // rtt_ns / base_rtt_ns, ratio
	CNPs             int64   `parquet:"cnps"`               // CNPs received in the interval
	Nacks            int64   `parquet:"nacks"`              // NACKs received in the interval
	Timeouts         int64   `parquet:"timeouts"`           // retransmission timeouts in the interval
	Acks             int64   `parquet:"acks"`               // ACKs received in the interval
	AckedBytes       int64   `parquet:"acked_bytes"`        // payload bytes newly acknowledged in the interval, bytes
	ECNRatio         float64 `parquet:"ecn_ratio"`          // CE-echoing ACKs / ACKs in the interval (0 without ACKs), fraction
	IntMaxQLenBytes  int64   `parquet:"int_max_qlen_bytes"` // largest INT queue length seen in the interval, bytes (-1 without INT)
	IntLinkRateBps   int64   `parquet:"int_link_rate_bps"`  // link rate of that queue's port, bit/s (-1 without INT)
	IntQLenFrac      float64 `parquet:"int_qlen_frac"`      // FDCC QLEN: queue of the most congested hop / (its rate x base RTT), fraction (NaN before INT)
	IntTxRateFrac    float64 `parquet:"int_txrate_frac"`    // FDCC SWITCHRATE: that hop's tx rate / its link rate, fraction (NaN before INT)
	GoodputBps       int64   `parquet:"goodput_bps"`        // acked_bytes*8 / interval, bit/s
	GoodputFrac      float64 `parquet:"goodput_frac"`       // goodput_bps / receiver link rate, fraction
	FlowsToDst       int32   `parquet:"flows_to_dst"`       // flows to the same destination started and not fully acknowledged, this one included (-1 unknown)
	MsgsDone         int64   `parquet:"msgs_done"`          // messages whose completion ACK arrived in the interval
	MsgIdealMCTNs    int64   `parquet:"msg_ideal_mct_ns"`   // last such message: base RTT + bytes*8/line rate, ns (-1 none)
	MsgMCTNs         int64   `parquet:"msg_mct_ns"`         // last such message: completion ACK - first transmission, ns (-1 none)
	DolcePlusArm     int32   `parquet:"dolceplus_arm"`      // Dolce-RC+ arm index nearest rate_frac (Dolce-RC, Ye 2023, Definition 3)
	PrevAction       float64 `parquet:"prev_action"`        // action of the previous decision (1 at step 0)
	PrevRateFrac     float64 `parquet:"prev_rate_frac"`     // rate_frac of the previous decision (this row's at step 0), fraction
	PrevRTTInflation float64 `parquet:"prev_rtt_inflation"` // rtt_inflation of the previous decision (this row's at step 0), ratio

	// Action.
	Action      float64 `parquet:"action"`            // new_rate_bps / rate_bps, multiplicative
	NewRateBps  int64   `parquet:"new_rate_bps"`      // rate after the decision (capped at line rate), bit/s
	WindowBytes int64   `parquet:"window_bytes"`      // window after the decision, bytes (0 = none)
	PrevWindow  int64   `parquet:"prev_window_bytes"` // window before the decision, bytes (0 = none)

	// Transition.
	NextRow int64 `parquet:"next_row"` // 0-based row index of this flow's next decision in this file, -1 if none
	Done    bool  `parquet:"done"`     // true on the flow's last decision

	// Rewards (NaN when not requested); see package rl/reward.
	RewardDolce        float64 `parquet:"reward_dolce"`         // Dolce-RC (Ye 2023), Eq. 4, on ecn_ratio
	RewardDolcePlus    float64 `parquet:"reward_dolceplus"`     // Dolce-RC (Ye 2023), Eq. 5, on msg_*_ns, ecn_ratio, dolceplus_arm (NaN when msgs_done = 0)
	RewardRLCC         float64 `parquet:"reward_rlcc"`          // RL-CC-NIC (Fuhrer 2023), Eq. 1, on rtt_inflation, rate_frac
	RewardRLCCBetaFree float64 `parquet:"reward_rlcc_betafree"` // RL-CC (Tessler 2022), Section 4, on rtt_inflation, rate_frac
	RewardFDCC         float64 `parquet:"reward_fdcc"`          // FDCC (Zhang 2023), Algorithm 1, on int_*_frac, rtt_inflation, goodput_frac, flows_to_dst
	ReturnFDCCNStep    float64 `parquet:"return_fdcc_nstep"`    // n-step discounted sum of reward_fdcc within the flow
}
