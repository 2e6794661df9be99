// Package runner runs one resolved scenario into a run folder: the one
// sequence under run, compare, dataset, sweep, netcalc's compare and
// reproduce. The replay writes nothing; runner gives it a sink for the
// packet rows (packets.parquet, streamed), writes flows, messages and
// ports from its Result, lets the caller add files, and writes
// summary.json (the manifest, the folder's completeness marker) last.
// Staging the folder (runfolder.Stage, Commit) is the caller's: a run
// command stages its --out, the batch executor each item or the whole
// collection.
package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/version"
)

// Scenario is one resolved run: the replay's configuration and workload,
// and what the manifest says of its inputs.
type Scenario struct {
	Config *replay.Config
	Trace  *trace.Trace
	// TraceName names the input in summary.json (a path with '/').
	TraceName string
	// Warnings are the inputs' warnings; summary.json lists them before
	// the run's own.
	Warnings []string
	// StreamRows writes flows.parquet and messages.parquet as the replay
	// makes their rows (a flow's and its messages' when the flow finishes,
	// see replay.RowSink) instead of keeping them to the end, and
	// summarizes them as they pass (metrics.Accumulator): the run then
	// holds no row of a finished flow, and the Result's Flows and
	// Messages are nil. The files and summary.json are the same either
	// way. Callers whose Extra reads the rows leave it false. A trace of
	// fewer than StreamRowsMin messages keeps its rows all the same.
	StreamRows bool
	// OnMessage, with StreamRows, is given every message row too, in
	// trace order (e.g. to fold collective spans), as they pass or, when
	// the rows were kept, after the run; it keeps only copies.
	OnMessage func(*v2.MessageRow)
}

// StreamRowsMin is the fewest messages whose rows Scenario.StreamRows
// streams: the rows of a smaller trace take at most about 180 MB (336
// bytes a flow and its message), and streaming costs CPU time (11 % more
// user time on a 262,144-message OSU all-to-all whose flows finish in
// order, 34 % on 198,000 1 KB flows finishing in random order) for no
// measurable gain in peak memory at that size (docs/LIMITS.md, "Memory").
var StreamRowsMin = 1 << 19

// Extra writes more files into a run folder after the replay's and before
// summary.json; it may add to the manifest (its Files, Warnings).
type Extra func(dir string, res *replay.Result, man *Manifest) error

// Manifest is a run's manifest (what summary.json holds, its Metrics
// encoded) with the run's metrics as values, for callers that show or
// collect them.
type Manifest struct {
	runfolder.Manifest
	// Summary is the run's metrics (metrics.Compute of its rows), the
	// values encoded in Manifest.Metrics.
	Summary metrics.Summary `json:"-"`
}

// Run replays sc into dir (created if missing) and returns the replay's
// result and the manifest written (with the run's metrics, Summary):
// packets.parquet when
// sc.Config.Packets asks for it, flows, messages and ports, then what
// extra writes (when not nil), then summary.json. On an error or a
// cancelled ctx (replay.InterruptedError) the packet log's temporary file
// is removed and no summary.json is written. sc.Config is not changed.
func Run(ctx context.Context, sc *Scenario, dir string, extra Extra) (*replay.Result, *Manifest, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, &replay.InterruptedError{Err: err, SetUp: true} // as the replay's own set-up says it
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("output folder: %w", err)
	}
	cfg := *sc.Config
	var packets *output.Stream[v2.PacketRow]
	if cfg.Packets != replay.PacketsNone && cfg.Packets != "" {
		var err error
		if packets, err = output.NewStream[v2.PacketRow](filepath.Join(dir, runfolder.PacketsFile), 8192); err != nil {
			return nil, nil, err
		}
		cfg.PacketSink = packets
	}
	var rows *rowStreams
	if sc.StreamRows && len(sc.Trace.Messages) >= StreamRowsMin {
		var err error
		if rows, err = newRowStreams(dir, len(sc.Trace.Messages), sc.OnMessage); err != nil {
			if packets != nil {
				packets.Abort()
			}
			return nil, nil, err
		}
		cfg.RowSink = rows
	}
	res, err := replay.RunContext(ctx, cfg, sc.Trace)
	if packets != nil {
		if err != nil {
			packets.Abort()
		} else if cerr := packets.Close(); cerr != nil {
			rows.abort()
			return nil, nil, cerr
		}
	}
	if err != nil {
		rows.abort()
		return nil, nil, err
	}
	var sum metrics.Summary
	if rows != nil {
		if err := rows.close(); err != nil {
			return nil, nil, err
		}
		if err := output.WriteRows(filepath.Join(dir, runfolder.PortsFile), res.Ports); err != nil {
			return nil, nil, err
		}
		sum = rows.acc.Summary(res.Ports)
		res.MessageSpans = rows.spans
	} else {
		if err := WriteRows(dir, res); err != nil {
			return nil, nil, err
		}
		sum = metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{})
		if sc.StreamRows && sc.OnMessage != nil {
			for i := range res.Messages {
				sc.OnMessage(&res.Messages[i])
			}
		}
	}
	man := Manifest{Manifest: NewManifest(&cfg, sc.TraceName, res, sum), Summary: sum}
	man.Warnings = append(slices.Clone(sc.Warnings), man.Warnings...)
	if extra != nil {
		if err := extra(dir, res, &man); err != nil {
			return nil, nil, err
		}
	}
	if err := runfolder.Write(dir, &man.Manifest); err != nil {
		return nil, nil, err
	}
	return res, &man, nil
}

