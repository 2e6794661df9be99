package hpccfmt

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/units"
)

// A config in the style of the simulator's mix/config.txt (CRLF line
// ends, a trailing space, keys ccreplay ignores).
const mixConfig = "ENABLE_QCN 1\r\nUSE_DYNAMIC_PFC_THRESHOLD 1\r\n\r\nPACKET_PAYLOAD_SIZE 1000\r\n" +
	"TOPOLOGY_FILE mix/topology.txt\r\nFLOW_FILE mix/flow.txt\r\nTRACE_FILE mix/trace.txt\r\n" +
	"FCT_OUTPUT_FILE mix/" + DefaultFCTOutput + "\r\nSIMULATOR_STOP_TIME 4.00\r\nCC_MODE 1\r\n" +
	"ALPHA_RESUME_INTERVAL 1\r\nRATE_DECREASE_INTERVAL 4\r\nCLAMP_TARGET_RATE 0\r\nRP_TIMER 900 \r\n" +
	"EWMA_GAIN 0.00390625\r\nFAST_RECOVERY_TIMES 1\r\nRATE_AI 50Mb/s\r\nRATE_HAI 100Mb/s\r\nMIN_RATE 100Mb/s\r\n" +
	"DCTCP_RATE_AI 1000Mb/s\r\nERROR_RATE_PER_LINK 0.0000\r\nL2_CHUNK_SIZE 4000\r\nL2_ACK_INTERVAL 1\r\n" +
	"HAS_WIN 1\r\nGLOBAL_T 1\r\nVAR_WIN 1\r\nFAST_REACT 1\r\nU_TARGET 0.95\r\nMI_THRESH 0\r\nINT_MULTI 1\r\n" +
	"PINT_LOG_BASE 1.05\r\nLINK_DOWN 0 0 0\r\nACK_HIGH_PRIO 0\r\n" +
	"KMAX_MAP 3 25000000000 400 50000000000 800 100000000000 1600\r\n" +
	"KMIN_MAP 3 25000000000 100 50000000000 200 100000000000 400\r\n" +
	"PMAX_MAP 3 25000000000 0.2 50000000000 0.2 100000000000 0.2\r\n" +
	"BUFFER_SIZE 32\r\nQLEN_MON_FILE mix/qlen.txt\r\nTRACE_FILE again.txt\r\n"

