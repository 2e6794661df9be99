package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runner"
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/version"
)

// compareOptions are the flags of `ccreplay compare`.
type compareOptions struct {
	runOptions
	CCAs     string
	Seeds    string
	Parallel int
	// SameNetwork is --same-network's ALGO ("" given bare: the first
	// algorithm); set["same-network"] says whether it was given.
	SameNetwork string
}

const compareExamples = `  # three algorithms, five seeds each, on a 16-to-1 incast
  ccreplay compare --workload incast:n=16,size=1MB --cca dcqcn,dcqcn:hpcc,linerate --seeds 1..5 --out cmp

  # the shipped MPI all-to-all on the Dolce-RC testbed, JSON for scripts
  ccreplay compare --trace examples/alltoall8.csv --topology dolce-testbed --cca dcqcn,dcqcn:dolce --out cmp-a2a --json

  # Dolce-RC against DCQCN on the same switches: both with dcqcn:dolce-sim's marking and CNP interval
  ccreplay compare --workload incast:n=16,size=1MB --cca dcqcn:dolce-sim,dolce --same-network=dcqcn:dolce-sim --out cmp-same

  # read every run as one table (hive partitions cca=/seed=)
  duckdb -c "select cca, seed, quantile_disc(fct_ns, 0.99) as fct_p99_ns from read_parquet('cmp/*/*/flows.parquet', hive_partitioning=true) group by all order by all"`

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
  OUT/comparison.parquet one row per run and flow-size bucket (bucket -1 = all flows)
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
			if runF != nil {
				return runF(o)
			}
			return compareRun(o)
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

// parseSeeds reads "7", "1..5" or "1,4,9".
func parseSeeds(s string) ([]uint64, error) {
	var out []uint64
	if a, b, ok := strings.Cut(s, ".."); ok {
		lo, err1 := strconv.ParseUint(strings.TrimSpace(a), 10, 64)
		hi, err2 := strconv.ParseUint(strings.TrimSpace(b), 10, 64)
		if err1 != nil || err2 != nil || hi < lo || hi-lo >= 10000 {
			return nil, fmt.Errorf("invalid seed range %q (want A..B with A <= B, at most 10000 seeds)", s)
		}
		for x := lo; x <= hi; x++ {
			out = append(out, x)
		}
		return out, nil
	}
	seen := map[uint64]bool{}
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("invalid seed %q in %q", f, s)
		}
		if seen[x] {
			return nil, fmt.Errorf("seed %d listed twice in %q", x, s)
		}
		seen[x] = true
		out = append(out, x)
	}
	return out, nil
}

// partName is an algorithm's hive partition value.
func partName(spec string) string { return strings.ReplaceAll(spec, ":", "-") }

type compareJob struct {
	spec cca.Spec
	part string // the algorithm as its folder names it: cca=PART
	seed uint64
	rel  string // the run's folder inside the comparison
	dir  string // where it is written (inside the staged folder)
	res  *replay.Result
	sum  metrics.Summary // the run's metrics (its summary.json's)
	err  error
	// collapse is the run's collapse warning, "" when none (checkCollapse).
	collapse string
}

