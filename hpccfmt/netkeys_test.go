package hpccfmt

import (
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// Values that ask for behaviour ccreplay lacks are refused in one line
// naming the file, the line, the key and its value, each for the reason
// the simulator's source gives.
func TestUnsupportedRefusals(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// QbbNetDevice::SendPfc / Receive: a PAUSE of time 0 acts as RESUME.
		{"CC_MODE 1\nPAUSE_TIME 0.5\n", "c.txt:2: PAUSE_TIME 0.5: the simulator's PAUSE frames would carry a pause time of 0"},
		// RdmaHw::ReceiveAck ignores ACKs when the interval is 0.
		{"L2_ACK_INTERVAL 0\n", "c.txt:1: L2_ACK_INTERVAL 0: the simulator's senders then ignore every ACK"},
		// RdmaHw::ReceiveUdp resets the milestone to the interval.
		{"PACKET_PAYLOAD_SIZE 1000\nL2_ACK_INTERVAL 4000\n", "c.txt:2: L2_ACK_INTERVAL 4000: more than one packet's payload (PACKET_PAYLOAD_SIZE 1000)"},
		// RdmaHw::ReceiveAck rounds ACKs down to chunks under m_backto0.
		{"L2_CHUNK_SIZE 4000\nL2_BACK_TO_ZERO 1\n", "c.txt:2: L2_BACK_TO_ZERO 1: the simulator then rounds every ACK down to a multiple of L2_CHUNK_SIZE"},
		// third.cc: a RateErrorModel on every link.
		{"ERROR_RATE_PER_LINK 0.001\n", "c.txt:1: ERROR_RATE_PER_LINK 0.001: the simulator drops each packet"},
		// third.cc: TakeDownLink at 2 s + LINK_DOWN's time.
		{"LINK_DOWN 100 3 17\n", "c.txt:1: LINK_DOWN 100 3 17: the simulator takes the link between nodes 3 and 17 down at 2 s + 100 us"},
		// The first refusal in file order is reported.
		{"LINK_DOWN 1 1 2\nERROR_RATE_PER_LINK 0.5\n", "c.txt:1: LINK_DOWN"},
		{"ERROR_RATE_PER_LINK 0.5\nLINK_DOWN 1 1 2\n", "c.txt:1: ERROR_RATE_PER_LINK"},
		// RdmaHw::UpdateNextAvail paces at the line rate without m_rateBound.
		{"RATE_BOUND 0\n", "c.txt:1: RATE_BOUND 0: the simulator then paces every queue pair at the line rate"},
		// RdmaHw::UpdateRateHp's per-hop rates and sampled feedback (HPCC only).
		{"CC_MODE 3\nMULTI_RATE 1\n", "c.txt:2: MULTI_RATE 1: HPCC then keeps a rate per hop"},
		{"CC_MODE 3\nSAMPLE_FEEDBACK 1\n", "c.txt:2: SAMPLE_FEEDBACK 1: HPCC then updates only on sampled INT feedback"},
	} {
		cfg, err := ParseConfig(strings.NewReader(c.in), "c.txt")
		if err != nil {
			t.Errorf("ParseConfig(%q): %v", c.in, err)
			continue
		}
		err = cfg.Unsupported()
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Unsupported(%q) = %v, want prefix %q", c.in, err, c.want)
		}
	}
}

