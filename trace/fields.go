package trace

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// field is one integer column of the file formats with its allowed range.
// Readers parse and check every value through one, so that the three
// formats report the same errors in the same words.
type field struct {
	name     string
	min, max int64
	hint     string // appended to errors below min
	limit    string // when set, max is a documented limit and this follows it in errors above max
}

// maxTimeNs is limits.MaxTime in nanoseconds, the largest release_ns or
// gap_ns a file may give.
const maxTimeNs = int64(limits.MaxTime / units.Nanosecond)

// timeLimit follows the limit in errors about release_ns and gap_ns.
var timeLimit = fmt.Sprintf(" ns = %s (the simulator's clock is int64 picoseconds)", limits.Describe(limits.MaxTime))

// hostLimit follows the limit in errors about host indices.
var hostLimit = fmt.Sprintf(" (the largest host index: a trace has at most %d hosts)", limits.MaxHosts)

var (
	fieldHosts   = field{"hosts", 0, limits.MaxHosts, " (0 = infer from the largest host index)", " hosts"}
	fieldID      = field{"id", 0, math.MaxInt64, "", ""}
	fieldSrc     = field{"src", 0, limits.MaxHosts - 1, "", hostLimit}
	fieldDst     = field{"dst", 0, limits.MaxHosts - 1, "", hostLimit}
	fieldBytes   = field{"bytes", 0, limits.MaxMessageBytes, "", " bytes (the largest message a trace may hold)"}
	fieldRelease = field{"release_ns", 0, maxTimeNs, "", timeLimit}
	fieldFlow    = field{"flow_id", NoFlow, math.MaxInt64, " (-1 = a queue pair of its own)", ""}
	fieldColl    = field{"collective_id", NoCollective, math.MaxInt64, " (-1 = none)", ""}
	fieldDep     = field{"deps", 0, math.MaxInt64, "", ""}
	fieldGap     = field{"gap_ns", 0, maxTimeNs, "", timeLimit}
	fieldPrio    = field{"priority", 0, int64(MaxPriority), " (0 = the NIC's default data class)", ""}
	fieldIter    = field{"iteration", NoIteration, math.MaxInt64, " (-1 = none)", ""}
	fieldSrcRank = field{"src_rank", int64(NoRank), math.MaxInt32, " (-1 = not an MPI rank)", ""}
	fieldDstRank = field{"dst_rank", int64(NoRank), math.MaxInt32, " (-1 = not an MPI rank)", ""}
	fieldPPN     = field{"ppn", 0, math.MaxInt32, " (0 = not an MPI job)", ""}
	fieldRank    = field{"ranks", 0, limits.MaxHosts - 1, " (the host of each rank)", hostLimit}
)

// parse parses s as a base-10 integer in f's range. Errors quote s:
// `bytes "-5" must be >= 0`.
func (f field) parse(s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s %s is out of range (must be %d..%d)", f.name, limits.Quote(s), f.min, f.max)
		}
		if s == "" {
			return 0, fmt.Errorf("%s is empty (want an integer)", f.name)
		}
		return 0, fmt.Errorf("%s %s is not an integer", f.name, limits.Quote(s))
	}
	if f.check(v, "") != nil { // quote s only for the message
		return v, f.check(v, limits.Quote(s))
	}
	return v, nil
}

// check reports whether v is in f's range; shown is how v appears in the
// error message.
func (f field) check(v int64, shown string) error {
	switch {
	case v < f.min:
		return fmt.Errorf("%s %s must be >= %d%s", f.name, shown, f.min, f.hint)
	case v > f.max && f.limit != "":
		return fmt.Errorf("%s %s is beyond the limit of %d%s", f.name, shown, f.max, f.limit)
	case v > f.max:
		return fmt.Errorf("%s %s must be <= %d", f.name, shown, f.max)
	}
	return nil
}

// nsToTime converts ns nanoseconds to a Time, refusing a value whose
// picoseconds would not fit int64 rather than wrapping it. Readers call it
// only on values f.check accepted, which are far below that.
func nsToTime(f field, ns int64) (units.Time, error) {
	if ns < 0 || ns > math.MaxInt64/int64(units.Nanosecond) {
		return 0, fmt.Errorf("%s %d does not fit the simulator's clock (int64 picoseconds)", f.name, ns)
	}
	return units.Time(ns) * units.Nanosecond, nil
}

// checkForWrite validates t and checks that the file formats, which store
// integer nanoseconds, can hold its times exactly.
func checkForWrite(t *Trace) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return checkWholeNs(t)
}