// compareRun runs every (algorithm, seed) pair and prints the comparison.
func compareRun(o *compareOptions) error {
	ctx := o.ctx
	seeds, err := parseSeeds(o.Seeds)
	if err != nil {
		return usageErrorf("--seeds: %v", err)
	}
	if o.Parallel < 1 {
		return usageErrorf("--parallel must be >= 1, got %d", o.Parallel)
	}
	o.CCA = o.CCAs
	st, err := o.resolve(true)
	if err != nil {
		return err
	}
	names, specs := st.Names, st.Specs
	if err := checkMemory(o.MaxMemory, st.Topology, st.Trace, min(o.Parallel, len(specs)*len(seeds))); err != nil {
		return err
	}
	held := ""
	if o.set["same-network"] {
		k, err := sameNetwork(strings.TrimSpace(o.SameNetwork), names, specs)
		if err != nil {
			return err
		}
		held = names[k]
		ref := specs[k]
		specs = slices.Clone(specs)
		for i := range specs {
			specs[i] = holdNetwork(specs[i], ref, st.Specs)
		}
	}
	var runs []*compareJob
	for i, spec := range specs {
		for _, seed := range seeds {
			rel := filepath.Join("cca="+partName(names[i]), fmt.Sprintf("seed=%d", seed))
			runs = append(runs, &compareJob{spec: spec, part: partName(names[i]), seed: seed, rel: rel})
		}
	}
	cfgs := make([]replay.Config, len(runs))
	for i, r := range runs {
		if cfgs[i], err = st.Config(r.spec, r.seed); err != nil {
			return err
		}
	}
	first := make([]replay.Config, len(specs)) // one per algorithm: seeds share the network
	parts := make([]string, len(specs))
	for i := range specs {
		first[i], parts[i] = cfgs[i*len(seeds)], partName(names[i])
	}
	diffs := networkDiffs(parts, first)
	stage, err := o.stage()
	if err != nil {
		return err
	}
	defer stage.Abort()
	for _, r := range runs {
		r.dir = filepath.Join(stage.Dir, r.rel)
	}
	if err := o.runAll(ctx, st, stage, cfgs, runs); err != nil {
		return err
	}
	rows := comparisonRows(runs)
	if err := output.WriteRows(filepath.Join(stage.Dir, runfolder.ComparisonFile), rows); err != nil {
		return err
	}
	coll := runfolder.Collection{Tool: "ccreplay " + version.Version, Trace: filepath.ToSlash(st.TraceName), Topology: st.Topology.Name,
		NetworkDifferences: diffs, SameNetwork: held}
	for _, r := range runs {
		coll.Runs = append(coll.Runs, filepath.ToSlash(r.rel))
	}
	if err := runfolder.WriteCollection(stage.Dir, &coll); err != nil {
		return err
	}
	if err := stage.Commit(); err != nil {
		return err
	}
	for _, r := range runs {
		r.dir = filepath.Join(o.Out, r.rel)
	}
	for _, r := range runs {
		if r.collapse != "" {
			fmt.Fprintf(o.f.Err, "warning: %s seed %d: %s\n", r.spec.Name, r.seed, r.collapse)
		}
	}
	if o.JSON {
		return writeCompareJSON(o.f.Out, runs, diffs, held)
	}
	fmt.Fprintf(o.f.Out, "ccreplay compare: %s on %s, %d algorithms x %d seeds; outputs in %s\n\n", st.TraceName, st.Topology.Describe(), len(specs), len(seeds), o.Out)
	colNames := make([]string, len(specs))
	for i, sp := range specs {
		colNames[i] = sp.Name
	}
	writeNetworkDiffs(o.f.Out, parts, colNames, diffs, held)
	writeCompareTable(o.f.Out, specs, seeds, runs)
	writeCompareSizeTable(o.f.Out, specs, seeds, runs)
	if w := st.Req.Workload; isOSU(w) { // the flag's or the configuration file's
		pts := make([][][]gen.OSUPoint, len(specs))
		var labels []string
		for i, sp := range specs {
			labels = append(labels, sp.Name)
			for j := range seeds {
				p, err := osuLatency(w, runs[i*len(seeds)+j].res)
				if err != nil {
					return fmt.Errorf("%s seed %d: %w", sp.Name, seeds[j], err)
				}
				pts[i] = append(pts[i], p)
			}
		}
		writeOSUTable(o.f.Out, labels, pts)
	}
	return nil
}

// runAll runs every (algorithm, seed) pair, o.Parallel at a time, each
// into its own folder: an untracked batch plan in the staged folder.
// Independent deterministic runs: the order they finish in does not
// matter. The first failure (or an interrupt) cancels the runs still
// going.
func (o *compareOptions) runAll(ctx context.Context, st *runconfig.Setup, stage *runfolder.Staged, cfgs []replay.Config, runs []*compareJob) error {
	pl := &batch.Plan{}
	for i, r := range runs {
		pl.Items = append(pl.Items, batch.Item{
			Dir:    filepath.ToSlash(r.rel),
			Labels: []batch.Label{{Key: "cca", Value: r.part}, {Key: "seed", Value: strconv.FormatUint(r.seed, 10)}},
			Run: func(ctx context.Context, dir string) error {
				var man *runfolder.Manifest
				r.res, man, r.err = runner.Run(ctx, scenarioOf(st, &cfgs[i]), dir, func(_ string, res *replay.Result, man *runfolder.Manifest) error {
					r.collapse = checkCollapse(&cfgs[i], st.Trace, res, man)
					return nil
				})
				if r.err == nil {
					r.sum = man.Metrics
				}
				if r.err != nil && !errors.Is(r.err, context.Canceled) {
					return fmt.Errorf("%s seed %d: %w", r.spec.Name, r.seed, r.err)
				}
				return r.err
			},
		})
	}
	prog := o.f.newProgressLine()
	c, _, err := batch.Run(ctx, stage.Dir, pl, batch.Options{Jobs: o.Parallel, Progress: func(c batch.Counts, _ time.Duration) {
		prog.set(fmt.Sprintf("compare: %d/%d runs done", c.Done, c.Total))
	}})
	prog.clear()
	if errors.Is(err, context.Canceled) {
		kept := "nothing written"
		if stage.Replaces {
			kept += ", " + o.Out + " still holds the previous comparison"
		}
		return interrupted("interrupted after %d of %d runs; %s", c.Done, len(runs), kept)
	}
	return err
}

