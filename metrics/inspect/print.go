package inspect

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// RunJSON is one run in the JSON output. The field names that
// summary.json also has (schema_version, packet_rows, data_packets,
// metrics) hold the same values, so `jq .metrics` reads either.
type RunJSON struct {
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

// GroupJSON is one --by group: the mean, min and max of every scalar
// metric over its runs.
type GroupJSON struct {
	Key   string             `json:"key"`
	Value string             `json:"value"`
	Runs  int                `json:"runs"`
	Mean  map[string]float64 `json:"mean"`
	Min   map[string]float64 `json:"min"`
	Max   map[string]float64 `json:"max"`
}

// JSON is the run in the JSON output; version sets its schema_version
// (a single run's output).
func (r *Run) JSON(version bool) RunJSON {
	j := RunJSON{
		Dir: filepath.ToSlash(r.Dir.Dir), PacketRows: r.Rows, DataPackets: r.Rec.Summary.DataPktsSent,
		Metrics: r.Rec.Summary, Packets: r.Rec.Packets, BySize: r.BySize(),
	}
	if version {
		j.SchemaVersion = v2.Version
	}
	if len(r.Dir.Partition) > 0 {
		j.Partition = map[string]string{}
		for _, kv := range r.Dir.Partition {
			j.Partition[kv.Key] = kv.Value
		}
	}
	if r.Manifest != nil {
		seed := r.Manifest.Seed
		j.CCA, j.Seed, j.Trace = r.Manifest.CCA, &seed, r.Manifest.Trace
	}
	return j
}

// printJSON is the JSON output: one run's object, or every run with the
// groups of By.
func (o *Options) printJSON(runs []*Run, keys []string, single bool) error {
	if single {
		return iostreams.Streams{Out: o.Out}.PrintJSON(runs[0].JSON(true))
	}
	out := struct {
		SchemaVersion string      `json:"schema_version"`
		Keys          []string    `json:"keys"`
		Runs          []RunJSON   `json:"runs"`
		Groups        []GroupJSON `json:"groups,omitempty"`
	}{SchemaVersion: v2.Version, Keys: keys}
	if out.Keys == nil {
		out.Keys = []string{}
	}
	for _, r := range runs {
		out.Runs = append(out.Runs, r.JSON(false))
	}
	if o.By != "" && o.By != BySizeBucket {
		out.Groups = GroupsJSON(o.By, GroupRuns(runs, o.By))
	}
	return iostreams.Streams{Out: o.Out}.PrintJSON(out)
}

// print writes the JSON or the table that fits the runs and By.
func (o *Options) print(runs []*Run, keys []string) error {
	single := len(runs) == 1 && (o.By == "" || o.By == BySizeBucket)
	if o.JSON {
		return o.printJSON(runs, keys, single)
	}
	w := o.Out
	switch {
	case single && o.By == BySizeBucket:
		WriteHeader(w, runs[0])
		metrics.WriteBucketTable(w, runs[0].Rec.Summary.Buckets)
	case single:
		WriteHeader(w, runs[0])
		if err := o.writeTables(w, runs[0]); err != nil {
			return err
		}
	case o.By == BySizeBucket:
		fmt.Fprintf(w, "ccreplay metrics: FCT slowdown per flow-size bucket (flows sorted by size, %d buckets of equal count), %d runs\n\n", o.Buckets, len(runs))
		WriteBucketRows(w, runs, keys)
	case o.By != "":
		fmt.Fprintf(w, "ccreplay metrics: %d runs grouped by %s (mean over the group's runs, [min, max] with more than one)\n\n", len(runs), o.By)
		WriteGroupTable(w, GroupRuns(runs, o.By))
	default:
		fmt.Fprintf(w, "ccreplay metrics: %d runs\n\n", len(runs))
		WriteRunRows(w, runs, keys)
	}
	if o.Verify {
		fmt.Fprintf(w, "\nverified against "+runfolder.SummaryFile+": %d runs\n", len(runs))
	}
	return nil
}

// WriteHeader names the run and the files its metrics come from.
func WriteHeader(w io.Writer, r *Run) {
	fmt.Fprintf(w, "ccreplay metrics: %s", filepath.ToSlash(r.Dir.Dir))
	if m := r.Manifest; m != nil {
		fmt.Fprintf(w, " (%s under %s on %s, seed %d: from "+runfolder.SummaryFile+")", m.Trace, m.CCA, m.Topology, m.Seed)
	}
	rows := r.Rec.Rows
	fmt.Fprintf(w, "\nrecomputed from %s (%d rows), %s (%d rows), %s (%d rows)",
		runfolder.FlowsFile, len(rows.Flows), runfolder.MessagesFile, len(rows.Messages), runfolder.PortsFile, len(rows.Ports))
	if r.Rec.Packets != nil {
		fmt.Fprintf(w, ", %s (%d rows, streamed)", runfolder.PacketsFile, r.Rec.Packets.Rows)
	}
	fmt.Fprint(w, "\n\n")
}

// writeTables prints what ccreplay run prints after its header: the
// metrics table, the packet table, the MCT per message size and, for an
// osu-alltoall workload named in summary.json, the MPI_Alltoall latency
// per size.
func (o *Options) writeTables(w io.Writer, r *Run) error {
	metrics.WriteTable(w, r.Rec.Summary)
	if p := r.Rec.Packets; p != nil {
		fmt.Fprintf(w, "\nfrom %s\n", runfolder.PacketsFile)
		metrics.WritePacketTable(w, *p)
	}
	if t := r.BySize(); t != nil {
		fmt.Fprintln(w)
		metrics.WriteSizeTable(w, *t)
	}
	if r.Manifest != nil && o.OSULatency != nil && gen.IsOSU(r.Manifest.Trace) {
		pts, err := o.OSULatency(r.Manifest.Trace, r.Rec.Rows.Messages)
		if err != nil {
			return clierr.Inputf("metrics: %s: %v", r.Dir.Dir, err)
		}
		gen.WriteOSUTable(w, []string{r.Manifest.CCA}, [][][]gen.OSUPoint{{pts}})
	}
	return nil
}

// labelColumns are the leading columns of a per-run table: the partition
// keys, or the folder when the runs have none.
func labelColumns(keys []string) []string {
	if len(keys) == 0 {
		return []string{"run"}
	}
	return keys
}

// Labels are the run's values of the keys ("-" for a missing key), or its
// folder without keys.
func (r *Run) Labels(keys []string) []string {
	if len(keys) == 0 {
		return []string{filepath.ToSlash(r.Dir.Dir)}
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		v, ok := r.Dir.Get(k)
		if !ok {
			v = "-"
		}
		out[i] = v
	}
	return out
}

// WriteRunRows prints one line per run: its partition, then the metrics of
// ccreplay compare's table.
func WriteRunRows(w io.Writer, runs []*Run, keys []string) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	head := labelColumns(keys)
	for _, m := range metrics.Compared {
		head = append(head, m.Label)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range runs {
		cells := r.Labels(keys)
		for _, m := range metrics.Compared {
			cells = append(cells, metrics.Format(m.Get(&r.Rec.Summary), m.Unit))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
}

// WriteBucketRows prints the HPCC-style view, one line per run and
// flow-size bucket.
func WriteBucketRows(w io.Writer, runs []*Run, keys []string) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	head := append(labelColumns(keys), "bucket", "flow size (bytes)", "flows", "finished", "slowdown p50", "p95", "p99", "FCT p99")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range runs {
		for i, b := range r.Rec.Summary.Buckets {
			cells := append(r.Labels(keys), fmt.Sprint(i), fmt.Sprintf("%d-%d", b.SizeMinBytes, b.SizeMaxBytes),
				fmt.Sprint(b.Flows), fmt.Sprint(b.FlowsFinished),
				metrics.Format(b.SlowdownP50, metrics.UnitX), metrics.Format(b.SlowdownP95, metrics.UnitX), metrics.Format(b.SlowdownP99, metrics.UnitX),
				metrics.Format(float64(b.FCTP99Ns), metrics.UnitNs))
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
	}
	tw.Flush()
}

// Group is the runs sharing one value of a partition key.
type Group struct {
	Key, Value string
	Runs       []*Run
}

// GroupRuns groups runs by their value of key ("-" when absent), groups
// in order of first appearance.
func GroupRuns(runs []*Run, key string) []Group {
	var groups []Group
	for _, r := range runs {
		v, ok := r.Dir.Get(key)
		if !ok {
			v = "-"
		}
		i := 0
		for i < len(groups) && groups[i].Value != v {
			i++
		}
		if i == len(groups) {
			groups = append(groups, Group{Key: key, Value: v})
		}
		groups[i].Runs = append(groups[i].Runs, r)
	}
	return groups
}

// WriteGroupTable prints ccreplay compare's side-by-side table with one
// column per group: the mean over its runs and, with several, [min, max].
func WriteGroupTable(w io.Writer, groups []Group) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprint(tw, "metric")
	for _, g := range groups {
		fmt.Fprintf(tw, "\t%s=%s (%d)", g.Key, g.Value, len(g.Runs))
	}
	fmt.Fprintln(tw)
	for _, m := range metrics.Compared {
		fmt.Fprint(tw, m.Label)
		for _, g := range groups {
			sum, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
			for _, r := range g.Runs {
				v := m.Get(&r.Rec.Summary)
				sum += v
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			n := float64(len(g.Runs))
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

// GroupsJSON aggregates every scalar metric of each group of key.
func GroupsJSON(key string, groups []Group) []GroupJSON {
	var out []GroupJSON
	for _, g := range groups {
		j := GroupJSON{Key: key, Value: g.Value, Runs: len(g.Runs),
			Mean: map[string]float64{}, Min: map[string]float64{}, Max: map[string]float64{}}
		for i, r := range g.Runs {
			for _, f := range metrics.Fields(r.Rec.Summary) {
				if i == 0 {
					j.Min[f.Name], j.Max[f.Name] = f.Value, f.Value
				}
				j.Mean[f.Name] += f.Value
				j.Min[f.Name] = math.Min(j.Min[f.Name], f.Value)
				j.Max[f.Name] = math.Max(j.Max[f.Name], f.Value)
			}
		}
		for k := range j.Mean {
			j.Mean[k] /= float64(len(g.Runs))
		}
		out = append(out, j)
	}
	return out
}
