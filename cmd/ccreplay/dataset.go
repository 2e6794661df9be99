package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/rl/dataset"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runner"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/sweep"
	"github.com/ccreplay/ccreplay/units"
)

func init() { registerCommand(newDatasetCmd) }

// datasetOptions are the flags of `ccreplay dataset`; the run's own flags
// are resolved by runOptions (run.go), so a dataset run is configured
// exactly like `ccreplay run`.
type datasetOptions struct {
	run runOptions

	Rewards    string
	Gamma      float64
	NStep      int
	IntervalNs int64
	Target     float64
	Beta       float64
	RunID      string
}

// DatasetFile is the sidecar describing a dataset (dataset.json).
const DatasetFile = runfolder.DatasetFile

// datasetInfo is dataset.json and the --json output: how the dataset was
// made and what it holds.
type datasetInfo struct {
	SchemaVersion string               `json:"schema_version"`
	File          string               `json:"file"`
	RunID         string               `json:"run_id"`
	Trace         string               `json:"trace"`
	CCA           string               `json:"cca"`
	Seed          uint64               `json:"seed"`
	Rewards       []string             `json:"rewards"`
	RLCCTarget    float64              `json:"rlcc_target"`
	RLCCBeta      float64              `json:"rlcc_beta"`
	Gamma         float64              `json:"gamma"`
	NStep         int                  `json:"nstep"`
	IntervalNs    int64                `json:"decision_interval_ns"` // -1: each flow's base RTT
	INTForced     bool                 `json:"int_enabled_for_fdcc"`
	Rows          int64                `json:"rows"`
	Flows         int                  `json:"flows"`
	RewardMeans   []dataset.ColumnMean `json:"reward_means"`
	SimEndNs      int64                `json:"sim_end_ns"`
}

const datasetExamples = `  # RL-CC and Dolce-RC rewards of DCQCN's decisions in a 16-to-1 incast
  ccreplay dataset --workload incast:n=16,size=1MB --cca dcqcn --reward rlcc,dolce -o ds/incast

  # every reward, HPCC on a trace, one row per window change, JSON summary
  ccreplay dataset --trace examples/alltoall8.csv --cca hpcc --reward all \
      --decision-interval-ns 0 -o ds/a2a --json

  # FDCC's n-step return with gamma 0.9 over 8 steps
  ccreplay dataset --workload longflows:n=4,size=10MB --cca dcqcn --reward fdcc \
      --gamma 0.9 --nstep 8 -o ds/long`

