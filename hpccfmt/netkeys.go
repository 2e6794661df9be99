package hpccfmt

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Extra holds the config.txt keys that are neither congestion control nor
// already Config fields: PFC, link-level ACK and recovery settings, loss,
// link failure, and the simulator's trace and monitor outputs. Config
// embeds it. Every field holds third.cc's default when its key is absent.
type Extra struct {
	// PauseTime is PAUSE_TIME, the time a PAUSE frame carries,
	// microseconds (default 5). The simulator's receivers stay paused
	// until a RESUME whatever the time, unless it truncates to 0.
	PauseTime float64
	// L2ChunkSize is L2_CHUNK_SIZE, bytes (default 0).
	L2ChunkSize int64
	// L2BackToZero is L2_BACK_TO_ZERO (default false).
	L2BackToZero bool
	// LinkDown is LINK_DOWN: when (microseconds after 2 s; 0 = never)
	// and the two node ids of the link the simulator takes down.
	LinkDown [3]int64
	// EnableTrace is ENABLE_TRACE (default true).
	EnableTrace bool
	// TraceFile and TraceOutputFile are TRACE_FILE and TRACE_OUTPUT_FILE
	// as written.
	TraceFile, TraceOutputFile string
	// PFCOutputFile is PFC_OUTPUT_FILE as written ("" when absent; the
	// simulator then writes pfc.txt in its working directory).
	PFCOutputFile string
	// QlenMonFile is QLEN_MON_FILE as written ("" when absent).
	QlenMonFile string
	// QlenMonStart and QlenMonEnd are QLEN_MON_START and QLEN_MON_END
	// (given in nanoseconds), picoseconds (defaults 2 s and 2.1 s): the
	// simulator samples the switch queues from the start, every
	// QlenMonInterval, up to and including the first sample at or after
	// the end (third.cc monitor_buffer).
	QlenMonStart, QlenMonEnd units.Time

	// lines maps each key of the file to the line of its last occurrence.
	lines map[string]int
}

// QlenMonInterval is the simulator's queue sampling period (third.cc
// qlen_mon_interval, 100 ns; config.txt cannot change it).
const QlenMonInterval = 100 * units.Nanosecond

// QlenDumpInterval is how often the simulator writes the queue-length
// histograms: at every sample whose time is a multiple of it (third.cc
// qlen_dump_interval, 100 ms; config.txt cannot change it).
const QlenDumpInterval = 100 * units.Millisecond

func defaultExtra() Extra {
	return Extra{
		PauseTime: 5, EnableTrace: true,
		QlenMonStart: 2 * units.Second, QlenMonEnd: 2100 * units.Millisecond,
		lines: map[string]int{},
	}
}

// Line returns the line of key's last occurrence in the file, 0 if absent.
func (c *Config) Line(key string) int { return c.lines[key] }

// lookupSetter finds the parser of key: the keys in configkeys.go, then
// those below.
func lookupSetter(key string) (setter, bool) {
	if s, ok := setters[key]; ok {
		return s, true
	}
	s, ok := extraSetters[key]
	return s, ok
}

// word accepts any single value (file names, and the keys whose values
// the simulator reads but never uses).
func word(s string) (string, error) { return s, nil }

func wordKey(field func(*Config) *string) setter {
	return func(c *Config, _ string, v []string) (err error) {
		*field(c), err = one(v, word)
		return err
	}
}

// nsKey reads a time in whole nanoseconds (a uint64 in the simulator).
func nsKey(field func(*Config) *units.Time) setter {
	return func(c *Config, _ string, v []string) error {
		n, err := one(v, parseInt(0, math.MaxInt64/int(units.Nanosecond)))
		*field(c) = units.Time(n) * units.Nanosecond
		return err
	}
}

// checked accepts a key whose value must parse but that Config does not
// keep (its value stays in Raw).
func checked[T any](parse func(string) (T, error)) setter {
	return func(_ *Config, _ string, v []string) error {
		_, err := one(v, parse)
		return err
	}
}

