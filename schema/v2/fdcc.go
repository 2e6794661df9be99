package v2

// FDCCLearningRow is one row of the learning.parquet of `ccreplay train
// fdcc` (rl/fdcctrain): one episode of FDCC's TD3 training (Zhang 2023,
// Section 4.3), with its curriculum stage (Section 4.4). The RL-CC
// trainer's learning.parquet has LearningRow instead.
type FDCCLearningRow struct {
	Episode int32 `json:"episode" parquet:"episode"`
	Stage   int32 `json:"stage" parquet:"stage"`
	Flows   int32 `json:"flows" parquet:"flows"`
	// Seed is the episode's seed (its bits as int64: Parquet readers
	// surprise on unsigned columns).
	Seed int64 `json:"seed" parquet:"seed"`
	// Steps is the number of decisions of every flow; Added the
	// transitions stored.
	Steps int64 `json:"decisions" parquet:"decisions"`
	Added int64 `json:"transitions" parquet:"transitions"`
	// Reward is the mean Algorithm 1 reward per decision.
	Reward float64 `json:"mean_reward" parquet:"mean_reward"`
	// Draining is the fraction of decisions in Algorithm 1's queue-draining
	// stage (line 2).
	Draining float64 `json:"draining_frac" parquet:"draining_frac"`
	// Goodput is the payload acknowledged over the episode / (100 Gb/s x
	// the time from the first release to the episode's end).
	Goodput float64 `json:"goodput" parquet:"goodput"`
	// MaxQLen is the largest QLEN feature seen, bandwidth-delay products.
	MaxQLen float64 `json:"max_qlen_bdp" parquet:"max_qlen_bdp"`
	// MeanOutput is the mean action o (noise included).
	MeanOutput float64 `json:"mean_output" parquet:"mean_output"`
	// CriticLoss, ActorObj and MeanQ are the TD3 statistics of the
	// episode's updates (0 before the first, Updates = 0).
	CriticLoss float64 `json:"critic_loss" parquet:"critic_loss"`
	ActorObj   float64 `json:"actor_objective" parquet:"actor_objective"`
	MeanQ      float64 `json:"mean_q" parquet:"mean_q"`
	Updates    int32   `json:"updates" parquet:"updates"`
}

// ParquetSchemaName is the name of the file's root schema element, the
// one the files carried before the type moved here (fdcctrain.Row).
func (FDCCLearningRow) ParquetSchemaName() string { return "Row" }
