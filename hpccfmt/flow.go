package hpccfmt

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/trace"
)

// HostMapper maps an HPCC node id to a ccreplay host index, or says why
// it cannot (e.g. the node is a switch). With topology.ReadHPCC's
// renumbering, build it from Topology.NameIndex:
//
//	idx := topo.NameIndex()
//	host := func(id int) (int32, error) {
//		i, ok := idx[strconv.Itoa(id)]
//		if !ok || topo.Nodes[i].Kind != topology.Host {
//			return 0, fmt.Errorf("node %d is not a host of the topology", id)
//		}
//		return i, nil
//	}
type HostMapper func(id int) (int32, error)

// DefaultPriority and DefaultDPort are what WriteFlows writes for every
// flow: the priority group and destination port of the simulator's
// sample flow.txt.
const (
	DefaultPriority = 3
	DefaultDPort    = 100
)

// maxFlowCount bounds the count a flow.txt may declare.
const maxFlowCount = 1 << 28

// Flow is one flow line of a flow.txt with what a trace.Message does not
// keep. NB: ccreplay's trace has no priority yet; it is kept here.
type Flow struct {
	// Line is the 1-based line of the flow in the file.
	Line int
	// Src and Dst are the HPCC node ids as written.
	Src, Dst int
	// Priority is the priority group (the simulator's pg), 0..7.
	Priority int
	// DPort is the destination UDP port.
	DPort int
	// ID is the flow id of the research fork's layout (the Parsimon and
	// m3 backends of the simulator write "id src dst priority dport size
	// start"), -1 on a line of the original six-field layout.
	ID int64
}

// FlowFile is a flow.txt read by ReadFlows.
type FlowFile struct {
	// Trace holds one message per flow, in file order: id i is flow i,
	// on a queue pair of its own (FlowID trace.NoFlow), released at its
	// start time; Hosts is the largest mapped host index plus one (set
	// it from the topology when it has more hosts).
	Trace *trace.Trace
	// Flows[i] is the rest of flow i's line.
	Flows []Flow
	// Ignored counts the non-blank lines after the declared flows, which
	// the simulator never reads.
	Ignored int
}

