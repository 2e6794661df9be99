package kernel

import (
	"container/heap"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

// queue is what BenchmarkQueue compares: the radix heap the kernel uses
// and the 4-ary heap it used before.
type queue interface {
	push(event)
	popUntil(units.Time) (event, bool)
}

func (q *heap4) popUntil(until units.Time) (event, bool) {
	if len(q.h) == 0 || q.h[0].at > until {
		return event{}, false
	}
	return q.pop(), true
}

// benchQueue measures one pop plus one push with pending events in
// flight, each new event at the popped one's time plus delta().
func benchQueue(b *testing.B, q queue, pending int, delta func(*rand.Rand) units.Time) {
	rng := rand.New(rand.NewPCG(1, 2))
	var seq uint64
	for i := 0; i < pending; i++ {
		seq++
		q.push(event{at: delta(rng), key: Key{K: uint64(seq)}})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, _ := q.popUntil(units.Never)
		seq++
		q.push(event{at: e.at + delta(rng), key: Key{K: uint64(seq)}})
	}
}

// uniformDelta: ~1000 events spread uniformly over 1 us.
func uniformDelta(rng *rand.Rand) units.Time { return units.Time(rng.IntN(1_000_000)) }

// fabricDelta is the event mix of the 320-host fat-tree (measured on
// cdf:dist=websearch,load=0.3 under DCQCN: 80 % link arrivals, 20 %
// transmitter wake-ups, under 0.1 % timers): an arrival one serialization
// (83.84 ns at 100G, 20.96 ns at 400G, or an ACK's few ns) plus the 1 us
// propagation delay ahead, a wake-up one serialization ahead, on whole
// nanoseconds (the HPCC preset truncates serialization to 1 ns).
func fabricDelta(rng *rand.Rand) units.Time {
	tx := []units.Time{83_000, 20_000, 5_000, 1_000}[rng.IntN(4)]
	if rng.IntN(5) == 0 {
		return tx
	}
	return tx + 1_000_000
}

// BenchmarkQueue compares the radix heap with the 4-ary heap and the
// calendar queue under each event mix (sub-benchmarks RadixUniform,
// Heap4Fabric, ...).
func BenchmarkQueue(b *testing.B) {
	queues := []struct {
		name string
		make func() queue
	}{
		{"Radix", func() queue { return &radixQueue{} }},
		{"Heap4", func() queue { return &heap4{} }},
		{"Calendar", func() queue { return &calendar{} }},
	}
	mixes := []struct {
		name    string
		pending int
		delta   func(*rand.Rand) units.Time
	}{
		{"Uniform", 1000, uniformDelta},
		{"Fabric", 2000, fabricDelta},
	}
	for _, q := range queues {
		for _, m := range mixes {
			b.Run(q.name+m.name, func(b *testing.B) { benchQueue(b, q.make(), m.pending, m.delta) })
		}
	}
}

// The calendar queue the benchmarks compare gives the heap's order too.
func TestCalendarMatchesHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var c calendar
	var h heap4
	var seq uint64
	var now units.Time
	for step := 0; step < 100_000; step++ {
		for k := rng.IntN(3); k > 0 || h.len() == 0; k-- {
			seq++
			e := event{at: now + fabricDelta(rng)*units.Time(rng.IntN(3)), key: Key{K: uint64(seq)}}
			c.push(e)
			h.push(e)
		}
		ec, _ := c.popUntil(units.Never)
		eh, _ := h.popUntil(units.Never)
		if ec != eh {
			t.Fatalf("step %d: calendar %v, heap %v", step, ec, eh)
		}
		now = ec.at
	}
}

// The radix heap takes events out in exactly the heap's order, (time,
// key), with many ties, events scheduled at the current time, and runs cut
// by until (events then scheduled between now and the earliest pending
// one). Half the keys grow with each push, as one node's do; the others are
// random, as those of other nodes scheduling at the same instant can be
// (an event for now may then go before pending ones).
func TestRadixMatchesHeap(t *testing.T) {
	for _, random := range []bool{false, true} {
		testRadixMatchesHeap(t, random)
	}
}

