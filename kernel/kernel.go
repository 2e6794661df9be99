// Package kernel is the simulator's discrete-event core: integer picosecond
// time, a radix heap of events ordered by (time, Key) that allocates
// nothing per event once its buckets have grown, seeded RNGs, and Group,
// which runs the partitions of one run on several cores with the same
// results as one.
//
// There is no package-level state: every run owns its *Sim or *Group.
package kernel

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"github.com/ccreplay/ccreplay/internal/splitmix"
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

// event is one pending callback, 32 bytes so that queue moves stay cheap.
//
// Events run in the order of (at, key): at is when the event runs, and the
// key (see Key) says when and by whom it was scheduled. hk holds the
// handler in its high 24 bits and the event's kind in the low 8.
type event struct {
	at  units.Time
	key Key
	hk  uint32
	arg int32
}

func (a *event) less(b *event) bool {
	return a.at < b.at || (a.at == b.at && a.key.Less(b.key))
}

// Key orders the events that run at the same time, approximating the
// HPCC ns-3 simulator's rule (the order they were scheduled in, run-wide)
// with what each node knows alone:
//
//   - Sat is when the event was scheduled, picoseconds: earlier first.
//   - K's high 42 bits are a stamp: the time at which the event that
//     scheduled this one had itself been scheduled, in nanoseconds times
//     64 (saturating after 2^36 ns, about 68.7 s), or one more than the
//     scheduling node's previous stamp at this Sat when that is larger.
//     Events scheduled at the same instant by different nodes thus follow
//     the order in which their parents were scheduled; one node's events
//     at one instant follow the order it scheduled them (its parents run
//     in Key order, so their scheduling times never decrease).
//   - K's low 22 bits are the scheduling node (numbered from 0 for "no
//     node" to 2^21, room for topology.MaxNodes), its low 20 bits mixed
//     with the stamp (scramble): what remains tied goes in an order of the
//     nodes that changes from one stamp to the next. Only the low 20 bits
//     are mixed so that networks of fewer than 2^20 nodes keep the order
//     they had when the field was 20 bits wide; nodes that share those
//     bits differ in the two above them, so no two nodes tie.
//
// The order depends only on what each node did, never on how the nodes are
// split among partitions (see Group): this is what makes a run partitioned
// across cores give the same outputs as one core. A run-wide sequence
// cannot be kept across partitions; the parent's time narrows the ties it
// leaves. (Measured on the ns-3 reference's 16-host runs, docs/FIDELITY.md:
// ordering ties by node number always queued the lowest-numbered node's
// packet first among simultaneous arrivals; without the parent's time, six
// mixings of the node order gave the DCQCN run's p95 slowdown ratio
// 1.065-1.174 at seed 1, with it 0.99-1.06.) The zero Key comes before
// any other.
type Key struct {
	Sat units.Time
	K   uint64
}

// Less orders keys.
func (k Key) Less(o Key) bool { return k.Sat < o.Sat || (k.Sat == o.Sat && k.K < o.K) }

// Widths of a Key's fields, and of the handler field of event.hk.
const (
	nodeBits    = 22
	mixBits     = 20 // the node bits mixed with the stamp (see Key)
	stampBits   = 64 - nodeBits
	nsStampBits = 6 // 2^6 stamps per nanosecond before spilling into the next
	maxStampNs  = 1<<(stampBits-nsStampBits) - 1
	handlerBits = 24
	// MaxNodes is how many nodes (see RegisterAt) a Sim can order:
	// 2^21, as many as topology.MaxNodes.
	MaxNodes = 1 << (nodeBits - 1)
	// MaxHandlers is how many handlers a Sim can hold.
	MaxHandlers = 1 << handlerBits
)

// Sim owns the clock, the event queue and the RNG of one run, or of one
// partition of a run (see Group).
type Sim struct {
	now      units.Time
	q        radixQueue
	handlers []Handler
	nodeOf   []uint32    // per handler: its node's position in nodes (0: none)
	nodes    []nodeStamp // per node + 1
	curKey   Key         // key of the event being run
	curBase  uint64      // the stamp its children start from (see nextKey)
	stopped  bool
	err      error
	// interrupt, when set and true, stops Run (see SetInterrupt).
	interrupt *atomic.Bool
	seed      uint64
	// Rand is a source of randomness seeded by NewSim. What a node draws
	// in a partitioned run must come from a stream of its own (NodeRand),
	// not from this one, which the partition's nodes share.
	Rand *rand.Rand
	// Events counts the events executed so far.
	Events uint64
}

// NewSim returns a simulator at time zero whose RNG is seeded with seed.
func NewSim(seed uint64) *Sim {
	return &Sim{
		seed: seed,
		Rand: rand.New(rand.NewPCG(seed, seed^splitmix.Gamma)),
	}
}

// NodeRand returns a random stream of node's own, from the Sim's seed and
// the node number alone: the same in every Sim of a Group, so that what
// the node draws does not depend on the partition that runs it.
func (s *Sim) NodeRand(node int32) *rand.Rand {
	return rand.New(rand.NewPCG(s.seed, splitmix.Next(uint64(node))))
}

// Now is the current simulated time.
func (s *Sim) Now() units.Time { return s.now }

// Pending is the number of scheduled events not yet run.
func (s *Sim) Pending() int { return s.q.len() }