// ReadFlows reads a flow.txt. name is used in errors ("flow.txt:5: ...").
// host maps node ids to host indices; nil keeps the ids (which must then
// be < 2^31). Start times are rounded to whole nanoseconds, the
// simulator's time resolution, and must not decrease (the simulator
// schedules flows in file order). Blank lines are skipped. A flow line
// may also carry a flow id first, as the research fork's (Parsimon, m3)
// flow files do; it is kept in Flow.ID (message ids stay the file order).
func ReadFlows(r io.Reader, name string, host HostMapper) (*FlowFile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	fail := func(format string, a ...any) error {
		return &trace.ParseError{File: name, Line: line, Err: fmt.Errorf(format, a...)}
	}
	next := func() ([]string, error) {
		for sc.Scan() {
			line++
			if f := strings.Fields(sc.Text()); len(f) > 0 {
				return f, nil
			}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				line++
				return nil, fail("line longer than 1 MiB")
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return nil, nil
	}
	if host == nil {
		host = func(id int) (int32, error) {
			if id > math.MaxInt32 {
				return 0, fmt.Errorf("node id %d too large for a host index", id)
			}
			return int32(id), nil
		}
	}

	f, err := next()
	switch {
	case err != nil:
		return nil, err
	case f == nil:
		return nil, &trace.ParseError{File: name, Err: errors.New("empty file: want the number of flows on the first line")}
	case len(f) != 1:
		return nil, fail("first line %q: want the number of flows alone", strings.Join(f, " "))
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n < 0 || n > maxFlowCount {
		return nil, fail("flow count %q: want an integer in 0..%d", f[0], maxFlowCount)
	}

	ff := &FlowFile{Trace: &trace.Trace{Messages: make([]trace.Message, 0, min(n, 1<<16))}}
	for i := range n {
		f, err := next()
		if err != nil {
			return nil, err
		}
		if f == nil {
			return nil, fail("the first line declares %d flows but the file has %d", n, i)
		}
		fl, msg, err := parseFlow(f, host)
		if err != nil {
			return nil, fail("%v", err)
		}
		if i > 0 && msg.Release < ff.Trace.Messages[i-1].Release {
			return nil, fail("start %s s is before the previous flow's %s s (the simulator needs flows in ascending start time)",
				formatSeconds(msg.Release), formatSeconds(ff.Trace.Messages[i-1].Release))
		}
		fl.Line = line
		msg.ID = int64(i)
		ff.Flows = append(ff.Flows, fl)
		ff.Trace.Messages = append(ff.Trace.Messages, msg)
	}
	for {
		f, err := next()
		if err != nil {
			return nil, err
		}
		if f == nil {
			break
		}
		ff.Ignored++
	}
	ff.Trace.InferHosts()
	if err := ff.Trace.Validate(); err != nil {
		var ve *trace.ValidationError
		if errors.As(err, &ve) && ve.Index >= 0 {
			return nil, &trace.ParseError{File: name, Line: ff.Flows[ve.Index].Line, Err: errors.New(ve.Msg)}
		}
		return nil, &trace.ParseError{File: name, Err: err}
	}
	return ff, nil
}

// parseFlow parses "src dst priority dport size start", or the research
// fork's "id src dst priority dport size start": each line's field count
// tells which.
func parseFlow(f []string, host HostMapper) (Flow, trace.Message, error) {
	var fl Flow
	var m trace.Message
	id := int64(-1)
	switch len(f) {
	case 6:
	case 7:
		v, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || v < 0 {
			return fl, m, fmt.Errorf("flow id %q: want an integer >= 0", f[0])
		}
		id, f = v, f[1:]
	default:
		return fl, m, fmt.Errorf("want 6 fields (src dst priority dport size_bytes start_seconds), or 7 with a flow id first, got %d", len(f))
	}
	ints := [5]int64{}
	for i, spec := range []struct {
		what string
		max  int64
	}{{"src", math.MaxUint32}, {"dst", math.MaxUint32}, {"priority", 7}, {"dport", 65535}, {"size", math.MaxUint32}} {
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil || v < 0 || v > spec.max {
			return fl, m, fmt.Errorf("%s %q: want an integer in 0..%d", spec.what, f[i], spec.max)
		}
		ints[i] = v
	}
	start, err := parseSeconds(f[5])
	if err != nil {
		return fl, m, fmt.Errorf("start %q: %v", f[5], err)
	}
	fl = Flow{Src: int(ints[0]), Dst: int(ints[1]), Priority: int(ints[2]), DPort: int(ints[3]), ID: id}
	if fl.Src == fl.Dst {
		return fl, m, fmt.Errorf("src and dst are both node %d", fl.Src)
	}
	src, err := host(fl.Src)
	if err != nil {
		return fl, m, fmt.Errorf("src: %v", err)
	}
	dst, err := host(fl.Dst)
	if err != nil {
		return fl, m, fmt.Errorf("dst: %v", err)
	}
	// The simulator reads the start as a double and turns it into whole
	// nanoseconds (its time resolution) with Seconds(), which truncates:
	// 2.000407938 is 2.00040793799999995... as a double, so 2000407937 ns.
	start = ns3Start(f[5], start)
	m = trace.Message{Src: src, Dst: dst, Bytes: ints[4], Release: start, FlowID: trace.NoFlow, CollectiveID: trace.NoCollective,
		Iteration: trace.NoIteration, SrcRank: trace.NoRank, DstRank: trace.NoRank}
	return fl, m, nil
}

// WriteFlows writes t as a flow.txt, flows sorted by release time (ties
// in trace order), each with DefaultPriority and DefaultDPort. Start
// times are written so that the simulator (and ReadFlows) starts each
// flow at its release truncated to the nanosecond (see ns3Seconds). hostID
// maps a host index to its HPCC node id; nil keeps the index. It refuses
// what flow.txt cannot say: dependencies between messages, messages
// sharing a queue pair (every flow.txt line is its own queue pair), and
// sizes above the simulator's 32-bit field.
func WriteFlows(w io.Writer, t *trace.Trace, hostID func(int32) int) error {
	if err := t.Validate(); err != nil {
		return err
	}
	if hostID == nil {
		hostID = func(h int32) int { return int(h) }
	}
	flows := make(map[int64]int64)
	order := make([]int, len(t.Messages))
	for i := range t.Messages {
		m := &t.Messages[i]
		switch {
		case len(m.Deps) > 0:
			return fmt.Errorf("message %d depends on other messages: flow.txt cannot express dependencies", m.ID)
		case m.Bytes > math.MaxUint32:
			return fmt.Errorf("message %d has %d bytes, above the simulator's 32-bit size field", m.ID, m.Bytes)
		}
		if m.FlowID != trace.NoFlow {
			if other, dup := flows[m.FlowID]; dup {
				return fmt.Errorf("messages %d and %d share flow %d: every flow.txt line is a queue pair of its own", other, m.ID, m.FlowID)
			}
			flows[m.FlowID] = m.ID
		}
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return t.Messages[order[a]].Release < t.Messages[order[b]].Release })
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%d\n", len(t.Messages))
	for _, i := range order {
		m := &t.Messages[i]
		fmt.Fprintf(bw, "%d %d %d %d %d %s\n", hostID(m.Src), hostID(m.Dst), DefaultPriority, DefaultDPort, m.Bytes, ns3Seconds(m.Release))
	}
	return bw.Flush()
}

// FirstSPort is the first source port the simulator gives a host's flows.
const FirstSPort = 10000

// SourcePorts returns the source port the simulator gives each message of
// t: per (source, destination) pair, FirstSPort for the pair's first flow
// in trace order, then one more per flow, wrapping at 65536 (third.cc's
// 16-bit portNumder[src][dst], starting at 10000 for every host pair).
// Trace order is the simulator's flow-file order for a trace read from a
// flow.txt.
func SourcePorts(t *trace.Trace) []int {
	type pair struct{ src, dst int32 }
	next := make(map[pair]int)
	out := make([]int, len(t.Messages))
	for i, m := range t.Messages {
		k := pair{m.Src, m.Dst}
		p, ok := next[k]
		if !ok {
			p = FirstSPort
		}
		out[i] = p
		next[k] = (p + 1) % 65536
	}
	return out
}
