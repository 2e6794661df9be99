package metrics

import (
	"cmp"
	"slices"

	v1 "github.com/ccreplay/ccreplay/schema/v1"
)

// buckets cuts the flows, sorted by (size_bytes, flow_id), into n groups of
// equal count; when the count does not divide, the first groups have one
// flow more than the last ones. Fewer than n flows give one bucket each.
func buckets(flows []v1.FlowRow, n int) []Bucket {
	order := make([]int, len(flows))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(
			cmp.Compare(flows[a].SizeBytes, flows[b].SizeBytes),
			cmp.Compare(flows[a].FlowID, flows[b].FlowID),
			cmp.Compare(a, b), // duplicate flow ids: keep row order
		)
	})
	n = min(n, len(flows))
	out := make([]Bucket, 0, n)
	for b, lo := 0, 0; b < n; b++ {
		size := len(flows) / n
		if b < len(flows)%n {
			size++
		}
		out = append(out, bucket(flows, order[lo:lo+size]))
		lo += size
	}
	return out
}

// bucket summarizes the flows at the given indices, sorted by size.
func bucket(flows []v1.FlowRow, idx []int) Bucket {
	b := Bucket{
		SizeMinBytes: flows[idx[0]].SizeBytes,
		SizeMaxBytes: flows[idx[len(idx)-1]].SizeBytes,
		Flows:        int64(len(idx)),
	}
	var fcts []int64
	var sds []float64
	for _, i := range idx {
		f := &flows[i]
		if !finished(f.FinishNs) {
			continue
		}
		b.FlowsFinished++
		fcts = append(fcts, f.FCTNs)
		if isFinite(f.Slowdown) {
			sds = append(sds, f.Slowdown)
		}
	}
	slices.Sort(fcts)
	slices.Sort(sds)
	b.FCTP50Ns, b.FCTP95Ns, b.FCTP99Ns = percentile(fcts, p50), percentile(fcts, p95), percentile(fcts, p99)
	b.SlowdownP50, b.SlowdownP95, b.SlowdownP99 = percentile(sds, p50), percentile(sds, p95), percentile(sds, p99)
	return b
}
