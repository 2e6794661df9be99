package cli

import (
	"fmt"
	"path/filepath"

	"github.com/ccreplay/ccreplay/hpccfmt"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// extraFiles writes what a run adds to its folder beyond runner's (the
// HPCC simulator's files, --fct-txt) and warns of a stalled or collapsed
// run.
func (r *run) extraFiles(dir string, res *replay.Result, man *runner.Manifest) error {
	st, s := r.st, r.env.Streams
	if st.HPCC != nil {
		if note := st.HPCC.IgnoredNote(); note != "" && s.ErrIsTerminal {
			fmt.Fprintln(s.Err, note)
		}
	}
	if r.o.FCTTxt != "" {
		var ff *hpccfmt.FlowFile
		if st.HPCC != nil {
			ff = st.HPCC.Flows
		}
		if err := runconfig.WriteFCT(StagedPath(r.o.Out, r.stage, r.o.FCTTxt), st.Topology, st.Trace, ff, res); err != nil {
			return err
		}
	}
	if st.HPCC != nil {
		// An HPCC scenario's run folder holds its fct.txt too, for
		// `ccreplay validate` and the simulator's analysis scripts.
		if err := runconfig.WriteFCT(filepath.Join(dir, runfolder.FCTFile), st.Topology, st.Trace, st.HPCC.Flows, res); err != nil {
			return err
		}
		if err := r.hpcc.Write(dir); err != nil {
			return err
		}
	}
	if w := replay.StalledWarning(&r.cfg, res.SimEnd, man.Summary.Flows, man.Summary.FlowsFinished); w != "" {
		s.Warn(w)
	}
	if w := runner.CheckCollapse(&r.cfg, st.Trace, res, man); w != "" {
		s.Warn(w)
	}
	return nil
}

// print prints the finished run: summary.json with --json, else the
// header and the metrics table (and the OSU report of osu-alltoall).
func (r *run) print(res *replay.Result, man *runner.Manifest) error {
	s, st := r.env.Streams, r.st
	if r.o.JSON {
		return s.PrintJSON(man)
	}
	spec := st.Specs[0]
	fmt.Fprintf(s.Out, "ccreplay run: %s under %s on %s, seed %d\n", st.TraceName, spec.Name, st.Topology.Describe(), r.o.Seed)
	if note := r.env.PresetNote(spec.Name); note != "" {
		fmt.Fprintln(s.Out, note)
	}
	fmt.Fprintf(s.Out, "simulated %v in %d events, %d data packets; outputs in %s\n\n", res.SimEnd, res.Events, res.DataPackets, r.o.Out)
	metrics.WriteTable(s.Out, man.Summary)
	if w := st.Req.Workload; gen.IsOSU(w) { // the flag's or the configuration file's
		pts, err := OSULatencyOf(w, res, r.spans)
		if err != nil {
			return err
		}
		gen.WriteOSUTable(s.Out, []string{spec.Name}, [][][]gen.OSUPoint{{pts}})
	}
	return nil
}

// OSULatencyOf is the benchmark's report (mean latency per message size)
// of a run of the osu-alltoall workload: from spans when the run was
// streamed (spans not nil), else from res's message rows.
func OSULatencyOf(workload string, res *replay.Result, spans runner.OSUSpans) ([]gen.OSUPoint, error) {
	if spans == nil {
		return runner.OSULatency(workload, res.Messages)
	}
	return runner.OSUReport(workload, spans)
}
