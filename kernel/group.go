package kernel

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/ccreplay/ccreplay/units"
)

// Group runs one run split into partitions, one Sim each, on as many
// goroutines: conservative parallel discrete-event simulation in windows
// (Chandy and Misra 1979; Lubachevsky 1989). The caller picks a window
// length no longer than the smallest delay with which a partition's event
// can cause an event in another (the lookahead: a link's propagation
// delay), then repeats: RunWindow(NextAt()+lookahead), and at the
// barrier between two windows it hands each partition what the others
// sent it (Sim.ScheduleKeyed). Within a window the partitions cannot
// affect one another, so they run at once.
//
// Events are ordered by keys that do not depend on the partition that
// runs them (see Key), so a run gives the same results whatever its
// number of partitions, provided that the handlers of one node all live in
// one Sim and touch no other node's state during a window.
//
// Windows are short (a microsecond of simulated time is a few hundred
// microseconds of work), so a goroutine that waits (for the next window,
// or for the other partitions to finish this one) spins for up to
// spinWait, then sleeps until woken: waking a sleeping goroutine costs
// tens of microseconds on a virtual machine, as much as a window's work,
// while spinning longer would keep a core from the partition it waits for
// when the machine is busy with other work.
type Group struct {
	// Sims are the partitions, each with its own clock, queue and counts.
	Sims    []*Sim
	workers []*worker
	epoch   atomic.Uint64 // windows started; the workers follow it
	end     units.Time    // the window's end, written before epoch moves
	done    atomic.Int32  // workers done with the current window
	closed  atomic.Bool
	main    sleeper // RunWindow's goroutine, waiting for the workers
}

type worker struct {
	sim *Sim
	sleeper
}

// sleeper is a goroutine that waits for a condition on atomics: it spins,
// then sleeps on wake until whoever makes the condition true calls signal.
type sleeper struct {
	wake   chan struct{} // a token when the goroutine may be asleep
	asleep atomic.Bool
}

// spinWait is how long a goroutine spins for a condition before it sleeps.
const spinWait = 100 * time.Microsecond

// waitFor returns once ready holds.
func (s *sleeper) waitFor(ready func() bool) {
	var start time.Time
	for i := 1; !ready(); i++ {
		if i&127 != 0 {
			continue
		}
		runtime.Gosched()
		if start.IsZero() {
			start = time.Now()
			continue
		}
		if time.Since(start) < spinWait {
			continue
		}
		// Sleep. The other side makes ready true, then calls signal:
		// one of the two sees the other's write (atomics are
		// sequentially consistent), and a token left over from a race
		// only makes the loop look again.
		s.asleep.Store(true)
		if !ready() {
			<-s.wake
		}
		s.asleep.Store(false)
		start = time.Time{}
	}
}

// signal wakes the goroutine if it sleeps; call it after making its
// condition true.
func (s *sleeper) signal() {
	if s.asleep.Load() {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// NewGroup makes n partitions (n >= 1) whose RNGs are all seeded with
// seed. Close releases its goroutines.
func NewGroup(n int, seed uint64) *Group {
	g := &Group{main: sleeper{wake: make(chan struct{}, 1)}}
	for i := 0; i < n; i++ {
		g.Sims = append(g.Sims, NewSim(seed))
	}
	for i := 1; i < n; i++ {
		g.workers = append(g.workers, &worker{sim: g.Sims[i], sleeper: sleeper{wake: make(chan struct{}, 1)}})
	}
	for _, w := range g.workers {
		go g.work(w, int32(len(g.workers)))
	}
	return g
}

// work runs one partition's windows until Close; n is the number of
// workers.
func (g *Group) work(w *worker, n int32) {
	var seen uint64
	for {
		w.waitFor(func() bool { return g.epoch.Load() != seen })
		seen = g.epoch.Load()
		if g.closed.Load() {
			return
		}
		w.sim.RunBudget(g.end-1, ^uint64(0))
		if g.done.Add(1) == n {
			g.main.signal()
		}
	}
}

// NextAt is the time of the earliest pending event of any partition, or
// units.Never.
func (g *Group) NextAt() units.Time {
	t := units.Never
	for _, s := range g.Sims {
		t = min(t, s.NextAt())
	}
	return t
}

// RunWindow runs, in every partition at once, the events before end, and
// returns when all are done (or stopped: Sim.Err).
func (g *Group) RunWindow(end units.Time) {
	if len(g.workers) == 0 {
		g.Sims[0].RunBudget(end-1, ^uint64(0))
		return
	}
	g.end = end
	g.done.Store(0)
	g.epoch.Add(1)
	for _, w := range g.workers {
		w.signal()
	}
	g.Sims[0].RunBudget(end-1, ^uint64(0))
	n := int32(len(g.workers))
	g.main.waitFor(func() bool { return g.done.Load() == n })
}

// Events is the number of events run by all partitions.
func (g *Group) Events() uint64 {
	var n uint64
	for _, s := range g.Sims {
		n += s.Events
	}
	return n
}

// Err is the first partition's error, or nil (see Sim.Err).
func (g *Group) Err() error {
	for _, s := range g.Sims {
		if err := s.Err(); err != nil {
			return err
		}
	}
	return nil
}

// Close stops the group's goroutines; the group must not run again.
func (g *Group) Close() {
	if g.closed.Swap(true) {
		return
	}
	g.epoch.Add(1)
	for _, w := range g.workers {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}