func parse(t *testing.T, text, name string) *Config {
	t.Helper()
	c, err := ParseConfig(strings.NewReader(text), name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParseConfig(t *testing.T) {
	c := parse(t, mixConfig, "config.txt")
	us := units.Microsecond
	checks := []struct {
		name      string
		got, want any
	}{
		{"CCMode", c.CCMode, 1}, {"Algorithm", c.Algorithm, "dcqcn"},
		{"RateAI", c.RateAI, 50 * units.Mbps}, {"RateHAI", c.RateHAI, 100 * units.Mbps},
		{"MinRate", c.MinRate, 100 * units.Mbps}, {"DCTCPRateAI", c.DCTCPRateAI, 1000 * units.Mbps},
		{"EWMAGain", c.EWMAGain, 0.00390625}, {"RPTimer", c.RPTimer, 900 * us},
		{"AlphaResumeInterval", c.AlphaResumeInterval, us}, {"RateDecreaseInterval", c.RateDecreaseInterval, 4 * us},
		{"FastRecoveryTimes", c.FastRecoveryTimes, 1}, {"ClampTargetRate", c.ClampTargetRate, false},
		{"UTarget", c.UTarget, 0.95}, {"MIThresh", c.MIThresh, 0}, {"IntMulti", c.IntMulti, 1},
		{"FastReact", c.FastReact, true}, {"HasWin", c.HasWin, true}, {"VarWin", c.VarWin, true}, {"GlobalT", c.GlobalT, true},
		{"BufferSize", c.BufferSize, units.Bytes(32 << 20)}, {"PacketPayloadSize", c.PacketPayloadSize, units.Bytes(1000)},
		{"L2AckInterval", c.L2AckInterval, units.Bytes(1)}, {"EnableQCN", c.EnableQCN, true},
		{"UseDynamicPFCThreshold", c.UseDynamicPFCThreshold, true}, {"ErrorRatePerLink", c.ErrorRatePerLink, 0.0},
		{"ACKHighPrio", c.ACKHighPrio, false}, {"SimulatorStopTime", c.SimulatorStopTime, 4 * units.Second},
		// No mix/ folder here: the base names in the config's directory.
		{"TopologyFile", c.TopologyFile, "topology.txt"}, {"FlowFile", c.FlowFile, "flow.txt"},
		{"Raw RP_TIMER", c.Raw["RP_TIMER"], "900"}, {"Raw LINK_DOWN", c.Raw["LINK_DOWN"], "0 0 0"},
		{"Raw TRACE_FILE (last wins)", c.Raw["TRACE_FILE"], "again.txt"},
		// Every key of the simulator's sample is one third.cc reads.
		{"Ignored", c.Ignored, []string(nil)},
		{"L2ChunkSize", c.L2ChunkSize, int64(4000)}, {"LinkDown", c.LinkDown, [3]int64{}},
		{"QlenMonFile", c.QlenMonFile, "mix/qlen.txt"}, {"TraceFile", c.TraceFile, "again.txt"},
		{"Line TRACE_FILE (the last)", c.Line("TRACE_FILE"), 39}, {"Unsupported", c.Unsupported(), nil},
	}
	for _, ch := range checks {
		if !reflect.DeepEqual(ch.got, ch.want) {
			t.Errorf("%s = %#v, want %#v", ch.name, ch.got, ch.want)
		}
	}
	wantECN := []ECNEntry{
		{25 * units.Gbps, 100 * units.KB, 400 * units.KB, 0.2},
		{50 * units.Gbps, 200 * units.KB, 800 * units.KB, 0.2},
		{100 * units.Gbps, 400 * units.KB, 1600 * units.KB, 0.2},
	}
	if got := c.ECNTable(); !reflect.DeepEqual(got, wantECN) {
		t.Errorf("ECNTable = %+v", got)
	}
	if e, ok := c.ECNFor(50 * units.Gbps); !ok || e != wantECN[1] {
		t.Errorf("ECNFor(50G) = %+v %v", e, ok)
	}
	if _, ok := c.ECNFor(40 * units.Gbps); ok {
		t.Error("ECNFor(40G) found an entry")
	}
}

// Absent keys take the simulator's defaults (third.cc).
func TestParseConfigDefaults(t *testing.T) {
	c := parse(t, "", "dir/config.txt")
	if c.CCMode != 1 || c.MinRate != 100*units.Mbps || c.AlphaResumeInterval != 55*units.Microsecond ||
		c.FastRecoveryTimes != 5 || c.MIThresh != 5 || c.BufferSize != 16<<20 || c.L2AckInterval != 0 ||
		c.SimulatorStopTime != 3010*units.Millisecond || c.FCTOutputFile != filepath.Join("dir", DefaultFCTOutput) ||
		!c.HasWin || !c.GlobalT || c.VarWin || c.Has("CC_MODE") || len(c.ECNTable()) != 0 {
		t.Errorf("defaults: %+v", c)
	}
	// Defaults without a usable value are left out of the parameters.
	name, p := c.CCParams()
	for _, k := range []string{"ai_rate", "hai_rate", "g", "increase_timer", "kmin"} {
		if _, ok := p[k]; ok || name != "dcqcn" {
			t.Errorf("default dcqcn params carry %s: %v", k, p)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"CC_MODE 10\n", "c.txt:1: CC_MODE: 10 is HPCC-PINT, which ccreplay does not support"},
		{"\nCC_MODE 5\n", "c.txt:2: CC_MODE: unknown mode 5"},
		{"CC_MODE\n", "c.txt:1: CC_MODE: missing value"},
		{"RATE_AI 50Mb/s 7\n", `c.txt:1: RATE_AI: want one value, got 2 ("50Mb/s 7")`},
		{"RATE_AI fast\n", `c.txt:1: RATE_AI: "fast": want an ns-3 data rate`},
		{"EWMA_GAIN 2\n", `c.txt:1: EWMA_GAIN: "2": want a number in [0, 1]`},
		{"RP_TIMER -3\n", `c.txt:1: RP_TIMER: "-3"`},
		{"HAS_WIN yes\n", `c.txt:1: HAS_WIN: "yes": want an integer`},
		{"SIMULATOR_STOP_TIME -1\n", "c.txt:1: SIMULATOR_STOP_TIME: want a time in seconds"},
		{"KMAX_MAP 2 25000000000 400\n", "c.txt:1: KMAX_MAP: want a count n then n rate/value pairs"},
		{"KMAX_MAP 1 25G 400\n", `c.txt:1: KMAX_MAP: rate "25G"`},
		{"KMAX_MAP 2 1 4 1 5\n", "c.txt:1: KMAX_MAP: rate 1 listed twice"},
		{"PMAX_MAP 1 1 1.5\n", `c.txt:1: PMAX_MAP: rate 1: "1.5"`},
		{"KMAX_MAP 1 1 4\nKMIN_MAP 1 1 1\nPMAX_MAP 1 2 0.1\n", "c.txt:3: PMAX_MAP has no entry for rate 1"},
		{"KMAX_MAP 1 1 4\nKMIN_MAP 1 1 5\nPMAX_MAP 1 1 0.1\n", "c.txt:2: KMIN_MAP: kmin 5 KB above kmax 4 KB at rate 1"},
		{"KMAX_MAP 1 1 4\n", "c.txt: KMIN_MAP has no entry for rate 1"},
		{"BUFFER_SIZE 5000\n", `c.txt:1: BUFFER_SIZE: "5000": want an integer in 0..4095`},
	} {
		_, err := ParseConfig(strings.NewReader(c.in), "c.txt")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseConfig(%q) error\n  %v\nwant prefix\n  %s", c.in, err, c.want)
		}
	}
}

func TestParseDataRate(t *testing.T) {
	for in, want := range map[string]units.BitsPerSec{
		"50Mb/s": 50 * units.Mbps, "100Gbps": 100 * units.Gbps, "1000Mb/s": units.Gbps,
		"25Kbps": 25 * units.Kbps, "10kb/s": 10 * units.Kbps, "1.25GBps": 10 * units.Gbps,
		"100MB/s": 800 * units.Mbps, "5000": 5000, "0.5Gbps": 500 * units.Mbps,
	} {
		if got, err := parseDataRate(in); err != nil || got != want {
			t.Errorf("parseDataRate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "Mbps", "fast", "10Tbps", "-5Mbps", "10Xbps", "1e20bps"} {
		if _, err := parseDataRate(bad); err == nil {
			t.Errorf("parseDataRate(%q) accepted", bad)
		}
	}
}

// The simulator opens file names relative to its working directory; we
// try them relative to the config's directory, then by base name there.
func TestResolvePath(t *testing.T) {
	root := t.TempDir()
	mix := filepath.Join(root, "mix")
	os.MkdirAll(filepath.Join(root, "sim", "mix"), 0o755)
	os.MkdirAll(mix, 0o755)
	for _, f := range []string{filepath.Join(mix, "topology.txt"), filepath.Join(root, "sim", "mix", "flow.txt")} {
		os.WriteFile(f, nil, 0o644)
	}
	cfg := filepath.Join(mix, "config.txt")
	for _, c := range []struct{ cfg, p, want string }{
		{cfg, "mix/topology.txt", filepath.Join(mix, "topology.txt")},                                        // next to config.txt
		{cfg, "topology.txt", filepath.Join(mix, "topology.txt")},                                            // plain name
		{cfg, "mix/" + DefaultFCTOutput, filepath.Join(mix, DefaultFCTOutput)},                               // output: dir/mix is absent
		{cfg, "/abs/x.txt", "/abs/x.txt"},                                                                    // absolute
		{filepath.Join(root, "sim", "c.txt"), "mix/flow.txt", filepath.Join(root, "sim", "mix", "flow.txt")}, // config at the simulator's root
		{filepath.Join(root, "sim", "c.txt"), "mix/new.txt", filepath.Join(root, "sim", "mix", "new.txt")},   // output under an existing mix/
		{cfg, "nowhere/deep/x.txt", filepath.Join(mix, "x.txt")},                                             // missing: base name in the config's dir
		{filepath.Join(root, "gone", "c.txt"), "a/b.txt", filepath.Join(root, "gone", "a", "b.txt")},
		{"config.txt", "mix/t.txt", "t.txt"}, // no ./mix here
		{cfg, "", ""},
	} {
		if got := ResolvePath(c.cfg, c.p); got != c.want {
			t.Errorf("ResolvePath(%q, %q) = %q, want %q", c.cfg, c.p, got, c.want)
		}
	}
}

func TestCCParams(t *testing.T) {
	cases := map[int]struct {
		name string
		want map[string]string
	}{
		1: {"dcqcn", map[string]string{
			"ai_rate": "50Mbps", "hai_rate": "100Mbps", "ai_ref_rate": "off", "min_rate": "100Mbps", "g": "0.00390625",
			"increase_timer": "900us", "alpha_timer": "1us", "cnp_interval": "1us", "decrease_interval": "4us",
			"fast_recovery": "1", "clamp_target_rate": "false", "alpha_mode": "mlx", "increase_mode": "mlx",
			"byte_counter": "off", "window": "off", "decrease_mode": "tick",
			"kmin": "100KB", "kmax": "400KB", "pmax": "0.2", "ecn_ref_rate": "25Gbps",
		}},
		3: {"hpcc", map[string]string{"eta": "0.95", "max_stage": "0", "fast_react": "true", "ai_rate": "50Mbps", "ai_ref_rate": "off", "min_rate": "100Mbps"}},
		7: {"timely", map[string]string{
			"delta": "50Mbps", "hai_factor": "2", "first_record_only": "true", "hai_mode": "increase", "hai_after": "5", "segment": "rtt",
			"alpha": "0.875", "beta": "0.8", "t_low": "50us", "t_high": "500us", "min_rtt": "20us", "min_rate": "100Mbps",
		}},
		8: {"dctcp", map[string]string{"ai_rate": "1Gbps", "g": "0.00390625", "min_rate": "100Mbps"}},
	}
	for mode, want := range cases {
		c := parse(t, strings.Replace(mixConfig, "CC_MODE 1", "CC_MODE "+strconv.Itoa(mode), 1), "config.txt")
		name, p := c.CCParams()
		if name != want.name || !reflect.DeepEqual(p, want.want) {
			t.Errorf("CC_MODE %d: %s %v\nwant %s %v", mode, name, p, want.name, want.want)
		}
	}
}

// The DCQCN parameters build, and reproduce the dcqcn "hpcc-config" preset
// that was written from the same config.txt.
func TestCCParamsBuildDCQCN(t *testing.T) {
	// The config's window (HAS_WIN) is the NIC's in a --hpcc-config run.
	checkDCQCNPreset(t, mixConfig, "hpcc-config", map[string]string{"window": "off"}, "config.txt")
}

// checkDCQCNPreset checks that the DCQCN parameters of config (described
// as from in errors) build the same DCQCN as preset with the overrides.
func checkDCQCNPreset(t *testing.T, config, preset string, overrides map[string]string, from string) {
	t.Helper()
	_, p := parse(t, config, "config.txt").CCParams()
	got, err := dcqcn.Build("zhu2015", p)
	if err != nil {
		t.Fatal(err)
	}
	want, err := dcqcn.Build(preset, overrides)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Params, want.Params) || *got.ECN != *want.ECN || got.CNPInterval != want.CNPInterval {
		t.Errorf("from %s:\n%v\n%s preset:\n%v", from, got.Params, preset, want.Params)
	}
}

// runPyDCQCN is the config.txt the HPCC repository's simulation/run.py
// writes for `--cc dcqcn --bw 100` (its template, lines 5-63, with the
// values of lines 96-104: t_alpha=1, t_dec=4, t_inc=300, g=0.00390625,
// ai = 5*bw/25, hai = 50*bw/25, has_win=0, KMAX_MAP/KMIN_MAP/PMAX_MAP for
// bw and 4*bw Gb/s), the keys that set the algorithm and the marking.
const runPyDCQCN = `ENABLE_QCN 1
CC_MODE 1
ALPHA_RESUME_INTERVAL 1
RATE_DECREASE_INTERVAL 4
CLAMP_TARGET_RATE 0
RP_TIMER 300
EWMA_GAIN 0.00390625
FAST_RECOVERY_TIMES 1
RATE_AI 20Mb/s
RATE_HAI 200Mb/s
MIN_RATE 1000Mb/s
DCTCP_RATE_AI 1000Mb/s
HAS_WIN 0
VAR_WIN 0
KMAX_MAP 2 100000000000 1600 400000000000 6400
KMIN_MAP 2 100000000000 400 400000000000 1600
PMAX_MAP 2 100000000000 0.20 400000000000 0.20
`

// The dcqcn "hpcc-run" preset is what run.py's 100 Gb/s DCQCN config
// means to the simulator's reader: every parameter the same, ECN hint
// included. run.py writes AI and HAI for the NIC's rate; the preset
// carries that rule as ai_ref_rate, which the config cannot say.
func TestCCParamsRunPyDCQCN(t *testing.T) {
	checkDCQCNPreset(t, runPyDCQCN, "hpcc-run", map[string]string{"ai_ref_rate": "off"}, "run.py's config")
}

// A table that does not scale with the rate is left to ECNTable.
func TestCCParamsNonLinearECN(t *testing.T) {
	c := parse(t, "KMAX_MAP 2 25000000000 400 100000000000 800\nKMIN_MAP 2 25000000000 100 100000000000 200\nPMAX_MAP 2 25000000000 0.2 100000000000 0.2\nHAS_WIN 0\n", "c")
	_, p := c.CCParams()
	if _, ok := p["kmin"]; ok || p["window"] != "off" {
		t.Errorf("params %v", p)
	}
}
