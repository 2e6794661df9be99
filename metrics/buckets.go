package metrics

import (
	"cmp"
	"slices"
)

// buckets cuts the flows, sorted by (size_bytes, flow_id), into n groups of
// equal count; when the count does not divide, the first groups have one
// flow more than the last ones. Fewer than n flows give one bucket each.
// Consecutive groups that hold one and the same size only (all flows of a
// workload 1 MB: ten "1000000-1000000" groups) are merged into one bucket,
// so no two buckets have the same size range.
func buckets(flows []sizedFlow, n int) []Bucket {
	// Sorted by (size, id, row): a total order, so the order does not
	// depend on the sort. The keys are sorted by value, not the rows by
	// index, so that comparisons read adjacent memory rather than two
	// random rows each.
	type key struct {
		size, id int64
		row      int
	}
	keys := make([]key, len(flows))
	for i := range flows {
		keys[i] = key{flows[i].size, flows[i].id, i}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(
			cmp.Compare(a.size, b.size),
			cmp.Compare(a.id, b.id),
			cmp.Compare(a.row, b.row), // duplicate flow ids: keep row order
		)
	})
	order := make([]int, len(flows))
	for k := range keys {
		order[k] = keys[k].row
	}
	n = min(n, len(flows))
	out := make([]Bucket, 0, n)
	start, lo := 0, 0 // the merged run of groups starts at order[start]
	for b := 0; b < n; b++ {
		size := len(flows) / n
		if b < len(flows)%n {
			size++
		}
		hi := lo + size
		// Merge group b into the next when both hold one size only, the
		// same one.
		if b+1 < n {
			next := hi + len(flows)/n
			if b+1 < len(flows)%n {
				next++
			}
			s := flows[order[lo]].size
			if s == flows[order[hi-1]].size && s == flows[order[hi]].size && s == flows[order[next-1]].size {
				lo = hi
				continue
			}
		}
		out = append(out, bucket(flows, order[start:hi]))
		start, lo = hi, hi
	}
	return out
}

// bucket summarizes the flows at the given indices, sorted by size.
func bucket(flows []sizedFlow, idx []int) Bucket {
	b := Bucket{
		SizeMinBytes: flows[idx[0]].size,
		SizeMaxBytes: flows[idx[len(idx)-1]].size,
		Flows:        int64(len(idx)),
	}
	var fcts []int64
	var sds []float64
	for _, i := range idx {
		f := &flows[i]
		if !f.finished {
			continue
		}
		b.FlowsFinished++
		fcts = append(fcts, f.fct)
		if isFinite(f.slowdown) {
			sds = append(sds, f.slowdown)
		}
	}
	slices.Sort(fcts)
	slices.Sort(sds)
	b.FCTP50Ns, b.FCTP95Ns, b.FCTP99Ns = percentile(fcts, p50), percentile(fcts, p95), percentile(fcts, p99)
	b.SlowdownP50, b.SlowdownP95, b.SlowdownP99 = percentile(sds, p50), percentile(sds, p95), percentile(sds, p99)
	return b
}
