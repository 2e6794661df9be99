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
)

// CSVHeader is the header line every CSV trace must have, after an
// optional "# hosts=N" line. Times are integer nanoseconds; deps is a
// ';'-separated list of message ids, empty for none.
const CSVHeader = "id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns"

var csvColumns = strings.Split(CSVHeader, ",")

// ReadCSV reads and validates a CSV trace:
//
//	# hosts=17
//	id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns
//	0,0,16,1000000,0,-1,-1,,0
//	1,1,16,1000000,0,-1,-1,0;2,500
//
// The "# hosts=N" line is optional (without it, or with N = 0, the host
// count is inferred); other lines starting with '#' are comments. Errors
// are *ParseError values with the line number.
func ReadCSV(r io.Reader) (*Trace, error) {
	br := bufio.NewReader(r)
	if b, _ := br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3) // a UTF-8 byte order mark, as spreadsheets write
	}
	t := &Trace{}
	skipped := 0 // lines consumed before the csv.Reader starts counting
	if b, _ := br.Peek(1); len(b) == 1 && b[0] == '#' {
		line, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, err
		}
		skipped = 1
		if t.Hosts, err = parseHostsComment(line); err != nil {
			return nil, &ParseError{Line: 1, Err: err}
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
	if !sameColumns(header, csvColumns) {
		return nil, &ParseError{Line: line(), Err: fmt.Errorf("header %q, want %q", strings.Join(header, ","), CSVHeader)}
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
		m, err := parseCSVRecord(rec)
		if err != nil {
			return nil, &ParseError{Line: line(), Err: err}
		}
		t.Messages = append(t.Messages, m)
		lines = append(lines, line())
	}
	return finish(t, locator{lines: lines})
}

// parseHostsComment reads "# hosts=N" (spaces allowed around '='); any
// other comment yields 0.
func parseHostsComment(line string) (int, error) {
	s := strings.TrimSpace(strings.TrimPrefix(line, "#"))
	key, val, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(key) != "hosts" {
		return 0, nil
	}
	h, err := fieldHosts.parse(strings.TrimSpace(val))
	return int(h), err
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

// parseCSVRecord parses one data line.
func parseCSVRecord(rec []string) (Message, error) {
	if len(rec) != len(csvColumns) {
		return Message{}, fmt.Errorf("%d fields, want %d (%s)", len(rec), len(csvColumns), CSVHeader)
	}
	for i := range rec {
		rec[i] = strings.TrimSpace(rec[i])
	}
	var m Message
	var deps []int64
	var err error
	get := func(f field, s string) int64 {
		if err != nil {
			return 0
		}
		var v int64
		v, err = f.parse(s)
		return v
	}
	m.ID = get(fieldID, rec[0])
	m.Src = int32(get(fieldSrc, rec[1]))
	m.Dst = int32(get(fieldDst, rec[2]))
	m.Bytes = get(fieldBytes, rec[3])
	m.Release = nsToTime(get(fieldRelease, rec[4]))
	m.FlowID = get(fieldFlow, rec[5])
	m.CollectiveID = get(fieldColl, rec[6])
	if err == nil && rec[7] != "" {
		for s := range strings.SplitSeq(rec[7], ";") {
			if s = strings.TrimSpace(s); s == "" {
				return Message{}, fmt.Errorf("deps %q has an empty id (want ids separated by ';')", rec[7])
			}
			deps = append(deps, get(fieldDep, s))
		}
	}
	m.Deps = deps
	m.Gap = nsToTime(get(fieldGap, rec[8]))
	return m, err
}

// WriteCSV validates t and writes it as CSV: a "# hosts=N" line, the
// header CSVHeader, then one line per message. Release times and gaps must
// be whole nanoseconds.
func WriteCSV(w io.Writer, t *Trace) error {
	if err := checkForWrite(t); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# hosts=%d\n%s\n", t.Hosts, CSVHeader)
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
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}
