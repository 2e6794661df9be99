package chakra

import (
	"testing"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
	"github.com/ccreplay/ccreplay/ingest/chakra/internal/etgen"
)

// BenchmarkConvert64 converts 64 ranks that each run 50 training steps
// of compute and a 64 MiB ring all-reduce: 403,200 messages.
func BenchmarkConvert64(b *testing.B) {
	const n, steps = 64, 50
	ranks := etgen.Same(n, func(int) []*etpb.Node {
		var nodes []*etpb.Node
		for s := range uint64(steps) {
			c := etgen.Comp(2*s, 100)
			if s > 0 {
				c.DataDeps = []uint64{2*s - 1}
			}
			nodes = append(nodes, c, etgen.Coll(2*s+1, etpb.CollectiveCommType_ALL_REDUCE, 64<<20, "", 2*s))
		}
		return nodes
	})
	files := make([]*File, n)
	for r, nodes := range ranks {
		f, err := Decode("bench.et", etgen.Encode(nodes))
		if err != nil {
			b.Fatal(err)
		}
		files[r] = f
	}
	b.ResetTimer()
	for range b.N {
		tr, _, err := Convert(files, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(data(tr)) != steps*n*2*(n-1) {
			b.Fatalf("%d messages", len(data(tr)))
		}
	}
}
