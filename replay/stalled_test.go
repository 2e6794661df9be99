package replay

import (
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// StalledWarning speaks only for a run without a time limit that ended
// with flows unfinished.
func TestStalledWarning(t *testing.T) {
	end := 3 * units.Millisecond
	if w := StalledWarning(&Config{}, end, 10, 7); !strings.Contains(w, "3 of 10 flows never finished") || !strings.Contains(w, "3ms") {
		t.Errorf("warning = %q", w)
	}
	if w := StalledWarning(&Config{MaxTime: units.Millisecond}, end, 10, 7); w != "" {
		t.Errorf("with a time limit: %q", w)
	}
	if w := StalledWarning(&Config{}, end, 10, 10); w != "" {
		t.Errorf("all finished: %q", w)
	}
}
