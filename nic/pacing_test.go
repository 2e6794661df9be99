package nic

import (
	"math/rand/v2"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// The pacing heap pops flows earliest first (ties by id) after any mix of
// pushes and removals from the middle (RepaceOnRateChange re-times a
// pacing flow by removing and pushing it).
func TestPacingHeapRemove(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		var h pacingHeap
		in := map[*Flow]bool{}
		for i := 0; i < 1+rng.IntN(40); i++ {
			f := &Flow{ID: int32(i), nextAvail: units.Time(rng.IntN(20))}
			h.push(f)
			in[f] = true
		}
		for _, f := range append([]*Flow(nil), h.h...) {
			if rng.IntN(3) == 0 {
				h.remove(f)
				delete(in, f)
			}
		}
		var prev *Flow
		for h.len() > 0 {
			f := h.pop()
			if !in[f] {
				t.Fatalf("trial %d: popped a removed or unknown flow %d", trial, f.ID)
			}
			delete(in, f)
			if prev != nil && earlier(f, prev) {
				t.Fatalf("trial %d: popped %d@%v after %d@%v", trial, f.ID, f.nextAvail, prev.ID, prev.nextAvail)
			}
			prev = f
		}
		if len(in) != 0 {
			t.Fatalf("trial %d: %d flows never popped", trial, len(in))
		}
	}
}
