package replay

import (
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// StalledWarning speaks only for a run without a time limit that ended
// with flows unfinished.
func TestStalledWarning(t *testing.T) {
	res := &Result{SimEnd: 3 * units.Millisecond}
	res.Summary.Flows, res.Summary.FlowsFinished = 10, 7
	if w := StalledWarning(&Config{}, res); !strings.Contains(w, "3 of 10 flows never finished") || !strings.Contains(w, "3ms") {
		t.Errorf("warning = %q", w)
	}
	if w := StalledWarning(&Config{MaxTime: units.Millisecond}, res); w != "" {
		t.Errorf("with a time limit: %q", w)
	}
	res.Summary.FlowsFinished = 10
	if w := StalledWarning(&Config{}, res); w != "" {
		t.Errorf("all finished: %q", w)
	}
}
