package fidelity

import (
	"github.com/ccreplay/ccreplay/metrics"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// ccreplayGroups cuts the flows, in order (sorted by size), into
// ccreplay's flow-size buckets: n groups of equal count, the first ones a
// flow larger when n does not divide, consecutive groups holding one and
// the same size merged (metrics.Compute's rule, docs/OUTPUTS.md). The
// rule is not reimplemented: metrics.Compute buckets flow rows whose
// flow_id is their position in order (it sorts by size, then flow_id, so
// its order is this one) and its buckets' flow counts cut order.
func ccreplayGroups(fs []FlowDiff, order []int, n int) [][]int {
	rows := make([]v2.FlowRow, len(order))
	for k, i := range order {
		rows[k] = v2.FlowRow{FlowID: int64(k), SizeBytes: fs[i].SizeBytes, FinishNs: fs[i].StartNs + fs[i].FCTRefNs,
			StartNs: fs[i].StartNs, FCTNs: fs[i].FCTRefNs, Slowdown: fs[i].SlowdownRef}
	}
	var out [][]int
	at := 0
	for _, b := range metrics.Compute(rows, nil, nil, metrics.Options{Buckets: n}).Buckets {
		out = append(out, order[at:at+int(b.Flows)])
		at += int(b.Flows)
	}
	return out
}
