// Package inspect recomputes the metrics of finished run folders from
// their Parquet files and prints them (`ccreplay metrics`): one run's
// tables, several runs side by side with their partition keys as columns,
// runs grouped by a key, the flow-size bucket view, a check against each
// run's summary.json, and one run's per-phase throughput shares. It finds
// and reads run folders only through runfolder.Expand and runfolder.Open.
package inspect

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/procstat"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// BySizeBucket is the Options.By value of the flow-size bucket view.
const BySizeBucket = "size-bucket"

// packetsAll is summary.json's "packets" value of a run that logged its
// control packets too (replay.PacketsAll).
const packetsAll = "all"

// Options are what `ccreplay metrics` is asked to do.
type Options struct {
	// JSON prints JSON to Out instead of the tables.
	JSON bool
	// By groups several runs by a partition key (cca, seed, ...), or is
	// BySizeBucket; empty prints one row per run.
	By string
	// Buckets is the number of flow-size buckets of equal flow count.
	Buckets int
	// Verify checks the recomputed metrics against each run's
	// summary.json; a difference is an error.
	Verify bool
	// NoPackets skips the scan of packets.parquet (packet_rows then
	// comes from its footer).
	NoPackets bool
	// Stats prints wall time, packet rows per second and peak memory to
	// Err.
	Stats bool
	// Out receives the tables or the JSON; Err the differences Verify
	// found and the Stats line.
	Out, Err io.Writer
	// Progress, when not nil (stderr is a terminal), shows how many of
	// several runs are read.
	Progress io.Writer
	// OSULatency is the OSU benchmark's report (mean latency per message
	// size) of an osu-alltoall workload from a run's message rows
	// (runner.OSULatency); nil prints no OSU table.
	OSULatency func(workload string, msgs []v2.MessageRow) ([]gen.OSUPoint, error)
}

// Run is one run folder and what was recomputed from it.
type Run struct {
	Dir runfolder.RunDir
	// Manifest is the run's summary.json.
	Manifest *runfolder.Manifest
	Rec      *arrowread.Recomputed
	// Rows are the packet rows (scanned, or from the footer).
	Rows int64
}

// Print recomputes the metrics of the run folders args name (folders, or
// folders with run folders below them) and prints them as o asks.
func Print(ctx context.Context, args []string, o Options) error {
	if ctx == nil {
		ctx = context.Background()
	}
	start := time.Now()
	dirs, err := runfolder.Expand(args)
	if err != nil {
		return clierr.Inputf("metrics: %v", err)
	}
	keys := PartitionKeys(dirs)
	if o.By != "" && o.By != BySizeBucket && !slices.Contains(keys, o.By) {
		return clierr.Usagef("--by %q: not %s and not a partition key of the runs (keys: %s)", o.By, BySizeBucket, list(keys))
	}
	runs := make([]*Run, len(dirs))
	var packetRows int64
	for i, d := range dirs {
		r, err := Load(ctx, d, o.Buckets, o.NoPackets)
		if err != nil {
			return err
		}
		runs[i] = r
		packetRows += r.Rows
		if o.Progress != nil && len(dirs) > 1 {
			fmt.Fprintf(o.Progress, "\rmetrics: %d/%d runs ", i+1, len(dirs))
			if i+1 == len(dirs) {
				fmt.Fprintln(o.Progress)
			}
		}
	}
	var bad []string
	if o.Verify {
		for _, r := range runs {
			for _, d := range Verify(r) {
				bad = append(bad, r.Dir.Dir+": "+d)
			}
		}
	}
	if err := o.print(runs, keys); err != nil {
		return err
	}
	if o.Stats {
		wall := time.Since(start).Seconds()
		fmt.Fprintf(o.Err, "stats: wall %.3f s, %d runs, %d packet rows, %.0f packet rows/s, peak RSS %s\n",
			wall, len(runs), packetRows, float64(packetRows)/wall, procstat.PeakRSS())
	}
	if len(bad) > 0 {
		for _, b := range bad {
			fmt.Fprintln(o.Err, "verify: "+b)
		}
		return fmt.Errorf("metrics --verify: %d difference(s) from "+runfolder.SummaryFile+", first: %s", len(bad), bad[0])
	}
	return nil
}

// Load reads one run folder: summary.json (complete, of our schema
// version), then the Parquet files, recomputing the metrics with buckets
// flow-size buckets; noPackets skips the scan of packets.parquet. A
// cancelled ctx is an interruption.
func Load(ctx context.Context, d runfolder.RunDir, buckets int, noPackets bool) (*Run, error) {
	r := &Run{Dir: d}
	rf, err := runfolder.Open(d.Dir)
	if err != nil {
		return nil, clierr.Inputf("metrics: %v", err)
	}
	r.Manifest = rf.Manifest
	r.Rec, err = arrowread.Recompute(rf, arrowread.RecomputeOptions{Buckets: buckets, SkipPackets: noPackets, Context: ctx})
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, clierr.Interruptedf("metrics: interrupted while reading %s; nothing printed", filepath.ToSlash(d.Dir))
	}
	if err != nil {
		return nil, clierr.Inputf("metrics: %s", oneLine(err.Error()))
	}
	if r.Rec.Packets != nil {
		r.Rows = r.Rec.Packets.Rows
	} else if p, err := rf.Optional(runfolder.PacketsFile); err != nil {
		return nil, clierr.Inputf("metrics: %v", err)
	} else if p != "" {
		if r.Rows, err = arrowread.NumRows(p); err != nil {
			return nil, clierr.Inputf("metrics: %s", oneLine(err.Error()))
		}
	}
	return r, nil
}

// Verify lists the differences between a run's recomputed metrics and
// its summary.json.
func Verify(r *Run) []string {
	var out []string
	s, m := r.Rec.Summary, r.Manifest
	want, err := metrics.DecodeSummary(m.Metrics)
	if err != nil {
		return []string{runfolder.SummaryFile + " metrics: " + err.Error()}
	}
	out = append(out, metrics.Diff(s, want, metrics.DefaultRelTol)...)
	if r.Rows != m.PacketRows {
		out = append(out, fmt.Sprintf("packet_rows: %d vs %d", r.Rows, m.PacketRows))
	}
	if s.DataPktsSent != m.DataPackets {
		out = append(out, fmt.Sprintf("data_packets: %d vs %d", s.DataPktsSent, m.DataPackets))
	}
	if p := r.Rec.Packets; p != nil {
		for _, d := range metrics.CheckPackets(*p, want, m.Packets == packetsAll) {
			out = append(out, runfolder.PacketsFile+": "+d)
		}
	}
	return out
}

// BySize is the run's MCT per message size, nil without messages.
func (r *Run) BySize() *metrics.SizeTable {
	if len(r.Rec.Rows.Messages) == 0 {
		return nil
	}
	t := metrics.BySize(r.Rec.Rows.Messages)
	return &t
}

// PartitionKeys lists the partition keys of the runs in order of first
// appearance.
func PartitionKeys(dirs []runfolder.RunDir) []string {
	var keys []string
	for _, d := range dirs {
		for _, kv := range d.Partition {
			if !slices.Contains(keys, kv.Key) {
				keys = append(keys, kv.Key)
			}
		}
	}
	return keys
}

func list(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// oneLine joins a multi-line message (some Parquet errors wrap lines).
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
