package kernel

import (
	"container/heap"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

type recorder struct {
	got []int64
	at  []units.Time
}

func (r *recorder) Handle(now units.Time, kind uint8, arg int32) {
	r.got = append(r.got, int64(arg))
	r.at = append(r.at, now)
}

// Events run in (time, insertion) order: equal times keep insertion order,
// which is what makes a run repeatable (docs/ARCHITECTURE.md,
// "Determinism").
func TestOrderByTimeThenSequence(t *testing.T) {
	s := NewSim(1)
	r := &recorder{}
	rid := s.Register(r)
	rng := rand.New(rand.NewPCG(7, 7))
	type want struct {
		at  units.Time
		seq int64
	}
	var ws []want
	for i := 0; i < 5000; i++ {
		at := units.Time(rng.IntN(50)) // many ties
		s.Schedule(at, rid, uint8(i%7), int32(i))
		ws = append(ws, want{at, int64(i)})
	}
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].at < ws[j].at })
	s.Run(units.Never)
	if len(r.got) != len(ws) {
		t.Fatalf("ran %d events, want %d", len(r.got), len(ws))
	}
	for i := range ws {
		if r.got[i] != ws[i].seq || r.at[i] != ws[i].at {
			t.Fatalf("event %d: got (%v,%d) want (%v,%d)", i, r.at[i], r.got[i], ws[i].at, ws[i].seq)
		}
	}
}

type chain struct {
	s    *Sim
	id   HandlerID
	left int
	got  []units.Time
}

func newChain(s *Sim, left int) *chain {
	c := &chain{s: s, left: left}
	c.id = s.Register(c)
	return c
}

func (c *chain) Handle(now units.Time, kind uint8, arg int32) {
	c.got = append(c.got, now)
	if c.left > 0 {
		c.left--
		c.s.Schedule(now+units.Time(arg), c.id, kind, arg)
	}
}

func TestHandlersScheduleMoreAndRunStopsAtUntil(t *testing.T) {
	s := NewSim(1)
	c := newChain(s, 10)
	s.Schedule(0, c.id, 0, 100)
	end := s.Run(450)
	if end != 400 || len(c.got) != 5 {
		t.Fatalf("Run(450) ended at %v after %d events, want 400 and 5", end, len(c.got))
	}
	if s.NextAt() != 500 {
		t.Fatalf("next pending at %v, want 500", s.NextAt())
	}
	s.Run(units.Never)
	if len(c.got) != 11 || c.got[10] != 1000 {
		t.Fatalf("got %v", c.got)
	}
}

func TestSchedulingInThePastPanics(t *testing.T) {
	s := NewSim(1)
	c := newChain(s, 0)
	s.Schedule(10, c.id, 0, 0)
	s.Run(units.Never)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for an event in the past")
		}
	}()
	s.Schedule(5, c.id, 0, 0)
}

func TestSameSeedSameRandomStream(t *testing.T) {
	a, b, c := NewSim(42), NewSim(42), NewSim(43)
	same, diff := true, false
	for i := 0; i < 100; i++ {
		x, y, z := a.Rand.Uint64(), b.Rand.Uint64(), c.Rand.Uint64()
		same = same && x == y
		diff = diff || x != z
	}
	if !same || !diff {
		t.Fatalf("seeded streams: same=%v differ=%v", same, diff)
	}
}

type nop struct{}

func (nop) Handle(units.Time, uint8, int32) {}

// BenchmarkHeap measures one schedule + one pop with ~1000 events pending,
// the regime of a switch fabric with hundreds of busy ports.
func BenchmarkHeap(b *testing.B) {
	s := NewSim(1)
	h := s.Register(nop{})
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1000; i++ {
		s.Schedule(units.Time(rng.IntN(1_000_000)), h, 0, 0)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := s.pop()
		s.now = e.at
		s.Schedule(e.at+units.Time(rng.IntN(1_000_000)), h, 0, 0)
	}
}

// stdEvents is the same workload on container/heap, to compare
// BenchmarkHeap with (the typed 4-ary heap was chosen for measuring
// 1.7-3x faster, with no allocation).
type stdEvents []event

func (q stdEvents) Len() int           { return len(q) }
func (q stdEvents) Less(i, j int) bool { return q[i].less(&q[j]) }
func (q stdEvents) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *stdEvents) Push(x any)        { *q = append(*q, x.(event)) }
func (q *stdEvents) Pop() any {
	old := *q
	n := len(old)
	e := old[n-1]
	*q = old[:n-1]
	return e
}

func BenchmarkContainerHeap(b *testing.B) {
	q := &stdEvents{}
	rng := rand.New(rand.NewPCG(1, 2))
	var seq uint64
	for i := 0; i < 1000; i++ {
		seq++
		heap.Push(q, event{at: units.Time(rng.IntN(1_000_000)), seqKind: seq << 8})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := heap.Pop(q).(event)
		seq++
		heap.Push(q, event{at: e.at + units.Time(rng.IntN(1_000_000)), seqKind: seq << 8})
	}
}

// An event beyond limits.ClockLimit is not scheduled: the run stops and
// Err names the limit (a chain of compute gaps in a trace can add up past
// int64 picoseconds; that is the input's limit, not a panic).
func TestScheduleBeyondClockLimitStopsRun(t *testing.T) {
	s := NewSim(1)
	c := newChain(s, 10)
	s.Schedule(0, c.id, 0, 100)
	s.Schedule(limits.ClockLimit, c.id, 0, 0) // the last representable time is fine
	s.Schedule(limits.ClockLimit+1, c.id, 0, 0)
	if s.Err() == nil || !strings.Contains(s.Err().Error(), "clock limit") {
		t.Fatalf("Err() = %v, want the clock limit", s.Err())
	}
	if n := s.RunBudget(units.Never, 100); n != 0 || s.Events != 0 {
		t.Fatalf("a run with an error ran %d events", n)
	}
	defer func() {
		if recover() == nil {
			t.Error("scheduling in the past did not panic")
		}
	}()
	s2 := NewSim(1)
	c2 := newChain(s2, 1)
	s2.Schedule(10, c2.id, 0, 0)
	s2.Run(units.Never)
	s2.Schedule(5, c2.id, 0, 0)
}

// RunBudget runs at most max events and says how many it ran; slicing a
// run this way gives the same events in the same order as one Run.
func TestRunBudgetSlices(t *testing.T) {
	run := func(slice uint64) []units.Time {
		s := NewSim(1)
		c := newChain(s, 1000)
		s.Schedule(0, c.id, 0, 7)
		for {
			n := s.RunBudget(units.Never, slice)
			if n < slice || s.Stopped() {
				break
			}
		}
		return c.got
	}
	whole, sliced := run(^uint64(0)), run(3)
	if len(whole) != 1001 || !slices.Equal(whole, sliced) {
		t.Fatalf("sliced run differs: %d vs %d events", len(sliced), len(whole))
	}
}
