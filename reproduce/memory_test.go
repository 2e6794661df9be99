package reproduce

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/replay"
)

// heapWhileJudged runs a synthetic experiment of two runs of perRun
// messages each (2-to-1 incasts of 1 KB flows, one message a flow) and
// returns the live heap, bytes, measured by its one claim: after every run
// has finished, while Execute holds the Outcomes it judges.
func heapWhileJudged(t *testing.T, perRun int) uint64 {
	t.Helper()
	run := func(cca string) Run {
		f := runFile(fmt.Sprintf("incast:n=2,per_host=%d,size=1KB", perRun/2), "star:hosts=3", cca)
		return Run{Label: "cca=" + part(cca), Config: f}
	}
	var heap uint64
	e := &Experiment{
		Name: "memory", Paper: "none", Title: "heap while judged",
		Runs: func(Scale) []Run { return []Run{run("dcqcn"), run("hpcc")} },
		Claims: func(Scale) []Claim {
			return []Claim{{ID: "heap", What: "live heap", Paper: 1, Kind: Quantity, Factor: 2,
				Measure: func(o Outcomes) (float64, error) {
					for _, oc := range o {
						if !oc.Done || oc.Summary.Flows != int64(perRun) {
							return 0, fmt.Errorf("run %s: done %v, %d flows, want %d", oc.Run.Label, oc.Done, oc.Summary.Flows, perRun)
						}
					}
					runtime.GC()
					runtime.GC()
					var ms runtime.MemStats
					runtime.ReadMemStats(&ms)
					heap = ms.HeapAlloc
					return 1, nil
				}}}
		},
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := Execute(context.Background(), e, Options{Out: out, Parallel: 1, Registry: all.Registry()}); err != nil {
		t.Fatal(err)
	}
	return heap
}

// TestOutcomesHoldNoRows: what Execute keeps of a finished run until the
// claims are judged does not grow with the run's messages (issue 33,
// finding 4: the rows of every run, about 336 B a message, were kept to
// the end, 2.4 M messages in dolce-fig5 at the full scale). The live heap
// while judging two runs of 16,000 messages is within 16 B a message of
// that of two runs of 4,000; keeping the rows (or the traces) costs over
// 300 B a message.
func TestOutcomesHoldNoRows(t *testing.T) {
	if testing.Short() {
		t.Skip("runs four replays")
	}
	const n = 4000
	small, large := heapWhileJudged(t, n), heapWhileJudged(t, 4*n)
	grown := float64(int64(large)-int64(small)) / float64(2*3*n) // per message of each run
	t.Logf("live heap while judged: %d B (2 x %d messages), %d B (2 x %d): %.1f B per message more", small, n, large, 4*n, grown)
	if grown > 16 {
		t.Errorf("the live heap while judging grows by %.1f B per message of the runs judged (%d B at 2 x %d messages, %d B at 2 x %d), want at most 16", grown, small, n, large, 4*n)
	}
}

// Execute gives Options.CheckMemory every run's replay.EstimateMemory and
// Parallel once all are resolved, before any starts; its refusal is
// Execute's error, and nothing is left at Out.
func TestCheckMemoryBeforeAnyRun(t *testing.T) {
	run := func(n int, cca string) Run {
		return Run{Label: "cca=" + part(cca), Config: runFile(fmt.Sprintf("incast:n=%d,size=1KB", n), "star:hosts=9", cca)}
	}
	e := &Experiment{
		Name: "budget", Paper: "none", Title: "memory check",
		Runs: func(Scale) []Run { return []Run{run(2, "dcqcn"), run(8, "hpcc")} },
		Claims: func(Scale) []Claim {
			return []Claim{{ID: "never", What: "not measured", Paper: 1, Kind: Quantity, Factor: 2,
				Measure: func(Outcomes) (float64, error) { return 0, errors.New("a run started") }}}
		},
	}
	out := filepath.Join(t.TempDir(), "out")
	refused := errors.New("refused")
	var got []replay.MemoryEstimate
	_, err := Execute(context.Background(), e, Options{Out: out, Parallel: 3, Registry: all.Registry(),
		CheckMemory: func(each []replay.MemoryEstimate, parallel int) error {
			if parallel != 3 {
				t.Errorf("parallel %d, want 3", parallel)
			}
			got = each
			return refused
		}})
	if !errors.Is(err, refused) {
		t.Fatalf("Execute: %v, want the refusal", err)
	}
	if len(got) != 2 || got[0].Messages != 2 || got[1].Messages != 8 || got[0].Hosts != 9 ||
		got[1].Bytes != replay.MemBase+8*replay.MemPerMessage+9*replay.MemPerHost {
		t.Errorf("estimates %+v, want 2 and 8 messages on 9 hosts", got)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s after a refusal: %v", out, err)
	}
	if names, _ := os.ReadDir(filepath.Dir(out)); len(names) != 0 {
		t.Errorf("refusal left %d entries beside %s", len(names), out)
	}
}
