package fabric

import (
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// TestPauseStateUnion checks that PausedTime is the union of the pause
// intervals of all classes (IEEE 802.1Qbb: a sender stays stopped while any
// class it has queued is paused), counted once when two overlap, and that
// PausesReceived counts PAUSE frames only.
func TestPauseStateUnion(t *testing.T) {
	us := units.Microsecond
	var s PauseState
	s.RecordPause(1*us, 3, true)
	s.RecordPause(2*us, 5, true) // overlaps class 3's pause
	if !s.ClassPaused(3) || !s.ClassPaused(5) || s.ClassPaused(4) || s.PausedClasses() != 1<<3|1<<5 {
		t.Fatalf("paused classes %08b, want 3 and 5", s.PausedClasses())
	}
	if got := s.PausedUntilNow(4 * us); got != 3*us {
		t.Errorf("PausedUntilNow(4us) = %v during the pause, want 3us", got)
	}
	s.RecordPause(5*us, 3, false)
	s.RecordPause(6*us, 5, false)
	s.RecordPause(8*us, 2, true)
	s.RecordPause(9*us, 2, false)
	if s.PausedTime != 6*us || s.PausesReceived != 3 {
		t.Errorf("PausedTime %v, PausesReceived %d; want 6us (1-6us and 8-9us) and 3", s.PausedTime, s.PausesReceived)
	}
	if got := s.PausedUntilNow(20 * us); got != 6*us {
		t.Errorf("PausedUntilNow(20us) = %v with nothing paused, want 6us", got)
	}
}
