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

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// jsonLine is one line of a JSON Lines trace: either the optional first
// line {"hosts":N,"ppn":N,"ranks":[...]} or a message. Numbers are kept as
// text so that errors quote them the way the CSV reader does.
type jsonLine struct {
	Hosts        *json.Number  `json:"hosts"`
	PPN          *json.Number  `json:"ppn"`
	Ranks        []json.Number `json:"ranks"`
	ID           *json.Number  `json:"id"`
	Src          *json.Number  `json:"src"`
	Dst          *json.Number  `json:"dst"`
	Bytes        *json.Number  `json:"bytes"`
	ReleaseNs    *json.Number  `json:"release_ns"`
	FlowID       *json.Number  `json:"flow_id"`
	CollectiveID *json.Number  `json:"collective_id"`
	Deps         []json.Number `json:"deps"`
	GapNs        *json.Number  `json:"gap_ns"`
	Priority     *json.Number  `json:"priority"`
	Iteration    *json.Number  `json:"iteration"`
	SrcRank      *json.Number  `json:"src_rank"`
	DstRank      *json.Number  `json:"dst_rank"`
}

// ReadJSONL reads and validates a JSON Lines trace, one message object per
// line with the CSV column names as keys:
//
//	{"hosts":17}
//	{"id":0,"src":0,"dst":16,"bytes":1000000,"release_ns":0,"flow_id":-1,"collective_id":-1,"deps":[],"gap_ns":0,"priority":0,"iteration":-1,"src_rank":-1,"dst_rank":-1}
//
// The first line {"hosts":N,"ppn":N,"ranks":[H,...]} is optional, and so
// is each of its keys (without hosts, or with N = 0, the host count is
// inferred; ppn and ranks describe an MPI job). In a message, id, src, dst
// and bytes are required; release_ns, gap_ns and priority default to 0,
// flow_id, collective_id, iteration, src_rank and dst_rank to -1 and deps
// to none, so version 1 files read unchanged. Unknown keys are errors;
// blank lines are skipped. Errors are *ParseError values with the line
// number.
func ReadJSONL(r io.Reader) (t *Trace, err error) {
	defer func() { err = lineTooLong(err) }()
	br := bufio.NewReader(limits.LineLimit(r, limits.MaxTraceLineBytes))
	t = &Trace{}
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
					if len(t.Messages) >= limits.MaxMessages {
						return nil, &ParseError{Line: lineNo, Err: errTooManyMessages}
					}
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
	if v.Hosts != nil || v.PPN != nil || v.Ranks != nil {
		alone := v.ID == nil && v.Src == nil && v.Dst == nil && v.Bytes == nil && v.ReleaseNs == nil &&
			v.FlowID == nil && v.CollectiveID == nil && v.Deps == nil && v.GapNs == nil &&
			v.Priority == nil && v.Iteration == nil && v.SrcRank == nil && v.DstRank == nil
		if !first || !alone {
			return m, false, errors.New(`"hosts", "ppn" and "ranks" must be alone on the first line: {"hosts":N,"ppn":N,"ranks":[...]}`)
		}
		return m, false, parseJSONHeader(&v, t)
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
	getTime := func(f field, n *json.Number) units.Time {
		ns := get(f, n, 0)
		if err != nil {
			return 0
		}
		var t units.Time
		t, err = nsToTime(f, ns)
		return t
	}
	const required = -1 << 62 // below every field's minimum
	m.ID = get(fieldID, v.ID, required)
	m.Src = int32(get(fieldSrc, v.Src, required))
	m.Dst = int32(get(fieldDst, v.Dst, required))
	m.Bytes = get(fieldBytes, v.Bytes, required)
	m.Release = getTime(fieldRelease, v.ReleaseNs)
	m.FlowID = get(fieldFlow, v.FlowID, NoFlow)
	m.CollectiveID = get(fieldColl, v.CollectiveID, NoCollective)
	for k := range v.Deps {
		m.Deps = append(m.Deps, get(fieldDep, &v.Deps[k], required))
	}
	m.Gap = getTime(fieldGap, v.GapNs)
	m.Priority = int32(get(fieldPrio, v.Priority, 0))
	m.Iteration = get(fieldIter, v.Iteration, NoIteration)
	m.SrcRank = int32(get(fieldSrcRank, v.SrcRank, int64(NoRank)))
	m.DstRank = int32(get(fieldDstRank, v.DstRank, int64(NoRank)))
	return m, err == nil, err
}

// parseJSONHeader reads the first line's hosts, ppn and ranks into t.
func parseJSONHeader(v *jsonLine, t *Trace) error {
	if v.Hosts != nil {
		h, err := fieldHosts.parse(v.Hosts.String())
		if err != nil {
			return err
		}
		t.Hosts = int(h)
	}
	if v.PPN != nil {
		p, err := fieldPPN.parse(v.PPN.String())
		if err != nil {
			return err
		}
		t.PPN = int(p)
	}
	for k := range v.Ranks {
		h, err := fieldRank.parse(v.Ranks[k].String())
		if err != nil {
			return err
		}
		t.Ranks = append(t.Ranks, int32(h))
	}
	return nil
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

// WriteJSONL validates t and writes it as JSON Lines: {"hosts":N} (with
// "ppn" and "ranks" for an MPI job), then one object per message with
// every key present. Release times and gaps must be whole nanoseconds.
func WriteJSONL(w io.Writer, t *Trace) error {
	if err := checkForWrite(t); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if len(t.Ranks) > 0 {
		fmt.Fprintf(bw, "{\"hosts\":%d,\"ppn\":%d,\"ranks\":[%s]}\n", t.Hosts, t.PPN, joinInts(t.Ranks, ','))
	} else {
		fmt.Fprintf(bw, "{\"hosts\":%d}\n", t.Hosts)
	}
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
		b = append(b, `,"priority":`...)
		b = strconv.AppendInt(b, int64(m.Priority), 10)
		b = append(b, `,"iteration":`...)
		b = strconv.AppendInt(b, m.Iteration, 10)
		b = append(b, `,"src_rank":`...)
		b = strconv.AppendInt(b, int64(m.SrcRank), 10)
		b = append(b, `,"dst_rank":`...)
		b = strconv.AppendInt(b, int64(m.DstRank), 10)
		b = append(b, "}\n"...)
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}