// Register adds h to the run's handlers and returns the id to schedule
// its events with. h belongs to no node: the events it schedules are
// ordered as those of a node numbered -1 (see RegisterAt).
func (s *Sim) Register(h Handler) HandlerID { return s.RegisterAt(h, -1) }

// RegisterAt is Register for a handler of node (0 <= node < MaxNodes):
// the events scheduled for it are ordered by that node's own count (see
// event), so that one node's events keep their order whichever Sim of a
// Group runs it. An event that one node causes at another goes through
// NewKey and ScheduleKeyed.
func (s *Sim) RegisterAt(h Handler, node int32) HandlerID {
	if node < -1 || node >= MaxNodes {
		panic(fmt.Sprintf("kernel.RegisterAt: node %d outside [-1, %d)", node, MaxNodes))
	}
	n := uint32(node + 1)
	for int(n) >= len(s.nodes) {
		s.nodes = append(s.nodes, nodeStamp{sat: -1})
	}
	if len(s.handlers) >= MaxHandlers {
		panic("kernel.RegisterAt: more than 2^24 handlers")
	}
	s.handlers = append(s.handlers, h)
	s.nodeOf = append(s.nodeOf, n)
	return HandlerID(len(s.handlers) - 1)
}

// nodeStamp is what a node's next Key depends on: when it last scheduled
// an event, and the stamp it gave it.
type nodeStamp struct {
	sat   units.Time
	stamp uint64
}

// stampBase is the lowest stamp of the events scheduled by an event that
// was itself scheduled at sat (see Key).
func stampBase(sat units.Time) uint64 {
	return min(uint64(max(sat, 0)/units.Nanosecond), maxStampNs) << nsStampBits
}

// nextKey is the key of an event scheduled now by node n (a position in
// nodes).
func (s *Sim) nextKey(n uint32) Key {
	ns := &s.nodes[n]
	st := ns.stamp + 1
	if ns.sat != s.now {
		ns.sat, st = s.now, 1
	}
	st = max(st, s.curBase)
	ns.stamp = st
	return Key{Sat: s.now, K: st<<nodeBits | uint64(n) ^ scramble(st)&(1<<mixBits-1)}
}

// scramble mixes a stamp into the order of the nodes that share it (see
// Key): a different order at every stamp, not always the lowest node first.
func scramble(st uint64) uint64 {
	st ^= st >> 33
	st *= 0xff51afd7ed558ccd
	st ^= st >> 33
	return st
}

// NewKey takes the key of an event that h's node causes now but hands to
// another handler, perhaps of another node in another Sim of a Group, to
// schedule later (a packet's arrival at the far end of a link): see
// ScheduleKeyed. It counts as one event scheduled by that node.
func (s *Sim) NewKey(h HandlerID) Key { return s.nextKey(s.nodeOf[h]) }

// CurrentKey is the key of the event being run: with its time, it places
// what the event does among the events of every node (see Group).
func (s *Sim) CurrentKey() Key { return s.curKey }

// ScheduleKeyed is Schedule with a key taken earlier by NewKey (in this
// Sim or another of the same Group): the event is ordered as if scheduled
// then.
func (s *Sim) ScheduleKeyed(at units.Time, k Key, h HandlerID, kind uint8, arg int32) {
	if uint64(at-s.now) > uint64(limits.ClockLimit-s.now) {
		s.badTime(at, kind)
		return
	}
	s.q.push(event{at: at, key: k, hk: uint32(h)<<8 | uint32(kind), arg: arg})
}

// Schedule arranges for the handler's Handle(at, kind, arg) to run at time
// at, ordered among events at that time as scheduled now by the handler's
// own node (see event and RegisterAt): a node schedules only its own
// events this way. Scheduling in the past is a bug in the caller and panics. An event
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
	s.q.push(event{at: at, key: s.nextKey(s.nodeOf[h]), hk: uint32(h)<<8 | uint32(kind), arg: arg})
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
	// costs one comparison per event and no extra counter; the interrupt
	// flag is looked at between slices of interruptSlice events.
	for more := true; more && !s.stopped && s.Events < end; {
		slice := end
		if s.interrupt != nil {
			if s.interrupt.Load() {
				s.stopped = true
				break
			}
			slice = min(end, s.Events+interruptSlice)
		}
		for s.Events < slice && !s.stopped {
			e, ok := s.q.popUntil(until)
			if !ok {
				more = false
				break
			}
			s.now = e.at
			s.Events++
			s.curKey = e.key
			s.curBase = stampBase(e.key.Sat)
			s.handlers[e.hk>>8].Handle(e.at, uint8(e.hk), e.arg)
		}
	}
	s.curKey, s.curBase = Key{}, 0 // what is scheduled between runs has no parent
	return s.Events - start
}

// interruptSlice is how many events Run and RunBudget run between two looks
// at the interrupt flag (see SetInterrupt): a few milliseconds' work.
const interruptSlice = 1 << 16

// SetInterrupt makes Run and RunBudget stop, as by Stop, within
// interruptSlice events of f becoming true. f may be set from any
// goroutine (a signal handler's): it is how a run that another goroutine
// abandons stops in the middle of a long window. The Sim must not be run
// on after that: its events were cut at an arbitrary point.
func (s *Sim) SetInterrupt(f *atomic.Bool) { s.interrupt = f }

// NextAt is the time of the earliest pending event, or units.Never.
func (s *Sim) NextAt() units.Time { return s.q.peek() }