func comparisonRows(runs []*compareJob) []v2.ComparisonRow {
	var rows []v2.ComparisonRow
	for _, r := range runs {
		s := r.sum
		base := v2.ComparisonRow{
			CCA: r.part, Seed: int64(r.seed), Bucket: -1, Flows: s.Flows, FlowsFinished: s.FlowsFinished,
			FCTP50Ns: s.FCTP50Ns, FCTP95Ns: s.FCTP95Ns, FCTP99Ns: s.FCTP99Ns,
			SlowdownP50: s.SlowdownP50, SlowdownP95: s.SlowdownP95, SlowdownP99: s.SlowdownP99,
			MCTP50Ns: s.MCTP50Ns, MCTP99Ns: s.MCTP99Ns, CCTMeanNs: s.CCTMeanNs,
			ECNRatio: s.ECNRatio, UnfairRatio: s.UnfairRatio, JainIndex: s.JainIndex, GoodputBps: s.GoodputBps,
			QLenMaxBytes: s.QLenMaxBytes, QLenP99Bytes: s.QLenP99Bytes, PFCPauseFrac: s.PFCPauseFraction,
			DropsPkts: s.DropsPkts, SimDurationNs: s.SimDurationNs,
		}
		if len(s.Buckets) > 0 {
			base.SizeMinBytes, base.SizeMaxBytes = s.Buckets[0].SizeMinBytes, s.Buckets[len(s.Buckets)-1].SizeMaxBytes
		}
		rows = append(rows, base)
		for i, b := range s.Buckets {
			row := base
			row.Bucket = int32(i)
			row.SizeMinBytes, row.SizeMaxBytes, row.Flows, row.FlowsFinished = b.SizeMinBytes, b.SizeMaxBytes, b.Flows, b.FlowsFinished
			row.FCTP50Ns, row.FCTP95Ns, row.FCTP99Ns = b.FCTP50Ns, b.FCTP95Ns, b.FCTP99Ns
			row.SlowdownP50, row.SlowdownP95, row.SlowdownP99 = b.SlowdownP50, b.SlowdownP95, b.SlowdownP99
			rows = append(rows, row)
		}
	}
	return rows
}

type compareJSONRun struct {
	// CCA is the algorithm as the run's folder (cca=...) and
	// comparison.parquet name it; Spec as resolved (with its preset).
	CCA     string          `json:"cca"`
	Spec    string          `json:"spec"`
	Seed    uint64          `json:"seed"`
	Dir     string          `json:"dir"`
	Metrics metrics.Summary `json:"metrics"`
	// BySize is the MCT per message size (metrics.BySize), when the run
	// has messages.
	BySize *metrics.SizeTable `json:"by_size,omitempty"`
}

