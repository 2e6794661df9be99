package gen

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// Span is when one collective ran in a replay: from the first release to
// the last delivery of its messages, picoseconds.
type Span struct {
	Start, End units.Time
}

// CollectiveSpans folds a replay's message rows (parallel slices of
// collective id, release and finish time; finish < 0 for an unfinished
// message) into one Span per collective id. Messages outside collectives
// (id < 0) are skipped. A collective with an unfinished message gets
// End = -1.
func CollectiveSpans(ids []int64, release, finish []units.Time) map[int64]Span {
	spans := make(map[int64]Span)
	for i, id := range ids {
		AddSpan(spans, id, release[i], finish[i])
	}
	return spans
}

// AddSpan folds one message (collective id, release, finish < 0 when
// unfinished) into spans, as CollectiveSpans does each: for rows given
// one at a time.
func AddSpan(spans map[int64]Span, id int64, release, finish units.Time) {
	if id < 0 {
		return
	}
	s, seen := spans[id]
	switch {
	case !seen:
		s = Span{Start: release, End: finish}
	case s.End >= 0 && finish < 0:
		s.Start, s.End = min(s.Start, release), -1
	case s.End >= 0:
		s.Start, s.End = min(s.Start, release), max(s.End, finish)
	default:
		s.Start = min(s.Start, release)
	}
	spans[id] = s
}

// OSUPoint is one line of the benchmark's report: a message size and its
// average latency.
type OSUPoint struct {
	// Bytes is the message size, bytes per rank pair.
	Bytes int64
	// AvgLatency is the mean time of one timed MPI_Alltoall, picoseconds.
	AvgLatency units.Time
	// Iterations is the number of timed iterations averaged (0 when a
	// measured report does not say).
	Iterations int
}

// OSULatency computes the benchmark's report from a replay of an
// osu-alltoall trace: for each size of plan (OSUPlan), the mean over its
// timed iterations of End - Start of the iteration's collective, rounded
// to the picosecond. A size's iterations are the run of plan entries that
// starts at Iteration 0. It is an error for a timed iteration to lack a
// finished span.
//
// NB: osu_alltoall times each rank from its own call to its own return
// and averages over ranks; all ranks leave the barrier together here, so
// the collective's span is the slowest rank's time, and the benchmark's
// "Avg Latency" is at most this (equal when every rank finishes last).
func OSULatency(plan []OSUCollective, spans map[int64]Span) ([]OSUPoint, error) {
	var out []OSUPoint
	var sum units.Time
	for i, c := range plan {
		if i == 0 || c.Iteration == 0 {
			out = append(out, OSUPoint{Bytes: c.Bytes})
			sum = 0
		}
		if c.Warmup {
			continue
		}
		s, ok := spans[c.CollectiveID]
		if !ok || s.End < 0 {
			return nil, fmt.Errorf("collective %d (size %d B, iteration %d) did not finish", c.CollectiveID, c.Bytes, c.Iteration)
		}
		pt := &out[len(out)-1]
		sum += s.End - s.Start
		pt.Iterations++
		pt.AvgLatency = units.Time(math.Round(float64(sum) / float64(pt.Iterations)))
	}
	for _, pt := range out {
		if pt.Iterations == 0 {
			return nil, fmt.Errorf("size %d B has no timed iteration", pt.Bytes)
		}
	}
	return out, nil
}

// OSUReport is a parsed OSU collective latency report, such as
// osu_alltoall's standard output.
type OSUReport struct {
	// Title is the first comment line without "# ", e.g. "OSU MPI
	// All-to-All Personalized Exchange Latency Test v5.6.2".
	Title string
	// Points are the report's lines in order; AvgLatency is rounded to
	// the picosecond, Iterations is set when the report has that column
	// (osu_alltoall -f).
	Points []OSUPoint
}

// ReadOSUReport parses an OSU collective latency report:
//
//	# OSU MPI All-to-All Personalized Exchange Latency Test v5.6.2
//	# Size       Avg Latency(us)
//	1                      43.84
//	2                      43.79
//
// Comment lines start with '#'; the column line ("# Size ...") names the
// columns, of which the first two must be the size in bytes and the
// average latency in microseconds; with -f, OSU adds Min Latency(us), Max
// Latency(us) and Iterations, of which Iterations is kept. Blank lines are
// skipped. Errors name the line. A report is a line per message size, a
// few KB: one longer than limits.MaxOSUReportBytes, or with a line longer
// than limits.MaxOSUReportLineBytes, is refused in one line.
func ReadOSUReport(r io.Reader) (*OSUReport, error) {
	cr := &limits.CountingReader{R: io.LimitReader(r, limits.MaxOSUReportBytes+1)}
	rep, err := readOSUReport(cr)
	if cr.N > limits.MaxOSUReportBytes {
		return nil, fmt.Errorf("more than %s, the limit of an OSU report (docs/LIMITS.md)", limits.SizeString(limits.MaxOSUReportBytes))
	}
	return rep, err
}

func readOSUReport(r io.Reader) (*OSUReport, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, limits.MaxOSUReportLineBytes)
	rep := &OSUReport{}
	iterCol := -1
	sawColumns := false
	line := 1
	for ; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if c, ok := strings.CutPrefix(text, "#"); ok {
			c = strings.TrimSpace(c)
			if strings.HasPrefix(c, "Size") {
				cols := splitColumns(c)
				if len(cols) < 2 || !strings.HasPrefix(cols[1], "Avg Latency") {
					return nil, fmt.Errorf("line %d: columns %q, want Size then Avg Latency(us)", line, c)
				}
				for k, name := range cols {
					if name == "Iterations" {
						iterCol = k
					}
				}
				sawColumns = true
			} else if rep.Title == "" {
				rep.Title = c
			}
			continue
		}
		if !sawColumns {
			return nil, fmt.Errorf("line %d: data before the column line \"# Size  Avg Latency(us)\"", line)
		}
		f := strings.Fields(text)
		if len(f) < 2 || (iterCol >= 0 && len(f) <= iterCol) {
			return nil, fmt.Errorf("line %d: %q: want a size and an average latency", line, text)
		}
		size, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || size < 0 {
			return nil, fmt.Errorf("line %d: size %q is not a byte count", line, f[0])
		}
		us, err := strconv.ParseFloat(f[1], 64)
		if err != nil || us < 0 || us > 1e12 || math.IsNaN(us) {
			return nil, fmt.Errorf("line %d: latency %q is not a time in microseconds", line, f[1])
		}
		pt := OSUPoint{Bytes: size, AvgLatency: units.Microseconds(us)}
		if iterCol >= 0 {
			n, err := strconv.Atoi(f[iterCol])
			if err != nil || n < 0 {
				return nil, fmt.Errorf("line %d: iterations %q is not a count", line, f[iterCol])
			}
			pt.Iterations = n
		}
		rep.Points = append(rep.Points, pt)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("line %d is longer than %s, the longest line of an OSU report (docs/LIMITS.md)", line, limits.SizeString(int64(limits.MaxOSUReportLineBytes)))
	} else if err != nil {
		return nil, err
	}
	if len(rep.Points) == 0 {
		return nil, errors.New("no data lines (want lines of size and average latency)")
	}
	return rep, nil
}

// splitColumns splits an OSU column line, whose names contain single
// spaces ("Avg Latency(us)") and are separated by two or more.
func splitColumns(s string) []string {
	var out []string
	for f := range strings.SplitSeq(s, "  ") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
