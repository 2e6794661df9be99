package netcalc

import (
	"fmt"

	"github.com/ccreplay/ccreplay/units"
)

// EventKind names a congestion event of Section III-B.
type EventKind string

// The event kinds. Before and After of an Event hold, by kind:
// inc, cnp, timeout: the rate limit r in bit/s for rate CCs, the window W
// in bytes for window CCs (a timeout of linerate never happens);
// flight: W in bytes (Algorithm 2 flight end, Algorithm 3 update);
// pause: the ingress backlog B_j(t-ΔR) in bytes that triggered it
// (both fields); resume: the ingress backlog B_j(t) in bytes (both).
const (
	EvInc     EventKind = "inc"
	EvCNP     EventKind = "cnp"
	EvTimeout EventKind = "timeout"
	EvPause   EventKind = "pause"
	EvResume  EventKind = "resume"
	EvFlight  EventKind = "flight"
)

// Event is one congestion event of one flow.
type Event struct {
	// T is the event time in picoseconds.
	T units.Time
	// Flow is the index of the flow in Config.Flows.
	Flow int
	// Kind is the event kind.
	Kind EventKind
	// Before and After are the values described at EventKind.
	Before, After float64
	// IsRate says that Before and After are rates in bit/s, not bytes.
	IsRate bool
}

// String formats an event as e.g. "54.7us flow 3 cnp 100Gbps->75Gbps".
func (e Event) String() string {
	return fmt.Sprintf("%v flow %d %s %s", e.T, e.Flow, e.Kind, e.values())
}

func (e Event) values() string {
	switch {
	case e.Kind == EvPause || e.Kind == EvResume:
		return fmt.Sprintf("backlog %.0fB", e.Before)
	case e.IsRate:
		return fmt.Sprintf("%v->%v", units.BitsPerSec(e.Before), units.BitsPerSec(e.After))
	}
	return fmt.Sprintf("%.0fB->%.0fB", e.Before, e.After)
}