// extraSetters are the keys of Extra, the keys whose values the
// simulator reads and never uses (DATA_RATE, LINK_DELAY: third.cc's link
// loop shadows them with each link's own), and the remaining
// congestion-control keys, which are only checked here (their values
// stay in Raw; see ccparams.go for the mapping of congestion control).
var extraSetters = map[string]setter{
	"PAUSE_TIME": func(c *Config, _ string, v []string) (err error) {
		c.PauseTime, err = one(v, parseFloat(0, math.MaxUint32))
		return err
	},
	"L2_CHUNK_SIZE": func(c *Config, _ string, v []string) error {
		n, err := one(v, parseInt(0, math.MaxUint32))
		c.L2ChunkSize = int64(n)
		return err
	},
	"L2_BACK_TO_ZERO": boolKey(func(c *Config) *bool { return &c.L2BackToZero }),
	"LINK_DOWN": func(c *Config, _ string, v []string) error {
		if len(v) != 3 {
			return fmt.Errorf("want three values (time_us node_a node_b), got %d", len(v))
		}
		for i, hi := range []int{math.MaxInt64 / int(units.Microsecond), math.MaxUint32, math.MaxUint32} {
			n, err := parseInt(0, hi)(v[i])
			if err != nil {
				return err
			}
			c.LinkDown[i] = int64(n)
		}
		return nil
	},
	"ENABLE_TRACE":      boolKey(func(c *Config) *bool { return &c.EnableTrace }),
	"TRACE_FILE":        wordKey(func(c *Config) *string { return &c.TraceFile }),
	"TRACE_OUTPUT_FILE": wordKey(func(c *Config) *string { return &c.TraceOutputFile }),
	"PFC_OUTPUT_FILE":   wordKey(func(c *Config) *string { return &c.PFCOutputFile }),
	"QLEN_MON_FILE":     wordKey(func(c *Config) *string { return &c.QlenMonFile }),
	"QLEN_MON_START":    nsKey(func(c *Config) *units.Time { return &c.QlenMonStart }),
	"QLEN_MON_END":      nsKey(func(c *Config) *units.Time { return &c.QlenMonEnd }),
	"DATA_RATE":         checked(word),
	"LINK_DELAY":        checked(word),
	"RATE_BOUND":        checked(parseInt(0, math.MaxUint32)),
	"MULTI_RATE":        checked(parseInt(math.MinInt32, math.MaxInt32)),
	"SAMPLE_FEEDBACK":   checked(parseInt(math.MinInt32, math.MaxInt32)),
	"PINT_LOG_BASE":     checked(parseFloat(-math.MaxFloat64, math.MaxFloat64)),
	"PINT_PROB":         checked(parseFloat(-math.MaxFloat64, math.MaxFloat64)),
}

// refusal is why ccreplay cannot reproduce what a key asks for, or "".
type refusal func(c *Config) string

// refusals are the network keys whose values ask for behaviour ccreplay
// does not have. Each names the simulator function it follows.
var refusals = map[string]refusal{
	// RdmaHw::UpdateNextAvail paces at the line rate instead of the
	// algorithm's rate when m_rateBound is false.
	"RATE_BOUND": func(c *Config) string {
		if v, _ := strconv.Atoi(c.Raw["RATE_BOUND"]); v != 0 {
			return ""
		}
		return "the simulator then paces every queue pair at the line rate, whatever rate its algorithm sets (RdmaHw::UpdateNextAvail), leaving only the window; ccreplay always paces at the algorithm's rate (use 1)"
	},
	// RdmaHw::UpdateRateHp: m_multipleRate keeps one rate per hop and
	// takes the smallest; m_sampleFeedback reacts only to every 32nd INT
	// sample unless the queue is long. Both matter under HPCC only.
	"MULTI_RATE": func(c *Config) string {
		if v, _ := strconv.Atoi(c.Raw["MULTI_RATE"]); v == 0 || c.CCMode != 3 {
			return ""
		}
		return "HPCC then keeps a rate per hop and sends at the smallest (RdmaHw::UpdateRateHp, m_multipleRate); ccreplay's HPCC keeps one rate from the most loaded hop (use 0)"
	},
	"SAMPLE_FEEDBACK": func(c *Config) string {
		if v, _ := strconv.Atoi(c.Raw["SAMPLE_FEEDBACK"]); v == 0 || c.CCMode != 3 {
			return ""
		}
		return "HPCC then updates only on sampled INT feedback (RdmaHw::UpdateRateHp, m_sampleFeedback); ccreplay's HPCC reacts to every ACK's INT (use 0)"
	},
	// QbbNetDevice::SendPfc puts the pause time in the frame, and
	// QbbNetDevice::Receive takes a frame with time 0 as RESUME.
	"PAUSE_TIME": func(c *Config) string {
		if c.PauseTime >= 1 {
			return ""
		}
		return "the simulator's PAUSE frames would carry a pause time of 0 (it keeps whole microseconds), which its receivers take as RESUME, so PFC would never pause; ccreplay has no such mode (any value >= 1 behaves the same in the simulator: a PAUSE holds until RESUME)"
	},
	// RdmaHw::ReceiveAck ignores every ACK when the interval is 0.
	"L2_ACK_INTERVAL": func(c *Config) string {
		switch {
		case c.L2AckInterval == 0:
			return "the simulator's senders then ignore every ACK (RdmaHw::ReceiveAck), so no flow ever completes; set 1 for an ACK per packet"
		case c.L2AckInterval > c.PacketPayloadSize:
			return fmt.Sprintf("more than one packet's payload (PACKET_PAYLOAD_SIZE %d): the simulator then acknowledges no packet until a flow's first %d bytes have arrived (except at multiples of L2_CHUNK_SIZE) and every packet after that (RdmaHw::ReceiveUdp resets the ACK milestone on each packet); ccreplay has no such ACK pattern (use a value up to the payload size for an ACK per packet)",
				int64(c.PacketPayloadSize), int64(c.L2AckInterval))
		}
		return ""
	},
	// RdmaHw::ReceiveAck and RdmaHw::ReceiverCheckSeq with m_backto0.
	"L2_BACK_TO_ZERO": func(c *Config) string {
		if !c.L2BackToZero {
			return ""
		}
		return "the simulator then rounds every ACK down to a multiple of L2_CHUNK_SIZE and rolls the receiver back to the chunk's start on a NACK (RdmaHw::ReceiveAck, RdmaHw::ReceiverCheckSeq); ccreplay has no go-back-N chunking (set 0)"
	},
	// third.cc installs a RateErrorModel of this rate as the receive
	// error model of every link whose own error rate is 0.
	"ERROR_RATE_PER_LINK": func(c *Config) string {
		if c.ErrorRatePerLink == 0 {
			return ""
		}
		return "the simulator drops each packet a device receives with this probability, on every link (a RateErrorModel per device); ccreplay links never lose packets (set 0)"
	},
	// third.cc schedules TakeDownLink at 2 s + LINK_DOWN's time.
	"LINK_DOWN": func(c *Config) string {
		if c.LinkDown[0] == 0 {
			return ""
		}
		return fmt.Sprintf("the simulator takes the link between nodes %d and %d down at 2 s + %d us and reroutes around it (TakeDownLink); ccreplay has no link failures (a time of 0 disables it)",
			c.LinkDown[1], c.LinkDown[2], c.LinkDown[0])
	},
}

