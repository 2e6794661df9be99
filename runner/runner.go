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
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
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
}

// Extra writes more files into a run folder after the replay's and before
// summary.json; it may add to the manifest (its Files, Warnings).
type Extra func(dir string, res *replay.Result, man *runfolder.Manifest) error

// Run replays sc into dir (created if missing) and returns the replay's
// result and the manifest written (its Metrics are the run's summary):
// packets.parquet when
// sc.Config.Packets asks for it, flows, messages and ports, then what
// extra writes (when not nil), then summary.json. On an error or a
// cancelled ctx (replay.InterruptedError) the packet log's temporary file
// is removed and no summary.json is written. sc.Config is not changed.
func Run(ctx context.Context, sc *Scenario, dir string, extra Extra) (*replay.Result, *runfolder.Manifest, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
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
	res, err := replay.RunContext(ctx, cfg, sc.Trace)
	if packets != nil {
		if err != nil {
			packets.Abort()
		} else if cerr := packets.Close(); cerr != nil {
			return nil, nil, cerr
		}
	}
	if err != nil {
		return nil, nil, err
	}
	if err := WriteRows(dir, res); err != nil {
		return nil, nil, err
	}
	man := NewManifest(&cfg, sc.TraceName, res, metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}))
	man.Warnings = append(slices.Clone(sc.Warnings), man.Warnings...)
	if extra != nil {
		if err := extra(dir, res, &man); err != nil {
			return nil, nil, err
		}
	}
	if err := runfolder.Write(dir, &man); err != nil {
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
		PacketRows: res.PacketRows, Files: files, Metrics: sum,
	}
}

// CheckCollapse runs replay.CollapseCheck on a finished run and records a
// collapse in its manifest (man.Collapse and one warning); it returns the
// warning ("" when the run did not collapse). A check that cannot route
// the trace (it ran, so it can) is not an error of the run: it is skipped.
func CheckCollapse(cfg *replay.Config, tr *trace.Trace, res *replay.Result, man *runfolder.Manifest) string {
	c, err := replay.CollapseCheck(cfg, tr, res)
	if err != nil || c == nil {
		return ""
	}
	w := replay.CollapseWarning(cfg, c)
	man.Collapse = c
	man.Warnings = append(man.Warnings, w)
	return w
}
