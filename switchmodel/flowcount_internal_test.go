package switchmodel

import "testing"

// The flow set grows to the highest flow id seen and then allocates
// nothing per update (FDCC, Zhang 2023, Algorithm 2 lines 2-11).
func TestFlowSetSteadyStateAllocatesNothing(t *testing.T) {
	var s flowSet
	s.update(4095, false) // grown to 64 words
	s.update(4095, true)
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		s.update(int32(i%4096), i%3 == 0)
		i++
	})
	if allocs != 0 {
		t.Errorf("%v allocations per update", allocs)
	}
	if len(s.bits) != 64 {
		t.Errorf("set of ids < 4096 holds %d words, want 64", len(s.bits))
	}
}

// BenchmarkFlowSetUpdate is one Algorithm 2 update alone: 1024 flows in
// turn, every 16th round of packets the last of their messages.
func BenchmarkFlowSetUpdate(b *testing.B) {
	var s flowSet
	const flows = 1024
	s.update(flows-1, false)
	var sum int32
	for i := 0; b.Loop(); i++ {
		sum += s.update(int32(i%flows), (i/flows)%16 == 15)
	}
	_ = sum
}

// Data packets always carry a flow id; a negative one is a bug upstream
// and panics rather than growing the set without bound.
func TestFlowSetNegativeIDPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("flow id -1 did not panic")
		}
	}()
	var s flowSet
	s.update(-1, false)
}
