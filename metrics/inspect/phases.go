package inspect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// PhasesJSON is `ccreplay metrics RUN --phases --json`.
type PhasesJSON struct {
	SchemaVersion string `json:"schema_version"`
	Dir           string `json:"dir"`
	CCA           string `json:"cca,omitempty"`   // from summary.json
	Trace         string `json:"trace,omitempty"` // from summary.json
	// EndNs is the run's end (sim_duration_ns), where flows that did not
	// finish stop being counted.
	EndNs  int64           `json:"end_ns"`
	Phases []metrics.Phase `json:"phases"`
}

// PrintPhases prints the per-phase throughput shares of the one run args
// name (metrics.PhaseAccumulator over its flows and packets.parquet), as
// JSON when asJSON. A run without packets.parquet is refused.
func PrintPhases(ctx context.Context, args []string, asJSON bool, out io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	dirs, err := runfolder.Expand(args)
	if err != nil {
		return clierr.Inputf("metrics: %v", err)
	}
	if len(dirs) != 1 {
		return clierr.Usagef("--phases takes one run folder, got %d runs", len(dirs))
	}
	dir := dirs[0].Dir
	rf, err := runfolder.Open(dir)
	if err != nil {
		return clierr.Inputf("metrics: %v", err)
	}
	man := rf.Manifest
	packets := rf.Path(runfolder.PacketsFile)
	switch _, err := os.Stat(packets); {
	case errors.Is(err, os.ErrNotExist):
		return clierr.Inputf("metrics --phases: %s has no %s: a flow's throughput inside a phase needs the delivery "+
			"times of its packets, and its size over its lifetime would hide how the shares change from phase to phase; "+
			"rerun with --packets data", filepath.ToSlash(dir), runfolder.PacketsFile)
	case err != nil:
		return clierr.Inputf("metrics: %v", err)
	}
	run, err := arrowread.ReadRun(rf)
	if err != nil {
		return clierr.Inputf("metrics: %s", oneLine(err.Error()))
	}
	// The run's end: the ports' sim_duration_ns, as summary.json has it.
	end := metrics.Compute(run.Flows, nil, run.Ports, metrics.Options{}).SimDurationNs
	phases, err := arrowread.ScanPhases(ctx, packets, run.Flows, end)
	if ctx.Err() != nil {
		return clierr.Interruptedf("metrics: interrupted while reading %s; nothing printed", filepath.ToSlash(dir))
	}
	if err != nil {
		return clierr.Inputf("metrics: %s", oneLine(err.Error()))
	}
	if asJSON {
		j := PhasesJSON{SchemaVersion: v2.Version, Dir: filepath.ToSlash(dir), CCA: man.CCA, Trace: man.Trace,
			EndNs: end, Phases: phases}
		if j.Phases == nil {
			j.Phases = []metrics.Phase{}
		}
		return iostreams.Streams{Out: out}.PrintJSON(j)
	}
	fmt.Fprintf(out, "ccreplay metrics: %s (%s under %s on %s, seed %d: from "+runfolder.SummaryFile+")\n",
		filepath.ToSlash(dir), man.Trace, man.CCA, man.Topology, man.Seed)
	fmt.Fprintf(out, "%d phases between flow starts and finishes; throughput: the data packets delivered to each flow's receiver in the phase (%s, headers included)\n\n",
		len(phases), runfolder.PacketsFile)
	WritePhaseTable(out, phases)
	return nil
}

// WritePhaseTable prints one line per (phase, active flow); the phase's
// columns only on its first line.
func WritePhaseTable(w io.Writer, phases []metrics.Phase) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "phase\tfrom\tto\tflows\tJain\tflow\tdelivered\tthroughput\tshare\t")
	for k, p := range phases {
		head := []string{fmt.Sprint(k), metrics.Format(float64(p.StartNs), metrics.UnitNs),
			metrics.Format(float64(p.EndNs), metrics.UnitNs), fmt.Sprint(len(p.Flows)), fmt.Sprintf("%.4f", p.JainIndex)}
		for i, f := range p.Flows {
			if i == 1 {
				head = []string{"", "", "", "", ""}
			}
			cells := append(head, fmt.Sprint(f.FlowID), metrics.Format(float64(f.DeliveredBytes), metrics.UnitBytes),
				metrics.Format(f.RateBps, metrics.UnitBps), fmt.Sprintf("%.4f", f.Share))
			fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		}
	}
	tw.Flush()
}
