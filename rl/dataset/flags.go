package dataset

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/ccreplay/ccreplay/internal/clierr"
)

// Flags are `ccreplay dataset`'s own flag values (the run's flags are
// `ccreplay run`'s).
type Flags struct {
	Rewards    string
	Gamma      float64
	NStep      int
	IntervalNs int64
	Target     float64
	Beta       float64
	RunID      string
}

// Params checks the flag values and turns them into the dataset's
// options; a bad value is a usage error naming its flag.
func (f Flags) Params() (Params, error) {
	r, err := parseRewardList(f.Rewards)
	if err != nil {
		return Params{}, clierr.Usagef("--reward: %v", err)
	}
	p := Params{Rewards: r, Gamma: f.Gamma, NStep: f.NStep, IntervalNs: f.IntervalNs, Target: f.Target, Beta: f.Beta, RunID: f.RunID}
	var pe *ParamError
	if err := p.Check(); errors.As(err, &pe) {
		return p, clierr.Usagef("%s: %s", pe.Flag, pe.Msg)
	}
	return p, nil
}

// Overrides are dataset options of which a nil or empty value keeps the
// default (DefaultParams): a dataset sweep's section (sweep.DatasetOptions
// converts to it).
type Overrides struct {
	// Reward is the comma-separated rewards ("" = all).
	Reward string
	// Gamma is the discount factor of return_fdcc_nstep, in [0, 1].
	Gamma *float64
	// NStep is the steps of return_fdcc_nstep (<= 0: to the flow's end).
	NStep *int
	// DecisionIntervalNs is the minimum time between two rows of a flow,
	// ns (-1: the flow's base RTT, 0: every change).
	DecisionIntervalNs *int64
	// RLCCTarget and RLCCBeta are RL-CC's reward parameters (an RTT
	// inflation target and tolerance, dimensionless).
	RLCCTarget *float64
	RLCCBeta   *float64
}

// Params are the defaults with o's values, checked as the command checks
// its flags (errors name the values in words: "dataset reward: ...").
func (o Overrides) Params() (Params, error) {
	p := DefaultParams()
	if o.Reward != "" {
		r, err := parseRewardList(o.Reward)
		if err != nil {
			return p, fmt.Errorf("dataset reward: %v", err)
		}
		p.Rewards = r
	}
	override(&p.Gamma, o.Gamma)
	override(&p.NStep, o.NStep)
	override(&p.IntervalNs, o.DecisionIntervalNs)
	override(&p.Target, o.RLCCTarget)
	override(&p.Beta, o.RLCCBeta)
	return p, p.Check()
}

// override sets *dst to *v when v is given (not nil).
func override[T any](dst, v *T) {
	if v != nil {
		*dst = *v
	}
}

// parseRewardList is ParseRewards refusing a list that names no reward.
func parseRewardList(s string) (Rewards, error) {
	r, err := ParseRewards(s)
	if err != nil {
		return r, err
	}
	if len(r.Names()) == 0 {
		return r, fmt.Errorf("give at least one of %s", strings.Join(RewardNames(), ", "))
	}
	return r, nil
}

// WriteText writes the summary `ccreplay dataset` prints of a dataset
// written into the folder dir: what was replayed, the rows and each
// reward column's mean.
func (i Info) WriteText(w io.Writer, dir string) {
	fmt.Fprintf(w, "ccreplay dataset: %s under %s, seed %d: %d decisions of %d flows in %s\n",
		i.Trace, i.CCA, i.Seed, i.Rows, i.Flows, filepath.Join(dir, FileName))
	for _, m := range i.RewardMeans {
		fmt.Fprintf(w, "  %-22s mean %12.6g over %d rows\n", m.Column, m.Mean, m.Rows)
	}
}