func newDatasetCmd(s *streams) *cobra.Command {
	o := &datasetOptions{run: runOptions{f: s}}
	c := &cobra.Command{
		Use:   "dataset (--trace FILE | --workload SPEC) --reward LIST -o DIR [flags]",
		Short: "Replay a workload and record every congestion-control decision with its rewards (decisions.parquet)",
		Long: `Replays a workload like 'ccreplay run' and records one row per congestion-control
decision of every flow in DIR/decisions.parquet: the observation (rate, RTT,
RTT inflation, CNPs, NACKs, ECN ratio, INT queue, goodput, previous action),
the action (new rate / old rate), the row of the flow's next decision, a done
flag, and one column per reward (NaN for rewards not requested):
  dolce          reward_dolce          1 - ECN ratio (Dolce-RC, Ye 2023, Eq. 4)
  dolceplus      reward_dolceplus      ideal/actual MCT * (1 - ECN ratio)^arm (Dolce-RC, Ye 2023, Eq. 5)
  rlcc           reward_rlcc           -(target - max(infl - beta, 0) * sqrt(rate))^2 (RL-CC-NIC, Fuhrer 2023, Eq. 1)
  rlcc-betafree  reward_rlcc_betafree  -(target - infl * sqrt(rate))^2 (RL-CC, Tessler 2022)
  fdcc           reward_fdcc           two-stage reward (FDCC, Zhang 2023, Algorithm 1) with
                                       THROUGHPUT over the fair share (docs/FDCC.md), and
                 return_fdcc_nstep     its n-step discounted sum within the flow
  fdcc-literal   the same two columns  Algorithm 1 as printed (THROUGHPUT = share of the link)
A decision is a change of the algorithm's rate or window, at most one row per
flow per decision interval (default: the flow's base RTT). Requesting fdcc
or fdcc-literal turns on switch INT stamping (it changes no packet and no timing).
DIR also gets flows/messages/ports.parquet, summary.json and dataset.json.
The columns are documented in docs/DATASETS.md.`,
		Example: datasetExamples,
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.run.set = map[string]bool{}
			cmd.Flags().Visit(func(f *pflagFlag) { o.run.set[f.Name] = true })
			return o.runDataset(cmd.Context())
		},
	}
	f := c.Flags()
	r := &o.run
	f.StringVar(&r.Trace, "trace", "", "trace file (.csv, .parquet, .jsonl), packet capture, MPI trace (DUMPI, OTF2) or Chakra execution trace")
	f.StringVar(&r.Workload, "workload", "", "built-in workload generator spec, e.g. incast:n=16,size=1MB")
	f.StringVar(&r.CCA, "cca", "dcqcn", "congestion control NAME[:PRESET]: "+algorithmNames())
	f.StringArrayVar(&r.CCAParams, "cca-param", nil, "algorithm parameter override KEY=VALUE (repeatable)")
	f.StringVar(&r.Topology, "topology", "", "topology spec (as for 'ccreplay run'); default: a star sized to the workload")
	f.Uint64Var(&r.Seed, "seed", 1, "random seed (ECN marking draws, ECMP hashes, generators)")
	f.StringVarP(&r.Out, "out", "o", "out", "output folder")
	f.StringVar(&r.Packets, "packets", "none", "per-packet log detail: none, data or all")
	f.StringVar(&r.Config, "config", "", "YAML run configuration (as for 'ccreplay run')")
	f.StringVar(&r.MaxTime, "max-time", "", "stop at this simulated time (e.g. 10ms)")
	addAppFlags(f, r)
	f.BoolVar(&r.JSON, "json", false, "print dataset.json to stdout instead of the text summary")
	f.StringVar(&o.Rewards, "reward", "all", "rewards to compute, comma-separated: "+strings.Join(dataset.RewardNames(), ", ")+" or all")
	f.Float64Var(&o.Gamma, "gamma", dataset.DefaultGamma, "discount factor of return_fdcc_nstep, in [0, 1]")
	f.IntVar(&o.NStep, "nstep", dataset.DefaultNStep, "steps of return_fdcc_nstep (<= 0: to the end of the flow)")
	f.Int64Var(&o.IntervalNs, "decision-interval-ns", -1, "minimum time between two rows of a flow, ns (-1: the flow's base RTT, 0: every change)")
	f.Float64Var(&o.Target, "rlcc-target", 0.064, "RL-CC inflation target (RL-CC-NIC, Fuhrer 2023: 0.064)")
	f.Float64Var(&o.Beta, "rlcc-beta", 1.5, "RL-CC congestion tolerance beta, an RTT inflation (RL-CC-NIC, Fuhrer 2023: 1.5)")
	f.StringVar(&o.RunID, "run-id", "", "run_id column value (default: CCA, workload and seed)")
	addOutputFlags(f, r)
	return c
}

