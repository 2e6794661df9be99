package compare

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Rows are comparison.parquet's: per run, one row of all flows (bucket
// -1) and one per flow-size bucket.
func Rows(runs []*Run) []v2.ComparisonRow {
	var rows []v2.ComparisonRow
	for _, r := range runs {
		s := r.Sum
		base := v2.ComparisonRow{
			CCA: r.Part, Seed: int64(r.Seed), Bucket: -1, Flows: s.Flows, FlowsFinished: s.FlowsFinished,
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

// jsonRun is a run of the comparison as --json prints it.
type jsonRun struct {
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

// WriteJSON prints the comparison as `compare --json` does; dir is the
// folder it was written to (each run's dir is under it).
func (c *Comparison) WriteJSON(w io.Writer, dir string) error {
	diffs, held := c.Diffs, c.Held
	out := struct {
		SchemaVersion string `json:"schema_version"`
		// NetworkDifferences and SameNetwork are comparison.json's.
		NetworkDifferences []runfolder.SettingDiff `json:"network_differences,omitempty"`
		SameNetwork        string                  `json:"same_network,omitempty"`
		Runs               []jsonRun               `json:"runs"`
	}{SchemaVersion: v2.Version, NetworkDifferences: diffs, SameNetwork: held}
	for _, r := range c.Runs {
		j := jsonRun{CCA: r.Part, Spec: r.Spec.Name, Seed: r.Seed, Dir: filepath.ToSlash(filepath.Join(dir, r.Rel)), Metrics: r.Sum}
		if r.Digest.Messages > 0 {
			t := r.Digest.BySize
			j.BySize = &t
		}
		out.Runs = append(out.Runs, j)
	}
	return iostreams.Streams{Out: w}.PrintJSON(out)
}

// WriteTable prints one column per algorithm: the mean over seeds and,
// with several seeds, [min, max]; then the slowdown p99 per flow-size
// bucket (mean over seeds).
func (c *Comparison) WriteTable(w io.Writer) {
	specs, seeds, runs := c.Specs, c.Seeds, c.Runs
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
				v := m.Get(&runs[i*n+j].Sum)
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
	nb := len(runs[0].Sum.Buckets)
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
		bk := runs[0].Sum.Buckets[b]
		fmt.Fprintf(tw, "%d-%d", bk.SizeMinBytes, bk.SizeMaxBytes)
		for i := range specs {
			sum := 0.0
			for j := 0; j < n; j++ {
				if bs := runs[i*n+j].Sum.Buckets; b < len(bs) {
					sum += bs[b].SlowdownP99
				}
			}
			fmt.Fprintf(tw, "\t%s", metrics.Format(sum/float64(n), metrics.UnitX))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// WriteSizeTable prints the MCT per message size (metrics.BySize),
// one row per size, and per algorithm the mean over seeds of its MCT mean
// and p99 and, when the workload has collectives, of its mean collective
// completion time. The rows come from the workload, so every run has the
// same ones. Nothing when the runs have no messages.
func (c *Comparison) WriteSizeTable(w io.Writer) {
	specs, seeds, runs := c.Specs, c.Seeds, c.Runs
	if len(runs) == 0 || runs[0].Digest.Messages == 0 {
		return
	}
	tables := make([]metrics.SizeTable, len(runs))
	for i, r := range runs {
		tables[i] = r.Digest.BySize
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