func testRadixMatchesHeap(t *testing.T, randomKeys bool) {
	rng := rand.New(rand.NewPCG(3, 4))
	var r radixQueue
	var h heap4
	var seq uint64
	var now units.Time
	push := func(at units.Time) {
		seq++
		k := Key{K: uint64(seq)}
		if randomKeys {
			k.K |= uint64(rng.IntN(1<<40)) << 20 // seq < 2^20 keeps keys unique
		}
		e := event{at: at, key: k, hk: uint32(seq % 5), arg: int32(seq)}
		r.push(e)
		h.push(e)
	}
	for i := 0; i < 100; i++ {
		push(units.Time(rng.IntN(1000)))
	}
	for step := 0; step < 200_000; step++ {
		until := units.Never
		if rng.IntN(50) == 0 {
			until = now + units.Time(rng.IntN(300))
		}
		er, okr := r.popUntil(until)
		eh, okh := h.popUntil(until)
		if okr != okh || er != eh {
			t.Fatalf("step %d: radix gave (%v %v), heap (%v %v)", step, er, okr, eh, okh)
		}
		if r.len() != h.len() {
			t.Fatalf("step %d: len %d vs %d", step, r.len(), h.len())
		}
		if okr {
			now = er.at
		}
		if len(h.h) > 0 && r.peek() != h.h[0].at {
			t.Fatalf("step %d: peek %v, heap min %v", step, r.peek(), h.h[0].at)
		}
		for k := rng.IntN(3); k > 0 || h.len() == 0; k-- {
			switch rng.IntN(4) {
			case 0:
				push(now)
			case 1:
				push(now + units.Time(rng.IntN(4)))
			default:
				push(now + units.Time(rng.IntN(1<<uint(rng.IntN(40)))))
			}
		}
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
		heap.Push(q, event{at: units.Time(rng.IntN(1_000_000)), key: Key{K: uint64(seq)}})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := heap.Pop(q).(event)
		seq++
		heap.Push(q, event{at: e.at + units.Time(rng.IntN(1_000_000)), key: Key{K: uint64(seq)}})
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

// TestEveryNodeOfTheLargestNetwork registers handlers for the first and
// last of topology.MaxNodes (2^21) nodes and for nodes that share their low
// 20 bits: each gets a key of its own at one instant (no two nodes tie, so
// the order of simultaneous events does not depend on the queue), and the
// keys of nodes below 2^20 are the old 20-bit keys with the node field
// widened: they keep their order (their runs' outputs do not change).
func TestEveryNodeOfTheLargestNetwork(t *testing.T) {
	if MaxNodes < 1<<21 {
		t.Fatalf("MaxNodes = %d, want room for 2^21 nodes (topology.MaxNodes)", MaxNodes)
	}
	s := NewSim(1)
	r := &recorder{}
	nodes := []int32{-1, 0, 1, 5, 1<<20 - 2, 1<<20 - 1, 1 << 20, 1<<20 + 1, 1<<20 + 5, MaxNodes - 1}
	ids := make([]HandlerID, len(nodes))
	for i, n := range nodes {
		ids[i] = s.RegisterAt(r, n)
	}
	seen := map[uint64]int32{}
	for i, id := range ids {
		k := s.NewKey(id)
		if o, ok := seen[k.K]; ok {
			t.Fatalf("nodes %d and %d got the same key %#x", o, nodes[i], k.K)
		}
		seen[k.K] = nodes[i]
		n := uint64(nodes[i] + 1)
		st := k.K >> nodeBits
		if n < 1<<20 {
			old := st<<nodeBits | (n^scramble(st))&(1<<20-1)
			if k.K != old {
				t.Errorf("node %d: key %#x, want the 20-bit layout %#x", nodes[i], k.K, old)
			}
		}
		if got := (k.K ^ scramble(st)&(1<<mixBits-1)) & (1<<nodeBits - 1); got != n {
			t.Errorf("node %d: key %#x does not carry the node (got %d)", nodes[i], k.K, got)
		}
	}
	for _, bad := range []int32{-2, MaxNodes} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("RegisterAt(node %d) did not panic", bad)
				}
			}()
			s.RegisterAt(r, bad)
		}()
	}
}

// Set-up schedules one event per node at time 0 before the first runs,
// in node order, which is not key order (Key mixes the node with the
// stamp). Taking 400,000 such events out in key order must stay
// O(n log n): keeping bucket 0 sorted by insertion moved O(n^2) events
// (8 x 10^10 here; the set-up of a 100,000-flow incast took 46 s, of 400,000
// flows over a minute). The bound is 50 times what the heap takes on a
// loaded 2-core machine.
func TestManySimultaneousEventsAreLinearithmic(t *testing.T) {
	if testing.Short() {
		t.Skip("400,000 events")
	}
	const n = 400_000
	s := NewSim(1)
	r := &counter{}
	ids := make([]HandlerID, n)
	for i := range ids {
		ids[i] = s.RegisterAt(r, int32(i))
	}
	start := time.Now()
	for i := n - 1; i >= 0; i-- {
		s.Schedule(0, ids[i], 0, int32(i))
	}
	var prev Key
	for i := 0; i < n; i++ {
		e, ok := s.q.popUntil(units.Never)
		if !ok || (i > 0 && !prev.Less(e.key)) {
			t.Fatalf("event %d: ok %v, key %v after %v", i, ok, e.key, prev)
		}
		prev = e.key
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("%d simultaneous events took %v to schedule and take out", n, d)
	}
}

type counter struct{ n int }

func (c *counter) Handle(units.Time, uint8, int32) { c.n++ }

// A flag set from elsewhere (SetInterrupt) stops Run within
// interruptSlice events, as Stop would; without it the same chain runs to
// its end, and a budget still ends a run first.
func TestInterruptStopsRun(t *testing.T) {
	const chainLen = 10 * interruptSlice
	s := NewSim(1)
	var flag atomic.Bool
	s.SetInterrupt(&flag)
	c := newChain(s, chainLen)
	s.Schedule(0, c.id, 0, 1)
	if n := s.RunBudget(units.Never, 100); n != 100 || s.Stopped() {
		t.Fatalf("budget of 100: ran %d, stopped %v", n, s.Stopped())
	}
	flag.Store(true)
	n := s.RunBudget(units.Never, ^uint64(0))
	if n > interruptSlice || !s.Stopped() {
		t.Fatalf("interrupted: ran %d more events (stopped %v), want at most %d", n, s.Stopped(), interruptSlice)
	}
	flag.Store(false)
	s.Run(units.Never)
	if len(c.got) != chainLen+1 {
		t.Fatalf("the chain ran %d events, want %d", len(c.got), chainLen+1)
	}
}
