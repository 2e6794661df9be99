package gen_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/trace"
)

// closure is the transitive dependency relation of a trace: anc[i] is a
// bitset of the indices of every message that message i waits for,
// directly or through other messages.
type closure struct {
	tr  *trace.Trace
	idx map[int64]int
	anc [][]uint64
}

// ancestors computes the closure; fine for traces of a few thousand
// messages.
func ancestors(t *testing.T, tr *trace.Trace) *closure {
	t.Helper()
	order, err := tr.TopoOrder()
	if err != nil {
		t.Fatal(err)
	}
	n := len(tr.Messages)
	c := &closure{tr: tr, idx: make(map[int64]int, n), anc: make([][]uint64, n)}
	for i, m := range tr.Messages {
		c.idx[m.ID] = i
	}
	words := (n + 63) / 64
	for _, i := range order {
		a := make([]uint64, words)
		for _, d := range tr.Messages[i].Deps {
			j := c.idx[d]
			a[j/64] |= 1 << (j % 64)
			for w, x := range c.anc[j] {
				a[w] |= x
			}
		}
		c.anc[i] = a
	}
	return c
}

// waitsFor reports whether message index i transitively depends on j.
func (c *closure) waitsFor(i, j int) bool { return c.anc[i][j/64]&(1<<(j%64)) != 0 }

// byCollective groups message indices by collective id, skipping -1.
func byCollective(tr *trace.Trace) map[int64][]int {
	out := make(map[int64][]int)
	for i, m := range tr.Messages {
		if m.CollectiveID >= 0 {
			out[m.CollectiveID] = append(out[m.CollectiveID], i)
		}
	}
	return out
}

// countDeps is the number of dependency edges of a trace.
func countDeps(tr *trace.Trace) int {
	n := 0
	for _, m := range tr.Messages {
		n += len(m.Deps)
	}
	return n
}
