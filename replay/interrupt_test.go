package replay

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/internal/replaytest"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// A cancelled context stops a run between two event slices: RunContext
// returns an *InterruptedError wrapping context.Canceled (that a run
// folder then holds no file is runner's TestCancelLeavesNoFile).
func TestRunContextCancelStops(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=16,size=20MB", 1)
	cfg := baseConfig(t, replaytest.Topology(t, "", tr.Hosts), "dcqcn")
	cfg.Packets = PacketsData
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	cfg.Progress = func(now units.Time, delivered, total int) {
		if calls.Add(1) == 3 {
			cancel()
		}
	}
	cfg.PacketSink = &discard{}
	_, err := RunContext(ctx, cfg, tr)
	var ie *InterruptedError
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) || ie.At <= 0 {
		t.Fatalf("err = %v, want an InterruptedError wrapping context.Canceled", err)
	}
	if !strings.HasPrefix(err.Error(), "interrupted at simulated time ") {
		t.Errorf("message %q", err)
	}
}

// discard is a packet sink that counts rows.
type discard struct{ rows int }

func (d *discard) Append(v2.PacketRow) { d.rows++ }

// Regression: the progress loop stepped simulated time by 100 us from the
// last event's time, so an idle gap longer than that (a message released
// at 50 ms) never advanced and the run never ended. Progress now comes
// between event slices; the run ends and reports its last state.
func TestProgressWithLongIdleGapEnds(t *testing.T) {
	tr := &trace.Trace{Hosts: 2, Messages: []trace.Message{
		{ID: 0, Src: 0, Dst: 1, Bytes: 1000, FlowID: -1, CollectiveID: -1, Iteration: -1, SrcRank: -1, DstRank: -1},
		{ID: 1, Src: 1, Dst: 0, Bytes: 1000, Release: 50 * units.Millisecond, FlowID: -1, CollectiveID: -1, Iteration: -1, SrcRank: -1, DstRank: -1},
	}}
	cfg := baseConfig(t, replaytest.Topology(t, "", tr.Hosts), "dcqcn")
	var last [2]int
	cfg.Progress = func(now units.Time, delivered, total int) { last = [2]int{delivered, total} }
	done := make(chan *Result)
	go func() {
		res, err := Run(cfg, tr)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	var res *Result
	select {
	case res = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the run did not end (progress stuck on an idle gap)")
	}
	if res == nil || last != [2]int{2, 2} || res.SimEnd < 50*units.Millisecond {
		t.Fatalf("progress ended at %v, result %+v", last, res)
	}
}