func (o *datasetOptions) runDataset(ctx context.Context) error {
	rewards, err := dataset.ParseRewards(o.Rewards)
	if err != nil {
		return usageErrorf("--reward: %v", err)
	}
	if len(rewards.Names()) == 0 {
		return usageErrorf("--reward: give at least one of %s", strings.Join(dataset.RewardNames(), ", "))
	}
	switch {
	case !(o.Gamma >= 0 && o.Gamma <= 1):
		return usageErrorf("--gamma: want a value in [0, 1], got %v", o.Gamma)
	case o.IntervalNs < -1:
		return usageErrorf("--decision-interval-ns: want -1, 0 or a positive number of ns, got %d", o.IntervalNs)
	case !(o.Target > 0) || math.IsInf(o.Target, 0):
		return usageErrorf("--rlcc-target: want a positive number, got %v", o.Target)
	case !(o.Beta >= 0) || math.IsInf(o.Beta, 0):
		return usageErrorf("--rlcc-beta: want a number >= 0, got %v", o.Beta)
	}
	r := &o.run
	st, err := r.resolve(false)
	if err != nil {
		return err
	}
	spec := st.Specs[0]
	cfg, err := st.Config(spec, r.Seed)
	if err != nil {
		return err
	}
	if err := checkMemory(r.MaxMemory, st.Topology, st.Trace, 1); err != nil {
		return err
	}
	stage, err := r.stage()
	if err != nil {
		return err
	}
	defer stage.Abort()
	prog := r.f.newProgressLine()
	cfg.Progress = prog.replayProgress()
	p := datasetParams{Rewards: rewards, Gamma: o.Gamma, NStep: o.NStep, IntervalNs: o.IntervalNs, Target: o.Target, Beta: o.Beta, RunID: o.RunID}
	info, err := writeDataset(ctx, st, cfg, r.Seed, p, stage.Dir)
	prog.clear()
	if err != nil {
		return r.failed(err, stage)
	}
	if err := stage.Commit(); err != nil {
		return err
	}
	if r.JSON {
		b, _ := json.MarshalIndent(jsonSafe(info), "", "  ")
		fmt.Fprintln(r.f.Out, string(b))
		return nil
	}
	fmt.Fprintf(r.f.Out, "ccreplay dataset: %s under %s, seed %d: %d decisions of %d flows in %s\n",
		info.Trace, spec.Name, r.Seed, info.Rows, info.Flows, filepath.Join(r.Out, dataset.FileName))
	for _, m := range info.RewardMeans {
		fmt.Fprintf(r.f.Out, "  %-22s mean %12.6g over %d rows\n", m.Column, m.Mean, m.Rows)
	}
	return nil
}

// datasetParams are a dataset's options beyond its run's.
type datasetParams struct {
	Rewards      dataset.Rewards
	Gamma        float64
	NStep        int
	IntervalNs   int64
	Target, Beta float64
	RunID        string
}

// defaultDatasetParams are the dataset command's defaults: every reward.
func defaultDatasetParams() datasetParams {
	all, _ := dataset.ParseRewards("all")
	return datasetParams{Rewards: all, Gamma: dataset.DefaultGamma, NStep: dataset.DefaultNStep, IntervalNs: -1, Target: 0.064, Beta: 1.5}
}

