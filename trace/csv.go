package trace

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// CSVHeader is the header line of a CSV trace written now (schema
// SchemaVersion), after the optional directive lines ("# hosts=N",
// "# ppn=N", "# ranks=..."). Times are integer nanoseconds; deps is a
// ';'-separated list of message ids, empty for none.
const CSVHeader = CSVHeaderV1 + ",priority,iteration,src_rank,dst_rank"

// CSVHeaderV1 is the header of a version 1 CSV trace, which ReadCSV still
// accepts: its messages get priority 0, iteration -1 and ranks -1.
const CSVHeaderV1 = "id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns"

var (
	csvColumns   = strings.Split(CSVHeader, ",")
	csvColumnsV1 = strings.Split(CSVHeaderV1, ",")
)

// ReadCSV reads and validates a CSV trace:
//
//	# hosts=2
//	# ppn=2
//	# ranks=0;0;1;1
//	id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns,priority,iteration,src_rank,dst_rank
//	0,0,1,65536,0,1,0,,0,0,0,0,2
//	1,0,0,65536,0,-1,0,,0,0,0,0,1
//	2,1,0,65536,0,-1,1,0;1,500,0,1,2,0
//
// Lines starting with '#' before the header are directives when they read
// "# hosts=N" (without it, or with N = 0, the host count is inferred),
// "# ppn=N" or "# ranks=H;H;..." (the host of each MPI rank, in rank
// order), and comments otherwise; '#' lines after the header are comments.
// The header is CSVHeader or, for version 1 files, CSVHeaderV1. Errors are
// *ParseError values with the line number.
func ReadCSV(r io.Reader) (t *Trace, err error) {
	defer func() { err = lineTooLong(err) }()
	br := bufio.NewReader(limits.LineLimit(r, limits.MaxTraceLineBytes))
	if b, _ := br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3) // a UTF-8 byte order mark, as spreadsheets write
	}
	t = &Trace{}
	skipped := 0 // lines consumed before the csv.Reader starts counting
	seen := make(map[string]bool)
	for {
		if b, _ := br.Peek(1); len(b) == 0 || b[0] != '#' {
			break
		}
		line, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, err
		}
		skipped++
		if err := parseDirective(line, t, seen); err != nil {
			return nil, &ParseError{Line: skipped, Err: err}
		}
	}
	cr := csv.NewReader(br)
	cr.Comment = '#'
	cr.FieldsPerRecord = -1 // counted here, for a better message
	cr.ReuseRecord = true
	line := func() int { l, _ := cr.FieldPos(0); return l + skipped }
	csvErr := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return &ParseError{Line: pe.Line + skipped, Err: pe.Err}
		}
		return err
	}

	header, err := cr.Read()
	if err == io.EOF {
		return nil, &ParseError{Line: 1 + skipped, Err: fmt.Errorf("missing header line %q", CSVHeader)}
	}
	if err != nil {
		return nil, csvErr(err)
	}
	cols := csvColumns
	switch {
	case sameColumns(header, csvColumns):
	case sameColumns(header, csvColumnsV1):
		cols = csvColumnsV1
	default:
		return nil, &ParseError{Line: line(), Err: fmt.Errorf("header %s, want %q (or the version 1 header %q)",
			limits.Quote(strings.Join(header, ",")), CSVHeader, CSVHeaderV1)}
	}

	var lines []int
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(err)
		}
		m, err := parseCSVRecord(rec, cols)
		if err != nil {
			return nil, &ParseError{Line: line(), Err: err}
		}
		if len(t.Messages) >= limits.MaxMessages {
			return nil, &ParseError{Line: line(), Err: errTooManyMessages}
		}
		t.Messages = append(t.Messages, m)
		lines = append(lines, line())
	}
	return finish(t, locator{lines: lines})
}

// parseDirective reads one '#' line before the header: "# hosts=N",
// "# ppn=N" or "# ranks=H;H;..." (spaces allowed around '='). Any other
// line is a comment. seen catches a directive given twice.
func parseDirective(line string, t *Trace, seen map[string]bool) error {
	s := strings.TrimSpace(strings.TrimPrefix(line, "#"))
	key, val, ok := strings.Cut(s, "=")
	key, val = strings.TrimSpace(key), strings.TrimSpace(val)
	if !ok || (key != "hosts" && key != "ppn" && key != "ranks") {
		return nil
	}
	if seen[key] {
		return fmt.Errorf("%q given twice", "# "+key)
	}
	seen[key] = true
	switch key {
	case "hosts":
		h, err := fieldHosts.parse(val)
		t.Hosts = int(h)
		return err
	case "ppn":
		p, err := fieldPPN.parse(val)
		t.PPN = int(p)
		return err
	}
	ranks, err := parseList(fieldRank, val)
	t.Ranks = nil
	for _, h := range ranks {
		t.Ranks = append(t.Ranks, int32(h))
	}
	return err
}

