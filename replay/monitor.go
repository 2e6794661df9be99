package replay

import (
	"fmt"
	"sort"

	"github.com/ccreplay/ccreplay/fabric"
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
// logs the PFC frames among them in the receiving node's partition first;
// the barrier shows them to Config.PFCObserver in the run's event order
// (pfcBarrier). The replay puts it on the links out of switches only when
// Config.PFCObserver is set, so a run without one pays nothing.
type pfcWatch struct {
	next fabric.Receiver
	node int32
	p    *part
}

func (w pfcWatch) Receive(now units.Time, p *fabric.Packet, inPort int32) {
	if p.Kind == fabric.Pause || p.Kind == fabric.Resume {
		w.p.pfc = append(w.p.pfc, pfcFrame{m: w.p.here(now, -1), node: w.node, port: inPort, prio: p.PausePrio, pause: p.Kind == fabric.Pause})
	}
	w.next.Receive(now, p, inPort)
}

// pfcFrame is a PAUSE or RESUME frame's arrival, for Config.PFCObserver.
type pfcFrame struct {
	m          mark
	node, port int32
	prio       uint8
	pause      bool
}

// pfcBarrier shows the window's PFC frames to the observer, in the run's
// event order whatever the partitions.
func (r *run) pfcBarrier() {
	all := r.pfcBuf[:0]
	for _, p := range r.parts {
		all = append(all, p.pfc...)
		p.pfc = p.pfc[:0]
	}
	r.pfcBuf = all[:0]
	if len(all) == 0 {
		return
	}
	// Stable: equal marks come from one event, hence one part.
	sort.SliceStable(all, func(a, b int) bool { return all[a].m.before(all[b].m) })
	for _, f := range all {
		r.cfg.PFCObserver(f.m.at, f.node, f.port, f.prio, f.pause)
	}
}

// sampleBarrier takes the queue samples due by next, the time of the
// earliest pending event: every event before them has run and none at or
// after them, in every partition (step ends windows at sample times), so a
// sample sees the switches as they are just before its time.
func (r *run) sampleBarrier(next, until units.Time) {
	q := r.cfg.QueueSampler
	for r.sampleAt <= next && r.sampleAt <= until {
		t := r.sampleAt
		q.Sample(t, r.sws)
		r.sampleAt = units.Never
		if t < q.End {
			if nx := limits.AddTime(t, q.Every); nx <= limits.ClockLimit {
				r.sampleAt = nx
			}
		}
	}
}
