package arrowread

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Run is the per-flow, per-message and per-port rows of one run folder,
// everything metrics.Compute needs (a few rows per flow, message and port:
// small next to packets.parquet, which is only ever scanned).
type Run struct {
	Dir      string
	Flows    []v2.FlowRow
	Messages []v2.MessageRow
	Ports    []v2.PortRow
}

// ReadRun reads the flow, message and port files of the run folder rf
// (runfolder.Open), version 2 or 1. A missing file is an error naming it.
func ReadRun(rf *runfolder.Run) (*Run, error) {
	r := &Run{Dir: rf.Dir}
	var err error
	if r.Flows, err = ReadFlows(rf.Path(runfolder.FlowsFile)); err != nil {
		return nil, err
	}
	if r.Messages, err = ReadMessages(rf.Path(runfolder.MessagesFile)); err != nil {
		return nil, err
	}
	if r.Ports, err = ReadPorts(rf.Path(runfolder.PortsFile)); err != nil {
		return nil, err
	}
	return r, nil
}

// ScanPacketStats streams packets.parquet at path through a
// metrics.PacketAccumulator: memory stays that of one row group's pages,
// one record batch and the accumulator's histograms, whatever the number
// of rows. A row the accumulator rejects is an error naming the file and
// the row's index (0-based).
func ScanPacketStats(path string) (metrics.PacketStats, error) {
	return scanPacketStats(context.Background(), path)
}

// checkEvery is how many packet rows a scan reads between two looks at its
// context: a few milliseconds' work.
const checkEvery = 1 << 16

// cancelled returns ctx's error every checkEvery rows (row counts from 0).
func cancelled(ctx context.Context, row int64) error {
	if row%checkEvery != 0 {
		return nil
	}
	return ctx.Err()
}

func scanPacketStats(ctx context.Context, path string) (metrics.PacketStats, error) {
	acc := metrics.NewPacketAccumulator()
	var row int64
	err := ScanPackets(path, func(r *v2.PacketRow) error {
		if err := cancelled(ctx, row); err != nil {
			return err
		}
		if err := acc.Add(r); err != nil {
			return errorf(path, "row %d: %v", row, err)
		}
		row++
		return nil
	})
	if err != nil {
		return metrics.PacketStats{}, err
	}
	return acc.Stats(), nil
}

// Recomputed is a run's metrics recomputed from its Parquet files alone.
type Recomputed struct {
	// Summary is metrics.Compute over the flow, message and port rows:
	// what the run wrote into its manifest's "metrics".
	Summary metrics.Summary
	// Packets is what packets.parquet gave; nil when the run has no
	// packets.parquet (--packets none) or the scan was not asked for.
	Packets *metrics.PacketStats
	// Rows are the flow, message and port rows read.
	Rows *Run
}

// RecomputeOptions tunes Recompute.
type RecomputeOptions struct {
	// Buckets is the number of flow-size buckets (metrics.DefaultBuckets
	// when <= 0, as a run uses).
	Buckets int
	// SkipPackets leaves packets.parquet unread.
	SkipPackets bool
	// Context, when not nil, stops the scan of packets.parquet when it is
	// done (within checkEvery rows): Recompute then returns its error.
	Context context.Context
}

// Recompute reads the run folder rf and recomputes its metrics. Its
// Summary equals the run's own (the manifest's "metrics") bit for bit
// when Buckets is the run's: Compute is a pure function of the rows and
// the files hold them exactly.
func Recompute(rf *runfolder.Run, opt RecomputeOptions) (*Recomputed, error) {
	r, err := ReadRun(rf)
	if err != nil {
		return nil, err
	}
	out := &Recomputed{
		Summary: metrics.Compute(r.Flows, r.Messages, r.Ports, metrics.Options{Buckets: opt.Buckets}),
		Rows:    r,
	}
	if opt.SkipPackets {
		return out, nil
	}
	path := rf.Path(runfolder.PacketsFile)
	switch _, err := os.Stat(path); {
	case errors.Is(err, os.ErrNotExist):
		return out, nil
	case err != nil:
		return nil, fmt.Errorf("arrowread: %w", err)
	}
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ps, err := scanPacketStats(ctx, path)
	if err != nil {
		return nil, err
	}
	out.Packets = &ps
	return out, nil
}

// ScanPhases streams packets.parquet at path through a
// metrics.PhaseAccumulator made from the run's flow rows and its end
// (sim_duration_ns): the per-phase throughput shares of the flows. Memory
// is that of the accumulator (one counter per phase and active flow) and
// one record batch. It stops with ctx's error when ctx is done.
func ScanPhases(ctx context.Context, path string, flows []v2.FlowRow, endNs int64) ([]metrics.Phase, error) {
	acc := metrics.NewPhaseAccumulator(flows, endNs)
	var row int64
	err := ScanPackets(path, func(r *v2.PacketRow) error {
		if err := cancelled(ctx, row); err != nil {
			return err
		}
		row++
		acc.Add(r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return acc.Phases(), nil
}
