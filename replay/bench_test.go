package replay

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"
)

// benchRun replays one workload per iteration and reports data packets per
// second of wall time (whole run: build, simulate, collect records).
func benchRun(b *testing.B, topo, cc, wl string, level PacketLevel) {
	tr := replaytest.Workload(b, wl, 1)
	cfg := baseConfig(b, replaytest.Topology(b, topo, tr.Hosts), cc)
	cfg.CheckEvery = 0
	cfg.Packets = level
	out := ""
	if level != PacketsNone {
		out = b.TempDir()
	}
	b.ReportAllocs()
	b.ResetTimer()
	var pkts int64
	for i := 0; i < b.N; i++ {
		res, err := runTo(cfg, tr, out)
		if err != nil {
			b.Fatal(err)
		}
		pkts += res.DataPackets
	}
	b.ReportMetric(float64(pkts)/b.Elapsed().Seconds(), "pkts/s")
}

// BenchmarkRun replays each case below (sub-benchmarks Incast16DCQCN,
// FatTree320WebSearch, ...); on the default star unless a topology is
// named.
func BenchmarkRun(b *testing.B) {
	for _, c := range []struct {
		name, topo, cc, wl string
		level              PacketLevel
	}{
		// The reference: a 16-to-1 incast of 1 MB flows on a 100G star.
		{"Incast16DCQCN", "", "dcqcn", "incast:n=16,size=1MB", PacketsNone},
		{"Incast16DCQCNPacketsData", "", "dcqcn", "incast:n=16,size=1MB", PacketsData},
		{"Incast16LineRate", "", "linerate", "incast:n=16,size=1MB", PacketsNone},
		// The HPCC paper's 320-host fat-tree (100G hosts, 400G fabric).
		{"FatTree320Incast64", "hpcc-fattree", "dcqcn", "incast:n=64,size=1MB", PacketsNone},
		// The fat-tree case at a fifth of its duration: the HPCC
		// paper's 320-host fat-tree under WebSearch at 30 % load, 1 ms of
		// arrivals.
		{"FatTree320WebSearch", "hpcc-fattree", "dcqcn", "cdf:dist=websearch,hosts=320,bw=100G,load=0.3,duration=1ms", PacketsNone},
		// The 16-host star under WebSearch at 30 % load for 20 ms, logging
		// every data packet: the packets.parquet path.
		{"Star16WebSearchPacketsData", "", "dcqcn", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=20ms", PacketsData},
		// One OSU MPI_Alltoall of 1 KiB per rank pair over 256 hosts of the
		// Dolce-RC fat-tree (pairwise exchange, 65,280 queue pairs): many
		// flows, set-up and per-flow state.
		{"FatTree256Alltoall", "dolce-fattree", "dcqcn", "osu-alltoall:nodes=256,ppn=1,sizes=1KiB,warmup=0,iters=1,algo=pairwise", PacketsNone},
		// The 16-host star under WebSearch at 30 % load for 20 ms, no packet
		// log: the ns-3 comparison's star case on one partition.
		{"Star16WebSearch", "", "dcqcn", "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=20ms", PacketsNone},
		// The suite's all-to-all case: one OSU MPI_Alltoall of 256 bytes per
		// rank pair over the 1,024-host Dolce-RC fat-tree (pairwise,
		// 1,047,552 queue pairs).
		{"FatTree1024Alltoall", "dolce-fattree", "dcqcn", "osu-alltoall:nodes=1024,ppn=1,sizes=256,warmup=0,iters=1,algo=pairwise", PacketsNone},
	} {
		b.Run(c.name, func(b *testing.B) { benchRun(b, c.topo, c.cc, c.wl, c.level) })
	}
}
