package main

import (
	"strings"

	"github.com/ccreplay/ccreplay/runfolder"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/rl/dataset"
	"github.com/ccreplay/ccreplay/sweep"
)

func init() {
	registerCommand(func(f *Factory) *cobra.Command { return NewCmdDataset(f, nil) })
}

// datasetOptions are the flags of `ccreplay dataset`; the run's own flags
// are resolved by runOptions (run.go), so a dataset run is configured
// exactly like `ccreplay run`.
type datasetOptions struct {
	run runOptions
	dataset.Flags
}

const datasetExamples = `  # RL-CC and Dolce-RC rewards of DCQCN's decisions in a 16-to-1 incast
  ccreplay dataset --workload incast:n=16,size=1MB --cca dcqcn --reward rlcc,dolce -o ds/incast

  # every reward, HPCC on a trace, one row per window change, JSON summary
  ccreplay dataset --trace examples/alltoall8.csv --cca hpcc --reward all \
      --decision-interval-ns 0 -o ds/a2a --json

  # FDCC's n-step return with gamma 0.9 over 8 steps
  ccreplay dataset --workload longflows:n=4,size=10MB --cca dcqcn --reward fdcc \
      --gamma 0.9 --nstep 8 -o ds/long`

// NewCmdDataset is `ccreplay dataset`; runF, when not nil, is called
// with the parsed options instead of running (tests).
func NewCmdDataset(f *Factory, runF func(*datasetOptions) error) *cobra.Command {
	o := &datasetOptions{run: runOptions{f: f}}
	c := &cobra.Command{
		Use:   "dataset (--trace FILE | --workload SPEC) --reward LIST -o DIR [flags]",
		Short: "Replay a workload and record every congestion-control decision with its rewards (" + runfolder.DecisionsFile + ")",
		Long: `Replays a workload like 'ccreplay run' and records one row per congestion-control
decision of every flow in DIR/` + runfolder.DecisionsFile + `: the observation (rate, RTT,
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
  fdcc-link      the same two columns  Algorithm 1 with the link's throughput in the first
                                       term and the flow's over its fair share in the square
A decision is a change of the algorithm's rate or window, at most one row per
flow per decision interval (default: the flow's base RTT). Requesting one of the
fdcc readings turns on switch INT stamping (it changes no packet and no timing).
DIR also gets flows/messages/` + runfolder.PortsFile + `, ` + runfolder.SummaryFile + ` and ` + runfolder.DatasetFile + `.
The columns are documented in docs/DATASETS.md.`,
		Example: datasetExamples,
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.run.given(cmd)
			return runOr(runF, datasetRun, o)
		},
	}
	fl, r := c.Flags(), &o.run
	fl.StringVar(&r.Trace, "trace", "", "trace file (.csv, .parquet, .jsonl), packet capture, MPI trace (DUMPI, OTF2) or Chakra execution trace")
	fl.StringVar(&r.Workload, "workload", "", "built-in workload generator spec, e.g. incast:n=16,size=1MB")
	fl.StringVar(&r.CCA, "cca", "dcqcn", "congestion control NAME[:PRESET]: "+algorithmNames())
	fl.StringArrayVar(&r.CCAParams, "cca-param", nil, "algorithm parameter override KEY=VALUE (repeatable)")
	fl.StringVar(&r.Topology, "topology", "", "topology spec (as for 'ccreplay run'); default: a star sized to the workload")
	fl.Uint64Var(&r.Seed, "seed", 1, "random seed (ECN marking draws, ECMP hashes, generators)")
	fl.StringVarP(&r.Out, "out", "o", "out", "output folder")
	fl.StringVar(&r.Packets, "packets", "none", "per-packet log detail: none, data or all")
	fl.StringVar(&r.Config, "config", "", "YAML run configuration (as for 'ccreplay run')")
	fl.StringVar(&r.MaxTime, "max-time", "", "stop at this simulated time (e.g. 10ms)")
	addAppFlags(fl, r)
	fl.BoolVar(&r.JSON, "json", false, "print "+runfolder.DatasetFile+" to stdout instead of the text summary")
	fl.StringVar(&o.Rewards, "reward", "all", "rewards to compute, comma-separated: "+strings.Join(dataset.RewardNames(), ", ")+" or all")
	fl.Float64Var(&o.Gamma, "gamma", dataset.DefaultGamma, "discount factor of return_fdcc_nstep, in [0, 1]")
	fl.IntVar(&o.NStep, "nstep", dataset.DefaultNStep, "steps of return_fdcc_nstep (<= 0: to the end of the flow)")
	fl.Int64Var(&o.IntervalNs, "decision-interval-ns", -1, "minimum time between two rows of a flow, ns (-1: the flow's base RTT, 0: every change)")
	fl.Float64Var(&o.Target, "rlcc-target", 0.064, "RL-CC inflation target (RL-CC-NIC, Fuhrer 2023: 0.064)")
	fl.Float64Var(&o.Beta, "rlcc-beta", 1.5, "RL-CC congestion tolerance beta, an RTT inflation (RL-CC-NIC, Fuhrer 2023: 1.5)")
	fl.StringVar(&o.RunID, "run-id", "", "run_id column value (default: CCA, workload and seed)")
	addOutputFlags(fl, r)
	return c
}

// datasetRun replays the workload while recording its decisions.
func datasetRun(o *datasetOptions) error {
	p, err := o.Params()
	if err != nil {
		return err
	}
	r := &o.run
	st, err := r.resolve(false)
	if err != nil {
		return err
	}
	cfg, err := st.Config(st.Specs[0], r.Seed)
	if err != nil {
		return err
	}
	if err := checkMemory(r.MaxMemory, st.Topology, st.Trace, 1); err != nil {
		return err
	}
	stage, err := r.Stage()
	if err != nil {
		return err
	}
	defer stage.Abort()
	prog := r.f.newProgressLine()
	cfg.Progress = prog.replayProgress()
	info, err := dataset.Write(r.ctx, *scenarioOf(st, &cfg), p, stage.Dir)
	prog.clear()
	if err != nil {
		return r.Failed(err, stage)
	}
	if err := stage.Commit(); err != nil {
		return err
	}
	if r.JSON {
		return printJSON(r.f, info.JSONSafe())
	}
	info.WriteText(r.f.Out, r.Out)
	return nil
}

// datasetParamsOf turns a dataset sweep's options into the dataset
// command's, its defaults where not given, checked as the command checks
// its flags (dataset.Overrides).
func datasetParamsOf(d sweep.DatasetOptions) (dataset.Params, error) {
	return dataset.Overrides(d).Params()
}
