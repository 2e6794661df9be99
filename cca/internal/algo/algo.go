// Package algo is the scaffolding the algorithms of cca/ share around
// their state machines: construction from a configuration that validates
// (New), what Start fixes for every flow and the check that the event
// methods come after it (Flow), and the names of enumerated states (Name).
package algo

import (
	"fmt"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// New is an algorithm package's New: validate checks cfg and fills its
// defaults, then build makes the algorithm of the valid configuration. On
// an error it returns A's zero value (a nil pointer) and the error.
func New[C, A any](cfg C, validate func(*C) error, build func(C) A) (A, error) {
	if err := validate(&cfg); err != nil {
		var none A
		return none, err
	}
	return build(cfg), nil
}

// Flow is what every algorithm keeps from its flow's Start: the line
// rate, the ceiling of the flow's rate. It tells whether Start has run,
// which the event methods check first: the zero Flow has not started, and
// Start refuses a line rate that is not positive.
type Flow struct {
	line units.BitsPerSec // 0 before Start
}

// Start records f's line rate. It panics "<who>.Start: non-positive line
// rate" (who names the algorithm, e.g. "dctcp") when f has none.
func (fl *Flow) Start(who string, f cca.FlowInfo) {
	if f.LineRate <= 0 {
		panic(who + ".Start: non-positive line rate")
	}
	fl.line = f.LineRate
}

// Line is the flow's line rate, bits per second (0 before Start).
func (fl *Flow) Line() units.BitsPerSec { return fl.line }

// Floor is a configured rate floor as the flow applies it: lowered to the
// line rate when above it, bits per second.
func (fl *Flow) Floor(floor units.BitsPerSec) units.BitsPerSec { return min(floor, fl.line) }

// Started reports whether Start has run.
func (fl *Flow) Started() bool { return fl.line > 0 }

// MustStart panics "<who>.<fn>: called before Start" unless Start has
// run: an event method fn of algorithm who called on an algorithm that
// has not started.
func (fl *Flow) MustStart(who, fn string) {
	if !fl.Started() {
		panic(who + "." + fn + ": called before Start")
	}
}

// Name is the name of the enumerated value v: names[v], or "kind(v)" for
// a value names does not list.
func Name[T ~int](v T, names []string, kind string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", kind, int(v))
}