// Values with no effect in the simulator pass: LINK_DOWN with time 0
// (third.cc schedules nothing), L2_BACK_TO_ZERO 0 with any chunk size
// (L2_CHUNK_SIZE is read only under it or below the ACK interval),
// PAUSE_TIME >= 1 (a PAUSE holds until RESUME whatever its time), the
// DATA_RATE and LINK_DELAY globals (shadowed in third.cc's link loop),
// USE_DYNAMIC_PFC_THRESHOLD (QbbNetDevice never reads m_dynamicth),
// tracing and monitor keys (outputs), MULTI_RATE and SAMPLE_FEEDBACK
// outside HPCC (only RdmaHw::UpdateRateHp reads them), and the other
// congestion-control keys (their mapping is CCParams').
func TestUnsupportedAcceptsNoOps(t *testing.T) {
	in := "LINK_DOWN 0 5 9\nL2_BACK_TO_ZERO 0\nL2_CHUNK_SIZE 0\nL2_ACK_INTERVAL 1\nPAUSE_TIME 1\nDATA_RATE 40Gbps\n" +
		"LINK_DELAY 10us\nUSE_DYNAMIC_PFC_THRESHOLD 0\nENABLE_TRACE 1\nTRACE_FILE t.txt\nTRACE_OUTPUT_FILE m.tr\n" +
		"QLEN_MON_FILE q.txt\nQLEN_MON_START 2000000000\nQLEN_MON_END 1000\nPFC_OUTPUT_FILE p.txt\nERROR_RATE_PER_LINK 0.0000\n" +
		"RATE_BOUND 1\nCC_MODE 1\nMULTI_RATE 1\nSAMPLE_FEEDBACK 1\nPINT_LOG_BASE 1.01\nPINT_PROB 0.5\n"
	c := parse(t, in, "c.txt")
	if err := c.Unsupported(); err != nil {
		t.Fatal(err)
	}
	if len(c.Ignored) != 0 || len(c.Warnings()) != 0 {
		t.Errorf("unknown keys %v", c.Ignored)
	}
	if c.QlenMonStart != 2*units.Second || c.QlenMonEnd != units.Microsecond || c.QlenMonFile != "q.txt" ||
		c.PFCOutputFile != "p.txt" || c.PauseTime != 1 || c.LinkDown != [3]int64{0, 5, 9} || c.Line("PINT_PROB") != 22 {
		t.Errorf("extra keys: %+v", c.Extra)
	}
}

// Absent keys take third.cc's globals: PAUSE_TIME 5, ENABLE_TRACE 1,
// QLEN_MON_START 2 s, QLEN_MON_END 2.1 s.
func TestExtraDefaults(t *testing.T) {
	c := parse(t, "", "c.txt")
	if c.PauseTime != 5 || !c.EnableTrace || c.QlenMonStart != 2*units.Second || c.QlenMonEnd != 2100*units.Millisecond ||
		c.L2ChunkSize != 0 || c.L2BackToZero || c.PFCOutputFile != "" || c.QlenMonFile != "" || c.Unsupported() != nil {
		t.Errorf("defaults: %+v", c.Extra)
	}
}

// A key third.cc does not read is skipped by the simulator (its main
// loop compares each word with the keys it knows), so ccreplay warns,
// naming the line, rather than refusing.
func TestUnknownKeyWarns(t *testing.T) {
	c := parse(t, "CC_MODE 3\nBUFER_SIZE 32\nBUFER_SIZE 16\n", "c.txt")
	w := c.Warnings()
	if len(w) != 1 || !strings.HasPrefix(w[0], "c.txt:3: unknown key BUFER_SIZE: the simulator ignores it") {
		t.Errorf("warnings %q", w)
	}
}

func TestExtraKeyErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"LINK_DOWN 0 0\n", "c.txt:1: LINK_DOWN: want three values (time_us node_a node_b), got 2"},
		{"LINK_DOWN 0 0 x\n", `c.txt:1: LINK_DOWN: "x": want an integer`},
		{"PAUSE_TIME -1\n", `c.txt:1: PAUSE_TIME: "-1": want a number`},
		{"QLEN_MON_START 2.5\n", `c.txt:1: QLEN_MON_START: "2.5": want an integer`},
		{"L2_CHUNK_SIZE 4000 1\n", "c.txt:1: L2_CHUNK_SIZE: want one value"},
		{"PFC_OUTPUT_FILE\n", "c.txt:1: PFC_OUTPUT_FILE: missing value"},
		{"RATE_BOUND x\n", `c.txt:1: RATE_BOUND: "x": want an integer`},
	} {
		_, err := ParseConfig(strings.NewReader(c.in), "c.txt")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseConfig(%q) error %v, want prefix %q", c.in, err, c.want)
		}
	}
}