// WriteRows writes a run's flows, messages and ports Parquet files into
// dir, each atomically.
func WriteRows(dir string, res *replay.Result) error {
	if err := output.WriteRows(filepath.Join(dir, runfolder.FlowsFile), res.Flows); err != nil {
		return err
	}
	if err := output.WriteRows(filepath.Join(dir, runfolder.MessagesFile), res.Messages); err != nil {
		return err
	}
	return output.WriteRows(filepath.Join(dir, runfolder.PortsFile), res.Ports)
}

// NewManifest describes a finished run whose metrics are sum (what
// metrics.Compute gives of its rows); traceName names its input. Its
// Warnings hold the replay.StalledWarning, if any: callers add their
// input's.
func NewManifest(cfg *replay.Config, traceName string, res *replay.Result, sum metrics.Summary) runfolder.Manifest {
	files := []string{runfolder.FlowsFile, runfolder.MessagesFile, runfolder.PortsFile, runfolder.SummaryFile}
	if cfg.Packets != replay.PacketsNone && cfg.Packets != "" {
		files = append([]string{runfolder.PacketsFile}, files...)
	}
	var perRate []runfolder.ECNRateEcho
	for _, r := range cfg.Switch.ECN.PerRate {
		perRate = append(perRate, runfolder.ECNRateEcho{RateBps: int64(r.Rate), KminBytes: int64(r.KminBytes), KmaxBytes: int64(r.KmaxBytes), Pmax: r.Pmax})
	}
	var warnings []string
	if w := replay.StalledWarning(cfg, res.SimEnd, sum.Flows, sum.FlowsFinished); w != "" {
		warnings = append(warnings, w)
	}
	return runfolder.Manifest{
		Warnings:      warnings,
		SchemaVersion: runfolder.Version, Kind: runfolder.KindRun, Tool: "ccreplay " + version.Version, Trace: traceName,
		Seed: cfg.Seed, CCA: cfg.CC.Name, CCAParams: cfg.CC.Params,
		Topology: cfg.Topology.Name, Packets: string(cfg.Packets),
		Config: runfolder.ConfigEcho{
			BufferBytes: int64(cfg.Switch.BufferBytes), ECN: cfg.Switch.ECN.Enabled,
			KminBytes: int64(cfg.Switch.ECN.KminBytes), KmaxBytes: int64(cfg.Switch.ECN.KmaxBytes),
			Pmax: cfg.Switch.ECN.Pmax, ECNRefRateBps: int64(cfg.Switch.ECN.RefRate), ECNPerRate: perRate,
			PFC: cfg.Switch.PFC.Enabled, PFCMode: string(cfg.Switch.PFC.Mode), INT: cfg.Switch.INT,
			MTUPayloadBytes: int64(cfg.NIC.MTUPayload), HeaderBytes: int64(cfg.NIC.HeaderBytes),
			AckEvery: cfg.NIC.AckEvery, CNPIntervalNs: cfg.NIC.CNPInterval.Nanoseconds(),
			RTONs: cfg.NIC.RTO.Nanoseconds(), WindowBytes: int64(cfg.NIC.Window), WindowBDP: cfg.NIC.WindowBDP,
			MaxTimeNs: cfg.MaxTime.Nanoseconds(), LocalRateBps: int64(cfg.LocalRate),
		},
		SimEndNs: res.SimEnd.Nanoseconds(), Events: res.Events, DataPackets: res.DataPackets,
		PacketRows: res.PacketRows, Files: files, Metrics: sum.Encode(),
	}
}

