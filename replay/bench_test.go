package replay

import (
	"testing"
)

// benchRun replays one workload per iteration and reports data packets per
// second of wall time (whole run: build, simulate, collect records).
func benchRun(b *testing.B, topo, cc, wl string, level PacketLevel) {
	tr := mustGen(b, wl, 1)
	cfg := baseConfig(b, mustTopo(b, topo, tr.Hosts), cc)
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
		res, err := Run(cfg, tr, out)
		if err != nil {
			b.Fatal(err)
		}
		pkts += res.DataPackets
	}
	b.ReportMetric(float64(pkts)/b.Elapsed().Seconds(), "pkts/s")
}

// The reference: a 16-to-1 incast of 1 MB flows on a 100G star.
func BenchmarkRunIncast16DCQCN(b *testing.B) {
	benchRun(b, "", "dcqcn", "incast:n=16,size=1MB", PacketsNone)
}

func BenchmarkRunIncast16DCQCNPacketsData(b *testing.B) {
	benchRun(b, "", "dcqcn", "incast:n=16,size=1MB", PacketsData)
}

func BenchmarkRunIncast16LineRate(b *testing.B) {
	benchRun(b, "", "linerate", "incast:n=16,size=1MB", PacketsNone)
}

// The HPCC paper's 320-host fat-tree (100G hosts, 400G fabric).
func BenchmarkRunFatTree320Incast64(b *testing.B) {
	benchRun(b, "hpcc-fattree", "dcqcn", "incast:n=64,size=1MB", PacketsNone)
}
