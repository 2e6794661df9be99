package runner

import (
	"maps"
	"testing"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// A collective's span runs from its first release to its last finish; an
// unfinished message (finish -1) leaves it unfinished.
func TestOSUSpans(t *testing.T) {
	s := OSUSpans{}
	s.Add(&v2.MessageRow{CollectiveID: 1, ReleaseNs: 10, FinishNs: 50})
	s.Add(&v2.MessageRow{CollectiveID: 1, ReleaseNs: 5, FinishNs: 40})
	s.Add(&v2.MessageRow{CollectiveID: 2, ReleaseNs: 5, FinishNs: -1})
	s.Add(&v2.MessageRow{CollectiveID: -1, ReleaseNs: 1, FinishNs: 2})
	want := OSUSpans{1: {Start: units.Nanos(5), End: units.Nanos(50)}, 2: {Start: units.Nanos(5), End: -1}}
	if !maps.Equal(s, want) {
		t.Errorf("spans %v, want %v", s, want)
	}
}