// parseList parses a ';'-separated list of integers in f's range; "" is
// the empty list.
func parseList(f field, s string) ([]int64, error) {
	if s == "" {
		return nil, nil
	}
	var out []int64
	for v := range strings.SplitSeq(s, ";") {
		if v = strings.TrimSpace(v); v == "" {
			return nil, fmt.Errorf("%s %s has an empty entry (want integers separated by ';')", f.name, limits.Quote(s))
		}
		x, err := f.parse(v)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// sameColumns reports whether a header names exactly the wanted columns,
// in order, ignoring surrounding spaces.
func sameColumns(header, want []string) bool {
	if len(header) != len(want) {
		return false
	}
	for i := range want {
		if strings.TrimSpace(header[i]) != want[i] {
			return false
		}
	}
	return true
}

// parseCSVRecord parses one data line of a file with columns cols
// (csvColumns or csvColumnsV1).
func parseCSVRecord(rec []string, cols []string) (Message, error) {
	if len(rec) != len(cols) {
		return Message{}, fmt.Errorf("%d fields, want %d (%s)", len(rec), len(cols), strings.Join(cols, ","))
	}
	for i := range rec {
		rec[i] = strings.TrimSpace(rec[i])
	}
	var m Message
	var err error
	get := func(f field, s string) int64 {
		if err != nil {
			return 0
		}
		var v int64
		v, err = f.parse(s)
		return v
	}
	getTime := func(f field, s string) units.Time {
		ns := get(f, s)
		if err != nil {
			return 0
		}
		var t units.Time
		t, err = nsToTime(f, ns)
		return t
	}
	m.ID = get(fieldID, rec[0])
	m.Src = int32(get(fieldSrc, rec[1]))
	m.Dst = int32(get(fieldDst, rec[2]))
	m.Bytes = get(fieldBytes, rec[3])
	m.Release = getTime(fieldRelease, rec[4])
	m.FlowID = get(fieldFlow, rec[5])
	m.CollectiveID = get(fieldColl, rec[6])
	if err == nil && rec[7] != "" {
		for s := range strings.SplitSeq(rec[7], ";") {
			if s = strings.TrimSpace(s); s == "" {
				return Message{}, fmt.Errorf("deps %s has an empty id (want ids separated by ';')", limits.Quote(rec[7]))
			}
			m.Deps = append(m.Deps, get(fieldDep, s))
		}
	}
	m.Gap = getTime(fieldGap, rec[8])
	m.Iteration, m.SrcRank, m.DstRank = NoIteration, NoRank, NoRank
	if len(cols) > len(csvColumnsV1) {
		m.Priority = int32(get(fieldPrio, rec[9]))
		m.Iteration = get(fieldIter, rec[10])
		m.SrcRank = int32(get(fieldSrcRank, rec[11]))
		m.DstRank = int32(get(fieldDstRank, rec[12]))
	}
	return m, err
}

// WriteCSV validates t and writes it as CSV: a "# hosts=N" line, for an
// MPI job "# ppn=N" and "# ranks=..." lines, the header CSVHeader, then one
// line per message. Release times and gaps must be whole nanoseconds.
func WriteCSV(w io.Writer, t *Trace) error {
	if err := checkForWrite(t); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# hosts=%d\n", t.Hosts)
	if len(t.Ranks) > 0 {
		fmt.Fprintf(bw, "# ppn=%d\n# ranks=%s\n", t.PPN, joinInts(t.Ranks, ';'))
	}
	fmt.Fprintf(bw, "%s\n", CSVHeader)
	var b []byte
	for i := range t.Messages {
		m := &t.Messages[i]
		b = strconv.AppendInt(b[:0], m.ID, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.Src), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.Dst), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, m.Bytes, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, m.Release.Nanoseconds(), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, m.FlowID, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, m.CollectiveID, 10)
		b = append(b, ',')
		for k, d := range m.Deps {
			if k > 0 {
				b = append(b, ';')
			}
			b = strconv.AppendInt(b, d, 10)
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, m.Gap.Nanoseconds(), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.Priority), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, m.Iteration, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.SrcRank), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(m.DstRank), 10)
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// joinInts formats xs separated by sep ("0;0;1").
func joinInts(xs []int32, sep byte) string {
	var b []byte
	for i, x := range xs {
		if i > 0 {
			b = append(b, sep)
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}
