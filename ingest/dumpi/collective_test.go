package dumpi

import (
	"math/bits"
	"testing"
)

// knowledge runs the messages of a decomposed collective in step order
// and returns, per rank, the set of ranks whose data it holds at the end
// (a message carries everything its sender held when the step began).
func knowledge(n int, msgs []collMsg) []map[int32]bool {
	know := make([]map[int32]bool, n)
	for r := range know {
		know[r] = map[int32]bool{int32(r): true}
	}
	for i := 0; i < len(msgs); {
		j := i
		for j < len(msgs) && msgs[j].step == msgs[i].step {
			j++
		}
		snap := make([]map[int32]bool, n)
		for r := range know {
			snap[r] = map[int32]bool{}
			for k := range know[r] {
				snap[r][k] = true
			}
		}
		for _, m := range msgs[i:j] {
			for k := range snap[m.src] {
				know[m.dst][k] = true
			}
		}
		i = j
	}
	return know
}

func uniformOps(n int, root int32, b int64) []*collOp {
	ops := make([]*collOp, n)
	for r := range ops {
		ops[r] = &collOp{root: root, bytes: b}
	}
	return ops
}

// TestDecompose checks every algorithm over communicators of 1 to 9
// ranks: the number of steps and messages, their bytes, that no rank sends
// to itself, steps are in order, and that the data ends where the
// collective puts it (everyone has everything after Barrier, Allreduce,
// Allgather; the root after Reduce and Gather; everyone has the root's
// after Bcast and Scatter; Scan's rank r has ranks 0..r; every ordered
// pair meets once in Alltoall).
func TestDecompose(t *testing.T) {
	for n := 1; n <= 9; n++ {
		log2 := bits.Len(uint(n - 1)) // ceil(log2 n)
		p := 1 << (bits.Len(uint(n)) - 1)
		for _, c := range []struct {
			fn    FuncID
			root  int32
			msgs  int
			steps int
			bytes int64 // per message
		}{
			{fnBarrier, -1, n * log2, log2, 0},
			{fnBcast, int32(n / 2), n - 1, log2, 100},
			{fnReduce, int32(n - 1), n - 1, log2, 100},
			{fnAllreduce, -1, p*bits.TrailingZeros(uint(p)) + 2*(n-p), bits.TrailingZeros(uint(p)) + 2*min(n-p, 1), 100},
			{fnScan, -1, -1, log2, 100},
			{fnAlltoall, -1, n * (n - 1), n - 1, 100},
			{fnAllgather, -1, n * (n - 1), n - 1, 100},
			{fnGather, 0, n - 1, min(n-1, 1), 100},
			{fnScatter, int32(n - 1), n - 1, min(n-1, 1), 100},
		} {
			msgs, err := decompose(c.fn, uniformOps(n, c.root, c.bytes))
			if err != nil {
				t.Fatalf("%v over %d: %v", c.fn, n, err)
			}
			if c.msgs >= 0 && len(msgs) != c.msgs {
				t.Errorf("%v over %d: %d messages, want %d", c.fn, n, len(msgs), c.msgs)
			}
			steps := map[int32]bool{}
			last := int32(0)
			for _, m := range msgs {
				steps[m.step] = true
				if m.src == m.dst || m.bytes != c.bytes || m.step < last || m.src < 0 || int(m.dst) >= n {
					t.Fatalf("%v over %d: message %+v", c.fn, n, m)
				}
				last = m.step
			}
			if len(steps) != c.steps {
				t.Errorf("%v over %d: %d steps, want %d", c.fn, n, len(steps), c.steps)
			}
			know := knowledge(n, msgs)
			has := func(r, k int) bool { return know[r][int32(k)] }
			for r := range n {
				for k := range n {
					var want bool
					switch c.fn {
					case fnBarrier, fnAllreduce, fnAllgather:
						want = true
					case fnBcast, fnScatter:
						want = k == r || k == int(c.root)
					case fnReduce, fnGather:
						want = k == r || r == int(c.root)
					case fnScan:
						want = k <= r
					case fnAlltoall:
						want = true // checked by pairs below
					}
					if want && !has(r, k) {
						t.Errorf("%v over %d: rank %d lacks rank %d's data", c.fn, n, r, k)
					}
				}
			}
			if c.fn == fnAlltoall {
				pairs := map[[2]int32]int{}
				for _, m := range msgs {
					pairs[[2]int32{m.src, m.dst}]++
				}
				if len(pairs) != n*(n-1) {
					t.Errorf("alltoall over %d: %d distinct pairs", n, len(pairs))
				}
			}
		}
	}
}

// TestDecomposeVariants checks the per-rank sizes of the -v collectives
// and the errors for inconsistent calls.
func TestDecomposeVariants(t *testing.T) {
	ops := []*collOp{{counts: []int64{0, 10, 20}}, {counts: []int64{1, 0, 0}}, {counts: []int64{2, 0, 0}}}
	msgs, err := decompose(fnAlltoallv, ops)
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]int32]int64{}
	for _, m := range msgs {
		got[[2]int32{m.src, m.dst}] = m.bytes
	}
	want := map[[2]int32]int64{{0, 1}: 10, {0, 2}: 20, {1, 0}: 1, {2, 0}: 2} // zero counts send nothing
	if len(got) != len(want) {
		t.Fatalf("alltoallv %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("alltoallv %v: %d B, want %d", k, got[k], v)
		}
	}
	// Allgatherv over 3: every block travels twice around the ring.
	same := []int64{5, 6, 7}
	msgs, err = decompose(fnAllgatherv, []*collOp{{counts: same}, {counts: same}, {counts: same}})
	total := int64(0)
	for _, m := range msgs {
		total += m.bytes
	}
	if err != nil || len(msgs) != 6 || total != 2*(5+6+7) {
		t.Errorf("allgatherv: %d messages, %d B, %v", len(msgs), total, err)
	}
	for _, c := range []struct {
		fn  FuncID
		ops []*collOp
	}{
		{fnBcast, []*collOp{{root: 0}, {root: 1}}},
		{fnGather, []*collOp{{root: 2}, {root: 2}}},
		{fnAlltoallv, []*collOp{{counts: []int64{1}}, {counts: []int64{1, 2}}}},
		{fnCommRank, []*collOp{{}}},
	} {
		if _, err := decompose(c.fn, c.ops); err == nil {
			t.Errorf("%v %+v accepted", c.fn, c.ops)
		}
	}
}