// writeDataset replays the resolved run st (cfg its configuration) while
// recording every decision with its rewards into dir: decisions.parquet,
// dataset.json, then summary.json, which marks dir complete.
func writeDataset(ctx context.Context, st *runconfig.Setup, cfg replay.Config, seed uint64, p datasetParams, dir string) (datasetInfo, error) {
	spec, tr := st.Specs[0], st.Trace
	forced := p.Rewards.AnyFDCC() && !cfg.Switch.INT
	if p.Rewards.AnyFDCC() {
		cfg.Switch.INT = true // FDCC's reward reads INT (FDCC, Zhang 2023, Section 4.2)
	}
	runID := p.RunID
	if runID == "" {
		runID = fmt.Sprintf("%s/%s/seed=%d", spec.Name, filepath.ToSlash(st.TraceName), seed)
	}
	interval := dataset.IntervalBaseRTT
	if p.IntervalNs >= 0 {
		interval = units.Nanos(p.IntervalNs)
	}
	dcfg := dataset.Config{
		RunID: runID, CCA: spec.Name, Flows: dataset.Flows(tr, st.Topology), Interval: interval,
		Rewards: p.Rewards, Target: p.Target, Beta: p.Beta, Gamma: p.Gamma, NStep: p.NStep,
	}
	rec, err := dataset.New(dir, dcfg)
	if err != nil {
		return datasetInfo{}, clierr.Input(err)
	}
	cfg.WrapCC = rec.Wrap
	var info datasetInfo
	closed := false
	_, _, err = runner.Run(ctx, scenarioOf(st, &cfg), dir, func(dir string, res *replay.Result, man *runfolder.Manifest) error {
		closed = true
		stats, err := rec.Close()
		if err != nil {
			return err
		}
		man.Files = append(man.Files, dataset.FileName, DatasetFile)
		info = datasetInfo{
			SchemaVersion: v2.Version, File: dataset.FileName, RunID: runID, Trace: filepath.ToSlash(st.TraceName),
			CCA: spec.Name, Seed: seed, Rewards: p.Rewards.Names(), RLCCTarget: p.Target, RLCCBeta: p.Beta,
			Gamma: p.Gamma, NStep: p.NStep, IntervalNs: p.IntervalNs, INTForced: forced,
			Rows: stats.Rows, Flows: stats.Flows, RewardMeans: stats.Rewards, SimEndNs: res.SimEnd.Nanoseconds(),
		}
		return output.WriteJSONAtomic(filepath.Join(dir, DatasetFile), jsonSafe(info))
	})
	if err != nil && !closed {
		rec.Abort()
	}
	return info, err
}

// datasetParamsOf turns a dataset sweep's options into the dataset
// command's, its defaults where not given, checked as the command checks
// its flags.
func datasetParamsOf(d sweep.DatasetOptions) (datasetParams, error) {
	p := defaultDatasetParams()
	if d.Reward != "" {
		r, err := dataset.ParseRewards(d.Reward)
		if err != nil {
			return p, fmt.Errorf("dataset reward: %v", err)
		}
		if len(r.Names()) == 0 {
			return p, fmt.Errorf("dataset reward: give at least one of %s", strings.Join(dataset.RewardNames(), ", "))
		}
		p.Rewards = r
	}
	if d.Gamma != nil {
		p.Gamma = *d.Gamma
	}
	if d.NStep != nil {
		p.NStep = *d.NStep
	}
	if d.DecisionIntervalNs != nil {
		p.IntervalNs = *d.DecisionIntervalNs
	}
	if d.RLCCTarget != nil {
		p.Target = *d.RLCCTarget
	}
	if d.RLCCBeta != nil {
		p.Beta = *d.RLCCBeta
	}
	return p, p.check()
}

// check refuses values the dataset command refuses.
func (p datasetParams) check() error {
	switch {
	case !(p.Gamma >= 0 && p.Gamma <= 1):
		return fmt.Errorf("gamma: want a value in [0, 1], got %v", p.Gamma)
	case p.IntervalNs < -1:
		return fmt.Errorf("decision interval: want -1, 0 or a positive number of ns, got %d", p.IntervalNs)
	case !(p.Target > 0) || math.IsInf(p.Target, 0):
		return fmt.Errorf("rlcc target: want a positive number, got %v", p.Target)
	case !(p.Beta >= 0) || math.IsInf(p.Beta, 0):
		return fmt.Errorf("rlcc beta: want a number >= 0, got %v", p.Beta)
	}
	return nil
}

// jsonSafe replaces non-finite means (which encoding/json rejects) by 0;
// their row count says whether there was anything to average.
func jsonSafe(d datasetInfo) datasetInfo {
	m := append([]dataset.ColumnMean(nil), d.RewardMeans...)
	for i := range m {
		if math.IsNaN(m[i].Mean) || math.IsInf(m[i].Mean, 0) {
			m[i].Mean = 0
		}
	}
	d.RewardMeans = m
	return d
}
