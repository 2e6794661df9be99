package estimate

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"
	"github.com/ccreplay/ccreplay/replay"
)

// BenchmarkNICShares times the NICs' processor sharing (NICShares) over
// every flow of a 1,024-host fat-tree's 5 ms of WebSearch at 30 % load
// (about 11,000 flows), and reports the chunks it keeps per flow.
func BenchmarkNICShares(b *testing.B) {
	topo := replaytest.Topology(b, "fattree:pods=16", 1024)
	tr := replaytest.Workload(b, "cdf:dist=websearch,hosts=1024,bw=100G,load=0.3,duration=5ms", 1)
	cfg := config(b, topo, "dcqcn")
	flows, err := replay.FlowPaths(&cfg, tr)
	if err != nil {
		b.Fatal(err)
	}
	var chunks int
	for b.Loop() {
		pace := NICShares(flows, cfg.NIC.MTUPayload, cfg.NIC.HeaderBytes)
		chunks = 0
		for _, c := range pace {
			chunks += len(c)
		}
	}
	b.ReportMetric(float64(chunks)/float64(len(flows)), "chunks/flow")
	b.ReportMetric(float64(len(flows)), "flows")
}

// BenchmarkPrepare times Prepare (routing, decomposition, features,
// backlogs, clustering) of the same workload with the NICs' shares (the
// default) and alone.
func BenchmarkPrepare(b *testing.B) {
	topo := replaytest.Topology(b, "fattree:pods=16", 1024)
	tr := replaytest.Workload(b, "cdf:dist=websearch,hosts=1024,bw=100G,load=0.3,duration=5ms", 1)
	cfg := config(b, topo, "dcqcn")
	for _, mode := range []string{SenderNICsShares, SenderNICsAlone} {
		b.Run(mode, func(b *testing.B) {
			for b.Loop() {
				if _, err := Prepare(cfg, tr, Options{Tolerance: DefaultTolerance, SenderNICs: mode}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
