package replay

import (
	"fmt"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

// PFCObserver sees every PAUSE or RESUME frame as it arrives at node's
// port (topology node and port indices), before the frame acts; prio is
// the class it pauses or resumes, pause false for RESUME.
type PFCObserver func(now units.Time, node, port int32, prio uint8, pause bool)

// QueueSampler looks at the switches at fixed times of the run: at Start,
// then every Every after each sample taken before End, so the last sample
// is the first at or after End (the HPCC simulator's queue monitor). The
// samples stop when the run does. Sample must not change the switches.
type QueueSampler struct {
	// Start, Every and End are picoseconds; Every must be > 0.
	Start, Every, End units.Time
	// Sample is called with the time and every switch of the run, in
	// topology order (Switch.ID is the topology node index).
	Sample func(now units.Time, switches []*switchmodel.Switch)
	// Final, when set, is called once when a run completes, with its end
	// time and the switches as they are then (for samples the run ended
	// too early to take).
	Final func(end units.Time, switches []*switchmodel.Switch)
}

func (q *QueueSampler) validate() error {
	switch {
	case q.Sample == nil:
		return fmt.Errorf("queue sampler has no Sample function")
	case q.Every <= 0:
		return fmt.Errorf("queue sampler period must be > 0, got %v", q.Every)
	case q.Start < 0:
		return fmt.Errorf("queue sampler start must not be negative, got %v", q.Start)
	case q.Start > limits.MaxTime:
		return limits.TimeError("queue sampler start", q.Start)
	}
	return nil
}

// pfcWatch passes every packet on to the receiver at the end of a link and
// shows the PFC frames among them to an observer first. The replay puts it
// on the links out of switches only when Config.PFCObserver is set, so a
// run without one pays nothing.
type pfcWatch struct {
	next fabric.Receiver
	node int32
	obs  PFCObserver
}

func (w pfcWatch) Receive(now units.Time, p *fabric.Packet, inPort int32) {
	if p.Kind == fabric.Pause || p.Kind == fabric.Resume {
		w.obs(now, w.node, inPort, p.PausePrio, p.Kind == fabric.Pause)
	}
	w.next.Receive(now, p, inPort)
}

// sampler runs a QueueSampler as events of its own.
type sampler struct {
	q   *QueueSampler
	r   *run
	sim *kernel.Sim
	id  kernel.HandlerID
}

func (r *run) startSampler(q *QueueSampler) {
	s := &sampler{q: q, r: r, sim: r.sim}
	s.id = r.sim.Register(s)
	r.sim.Schedule(q.Start, s.id, 0, 0)
}

// Handle takes one sample and schedules the next.
func (s *sampler) Handle(now units.Time, _ uint8, _ int32) {
	s.q.Sample(now, s.r.sws)
	if now < s.q.End {
		if next := limits.AddTime(now, s.q.Every); next <= limits.ClockLimit {
			s.sim.Schedule(next, s.id, 0, 0)
		}
	}
}
