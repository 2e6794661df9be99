package fabric

import "github.com/ccreplay/ccreplay/units"

// PauseState is the PFC state of a sender its peer's PAUSE frames stop (a
// host's NIC, a switch's egress port): which priority classes are paused
// and for how long at least one of them was. The sender embeds it and
// calls RecordPause for every PAUSE and RESUME it receives; what a RESUME
// restarts (flows, the port's transmitter) stays the sender's own.
type PauseState struct {
	classes uint8 // bit i set while priority i is paused by the peer
	since   units.Time

	// PausedTime is how long at least one class was paused (the union of
	// the pause intervals, up to the last RESUME), picoseconds.
	PausedTime units.Time
	// PausesReceived counts PAUSE frames.
	PausesReceived int64
}

// RecordPause records a PAUSE (on) or RESUME (!on) of class prio at now.
func (s *PauseState) RecordPause(now units.Time, prio uint8, on bool) {
	was := s.classes != 0
	if on {
		s.classes |= 1 << prio
		s.PausesReceived++
	} else {
		s.classes &^= 1 << prio
	}
	switch is := s.classes != 0; {
	case is && !was:
		s.since = now
	case !is && was:
		s.PausedTime += now - s.since
	}
}

// PausedClasses is the set of paused classes: bit i set while priority i
// is paused.
func (s *PauseState) PausedClasses() uint8 { return s.classes }

// ClassPaused reports whether priority prio is paused.
func (s *PauseState) ClassPaused(prio uint8) bool { return s.classes&(1<<prio) != 0 }

// PausedUntilNow is PausedTime plus the current pause, if any, up to now.
func (s *PauseState) PausedUntilNow(now units.Time) units.Time {
	if s.classes != 0 {
		return s.PausedTime + now - s.since
	}
	return s.PausedTime
}
