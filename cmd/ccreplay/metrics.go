package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace/gen"
)

func init() { registerCommand(newMetricsCmd) }

// metricsOptions are the flags of `ccreplay metrics`.
type metricsOptions struct {
	s   *streams
	ctx context.Context // the command's: Ctrl-C stops a scan of packets.parquet

	JSON      bool
	By        string
	Buckets   int
	Verify    bool
	NoPackets bool
	Stats     bool
	Phases    bool
}

// context is the command's context (Background outside a command).
func (o *metricsOptions) context() context.Context {
	if o.ctx == nil {
		return context.Background()
	}
	return o.ctx
}

// bySizeBucket is the --by value of the flow-size bucket view.
const bySizeBucket = "size-bucket"

const metricsExamples = `  # a run and a comparison to look at
  ccreplay run --workload incast:n=16,size=1MB --out runs/incast
  ccreplay compare --workload incast:n=16,size=1MB --cca dcqcn,hpcc --seeds 1..3 --out cmp

  # recompute a run's metrics from its Parquet files (the table ccreplay run prints)
  ccreplay metrics runs/incast

  # the same as JSON, checked against the run's own ` + runfolder.SummaryFile + `
  ccreplay metrics --json --verify runs/incast

  # every run of a compare or sweep tree, one row per run, partition keys as columns
  ccreplay metrics cmp

  # grouped by algorithm (mean over seeds, [min, max]), or the HPCC
  # FCT-slowdown per flow-size bucket view with 20 buckets
  ccreplay metrics cmp --by cca
  ccreplay metrics cmp --by size-bucket --buckets 20

  # FDCC's fair-share join, scaled down: each flow's share of the throughput
  # between consecutive flow starts and finishes (needs ` + runfolder.PacketsFile + `)
  ccreplay run --workload fairshare:size=5MB,stagger=100us --packets data --out runs/fs
  ccreplay metrics runs/fs --phases`

func newMetricsCmd(s *streams) *cobra.Command {
	o := &metricsOptions{s: s}
	c := &cobra.Command{
		Use:   "metrics RUN_DIR... [--json] [--by size-bucket|cca|seed|KEY] [--verify] [--phases]",
		Short: "Recompute every metric of run folders from their Parquet files, and compare runs",
		Long: `Reads ` + runfolder.FlowsFile + `, ` + runfolder.MessagesFile + ` and ` + runfolder.PortsFile + ` of each run folder with
Apache Arrow and recomputes every metric of ` + runfolder.SummaryFile + `; streams ` + runfolder.PacketsFile + `
(when present) in record batches, never whole, for packet counts and the queue
delay and depth at switch hops (log-linear histograms: exact below 2048, at most
0.1 % above the exact value beyond; see docs/OUTPUTS.md).

A RUN_DIR is a run folder (it holds ` + runfolder.FlowsFile + `) or a folder with run folders
below it, such as the hive-partitioned tree of ccreplay compare
(cca=NAME/seed=N/). One run prints the table (or JSON) of ccreplay run; several
print one comparison with the partition keys as columns; one run also prints
the message completion time per message size (OSU style: messages, MCT mean,
p50, p99 and, with collectives, their mean completion time per size; more than
20 distinct sizes are grouped into log-spaced ranges). --by KEY groups runs by
a partition key (mean over each group, [min, max]); --by size-bucket shows the
FCT slowdown p50/p95/p99 per flow-size bucket (flows sorted by size, buckets of
equal count).

--phases (one run) splits the run at every flow start and finish and prints,
per phase, each active flow's throughput (its data packets delivered in the
phase, from ` + runfolder.PacketsFile + `), its share and the phase's Jain index: the FDCC
thesis' fair-share join (Fig. 6.2). It needs ` + runfolder.PacketsFile + ` (ccreplay run
--packets data or all) and refuses a run without it.

--verify compares the recomputed metrics with each run's ` + runfolder.SummaryFile + `: counts
and integers exactly, floating point within a relative 1e-12 (in practice they
are bit-identical); a difference fails with exit code 1.`,
		Example: metricsExamples,
		Args:    usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ctx = cmd.Context()
			if cmd.Flags().Changed("buckets") && o.Buckets < 1 {
				return usageErrorf("--buckets must be >= 1, got %d", o.Buckets)
			}
			if o.Phases {
				for _, f := range []string{"by", "verify", "no-packets", "buckets", "stats"} {
					if cmd.Flags().Changed(f) {
						return usageErrorf("--phases prints the phase table only: it does not take --%s", f)
					}
				}
				return o.runPhases(args)
			}
			return o.run(args)
		},
	}
	f := c.Flags()
	f.BoolVar(&o.JSON, "json", false, "print JSON to stdout instead of the table")
	f.StringVar(&o.By, "by", "", "group several runs: size-bucket, or a partition key such as cca or seed")
	f.IntVar(&o.Buckets, "buckets", metrics.DefaultBuckets, "flow-size buckets of equal flow count (the run's default is 10)")
	f.BoolVar(&o.Verify, "verify", false, "check the recomputed metrics against each run's "+runfolder.SummaryFile+" (exit 1 on a difference)")
	f.BoolVar(&o.NoPackets, "no-packets", false, "do not scan "+runfolder.PacketsFile+" (packet_rows then comes from its footer)")
	f.BoolVar(&o.Stats, "stats", false, "print wall time, packet rows per second and peak memory to stderr")
	f.BoolVar(&o.Phases, "phases", false, "one run: each flow's throughput share and the Jain index between consecutive flow starts and finishes (needs "+runfolder.PacketsFile+")")
	return c
}