// CheckCollapse runs replay.CollapseCheck on a finished run and records a
// collapse in its manifest (man.Collapse and one warning); it returns the
// warning ("" when the run did not collapse). A check that cannot route
// the trace (it ran, so it can) is not an error of the run: it is skipped.
func CheckCollapse(cfg *replay.Config, tr *trace.Trace, res *replay.Result, man *Manifest) string {
	c, err := replay.CollapseCheck(cfg, tr, res)
	if err != nil || c == nil {
		return ""
	}
	w := replay.CollapseWarning(cfg, c)
	man.Collapse = c
	man.Warnings = append(man.Warnings, w)
	return w
}

// rowStreams is the replay.RowSink of a run with Scenario.StreamRows: it
// puts each row back in index order (output.Reorder) and appends it to
// its Parquet file (encoded on the Stream's own goroutine) and to the
// run's metrics.
type rowStreams struct {
	flows    *output.Stream[v2.FlowRow]
	msgs     *output.Stream[v2.MessageRow]
	flowsOrd *output.Reorder[v2.FlowRow]
	msgsOrd  *output.Reorder[v2.MessageRow]
	acc      *metrics.Accumulator
	spans    []replay.MessageSpan // for the collapse check (Result.MessageSpans)
}

func newRowStreams(dir string, msgs int, onMsg func(*v2.MessageRow)) (*rowStreams, error) {
	s := &rowStreams{acc: metrics.NewAccumulator(metrics.Options{}), spans: make([]replay.MessageSpan, 0, msgs)}
	var err error
	if s.flows, err = output.NewStream[v2.FlowRow](filepath.Join(dir, runfolder.FlowsFile), 0); err != nil {
		return nil, err
	}
	if s.msgs, err = output.NewStream[v2.MessageRow](filepath.Join(dir, runfolder.MessagesFile), 0); err != nil {
		s.flows.Abort()
		return nil, err
	}
	s.flowsOrd = output.NewReorder(dir, output.FlowRowCodec, func(row *v2.FlowRow) {
		s.flows.Append(*row)
		s.acc.AddFlow(row)
	})
	s.msgsOrd = output.NewReorder(dir, output.MessageRowCodec, func(row *v2.MessageRow) {
		s.msgs.Append(*row)
		s.acc.AddMessage(row)
		s.spans = append(s.spans, replay.SpanOf(row))
		if onMsg != nil {
			onMsg(row)
		}
	})
	return s, nil
}

// Flow takes flow i's row (replay.RowSink).
func (s *rowStreams) Flow(i int, row *v2.FlowRow) { s.flowsOrd.Put(i, row) }

// Message takes message i's row (replay.RowSink).
func (s *rowStreams) Message(i int, row *v2.MessageRow) { s.msgsOrd.Put(i, row) }

// close finishes both files (as WriteRows, a failure leaves no
// summary.json: the folder is not a run).
func (s *rowStreams) close() error {
	err := s.flowsOrd.Close()
	if err == nil {
		err = s.msgsOrd.Close()
	}
	if err != nil {
		s.abort()
		return err
	}
	if err := s.flows.Close(); err != nil {
		s.msgs.Abort()
		return err
	}
	return s.msgs.Close()
}

// abort discards both files and the spill files; nothing on a nil s.
func (s *rowStreams) abort() {
	if s == nil {
		return
	}
	s.flows.Abort()
	s.msgs.Abort()
	if s.flowsOrd != nil {
		s.flowsOrd.Abort()
	}
	if s.msgsOrd != nil {
		s.msgsOrd.Abort()
	}
}
