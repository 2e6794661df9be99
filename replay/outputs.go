package replay

import (
	"fmt"
	"path/filepath"

	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
	"github.com/ccreplay/ccreplay/version"
)

// StalledWarning is a warning for a run that ended with flows unfinished
// although nothing limited its time (Config.MaxTime 0): every event was
// done and data was left to send. A PFC deadlock can do that in a
// network with cyclic buffer dependencies; anywhere else it is a bug of
// the model (a flow nothing wakes), to report. Empty when every flow
// finished or the run had a time limit.
func StalledWarning(cfg *Config, res *Result) string {
	s := &res.Summary
	if cfg.MaxTime > 0 || s.FlowsFinished >= s.Flows {
		return ""
	}
	return fmt.Sprintf("%d of %d flows never finished: the network went idle at %v with their data unsent or unacknowledged (a PFC deadlock, or a bug to report)",
		s.Flows-s.FlowsFinished, s.Flows, res.SimEnd)
}

// NewManifest describes a finished run; traceName names its input. Its
// Warnings hold the StalledWarning, if any: callers add their input's.
func NewManifest(cfg *Config, traceName string, res *Result) runfolder.Manifest {
	files := []string{runfolder.FlowsFile, runfolder.MessagesFile, runfolder.PortsFile, runfolder.SummaryFile}
	if cfg.Packets != PacketsNone && cfg.Packets != "" {
		files = append([]string{runfolder.PacketsFile}, files...)
	}
	var perRate []runfolder.ECNRateEcho
	for _, r := range cfg.Switch.ECN.PerRate {
		perRate = append(perRate, runfolder.ECNRateEcho{RateBps: int64(r.Rate), KminBytes: int64(r.KminBytes), KmaxBytes: int64(r.KmaxBytes), Pmax: r.Pmax})
	}
	var warnings []string
	if w := StalledWarning(cfg, res); w != "" {
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
		PacketRows: res.PacketRows, Files: files, Metrics: res.Summary,
	}
}

func writeOutputs(dir string, res *Result) error {
	if err := output.WriteRows(filepath.Join(dir, runfolder.FlowsFile), res.Flows); err != nil {
		return err
	}
	if err := output.WriteRows(filepath.Join(dir, runfolder.MessagesFile), res.Messages); err != nil {
		return err
	}
	return output.WriteRows(filepath.Join(dir, runfolder.PortsFile), res.Ports)
}

// WriteManifest writes summary.json atomically into dir, marked complete:
// the last file of a run folder.
func WriteManifest(dir string, m *runfolder.Manifest) error { return runfolder.Write(dir, m) }
