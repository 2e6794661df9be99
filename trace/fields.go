package trace

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/ccreplay/ccreplay/units"
)

// field is one integer column of the file formats with its allowed range.
// Readers parse and check every value through one, so that the three
// formats report the same errors in the same words.
type field struct {
	name     string
	min, max int64
	hint     string // appended to range errors
}

// maxNs is the largest nanosecond value whose picosecond Time fits int64.
const maxNs = math.MaxInt64 / int64(1000)

var (
	fieldHosts   = field{"hosts", 0, math.MaxInt32, " (0 = infer from the largest host index)"}
	fieldID      = field{"id", 0, math.MaxInt64, ""}
	fieldSrc     = field{"src", 0, math.MaxInt32, ""}
	fieldDst     = field{"dst", 0, math.MaxInt32, ""}
	fieldBytes   = field{"bytes", 0, math.MaxInt64, ""}
	fieldRelease = field{"release_ns", 0, maxNs, ""}
	fieldFlow    = field{"flow_id", NoFlow, math.MaxInt64, " (-1 = a queue pair of its own)"}
	fieldColl    = field{"collective_id", NoCollective, math.MaxInt64, " (-1 = none)"}
	fieldDep     = field{"deps", 0, math.MaxInt64, ""}
	fieldGap     = field{"gap_ns", 0, maxNs, ""}
	fieldPrio    = field{"priority", 0, int64(MaxPriority), " (0 = the NIC's default data class)"}
	fieldIter    = field{"iteration", NoIteration, math.MaxInt64, " (-1 = none)"}
	fieldSrcRank = field{"src_rank", int64(NoRank), math.MaxInt32, " (-1 = not an MPI rank)"}
	fieldDstRank = field{"dst_rank", int64(NoRank), math.MaxInt32, " (-1 = not an MPI rank)"}
	fieldPPN     = field{"ppn", 0, math.MaxInt32, " (0 = not an MPI job)"}
	fieldRank    = field{"ranks", 0, math.MaxInt32, " (the host of each rank)"}
)

// parse parses s as a base-10 integer in f's range. Errors quote s:
// `bytes "-5" must be >= 0`.
func (f field) parse(s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s %q is out of range (must be %d..%d)", f.name, s, f.min, f.max)
		}
		if s == "" {
			return 0, fmt.Errorf("%s is empty (want an integer)", f.name)
		}
		return 0, fmt.Errorf("%s %q is not an integer", f.name, s)
	}
	return v, f.check(v, strconv.Quote(s))
}

// check reports whether v is in f's range; shown is how v appears in the
// error message.
func (f field) check(v int64, shown string) error {
	switch {
	case v < f.min:
		return fmt.Errorf("%s %s must be >= %d%s", f.name, shown, f.min, f.hint)
	case v > f.max:
		return fmt.Errorf("%s %s must be <= %d", f.name, shown, f.max)
	}
	return nil
}

// nsToTime converts nanoseconds already checked to be in 0..maxNs.
func nsToTime(ns int64) units.Time { return units.Time(ns) * units.Nanosecond }

// checkForWrite validates t and checks that the file formats, which store
// integer nanoseconds, can hold its times exactly.
func checkForWrite(t *Trace) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return checkWholeNs(t)
}