// metricsRun is one run folder and what was recomputed from it.
type metricsRun struct {
	dir  runfolder.RunDir
	man  *runfolder.Manifest // summary.json
	rec  *arrowread.Recomputed
	rows int64 // packet rows (scanned, or from the footer)
}

func (o *metricsOptions) run(args []string) error {
	start := time.Now()
	dirs, err := runfolder.Expand(args)
	if err != nil {
		return inputErrorf("metrics: %v", err)
	}
	keys := mxPartitionKeys(dirs)
	if o.By != "" && o.By != bySizeBucket && !mxHas(keys, o.By) {
		return usageErrorf("--by %q: not %s and not a partition key of the runs (keys: %s)", o.By, bySizeBucket, mxList(keys))
	}
	runs := make([]*metricsRun, len(dirs))
	var packetRows int64
	for i, d := range dirs {
		r, err := o.load(d)
		if err != nil {
			return err
		}
		runs[i] = r
		packetRows += r.rows
		if o.s.ErrIsTerminal && len(dirs) > 1 {
			fmt.Fprintf(o.s.Err, "\rmetrics: %d/%d runs ", i+1, len(dirs))
			if i+1 == len(dirs) {
				fmt.Fprintln(o.s.Err)
			}
		}
	}
	var bad []string
	if o.Verify {
		for _, r := range runs {
			for _, d := range mxVerify(r) {
				bad = append(bad, r.dir.Dir+": "+d)
			}
		}
	}
	if err := o.print(runs, keys); err != nil {
		return err
	}
	if o.Stats {
		wall := time.Since(start).Seconds()
		fmt.Fprintf(o.s.Err, "stats: wall %.3f s, %d runs, %d packet rows, %.0f packet rows/s, peak RSS %s\n",
			wall, len(runs), packetRows, float64(packetRows)/wall, peakRSS())
	}
	if len(bad) > 0 {
		for _, b := range bad {
			fmt.Fprintln(o.s.Err, "verify: "+b)
		}
		return fmt.Errorf("metrics --verify: %d difference(s) from "+runfolder.SummaryFile+", first: %s", len(bad), bad[0])
	}
	return nil
}

// load reads one run folder: summary.json (complete, of our schema
// version), then the Parquet files.
func (o *metricsOptions) load(d runfolder.RunDir) (*metricsRun, error) {
	r := &metricsRun{dir: d}
	rf, err := runfolder.Open(d.Dir)
	if err != nil {
		return nil, inputErrorf("metrics: %v", err)
	}
	r.man = rf.Manifest
	r.rec, err = arrowread.Recompute(rf, arrowread.RecomputeOptions{Buckets: o.Buckets, SkipPackets: o.NoPackets, Context: o.ctx})
	if ctxErr := o.context().Err(); ctxErr != nil {
		return nil, interrupted("metrics: interrupted while reading %s; nothing printed", filepath.ToSlash(d.Dir))
	}
	if err != nil {
		return nil, inputErrorf("metrics: %s", mxOneLine(err.Error()))
	}
	if r.rec.Packets != nil {
		r.rows = r.rec.Packets.Rows
	} else if p, err := rf.Optional(runfolder.PacketsFile); err != nil {
		return nil, inputErrorf("metrics: %v", err)
	} else if p != "" {
		if r.rows, err = arrowread.NumRows(p); err != nil {
			return nil, inputErrorf("metrics: %s", mxOneLine(err.Error()))
		}
	}
	return r, nil
}

