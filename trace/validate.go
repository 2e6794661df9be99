package trace

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// ValidationError reports what is wrong with one message of a trace, or
// with the trace as a whole when Index is -1.
type ValidationError struct {
	// Index is the position of the offending message in Trace.Messages,
	// or -1 for an error about the whole trace.
	Index int
	// ID is the offending message's id (meaningless when Index is -1).
	ID int64
	// Msg says what is wrong, e.g. "bytes -5 must be >= 0".
	Msg string
}

// Error formats e as "message <id>: <msg>".
func (e *ValidationError) Error() string {
	if e.Index < 0 {
		return e.Msg
	}
	return fmt.Sprintf("message %d: %s", e.ID, e.Msg)
}

// Validate checks the trace and returns nil or a *ValidationError naming
// the first problem found: more hosts than limits.MaxHosts or messages
// than limits.MaxMessages; ranks on unknown hosts, a PPN inconsistent with
// Ranks or a host running more than PPN ranks; a host index outside
// 0..Hosts-1, a negative size, release time or gap, a size beyond
// limits.MaxMessageBytes, a release time or gap beyond limits.MaxTime,
// sizes adding up to more than limits.MaxTotalBytes, a priority outside
// 0..MaxPriority, an iteration below -1, a rank that is not in Ranks or
// does not run on the message's host; a duplicate id, a flow shared by
// messages with different endpoints or priorities, a dependency on an
// unknown id, on itself or listed twice, or a dependency cycle (whose ids
// the error lists). Src == Dst is allowed (a same-host transfer). Its cost
// is O(messages + deps + ranks).
func (t *Trace) Validate() error {
	if _, err := t.check(whereIndex); err != nil {
		return err
	}
	return nil
}

// errTooManyMessages is what the line-based readers return at the first
// message past limits.MaxMessages.
var errTooManyMessages = fmt.Errorf("more than %d messages, the limit of one trace", limits.MaxMessages)

// whereIndex names a message by its position, for traces not read from a
// file.
func whereIndex(i int) string { return "message index " + strconv.Itoa(i) }

// check is Validate and TopoOrder; where(i) names the place of message i in
// errors that mention a second message ("line 12", "row 4", ...).
func (t *Trace) check(where func(int) string) ([]int, *ValidationError) {
	switch {
	case t.Hosts < 0:
		return nil, &ValidationError{Index: -1, Msg: fmt.Sprintf("hosts %d must be in 0..%d", t.Hosts, limits.MaxHosts)}
	case t.Hosts > limits.MaxHosts:
		return nil, &ValidationError{Index: -1, Msg: fmt.Sprintf("hosts %d is beyond the limit of %d hosts", t.Hosts, limits.MaxHosts)}
	case len(t.Messages) > limits.MaxMessages:
		return nil, &ValidationError{Index: -1, Msg: fmt.Sprintf("%d messages is beyond the limit of %d messages in one trace", len(t.Messages), limits.MaxMessages)}
	}
	if t.Hosts == 0 && len(t.Messages) > 0 {
		return nil, &ValidationError{Index: -1, Msg: "hosts is 0 but there are messages (set Trace.Hosts or call InferHosts)"}
	}
	if msg := t.checkRanks(); msg != "" {
		return nil, &ValidationError{Index: -1, Msg: msg}
	}
	msgs := t.Messages
	n := len(msgs)
	var maxID, maxFlow int64 = -1, -1
	for i := range msgs {
		maxID, maxFlow = max(maxID, msgs[i].ID), max(maxFlow, msgs[i].FlowID)
	}
	index := newIDIndex(maxID, n)      // id -> message index
	flowLast := newIDIndex(maxFlow, n) // flow id -> index of its latest message
	flowPrev := make([]int, n)         // index of the previous message on the same flow, or -1
	var total int64                    // bytes of msgs[:i+1]; checkFields bounds each, so it cannot overflow
	for i := range msgs {
		m := &msgs[i]
		if err := t.checkFields(m); err != "" {
			return nil, &ValidationError{Index: i, ID: m.ID, Msg: err}
		}
		if total += m.Bytes; total > limits.MaxTotalBytes {
			return nil, &ValidationError{Index: i, ID: m.ID, Msg: fmt.Sprintf(
				"the trace's bytes add up to %d by this message, beyond the limit of %d for a whole trace", total, limits.MaxTotalBytes)}
		}
		if j, dup := index.get(m.ID); dup {
			return nil, &ValidationError{Index: i, ID: m.ID, Msg: fmt.Sprintf("id %d is also used at %s", m.ID, where(j))}
		}
		index.set(m.ID, i)
		flowPrev[i] = -1
		if m.FlowID == NoFlow {
			continue
		}
		if j, seen := flowLast.get(m.FlowID); seen {
			if o := &msgs[j]; o.Src != m.Src || o.Dst != m.Dst {
				return nil, &ValidationError{Index: i, ID: m.ID, Msg: fmt.Sprintf(
					"flow %d goes %d->%d here but %d->%d at %s (messages of one flow share src and dst)",
					m.FlowID, m.Src, m.Dst, o.Src, o.Dst, where(j))}
			} else if o.Priority != m.Priority {
				return nil, &ValidationError{Index: i, ID: m.ID, Msg: fmt.Sprintf(
					"flow %d has priority %d here but %d at %s (messages of one flow share a priority)",
					m.FlowID, m.Priority, o.Priority, where(j))}
			}
			flowPrev[i] = j
		}
		flowLast.set(m.FlowID, i)
	}

	// Resolve dependencies to indices, into one flat array (CSR layout).
	depStart := make([]int, n+1)
	for i := range msgs {
		depStart[i+1] = depStart[i] + len(msgs[i].Deps)
	}
	deps := make([]int, depStart[n])
	seen := make([]int, n) // seen[j] == i+1: message i already listed j
	for i := range msgs {
		m := &msgs[i]
		for k, d := range m.Deps {
			j, ok := index.get(d)
			switch {
			case !ok:
				return nil, &ValidationError{Index: i, ID: m.ID, Msg: fmt.Sprintf("depends on unknown message %d", d)}
			case j == i:
				return nil, &ValidationError{Index: i, ID: m.ID, Msg: "depends on itself"}
			case seen[j] == i+1:
				return nil, &ValidationError{Index: i, ID: m.ID, Msg: fmt.Sprintf("lists dependency %d twice", d)}
			}
			seen[j] = i + 1
			deps[depStart[i]+k] = j
		}
	}
	return topoSort(msgs, depStart, deps, flowPrev)
}

