// Package kernel is the simulator's discrete-event core: integer picosecond
// time, a radix heap of events ordered by (time, insertion sequence) that
// allocates nothing per event once its buckets have grown, and the run's
// one seeded RNG.
//
// There is no package-level state: every run owns its *Sim.
package kernel

import (
	"fmt"
	"math/rand/v2"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// Handler receives the events it scheduled. kind and arg are the values
// passed to Schedule; their meaning belongs to the handler.
type Handler interface {
	Handle(now units.Time, kind uint8, arg int32)
}

// HandlerID names a registered Handler (see Sim.Register).
type HandlerID uint32

// event is one pending callback, 24 bytes so that queue moves stay cheap.
// Events at equal times run in the order they were scheduled: seqKind
// holds the insertion sequence in its high 56 bits and the kind in the low
// 8, so comparing it compares sequences.
type event struct {
	at      units.Time
	seqKind uint64
	h       HandlerID
	arg     int32
}

func (a *event) less(b *event) bool {
	return a.at < b.at || (a.at == b.at && a.seqKind < b.seqKind)
}

// Sim owns the clock, the event queue and the RNG of one run.
type Sim struct {
	now      units.Time
	seq      uint64
	q        radixQueue
	handlers []Handler
	stopped  bool
	err      error
	// Rand is the run's only source of randomness, seeded by NewSim.
	Rand *rand.Rand
	// Events counts the events executed so far.
	Events uint64
}

// NewSim returns a simulator at time zero whose RNG is seeded with seed.
func NewSim(seed uint64) *Sim {
	return &Sim{
		Rand: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
	}
}

// Now is the current simulated time.
func (s *Sim) Now() units.Time { return s.now }

// Pending is the number of scheduled events not yet run.
func (s *Sim) Pending() int { return s.q.len() }

// Register adds h to the run's handlers and returns the id to schedule
// its events with.
func (s *Sim) Register(h Handler) HandlerID {
	s.handlers = append(s.handlers, h)
	return HandlerID(len(s.handlers) - 1)
}

// Schedule arranges for the handler's Handle(at, kind, arg) to run at time
// at. Scheduling in the past is a bug in the caller and panics. An event
// later than limits.ClockLimit is not scheduled: the run stops and Err
// says why (inputs can chain compute gaps and timeouts past what int64
// picoseconds hold; that is the input's limit, not a bug).
func (s *Sim) Schedule(at units.Time, h HandlerID, kind uint8, arg int32) {
	// One unsigned comparison checks now <= at <= ClockLimit (at - now
	// wraps to a huge value when at < now).
	if uint64(at-s.now) > uint64(limits.ClockLimit-s.now) {
		s.badTime(at, kind)
		return
	}
	s.seq++
	s.q.push(event{at: at, seqKind: s.seq<<8 | uint64(kind), h: h, arg: arg})
}

// badTime handles a Schedule call outside [now, limits.ClockLimit].
func (s *Sim) badTime(at units.Time, kind uint8) {
	if at < s.now {
		panic(fmt.Sprintf("kernel.Schedule: event at %v is before now %v (kind %d)", at, s.now, kind))
	}
	if s.err == nil {
		s.err = fmt.Errorf("at simulated time %s an event fell beyond the clock limit of %s (a chain of compute gaps or timers too long for int64 picoseconds; see docs/LIMITS.md)", limits.Describe(s.now), limits.Describe(limits.ClockLimit))
	}
	s.stopped = true
}

// Err is the error that stopped the run early (an event beyond
// limits.ClockLimit), or nil.
func (s *Sim) Err() error { return s.err }

// Stop makes Run return after the current event.
func (s *Sim) Stop() { s.stopped = true }

// Stopped reports whether the last Run or RunBudget ended by Stop (or by
// an event beyond the clock limit).
func (s *Sim) Stopped() bool { return s.stopped }

// Run executes events in order until none is left, Stop is called, or the
// next event is later than until (which is then left pending). It returns
// the time of the last event run.
func (s *Sim) Run(until units.Time) units.Time {
	s.RunBudget(until, ^uint64(0))
	return s.now
}

// RunBudget is Run that also returns after max events, so that a caller
// can look at the wall clock, a context or a progress display between
// slices of a long run without moving simulated time in fixed steps. It
// returns the number of events run; fewer than max means Run's own
// conditions ended it (no event left, Stop, or the next event later than
// until).
func (s *Sim) RunBudget(until units.Time, max uint64) uint64 {
	if s.err != nil {
		return 0
	}
	s.stopped = false
	start := s.Events
	end := start + max
	if end < start {
		end = ^uint64(0) // saturate: no budget
	}
	// NB: the loop counts with s.Events alone, so that slicing a run
	// costs one comparison per event and no extra counter.
	for s.Events < end && !s.stopped {
		e, ok := s.q.popUntil(until)
		if !ok {
			break
		}
		s.now = e.at
		s.Events++
		s.handlers[e.h].Handle(e.at, uint8(e.seqKind), e.arg)
	}
	return s.Events - start
}

// NextAt is the time of the earliest pending event, or units.Never.
func (s *Sim) NextAt() units.Time { return s.q.peek() }
