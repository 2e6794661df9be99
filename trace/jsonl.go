package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// jsonLine is one line of a JSON Lines trace: either the optional first
// line {"hosts":N} or a message. Numbers are kept as text so that errors
// quote them the way the CSV reader does.
type jsonLine struct {
	Hosts        *json.Number  `json:"hosts"`
	ID           *json.Number  `json:"id"`
	Src          *json.Number  `json:"src"`
	Dst          *json.Number  `json:"dst"`
	Bytes        *json.Number  `json:"bytes"`
	ReleaseNs    *json.Number  `json:"release_ns"`
	FlowID       *json.Number  `json:"flow_id"`
	CollectiveID *json.Number  `json:"collective_id"`
	Deps         []json.Number `json:"deps"`
	GapNs        *json.Number  `json:"gap_ns"`
}

// ReadJSONL reads and validates a JSON Lines trace, one message object per
// line with the CSV column names as keys:
//
//	{"hosts":17}
//	{"id":0,"src":0,"dst":16,"bytes":1000000,"release_ns":0,"flow_id":-1,"collective_id":-1,"deps":[],"gap_ns":0}
//
// The first line {"hosts":N} is optional (without it, or with N = 0, the
// host count is inferred). In a message, id, src, dst and bytes are
// required; release_ns and gap_ns default to 0, flow_id and collective_id
// to -1 and deps to none. Unknown keys are errors; blank lines are
// skipped. Errors are *ParseError values with the line number.
func ReadJSONL(r io.Reader) (*Trace, error) {
	br := bufio.NewReader(r)
	t := &Trace{}
	var lines []int
	lineNo := 0
	sawContent := false
	for {
		raw, readErr := br.ReadBytes('\n')
		if readErr != nil && readErr != io.EOF {
			return nil, readErr
		}
		if len(raw) > 0 {
			lineNo++
			if lineNo == 1 {
				raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
			}
			if raw = bytes.TrimSpace(raw); len(raw) > 0 {
				first := !sawContent
				sawContent = true
				m, isMsg, err := parseJSONLine(raw, first, t)
				if err != nil {
					return nil, &ParseError{Line: lineNo, Err: err}
				}
				if isMsg {
					t.Messages = append(t.Messages, m)
					lines = append(lines, lineNo)
				}
			}
		}
		if readErr == io.EOF {
			break
		}
	}
	return finish(t, locator{lines: lines})
}

// parseJSONLine parses one non-blank line. A hosts line (allowed only
// first) sets t.Hosts and returns isMsg false.
func parseJSONLine(raw []byte, first bool, t *Trace) (m Message, isMsg bool, err error) {
	var v jsonLine
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return m, false, jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return m, false, errors.New("more than one JSON value on the line")
	}
	if v.Hosts != nil {
		alone := v.ID == nil && v.Src == nil && v.Dst == nil && v.Bytes == nil && v.ReleaseNs == nil &&
			v.FlowID == nil && v.CollectiveID == nil && v.Deps == nil && v.GapNs == nil
		if !first || !alone {
			return m, false, errors.New(`"hosts" must be alone on the first line: {"hosts":N}`)
		}
		h, err := fieldHosts.parse(v.Hosts.String())
		t.Hosts = int(h)
		return m, false, err
	}
	get := func(f field, n *json.Number, def int64) int64 {
		if err != nil {
			return 0
		}
		if n == nil {
			if def < f.min {
				err = fmt.Errorf("missing %q", f.name)
			}
			return def
		}
		var x int64
		x, err = f.parse(n.String())
		return x
	}
	const required = -1 << 62 // below every field's minimum
	m.ID = get(fieldID, v.ID, required)
	m.Src = int32(get(fieldSrc, v.Src, required))
	m.Dst = int32(get(fieldDst, v.Dst, required))
	m.Bytes = get(fieldBytes, v.Bytes, required)
	m.Release = nsToTime(get(fieldRelease, v.ReleaseNs, 0))
	m.FlowID = get(fieldFlow, v.FlowID, NoFlow)
	m.CollectiveID = get(fieldColl, v.CollectiveID, NoCollective)
	for k := range v.Deps {
		m.Deps = append(m.Deps, get(fieldDep, &v.Deps[k], required))
	}
	m.Gap = nsToTime(get(fieldGap, v.GapNs, 0))
	return m, err == nil, err
}

// jsonError rewords encoding/json's errors for a person reading a trace.
func jsonError(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("invalid JSON: the line ends inside a value")
	case errors.As(err, &te) && te.Field == "":
		return fmt.Errorf("want a JSON object (one message per line), got a JSON %s", te.Value)
	case errors.As(err, &te) && te.Type.Kind() == reflect.Slice:
		return fmt.Errorf("%s: want a list of integers, got a JSON %s", te.Field, te.Value)
	case errors.As(err, &te):
		return fmt.Errorf("%s: want an integer, got a JSON %s", te.Field, te.Value)
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// WriteJSONL validates t and writes it as JSON Lines: {"hosts":N}, then
// one object per message with every key present. Release times and gaps
// must be whole nanoseconds.
func WriteJSONL(w io.Writer, t *Trace) error {
	if err := checkForWrite(t); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "{\"hosts\":%d}\n", t.Hosts)
	var b []byte
	for i := range t.Messages {
		m := &t.Messages[i]
		b = append(b[:0], `{"id":`...)
		b = strconv.AppendInt(b, m.ID, 10)
		b = append(b, `,"src":`...)
		b = strconv.AppendInt(b, int64(m.Src), 10)
		b = append(b, `,"dst":`...)
		b = strconv.AppendInt(b, int64(m.Dst), 10)
		b = append(b, `,"bytes":`...)
		b = strconv.AppendInt(b, m.Bytes, 10)
		b = append(b, `,"release_ns":`...)
		b = strconv.AppendInt(b, m.Release.Nanoseconds(), 10)
		b = append(b, `,"flow_id":`...)
		b = strconv.AppendInt(b, m.FlowID, 10)
		b = append(b, `,"collective_id":`...)
		b = strconv.AppendInt(b, m.CollectiveID, 10)
		b = append(b, `,"deps":[`...)
		for k, d := range m.Deps {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, d, 10)
		}
		b = append(b, `],"gap_ns":`...)
		b = strconv.AppendInt(b, m.Gap.Nanoseconds(), 10)
		b = append(b, "}\n"...)
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}
