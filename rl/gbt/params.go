package gbt

// Params are the hyperparameters of a boosted fit (package rl/gbt/fit,
// fit.Fit). They live here, beside the ensemble they describe, so that a
// command line can name them without linking the trainer.
type Params struct {
	// Trees is the number of boosting rounds (trees), >= 1.
	// RL-CC-NIC (Fuhrer 2023), Section V-C, deploys at most 10.
	Trees int
	// MaxDepth is the largest depth of a tree (number of splits on the path
	// from the root to a leaf), >= 1. RL-CC-NIC (Fuhrer 2023), Section V-C,
	// uses at most 4.
	MaxDepth int
	// LearningRate is the shrinkage alpha of F_t = F_{t-1} + alpha*h_t
	// (RL-CC-NIC, Fuhrer 2023, Section V-C), in (0, 1].
	LearningRate float64
	// MinLeaf is the minimum number of training samples in a leaf; 0 means 1.
	MinLeaf int
	// Lambda is the L2 penalty on leaf values (XGBoost's lambda): a leaf
	// holding samples with residual sum R and count n gets R/(n+Lambda).
	// >= 0 (dimensionless).
	Lambda float64
	// Monotone, when not nil, holds one constraint per feature: +1 makes
	// the ensemble's prediction non-decreasing in that feature, -1
	// non-increasing, 0 leaves it free (XGBoost's monotone_constraints).
	Monotone []int8
}

// DefaultParams are the distillation defaults: 10 trees of depth 4
// (RL-CC-NIC, Fuhrer 2023, Section V-C), shrinkage 0.5, 20 samples per leaf,
// lambda 1.
func DefaultParams() Params {
	return Params{Trees: 10, MaxDepth: 4, LearningRate: 0.5, MinLeaf: 20, Lambda: 1}
}