// mxVerify lists the differences between a run's recomputed metrics and
// its summary.json.
func mxVerify(r *metricsRun) []string {
	var out []string
	s, m := r.rec.Summary, r.man
	want, err := metrics.DecodeSummary(m.Metrics)
	if err != nil {
		return []string{runfolder.SummaryFile + " metrics: " + err.Error()}
	}
	out = append(out, metrics.Diff(s, want, metrics.DefaultRelTol)...)
	if r.rows != m.PacketRows {
		out = append(out, fmt.Sprintf("packet_rows: %d vs %d", r.rows, m.PacketRows))
	}
	if s.DataPktsSent != m.DataPackets {
		out = append(out, fmt.Sprintf("data_packets: %d vs %d", s.DataPktsSent, m.DataPackets))
	}
	if p := r.rec.Packets; p != nil {
		for _, d := range metrics.CheckPackets(*p, want, m.Packets == string(replay.PacketsAll)) {
			out = append(out, runfolder.PacketsFile+": "+d)
		}
	}
	return out
}

// metricsRunJSON is one run in the JSON output. The field names that
// summary.json also has (schema_version, packet_rows, data_packets,
// metrics) hold the same values, so `jq .metrics` reads either.
type metricsRunJSON struct {
	SchemaVersion string               `json:"schema_version,omitempty"`
	Dir           string               `json:"dir"`
	Partition     map[string]string    `json:"partition,omitempty"`
	CCA           string               `json:"cca,omitempty"`   // from summary.json
	Seed          *uint64              `json:"seed,omitempty"`  // from summary.json
	Trace         string               `json:"trace,omitempty"` // from summary.json
	PacketRows    int64                `json:"packet_rows"`
	DataPackets   int64                `json:"data_packets"`
	Metrics       metrics.Summary      `json:"metrics"`
	Packets       *metrics.PacketStats `json:"packets,omitempty"`
	// BySize is the MCT per message size (metrics.BySize), when the run
	// has messages.
	BySize *metrics.SizeTable `json:"by_size,omitempty"`
}

// metricsGroupJSON is one --by group: the mean, min and max of every
// scalar metric over its runs.
type metricsGroupJSON struct {
	Key   string             `json:"key"`
	Value string             `json:"value"`
	Runs  int                `json:"runs"`
	Mean  map[string]float64 `json:"mean"`
	Min   map[string]float64 `json:"min"`
	Max   map[string]float64 `json:"max"`
}

func (r *metricsRun) json(version bool) metricsRunJSON {
	j := metricsRunJSON{
		Dir: filepath.ToSlash(r.dir.Dir), PacketRows: r.rows, DataPackets: r.rec.Summary.DataPktsSent,
		Metrics: r.rec.Summary, Packets: r.rec.Packets, BySize: r.bySize(),
	}
	if version {
		j.SchemaVersion = v2.Version
	}
	if len(r.dir.Partition) > 0 {
		j.Partition = map[string]string{}
		for _, kv := range r.dir.Partition {
			j.Partition[kv.Key] = kv.Value
		}
	}
	if r.man != nil {
		seed := r.man.Seed
		j.CCA, j.Seed, j.Trace = r.man.CCA, &seed, r.man.Trace
	}
	return j
}

