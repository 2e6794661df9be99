package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// phasesJSON is `ccreplay metrics RUN --phases --json`.
type phasesJSON struct {
	SchemaVersion string `json:"schema_version"`
	Dir           string `json:"dir"`
	CCA           string `json:"cca,omitempty"`   // from summary.json
	Trace         string `json:"trace,omitempty"` // from summary.json
	// EndNs is the run's end (sim_duration_ns), where flows that did not
	// finish stop being counted.
	EndNs  int64           `json:"end_ns"`
	Phases []metrics.Phase `json:"phases"`
}

// runPhases is --phases: the per-phase throughput shares of one run
// (metrics.PhaseAccumulator over its flows and packets.parquet).
func (o *metricsOptions) runPhases(args []string) error {
	dirs, err := runfolder.Expand(args)
	if err != nil {
		return inputErrorf("metrics: %v", err)
	}
	if len(dirs) != 1 {
		return usageErrorf("--phases takes one run folder, got %d runs", len(dirs))
	}
	dir := dirs[0].Dir
	rf, err := runfolder.Open(dir)
	if err != nil {
		return inputErrorf("metrics: %v", err)
	}
	man := rf.Manifest
	packets := rf.Path(runfolder.PacketsFile)
	switch _, err := os.Stat(packets); {
	case errors.Is(err, os.ErrNotExist):
		return inputErrorf("metrics --phases: %s has no %s: a flow's throughput inside a phase needs the delivery "+
			"times of its packets, and its size over its lifetime would hide how the shares change from phase to phase; "+
			"rerun with --packets data", filepath.ToSlash(dir), runfolder.PacketsFile)
	case err != nil:
		return inputErrorf("metrics: %v", err)
	}
	run, err := arrowread.ReadRun(rf)
	if err != nil {
		return inputErrorf("metrics: %s", mxOneLine(err.Error()))
	}
	// The run's end: the ports' sim_duration_ns, as summary.json has it.
	end := metrics.Compute(run.Flows, nil, run.Ports, metrics.Options{}).SimDurationNs
	phases, err := arrowread.ScanPhases(o.context(), packets, run.Flows, end)
	if o.context().Err() != nil {
		return interrupted("metrics: interrupted while reading %s; nothing printed", filepath.ToSlash(dir))
	}
	if err != nil {
		return inputErrorf("metrics: %s", mxOneLine(err.Error()))
	}
	if o.JSON {
		out := phasesJSON{SchemaVersion: v2.Version, Dir: filepath.ToSlash(dir), CCA: man.CCA, Trace: man.Trace,
			EndNs: end, Phases: phases}
		if out.Phases == nil {
			out.Phases = []metrics.Phase{}
		}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(o.s.Out, string(b))
		return err
	}
	w := o.s.Out
	fmt.Fprintf(w, "ccreplay metrics: %s (%s under %s on %s, seed %d: from "+runfolder.SummaryFile+")\n",
		filepath.ToSlash(dir), man.Trace, man.CCA, man.Topology, man.Seed)
	fmt.Fprintf(w, "%d phases between flow starts and finishes; throughput: the data packets delivered to each flow's receiver in the phase (%s, headers included)\n\n",
		len(phases), runfolder.PacketsFile)
	writePhaseTable(w, phases)
	return nil
}

// writePhaseTable prints one line per (phase, active flow); the phase's
// columns only on its first line.
func writePhaseTable(w io.Writer, phases []metrics.Phase) {
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