func writeCompareJSON(w io.Writer, runs []*compareJob, diffs []runfolder.SettingDiff, held string) error {
	out := struct {
		SchemaVersion string `json:"schema_version"`
		// NetworkDifferences and SameNetwork are comparison.json's.
		NetworkDifferences []runfolder.SettingDiff `json:"network_differences,omitempty"`
		SameNetwork        string                  `json:"same_network,omitempty"`
		Runs               []compareJSONRun        `json:"runs"`
	}{SchemaVersion: v2.Version, NetworkDifferences: diffs, SameNetwork: held}
	for _, r := range runs {
		j := compareJSONRun{CCA: r.part, Spec: r.spec.Name, Seed: r.seed, Dir: filepath.ToSlash(r.dir), Metrics: r.sum}
		if len(r.res.Messages) > 0 {
			t := metrics.BySize(r.res.Messages)
			j.BySize = &t
		}
		out.Runs = append(out.Runs, j)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}

// writeCompareTable prints one column per algorithm: the mean over seeds
// and, with several seeds, [min, max].
func writeCompareTable(w io.Writer, specs []cca.Spec, seeds []uint64, runs []*compareJob) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprint(tw, "metric")
	for _, sp := range specs {
		fmt.Fprintf(tw, "\t%s", sp.Name)
	}
	fmt.Fprintln(tw)
	n := len(seeds)
	for _, m := range metrics.Compared {
		fmt.Fprint(tw, m.Label)
		for i := range specs {
			sum, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
			for j := 0; j < n; j++ {
				v := m.Get(&runs[i*n+j].sum)
				sum += v
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			cell := metrics.Format(sum/float64(n), m.Unit)
			if n > 1 && !math.IsNaN(sum) {
				cell += " [" + metrics.Format(lo, m.Unit) + ", " + metrics.Format(hi, m.Unit) + "]"
			}
			fmt.Fprintf(tw, "\t%s", cell)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	// Slowdown p99 per flow-size bucket (mean over seeds).
	nb := len(runs[0].sum.Buckets)
	if nb == 0 {
		return
	}
	fmt.Fprintln(w, "\nslowdown p99 per flow-size bucket (mean over seeds)")
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprint(tw, "flow size (bytes)")
	for _, sp := range specs {
		fmt.Fprintf(tw, "\t%s", sp.Name)
	}
	fmt.Fprintln(tw)
	for b := 0; b < nb; b++ {
		bk := runs[0].sum.Buckets[b]
		fmt.Fprintf(tw, "%d-%d", bk.SizeMinBytes, bk.SizeMaxBytes)
		for i := range specs {
			sum := 0.0
			for j := 0; j < n; j++ {
				if bs := runs[i*n+j].sum.Buckets; b < len(bs) {
					sum += bs[b].SlowdownP99
				}
			}
			fmt.Fprintf(tw, "\t%s", metrics.Format(sum/float64(n), metrics.UnitX))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// writeCompareSizeTable prints the MCT per message size (metrics.BySize),
// one row per size, and per algorithm the mean over seeds of its MCT mean
// and p99 and, when the workload has collectives, of its mean collective
// completion time. The rows come from the workload, so every run has the
// same ones. Nothing when the runs have no messages.
func writeCompareSizeTable(w io.Writer, specs []cca.Spec, seeds []uint64, runs []*compareJob) {
	if len(runs) == 0 || len(runs[0].res.Messages) == 0 {
		return
	}
	tables := make([]metrics.SizeTable, len(runs))
	for i, r := range runs {
		tables[i] = metrics.BySize(r.res.Messages)
	}
	ref := tables[0]
	colls := false
	for _, r := range ref.Rows {
		colls = colls || r.Collectives > 0
	}
	fmt.Fprintf(w, "\n%s, mean over seeds\n", ref.Caption())
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "size (bytes)\tmessages\t")
	for _, sp := range specs {
		fmt.Fprintf(tw, "%s MCT mean\t%s MCT p99\t", sp.Name, sp.Name)
		if colls {
			fmt.Fprintf(tw, "%s CCT mean\t", sp.Name)
		}
	}
	fmt.Fprintln(tw)
	n := len(seeds)
	for k, row := range ref.Rows {
		fmt.Fprintf(tw, "%s\t%d\t", row.SizeLabel(), row.Messages)
		for i := range specs {
			var mean, p99, cct float64
			cctRuns := 0
			for j := 0; j < n; j++ {
				rs := tables[i*n+j].Rows
				if k >= len(rs) {
					continue
				}
				mean += rs[k].MCTMeanNs
				p99 += float64(rs[k].MCTP99Ns)
				if rs[k].CollectivesFinished > 0 {
					cct += rs[k].CCTMeanNs
					cctRuns++
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t", metrics.Format(mean/float64(n), metrics.UnitNs), metrics.Format(p99/float64(n), metrics.UnitNs))
			if colls {
				c := math.NaN()
				if cctRuns > 0 {
					c = cct / float64(cctRuns)
				}
				fmt.Fprintf(tw, "%s\t", metrics.Format(c, metrics.UnitNs))
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