func (o *metricsOptions) print(runs []*metricsRun, keys []string) error {
	single := len(runs) == 1 && (o.By == "" || o.By == bySizeBucket)
	if o.JSON {
		var v any
		if single {
			v = runs[0].json(true)
		} else {
			out := struct {
				SchemaVersion string             `json:"schema_version"`
				Keys          []string           `json:"keys"`
				Runs          []metricsRunJSON   `json:"runs"`
				Groups        []metricsGroupJSON `json:"groups,omitempty"`
			}{SchemaVersion: v2.Version, Keys: keys}
			if out.Keys == nil {
				out.Keys = []string{}
			}
			for _, r := range runs {
				out.Runs = append(out.Runs, r.json(false))
			}
			if o.By != "" && o.By != bySizeBucket {
				out.Groups = mxGroupJSON(o.By, mxGroupRuns(runs, o.By))
			}
			v = out
		}
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(o.s.Out, string(b))
		return err
	}
	w := o.s.Out
	switch {
	case single && o.By == bySizeBucket:
		mxWriteHeader(w, runs[0])
		metrics.WriteBucketTable(w, runs[0].rec.Summary.Buckets)
	case single:
		mxWriteHeader(w, runs[0])
		if err := mxWriteTables(w, runs[0]); err != nil {
			return err
		}
	case o.By == bySizeBucket:
		fmt.Fprintf(w, "ccreplay metrics: FCT slowdown per flow-size bucket (flows sorted by size, %d buckets of equal count), %d runs\n\n", o.Buckets, len(runs))
		mxWriteBucketRows(w, runs, keys)
	case o.By != "":
		fmt.Fprintf(w, "ccreplay metrics: %d runs grouped by %s (mean over the group's runs, [min, max] with more than one)\n\n", len(runs), o.By)
		mxWriteGroupTable(w, mxGroupRuns(runs, o.By))
	default:
		fmt.Fprintf(w, "ccreplay metrics: %d runs\n\n", len(runs))
		mxWriteRunRows(w, runs, keys)
	}
	if o.Verify {
		fmt.Fprintf(w, "\nverified against "+runfolder.SummaryFile+": %d runs\n", len(runs))
	}
	return nil
}

// mxWriteHeader names the run and the files its metrics come from.
func mxWriteHeader(w io.Writer, r *metricsRun) {
	fmt.Fprintf(w, "ccreplay metrics: %s", filepath.ToSlash(r.dir.Dir))
	if m := r.man; m != nil {
		fmt.Fprintf(w, " (%s under %s on %s, seed %d: from "+runfolder.SummaryFile+")", m.Trace, m.CCA, m.Topology, m.Seed)
	}
	rows := r.rec.Rows
	fmt.Fprintf(w, "\nrecomputed from %s (%d rows), %s (%d rows), %s (%d rows)",
		runfolder.FlowsFile, len(rows.Flows), runfolder.MessagesFile, len(rows.Messages), runfolder.PortsFile, len(rows.Ports))
	if r.rec.Packets != nil {
		fmt.Fprintf(w, ", %s (%d rows, streamed)", runfolder.PacketsFile, r.rec.Packets.Rows)
	}
	fmt.Fprint(w, "\n\n")
}

// bySize is the run's MCT per message size, nil without messages.
func (r *metricsRun) bySize() *metrics.SizeTable {
	if len(r.rec.Rows.Messages) == 0 {
		return nil
	}
	t := metrics.BySize(r.rec.Rows.Messages)
	return &t
}

// mxWriteTables prints what ccreplay run prints after its header: the
// metrics table, the packet table, the MCT per message size and, for an
// osu-alltoall workload named in summary.json, the MPI_Alltoall latency
// per size.
func mxWriteTables(w io.Writer, r *metricsRun) error {
	metrics.WriteTable(w, r.rec.Summary)
	if p := r.rec.Packets; p != nil {
		fmt.Fprintf(w, "\nfrom %s\n", runfolder.PacketsFile)
		metrics.WritePacketTable(w, *p)
	}
	if t := r.bySize(); t != nil {
		fmt.Fprintln(w)
		metrics.WriteSizeTable(w, *t)
	}
	if r.man != nil && isOSU(r.man.Trace) {
		pts, err := osuLatency(r.man.Trace, &replay.Result{Messages: r.rec.Rows.Messages})
		if err != nil {
			return inputErrorf("metrics: %s: %v", r.dir.Dir, err)
		}
		writeOSUTable(w, []string{r.man.CCA}, [][][]gen.OSUPoint{{pts}})
	}
	return nil
}

// mxPartitionKeys lists the partition keys of the runs in order of first
// appearance.
func mxPartitionKeys(dirs []runfolder.RunDir) []string {
	var keys []string
	for _, d := range dirs {
		for _, kv := range d.Partition {
			if !mxHas(keys, kv.Key) {
				keys = append(keys, kv.Key)
			}
		}
	}
	return keys
}

// mxLabelColumns are the leading columns of a per-run table: the partition
// keys, or the folder when the runs have none.
func mxLabelColumns(keys []string) []string {
	if len(keys) == 0 {
		return []string{"run"}
	}
	return keys
}

// labels are a run's values of mxLabelColumns ("-" for a missing key).
func (r *metricsRun) labels(keys []string) []string {
	if len(keys) == 0 {
		return []string{filepath.ToSlash(r.dir.Dir)}
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		v, ok := r.dir.Get(k)
		if !ok {
			v = "-"
		}
		out[i] = v
	}
	return out
}

