package v2

// LearningRow is one row of learning.parquet (`ccreplay train rlcc`): one
// training iteration, i.e. one episode of a many-to-one scenario followed by
// one policy-gradient step (RL-CC, Tessler 2022, Eq. 3). Means are over
// every decision of every flow of the episode that has an outcome (the next
// decision of the same flow), unless the comment says otherwise.
type LearningRow struct {
	Episode          int32   `parquet:"episode"`            // 0-based iteration
	Scenario         string  `parquet:"scenario,dict"`      // e.g. many-to-one:4
	Flows            int32   `parquet:"flows"`              // flows in the scenario
	Seed             int64   `parquet:"seed"`               // the episode's replay seed
	Decisions        int64   `parquet:"decisions"`          // decisions with an outcome, all flows
	MeanReward       float64 `parquet:"mean_reward"`        // RL-CC-NIC (Fuhrer 2023), Eq. 1 (or RL-CC, Tessler 2022, Section 4, without beta), per decision
	MeanDelta        float64 `parquet:"mean_delta"`         // RL-CC-NIC (Fuhrer 2023), Eq. 4: weight target - max(infl-beta,0) sqrt(rate)
	MeanRateFrac     float64 `parquet:"mean_rate_frac"`     // rate / line rate after the action
	MeanRTTInflation float64 `parquet:"mean_rtt_inflation"` // RTT / base RTT after the action
	MeanAction       float64 `parquet:"mean_action"`        // rate multiplier
	MeanCNPs         float64 `parquet:"mean_cnps"`          // CNPs per decision interval
	Utilization      float64 `parquet:"utilization"`        // bytes delivered x 8 / (bottleneck rate x episode), 0..1
	JainIndex        float64 `parquet:"jain_index"`         // Jain's index of the flows' delivered bytes, 1/N..1
	DropsPkts        int64   `parquet:"drops_pkts"`         // packets dropped in the episode
	GradNorm         float64 `parquet:"grad_norm"`          // Euclidean norm of the Eq. 3 estimate
}
