package otf2_test

import (
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/ingest/otf2"
	"github.com/ccreplay/ccreplay/internal/replaytest/star"
	"github.com/ccreplay/ccreplay/metrics"
)

// TestReplayExample replays the example archive under two congestion
// control algorithms: every message, collective included, must finish,
// and the run must last at least the recorded compute time (3
// iterations, the last two each after 100 us of compute).
func TestReplayExample(t *testing.T) {
	tr, rep, err := otf2.Load(filepath.Join("..", "..", "examples", "otf2_halo8", "traces.otf2"), otf2.Options{PPN: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, cc := range []string{"dctcp", "hpcc"} {
		t.Run(cc, func(t *testing.T) {
			res := star.Run(t, star.Config(t, tr, star.Build(t, all.Registry(), cc, nil)), tr)
			s := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{})
			t.Logf("%s: %d messages, %d collectives, %d ns", cc, s.Messages, s.Collectives, s.SimDurationNs)
			if s.MessagesFinished != s.Messages || s.Messages != int64(len(tr.Messages)) {
				t.Errorf("%d of %d messages finished (trace: %d)", s.MessagesFinished, s.Messages, len(tr.Messages))
			}
			if s.CollectivesFinished != s.Collectives || s.Collectives != rep.Collectives["MPI_Allreduce"] {
				t.Errorf("%d of %d collectives finished", s.CollectivesFinished, s.Collectives)
			}
			if s.SimDurationNs < 200_000 {
				t.Errorf("run of %d ns, shorter than the compute time", s.SimDurationNs)
			}
		})
	}
}