// idIndex maps message or flow ids to message indices: a slice indexed
// by id when the ids fit in a range not much larger than the messages
// (generators and most files number them densely from 0), else a map.
// The slice makes validating a trace of a million messages several times
// faster than hashing every id.
type idIndex struct {
	dense []int // id -> index+1; 0: absent
	m     map[int64]int
}

// newIDIndex makes an empty index for ids up to maxID of n messages.
func newIDIndex(maxID int64, n int) *idIndex {
	if maxID < int64(2*n+64) {
		return &idIndex{dense: make([]int, maxID+1)}
	}
	return &idIndex{m: make(map[int64]int, n)}
}

func (x *idIndex) get(id int64) (int, bool) {
	if x.m != nil {
		i, ok := x.m[id]
		return i, ok
	}
	if id < 0 || id >= int64(len(x.dense)) || x.dense[id] == 0 {
		return 0, false
	}
	return x.dense[id] - 1, true
}

// set records id at index i; id must be in the index's range when it is
// a slice (ids at most maxID; a negative id never reaches set).
func (x *idIndex) set(id int64, i int) {
	if x.m != nil {
		x.m[id] = i
		return
	}
	x.dense[id] = i + 1
}

// checkFields checks one message's own fields and returns what is wrong,
// or "".
func (t *Trace) checkFields(m *Message) string {
	hostErr := func(name string, h int32) string {
		return fmt.Sprintf("%s %d is not a host (hosts are 0..%d)", name, h, t.Hosts-1)
	}
	switch {
	case m.ID < 0:
		return fmt.Sprintf("id %d must be >= 0", m.ID)
	case m.Src < 0 || int(m.Src) >= t.Hosts:
		return hostErr("src", m.Src)
	case m.Dst < 0 || int(m.Dst) >= t.Hosts:
		return hostErr("dst", m.Dst)
	case m.Bytes < 0:
		return fmt.Sprintf("bytes %d must be >= 0", m.Bytes)
	case m.Bytes > limits.MaxMessageBytes:
		return fieldBytes.check(m.Bytes, strconv.FormatInt(m.Bytes, 10)).Error()
	case m.Release < 0:
		return fmt.Sprintf("release %v must be >= 0", m.Release)
	case m.Release > limits.MaxTime:
		return limits.TimeError("release", m.Release).Error()
	case m.Gap < 0:
		return fmt.Sprintf("gap %v must be >= 0", m.Gap)
	case m.Gap > limits.MaxTime:
		return limits.TimeError("gap", m.Gap).Error()
	case m.FlowID < NoFlow:
		return fmt.Sprintf("flow_id %d must be >= -1 (-1 = a queue pair of its own)", m.FlowID)
	case m.CollectiveID < NoCollective:
		return fmt.Sprintf("collective_id %d must be >= -1 (-1 = none)", m.CollectiveID)
	case m.Priority < 0 || m.Priority > MaxPriority:
		return fmt.Sprintf("priority %d must be in 0..%d (0 = the NIC's default data class)", m.Priority, MaxPriority)
	case m.Iteration < NoIteration:
		return fmt.Sprintf("iteration %d must be >= -1 (-1 = none)", m.Iteration)
	case m.SrcRank < NoRank:
		return fmt.Sprintf("src_rank %d must be >= -1 (-1 = not an MPI rank)", m.SrcRank)
	case m.DstRank < NoRank:
		return fmt.Sprintf("dst_rank %d must be >= -1 (-1 = not an MPI rank)", m.DstRank)
	}
	if len(t.Ranks) == 0 {
		return ""
	}
	rankErr := func(name string, r, host int32, hostName string) string {
		switch {
		case int(r) >= len(t.Ranks):
			return fmt.Sprintf("%s %d is not a rank (ranks are 0..%d)", name, r, len(t.Ranks)-1)
		case t.Ranks[r] != host:
			return fmt.Sprintf("%s %d runs on host %d, not on %s %d", name, r, t.Ranks[r], hostName, host)
		}
		return ""
	}
	switch {
	case (m.SrcRank == NoRank) != (m.DstRank == NoRank):
		return fmt.Sprintf("src_rank %d and dst_rank %d must both be ranks or both -1", m.SrcRank, m.DstRank)
	case m.SrcRank == NoRank:
		return ""
	}
	if err := rankErr("src_rank", m.SrcRank, m.Src, "src"); err != "" {
		return err
	}
	return rankErr("dst_rank", m.DstRank, m.Dst, "dst")
}