// Unsupported returns an error for the first key, in file order, whose
// value asks for behaviour ccreplay does not have and that would change
// the results: "config.txt:31: L2_BACK_TO_ZERO 1: ...". Values with no
// effect in the simulator (LINK_DOWN 0 0 0, L2_BACK_TO_ZERO 0, any
// L2_CHUNK_SIZE without it, ...) pass. It does not look at the flows (see
// CheckFlowACKs) or the topology.
func (c *Config) Unsupported() error {
	keys := make([]string, 0, len(refusals))
	for k := range refusals {
		if c.Has(k) {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return c.lines[keys[i]] < c.lines[keys[j]] })
	for _, k := range keys {
		if why := refusals[k](c); why != "" {
			return c.keyError(k, why)
		}
	}
	return nil
}

// keyError is a refusal of key at its line: "KEY value: why".
func (c *Config) keyError(key, why string) error {
	return &trace.ParseError{File: c.Name, Line: c.lines[key], Err: fmt.Errorf("%s %s: %s", key, c.Raw[key], why)}
}

// CheckFlowACKs refuses a flow the simulator would never acknowledge:
// one shorter than L2_ACK_INTERVAL bytes (possible when the interval is
// above 1) gets an ACK only if its size is a multiple of L2_CHUNK_SIZE
// (RdmaHw::ReceiverCheckSeq), and with L2_CHUNK_SIZE 0 the simulator
// divides by zero. sizes are the flows' sizes in file order, lines their
// lines in flowFile. Zero-byte flows are not checked here.
func (c *Config) CheckFlowACKs(sizes []int64, flowFile string, lines []int) error {
	n := int64(c.L2AckInterval)
	if n <= 1 {
		return nil
	}
	for i, s := range sizes {
		if s <= 0 || s >= n {
			continue
		}
		what := fmt.Sprintf("it is not a multiple of L2_CHUNK_SIZE %d, so the simulator never acknowledges its last byte and it never completes", c.L2ChunkSize)
		switch {
		case c.L2ChunkSize == 0:
			what = "the simulator then divides by L2_CHUNK_SIZE 0 (RdmaHw::ReceiverCheckSeq) and crashes"
		case s%c.L2ChunkSize == 0:
			continue
		}
		line := 0
		if i < len(lines) {
			line = lines[i]
		}
		return c.keyError("L2_ACK_INTERVAL", fmt.Sprintf("flow %d (%s:%d) has %d bytes, fewer than the interval; %s (RdmaHw::ReceiverCheckSeq); use L2_ACK_INTERVAL 1", i, flowFile, line, s, what))
	}
	return nil
}

// Warnings lists, in file order, one line per key third.cc does not read:
// the simulator skips such a key silently (and reads each of its values
// as a key of its own), so ccreplay warns instead of refusing:
// "config.txt:7: unknown key FOO: the simulator ignores it (ccreplay too)".
func (c *Config) Warnings() []string {
	var out []string
	for _, k := range c.Ignored {
		out = append(out, fmt.Sprintf("%s:%d: unknown key %s: the simulator ignores it, and reads each of its values as a key of its own (ccreplay ignores the line)", c.Name, c.lines[k], k))
	}
	return out
}
