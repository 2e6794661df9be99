// Package limits holds every documented bound on what ccreplay accepts:
// simulated times, message and trace sizes, host counts, the largest file
// and line of each input kind. Readers, validators and the simulator all
// check against these constants, and docs/LIMITS.md lists them with the
// error each violation gets. Readers open their files with Open or
// ReadFile (file.go), which apply the bounds, and quote input in errors
// with Quote.
//
// The bounds come from the simulator's integer units: time is int64
// picoseconds (units.Time), which hold about 106.7 days. Inputs are kept
// well inside that range so that the sum of a few of them (a release time
// plus a gap plus a timeout) cannot overflow; the simulator still checks
// every sum it computes from inputs and stops with an error, never a
// panic, if one passes ClockLimit.
package limits

import (
	"fmt"

	"github.com/ccreplay/ccreplay/units"
)

// MaxTime is the largest time or duration an input may give: a message's
// release time or compute gap, a run's --max-time, a timer or interval
// parameter. It is 10^18 ps = 10^6 s (about 11.6 days of simulated time).
const MaxTime units.Time = units.MaxDuration

// ClockLimit is the latest simulated time a run may reach, 2^62 ps (about
// 53 days): an event computed beyond it (a long chain of compute gaps, a
// message that would take longer to serialize) stops the run with an
// error naming the limit.
const ClockLimit units.Time = 1 << 62

// MaxMessageBytes is the largest message a trace may hold: 10^12 bytes
// (1 TB). Its serialization must also fit MaxTime at the path's bottleneck
// rate, which the replay checks per flow.
const MaxMessageBytes int64 = 1_000_000_000_000

// MaxTotalBytes bounds the sum of all message sizes of a trace: 10^18
// bytes, so that byte counters (int64) never overflow.
const MaxTotalBytes int64 = 1_000_000_000_000_000_000

// MaxHosts is the largest number of hosts a trace or topology may have:
// 2^20 = 1,048,576.
const MaxHosts = 1 << 20

// MaxMessages is the largest number of messages in one trace, 2^31 - 1
// (messages and flows are numbered with int32 inside the replay).
const MaxMessages = 1<<31 - 1

// Describe formats a long time for error messages in seconds with its
// size in days, e.g. "1e+06 s (11.6 days)"; shorter times as units.Time
// prints them.
func Describe(t units.Time) string {
	if t < units.Second {
		return t.String()
	}
	return fmt.Sprintf("%.4g s (%.3g days)", t.Seconds(), t.Seconds()/86400)
}

// TimeError says that a time or duration is beyond MaxTime, naming what
// it is.
func TimeError(what string, t units.Time) error {
	return fmt.Errorf("%s %s is beyond the limit of %s (the simulator's clock is int64 picoseconds)", what, Describe(t), Describe(MaxTime))
}

// AddTime returns a+b for non-negative times, or ClockLimit+1 when the sum
// passes ClockLimit (so callers compare against ClockLimit and never see a
// wrapped negative time).
func AddTime(a, b units.Time) units.Time {
	if a > ClockLimit || b > ClockLimit-a {
		return ClockLimit + 1
	}
	return a + b
}