// mxWriteRunRows prints one line per run: its partition, then the metrics of
// ccreplay compare's table.
func mxWriteRunRows(w io.Writer, runs []*metricsRun, keys []string) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	head := mxLabelColumns(keys)
	for _, m := range metrics.Compared {
		head = append(head, m.Label)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range runs {
		cells := r.labels(keys)
		for _, m := range metrics.Compared {
			cells = append(cells, metrics.Format(m.Get(&r.rec.Summary), m.Unit))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
}

// mxWriteBucketRows prints the HPCC-style view, one line per run and flow-size
// bucket.
func mxWriteBucketRows(w io.Writer, runs []*metricsRun, keys []string) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	head := append(mxLabelColumns(keys), "bucket", "flow size (bytes)", "flows", "finished", "slowdown p50", "p95", "p99", "FCT p99")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range runs {
		for i, b := range r.rec.Summary.Buckets {
			cells := append(r.labels(keys), fmt.Sprint(i), fmt.Sprintf("%d-%d", b.SizeMinBytes, b.SizeMaxBytes),
				fmt.Sprint(b.Flows), fmt.Sprint(b.FlowsFinished),
				metrics.Format(b.SlowdownP50, metrics.UnitX), metrics.Format(b.SlowdownP95, metrics.UnitX), metrics.Format(b.SlowdownP99, metrics.UnitX),
				metrics.Format(float64(b.FCTP99Ns), metrics.UnitNs))
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
	}
	tw.Flush()
}

// mxGroup is the runs sharing one value of a partition key.
type mxGroup struct {
	key, value string
	runs       []*metricsRun
}

// mxGroupRuns groups runs by their value of key ("-" when absent), groups in
// order of first appearance.
func mxGroupRuns(runs []*metricsRun, key string) []mxGroup {
	var groups []mxGroup
	for _, r := range runs {
		v, ok := r.dir.Get(key)
		if !ok {
			v = "-"
		}
		i := 0
		for i < len(groups) && groups[i].value != v {
			i++
		}
		if i == len(groups) {
			groups = append(groups, mxGroup{key: key, value: v})
		}
		groups[i].runs = append(groups[i].runs, r)
	}
	return groups
}

// mxWriteGroupTable prints ccreplay compare's side-by-side table with one
// column per group: the mean over its runs and, with several, [min, max].
func mxWriteGroupTable(w io.Writer, groups []mxGroup) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprint(tw, "metric")
	for _, g := range groups {
		fmt.Fprintf(tw, "\t%s=%s (%d)", g.key, g.value, len(g.runs))
	}
	fmt.Fprintln(tw)
	for _, m := range metrics.Compared {
		fmt.Fprint(tw, m.Label)
		for _, g := range groups {
			sum, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
			for _, r := range g.runs {
				v := m.Get(&r.rec.Summary)
				sum += v
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			n := float64(len(g.runs))
			cell := metrics.Format(sum/n, m.Unit)
			if n > 1 && !math.IsNaN(sum) {
				cell += " [" + metrics.Format(lo, m.Unit) + ", " + metrics.Format(hi, m.Unit) + "]"
			}
			fmt.Fprintf(tw, "\t%s", cell)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// mxGroupJSON aggregates every scalar metric of each group.
func mxGroupJSON(key string, groups []mxGroup) []metricsGroupJSON {
	var out []metricsGroupJSON
	for _, g := range groups {
		j := metricsGroupJSON{Key: key, Value: g.value, Runs: len(g.runs),
			Mean: map[string]float64{}, Min: map[string]float64{}, Max: map[string]float64{}}
		for i, r := range g.runs {
			for _, f := range metrics.Fields(r.rec.Summary) {
				if i == 0 {
					j.Min[f.Name], j.Max[f.Name] = f.Value, f.Value
				}
				j.Mean[f.Name] += f.Value
				j.Min[f.Name] = math.Min(j.Min[f.Name], f.Value)
				j.Max[f.Name] = math.Max(j.Max[f.Name], f.Value)
			}
		}
		for k := range j.Mean {
			j.Mean[k] /= float64(len(g.runs))
		}
		out = append(out, j)
	}
	return out
}

func mxHas(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func mxList(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}

// mxOneLine joins a multi-line message (some Parquet errors wrap lines).
func mxOneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