// checkRanks checks Ranks and PPN and returns what is wrong, or "".
func (t *Trace) checkRanks() string {
	switch {
	case t.PPN < 0 || t.PPN > math.MaxInt32:
		return fmt.Sprintf("ppn %d must be in 0..%d (0 = not an MPI job)", t.PPN, math.MaxInt32)
	case len(t.Ranks) == 0 && t.PPN != 0:
		return fmt.Sprintf("ppn is %d but there are no ranks (ppn is 0 when the trace is not an MPI job)", t.PPN)
	case len(t.Ranks) == 0:
		return ""
	case t.PPN == 0:
		return fmt.Sprintf("there are %d ranks but ppn is 0 (set PPN, the processes per node)", len(t.Ranks))
	case len(t.Ranks) > math.MaxInt32:
		return fmt.Sprintf("%d ranks, more than %d", len(t.Ranks), math.MaxInt32)
	case t.Hosts == 0:
		return "hosts is 0 but there are ranks (set Trace.Hosts or call InferHosts)"
	}
	perHost := make(map[int32]int)
	for r, h := range t.Ranks {
		if h < 0 || int(h) >= t.Hosts {
			return fmt.Sprintf("rank %d is on host %d, which is not a host (hosts are 0..%d)", r, h, t.Hosts-1)
		}
		if perHost[h]++; perHost[h] > t.PPN {
			return fmt.Sprintf("host %d runs more than ppn %d ranks (rank %d is one too many)", h, t.PPN, r)
		}
	}
	return ""
}

// checkWholeNs reports the first message whose release time or gap is not
// a whole number of nanoseconds, which the file formats cannot store.
func checkWholeNs(t *Trace) error {
	for i := range t.Messages {
		m := &t.Messages[i]
		name, v := "release", m.Release
		if v%units.Nanosecond == 0 {
			name, v = "gap", m.Gap
		}
		if v%units.Nanosecond != 0 {
			return &ValidationError{Index: i, ID: m.ID, Msg: fmt.Sprintf(
				"%s %v is not a whole number of nanoseconds (trace files store integer ns)", name, v)}
		}
	}
	return nil
}