// RdmaHw::ReceiverCheckSeq with an interval above 1: a flow shorter than
// the interval is acknowledged only when its size is a multiple of
// L2_CHUNK_SIZE (and the check divides by it).
func TestCheckFlowACKs(t *testing.T) {
	c := parse(t, "L2_CHUNK_SIZE 400\nL2_ACK_INTERVAL 1000\n", "c.txt")
	if err := c.CheckFlowACKs([]int64{1000, 5000, 800, 0}, "flow.txt", []int{2, 3, 4, 5}); err != nil {
		t.Errorf("sizes >= interval or multiples of the chunk: %v", err)
	}
	err := c.CheckFlowACKs([]int64{1000, 700}, "flow.txt", []int{2, 3})
	if err == nil || !strings.HasPrefix(err.Error(), "c.txt:2: L2_ACK_INTERVAL 1000: flow 1 (flow.txt:3) has 700 bytes, fewer than the interval; it is not a multiple of L2_CHUNK_SIZE 400") {
		t.Errorf("700 bytes: %v", err)
	}
	c = parse(t, "L2_ACK_INTERVAL 1000\n", "c.txt")
	if err := c.CheckFlowACKs([]int64{999}, "flow.txt", []int{2}); err == nil || !strings.Contains(err.Error(), "divides by L2_CHUNK_SIZE 0") {
		t.Errorf("chunk 0: %v", err)
	}
	c = parse(t, "L2_ACK_INTERVAL 1\n", "c.txt")
	if err := c.CheckFlowACKs([]int64{1, 2}, "flow.txt", nil); err != nil {
		t.Errorf("interval 1: %v", err)
	}
}

// thirdCCKeys are the keys third.cc's main loop compares its words with
// (High-Precision-Congestion-Control, simulation/scratch/third.cc), all 50.
var thirdCCKeys = strings.Fields(`ACK_HIGH_PRIO ALPHA_RESUME_INTERVAL BUFFER_SIZE CC_MODE CLAMP_TARGET_RATE
	DATA_RATE DCTCP_RATE_AI ENABLE_QCN ENABLE_TRACE ERROR_RATE_PER_LINK EWMA_GAIN FAST_REACT
	FAST_RECOVERY_TIMES FCT_OUTPUT_FILE FLOW_FILE GLOBAL_T HAS_WIN INT_MULTI KMAX_MAP KMIN_MAP
	L2_ACK_INTERVAL L2_BACK_TO_ZERO L2_CHUNK_SIZE LINK_DELAY LINK_DOWN MIN_RATE MI_THRESH MULTI_RATE
	PACKET_PAYLOAD_SIZE PAUSE_TIME PFC_OUTPUT_FILE PINT_LOG_BASE PINT_PROB PMAX_MAP QLEN_MON_END
	QLEN_MON_FILE QLEN_MON_START RATE_AI RATE_BOUND RATE_DECREASE_INTERVAL RATE_HAI RP_TIMER
	SAMPLE_FEEDBACK SIMULATOR_STOP_TIME TOPOLOGY_FILE TRACE_FILE TRACE_OUTPUT_FILE
	USE_DYNAMIC_PFC_THRESHOLD U_TARGET VAR_WIN`)

// Every key third.cc reads is known (its value checked, none an unknown
// key warning), and no other.
func TestEveryThirdCCKeyKnown(t *testing.T) {
	if len(thirdCCKeys) != 50 {
		t.Fatalf("%d keys", len(thirdCCKeys))
	}
	known := map[string]bool{}
	for _, k := range thirdCCKeys {
		if _, ok := lookupSetter(k); !ok {
			t.Errorf("%s is not known", k)
		}
		known[k] = true
	}
	for k := range setters {
		if !known[k] {
			t.Errorf("%s is not a third.cc key", k)
		}
	}
	for k := range extraSetters {
		if !known[k] {
			t.Errorf("%s is not a third.cc key", k)
		}
	}
}
