package main

import (
	"runtime"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/runfolder"
	runcli "github.com/ccreplay/ccreplay/runner/cli"
)

// compareOptions are the flags of `ccreplay compare`.
type compareOptions struct {
	runOptions
	runcli.CompareOptions
}

const compareExamples = `  # three algorithms, five seeds each, on a 16-to-1 incast
  ccreplay compare --workload incast:n=16,size=1MB --cca dcqcn,dcqcn:hpcc,linerate --seeds 1..5 --out cmp

  # the shipped MPI all-to-all on the Dolce-RC testbed, JSON for scripts
  ccreplay compare --trace examples/alltoall8.csv --topology dolce-testbed --cca dcqcn,dcqcn:dolce --out cmp-a2a --json

  # Dolce-RC against DCQCN on the same switches: both with dcqcn:dolce-sim's marking and CNP interval
  ccreplay compare --workload incast:n=16,size=1MB --cca dcqcn:dolce-sim,dolce --same-network=dcqcn:dolce-sim --out cmp-same

  # read every run as one table (hive partitions cca=/seed=)
  duckdb -c "select cca, seed, quantile_disc(fct_ns, 0.99) as fct_p99_ns from read_parquet('cmp/*/*/` + runfolder.FlowsFile + `', hive_partitioning=true) group by all order by all"`

// NewCmdCompare is `ccreplay compare`; runF, when not nil, is called
// with the parsed options instead of running (tests).
func NewCmdCompare(f *Factory, runF func(*compareOptions) error) *cobra.Command {
	o := &compareOptions{runOptions: runOptions{f: f}}
	c := &cobra.Command{
		Use:   "compare (--trace FILE | --workload SPEC) --cca A,B,... [--seeds 1..5] [flags]",
		Short: "Run several algorithms on the same workload, topology and seeds, side by side",
		Long: `Runs every (algorithm, seed) pair on the same workload and topology, in parallel
across cores, and writes
  OUT/cca=NAME/seed=N/   each run's folder (as ccreplay run writes it; ':' in a
                         name becomes '-', e.g. cca=dcqcn-hpcc)
  OUT/` + runfolder.ComparisonFile + ` one row per run and flow-size bucket (bucket -1 = all flows)
then prints the network settings that differ between the algorithms (each
preset brings its own switch and NIC settings: ECN marking, CNP interval, INT;
--same-network[=ALGO] runs every algorithm with ALGO's, by default the first's)
and a side-by-side table: the mean over seeds, with [min, max] when there is
more than one seed, then the slowdown p99 per flow-size bucket and the message
completion time per message size (each algorithm's MCT mean and p99 and, with
collectives, their mean completion time; more than 20 distinct sizes are grouped
into log-spaced ranges). Outputs are identical whatever --parallel is.`,
		Example: compareExamples,
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.given(cmd)
			return runOr(runF, compareRun, o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.Trace, "trace", "", "trace file (.csv, .parquet, .jsonl)")
	fl.StringVar(&o.Workload, "workload", "", "built-in workload generator spec, e.g. incast:n=16,size=1MB")
	fl.StringVar(&o.CCAs, "cca", "", "comma-separated algorithms NAME[:PRESET] (required): "+algorithmNames())
	fl.StringArrayVar(&o.CCAParams, "cca-param", nil, "parameter override KEY=VALUE for every algorithm (repeatable)")
	fl.StringVar(&o.Topology, "topology", "", "topology spec; default: a star sized to the workload")
	fl.StringVar(&o.Seeds, "seeds", "1", "seeds: N, A..B or a comma list")
	fl.StringVarP(&o.Out, "out", "o", "compare", "output folder")
	fl.StringVar(&o.Packets, "packets", "none", "per-packet log detail of each run: none, data or all")
	fl.StringVar(&o.Config, "config", "", "YAML run configuration (network sections apply to every run)")
	fl.BoolVar(&o.JSON, "json", false, "print the comparison as JSON to stdout instead of the table")
	fl.StringVar(&o.MaxTime, "max-time", "", "stop each run at this simulated time (e.g. 10ms)")
	fl.IntVar(&o.Parallel, "parallel", runtime.GOMAXPROCS(0), "runs at once")
	fl.StringVar(&o.SameNetwork, "same-network", "", "run every algorithm on ALGO's network settings (ECN marking, CNP interval; INT if any needs it); bare: the first algorithm's")
	fl.Lookup("same-network").NoOptDefVal = " "
	addOutputFlags(fl, &o.runOptions)
	return c
}

// compareRun runs every (algorithm, seed) pair and prints the comparison.
func compareRun(o *compareOptions) error {
	return runcli.Compare(o.ctx, &o.Flags, &o.CompareOptions, o.f.runEnv())
}
