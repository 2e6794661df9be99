package dataset

import (
	"context"
	"fmt"
	"math"
	"path/filepath"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// Params are a dataset's options beyond its run's (`ccreplay dataset`'s
// flags, a dataset sweep's section).
type Params struct {
	Rewards Rewards
	// Gamma and NStep set return_fdcc_nstep: discount factor in [0, 1]
	// and steps (<= 0: to the end of the flow).
	Gamma float64
	NStep int
	// IntervalNs is the shortest time between two rows of a flow, ns
	// (-1: the flow's base RTT, 0: every change).
	IntervalNs int64
	// Target and Beta are RL-CC's inflation target and congestion
	// tolerance (an RTT inflation).
	Target, Beta float64
	// RunID is the run_id column ("": CCA, workload and seed).
	RunID string
}

// DefaultParams are `ccreplay dataset`'s defaults: every reward, RL-CC's
// target 0.064 and beta 1.5 (RL-CC-NIC, Fuhrer 2023), one row per flow
// per base RTT.
func DefaultParams() Params {
	return Params{Rewards: All(), Gamma: DefaultGamma, NStep: DefaultNStep, IntervalNs: -1, Target: 0.064, Beta: 1.5}
}

// Check refuses what the dataset command refuses: gamma outside [0, 1],
// an interval below -1, a target not > 0 or a beta below 0 (or either
// infinite). Its errors are *ParamError values.
func (p Params) Check() error {
	switch {
	case !(p.Gamma >= 0 && p.Gamma <= 1):
		return &ParamError{"gamma", "--gamma", fmt.Sprintf("want a value in [0, 1], got %v", p.Gamma)}
	case p.IntervalNs < -1:
		return &ParamError{"decision interval", "--decision-interval-ns", fmt.Sprintf("want -1, 0 or a positive number of ns, got %d", p.IntervalNs)}
	case !(p.Target > 0) || math.IsInf(p.Target, 0):
		return &ParamError{"rlcc target", "--rlcc-target", fmt.Sprintf("want a positive number, got %v", p.Target)}
	case !(p.Beta >= 0) || math.IsInf(p.Beta, 0):
		return &ParamError{"rlcc beta", "--rlcc-beta", fmt.Sprintf("want a number >= 0, got %v", p.Beta)}
	}
	return nil
}

// ParamError is a value of Params that Check refuses: Param names it in
// words, Flag as `ccreplay dataset`'s flag.
type ParamError struct{ Param, Flag, Msg string }

func (e *ParamError) Error() string { return e.Param + ": " + e.Msg }

// Info is dataset.json and `ccreplay dataset --json`: how the dataset was
// made and what it holds.
type Info struct {
	SchemaVersion string       `json:"schema_version"`
	File          string       `json:"file"`
	RunID         string       `json:"run_id"`
	Trace         string       `json:"trace"`
	CCA           string       `json:"cca"`
	Seed          uint64       `json:"seed"`
	Rewards       []string     `json:"rewards"`
	RLCCTarget    float64      `json:"rlcc_target"`
	RLCCBeta      float64      `json:"rlcc_beta"`
	Gamma         float64      `json:"gamma"`
	NStep         int          `json:"nstep"`
	IntervalNs    int64        `json:"decision_interval_ns"` // -1: each flow's base RTT
	INTForced     bool         `json:"int_enabled_for_fdcc"`
	Rows          int64        `json:"rows"`
	Flows         int          `json:"flows"`
	RewardMeans   []ColumnMean `json:"reward_means"`
	SimEndNs      int64        `json:"sim_end_ns"`
}

// JSONSafe is i with its non-finite means (which encoding/json rejects)
// set to 0; their row count says whether there was anything to average.
func (i Info) JSONSafe() Info {
	m := append([]ColumnMean(nil), i.RewardMeans...)
	for k := range m {
		if math.IsNaN(m[k].Mean) || math.IsInf(m[k].Mean, 0) {
			m[k].Mean = 0
		}
	}
	i.RewardMeans = m
	return i
}

// Write replays sc while recording every decision of its algorithm
// (sc.Config.CC) with the rewards of p into the run folder dir:
// decisions.parquet, dataset.json, then summary.json, which marks dir
// complete (runner.Run). An FDCC reward turns on switch INT stamping
// (FDCC, Zhang 2023, Section 4.2), which changes no packet and no timing.
// A configuration the recorder refuses is a *clierr.InputError. The
// run's rows are streamed (runner.Scenario.StreamRows; sc.OnMessage, if
// set, sees every message row).
func Write(ctx context.Context, sc runner.Scenario, p Params, dir string) (Info, error) {
	cfg := *sc.Config
	forced := p.Rewards.AnyFDCC() && !cfg.Switch.INT
	if p.Rewards.AnyFDCC() {
		cfg.Switch.INT = true
	}
	runID := p.RunID
	if runID == "" {
		runID = fmt.Sprintf("%s/%s/seed=%d", cfg.CC.Name, sc.TraceName, cfg.Seed)
	}
	interval := IntervalBaseRTT
	if p.IntervalNs >= 0 {
		interval = units.Nanos(p.IntervalNs)
	}
	rec, err := New(dir, Config{
		RunID: runID, CCA: cfg.CC.Name, Flows: Flows(sc.Trace, cfg.Topology), Interval: interval,
		Rewards: p.Rewards, Target: p.Target, Beta: p.Beta, Gamma: p.Gamma, NStep: p.NStep,
	})
	if err != nil {
		return Info{}, clierr.Input(err)
	}
	cfg.WrapCC = rec.Wrap
	sc.Config = &cfg
	// The rows are written as flows finish, as `run` does (the recorder
	// needs only the run's end): a large trace holds no finished flow's row.
	sc.StreamRows = true
	var info Info
	closed := false
	_, _, err = runner.Run(ctx, &sc, dir, func(dir string, res *replay.Result, man *runner.Manifest) error {
		closed = true
		stats, err := rec.Close()
		if err != nil {
			return err
		}
		man.Files = append(man.Files, FileName, runfolder.DatasetFile)
		info = Info{
			SchemaVersion: v2.Version, File: FileName, RunID: runID, Trace: sc.TraceName,
			CCA: cfg.CC.Name, Seed: cfg.Seed, Rewards: p.Rewards.Names(), RLCCTarget: p.Target, RLCCBeta: p.Beta,
			Gamma: p.Gamma, NStep: p.NStep, IntervalNs: p.IntervalNs, INTForced: forced,
			Rows: stats.Rows, Flows: stats.Flows, RewardMeans: stats.Rewards, SimEndNs: res.SimEnd.Nanoseconds(),
		}
		return output.WriteJSONAtomic(filepath.Join(dir, runfolder.DatasetFile), info.JSONSafe())
	})
	if err != nil && !closed {
		rec.Abort()
	}
	return info, err
}
