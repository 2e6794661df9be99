package hpccfmt

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultFCTOutput is the file name the HPCC simulator writes its flow
// completions to when a config.txt has no FCT_OUTPUT_FILE (beside the
// config). A ccreplay run folder keeps the same name for its ns-3-layout
// flow completions (runfolder.FCTFile).
const DefaultFCTOutput = "fct.txt"

// Config is what ccreplay uses of an HPCC simulator config.txt. Every
// field holds the simulator's own default (third.cc globals, else the
// RdmaHw attribute default) when its key is absent; Has tells which keys
// the file gave. Units are ccreplay's: bits per second, bytes,
// picoseconds.
type Config struct {
	// Name is the config file's path as given to ParseConfig; relative
	// file names inside it are resolved against its directory.
	Name string

	// CCMode is CC_MODE (default 1) and Algorithm its ccreplay name:
	// 1 "dcqcn", 3 "hpcc", 7 "timely", 8 "dctcp". 10 (HPCC-PINT) and
	// other values are rejected.
	CCMode    int
	Algorithm string

	// RateAI and RateHAI are RATE_AI and RATE_HAI (DCQCN additive and
	// hyper increase steps; HPCC's W_AI as a rate; TIMELY's additive and
	// hyperactive steps), bits/s. The simulator has no default (0 here).
	RateAI, RateHAI units.BitsPerSec
	// MinRate is MIN_RATE, the rate floor, bits/s (default 100 Mb/s).
	MinRate units.BitsPerSec
	// DCTCPRateAI is DCTCP_RATE_AI, DCTCP's additive increase per round,
	// bits/s (default 1000 Mb/s).
	DCTCPRateAI units.BitsPerSec
	// EWMAGain is EWMA_GAIN, DCQCN's and DCTCP's g. The simulator's
	// default, written 1 / 16 in integer arithmetic, is 0.
	EWMAGain float64
	// RPTimer is RP_TIMER (given in microseconds), DCQCN's rate-increase
	// timer, picoseconds. The simulator has no default (0 here).
	RPTimer units.Time
	// AlphaResumeInterval is ALPHA_RESUME_INTERVAL (microseconds), DCQCN's
	// alpha update period, picoseconds (default 55 us).
	AlphaResumeInterval units.Time
	// RateDecreaseInterval is RATE_DECREASE_INTERVAL (microseconds),
	// DCQCN's minimum time between cuts, picoseconds (default 4 us).
	RateDecreaseInterval units.Time
	// FastRecoveryTimes is FAST_RECOVERY_TIMES, DCQCN's F (default 5).
	FastRecoveryTimes int
	// ClampTargetRate is CLAMP_TARGET_RATE (default false).
	ClampTargetRate bool
	// UTarget is U_TARGET, HPCC's target utilization eta (default 0.95).
	UTarget float64
	// MIThresh is MI_THRESH, HPCC's maxStage (default 5).
	MIThresh int
	// IntMulti is INT_MULTI, the INT field unit multiplier (default 1).
	IntMulti int
	// FastReact is FAST_REACT, HPCC's per-ACK reaction (default true).
	FastReact bool
	// HasWin is HAS_WIN: flows are window-limited (default true).
	HasWin bool
	// VarWin is VAR_WIN: the window scales with the rate (default false).
	VarWin bool
	// GlobalT is GLOBAL_T 1: every flow uses the network's largest base
	// RTT and BDP rather than its own (default true).
	GlobalT bool

	// BufferSize is BUFFER_SIZE, each switch's shared buffer, bytes: the
	// file gives MiB (third.cc multiplies by 1024*1024; default 16).
	BufferSize units.Bytes
	// PacketPayloadSize is PACKET_PAYLOAD_SIZE, bytes per data packet
	// (default 1000).
	PacketPayloadSize units.Bytes
	// L2AckInterval is L2_ACK_INTERVAL: the receiver acknowledges each
	// time this many more bytes have arrived in order (so 1 means every
	// packet); 0 disables ACKs (the default).
	L2AckInterval units.Bytes
	// EnableQCN is ENABLE_QCN: switches mark ECN (default true).
	EnableQCN bool
	// UseDynamicPFCThreshold is USE_DYNAMIC_PFC_THRESHOLD (default true).
	UseDynamicPFCThreshold bool
	// ErrorRatePerLink is ERROR_RATE_PER_LINK, the packet loss
	// probability on every link (default 0).
	ErrorRatePerLink float64
	// ACKHighPrio is ACK_HIGH_PRIO: ACKs use the highest priority queue
	// (default false: queue 3, with data).
	ACKHighPrio bool
	// SimulatorStopTime is SIMULATOR_STOP_TIME (seconds), picoseconds
	// (default 3.01 s).
	SimulatorStopTime units.Time

	// TopologyFile, FlowFile and FCTOutputFile are TOPOLOGY_FILE,
	// FLOW_FILE and FCT_OUTPUT_FILE resolved with ResolvePath against
	// Name ("" when absent, except FCTOutputFile whose default is
	// DefaultFCTOutput beside the config).
	TopologyFile, FlowFile, FCTOutputFile string

	// Extra holds the remaining keys third.cc reads (netkeys.go).
	Extra

	// Raw maps every key of the file to its value as written (fields
	// joined by one space); a repeated key keeps its last value, as in
	// the simulator.
	Raw map[string]string
	// Ignored lists, in file order and once each, the keys third.cc does
	// not read at all (see Warnings).
	Ignored []string

	ecn map[units.BitsPerSec]*ECNEntry
}

// ECNEntry is the RED/ECN marking of switch ports of one link rate, from
// KMIN_MAP, KMAX_MAP and PMAX_MAP.
type ECNEntry struct {
	// Rate is the link rate the entry applies to, bits/s.
	Rate units.BitsPerSec
	// Kmin and Kmax are the marking thresholds, bytes (the file gives KB,
	// which switch-mmu.cc's ConfigEcn multiplies by 1000).
	Kmin, Kmax units.Bytes
	// Pmax is the marking probability at Kmax.
	Pmax float64
}

// ccModes maps CC_MODE to ccreplay algorithm names.
var ccModes = map[int]string{1: "dcqcn", 3: "hpcc", 7: "timely", 8: "dctcp"}

// Has reports whether the file gave key.
func (c *Config) Has(key string) bool { _, ok := c.Raw[key]; return ok }

// defaults returns the simulator's defaults (third.cc).
func defaults(name string) *Config {
	return &Config{
		Name: name, CCMode: 1, Algorithm: "dcqcn",
		MinRate: 100 * units.Mbps, DCTCPRateAI: 1000 * units.Mbps,
		AlphaResumeInterval: 55 * units.Microsecond, RateDecreaseInterval: 4 * units.Microsecond,
		FastRecoveryTimes: 5, UTarget: 0.95, MIThresh: 5, IntMulti: 1,
		FastReact: true, HasWin: true, GlobalT: true,
		BufferSize: 16 << 20, PacketPayloadSize: 1000,
		EnableQCN: true, UseDynamicPFCThreshold: true,
		SimulatorStopTime: 3010 * units.Millisecond,
		Extra:             defaultExtra(),
		Raw:               map[string]string{},
		ecn:               map[units.BitsPerSec]*ECNEntry{},
	}
}

// ParseConfig reads a config.txt: one "KEY value..." per line (blank
// lines and lines starting with '#' are skipped). name is the file's path,
// used in errors ("config.txt:12: RATE_AI: ...") and to resolve the file
// names inside it. The values of every key third.cc reads are checked;
// keys it does not read are kept in Raw and listed in Ignored. CC_MODE 10
// (HPCC-PINT) is an error: ccreplay has no PINT. Values ccreplay parses
// but cannot reproduce are refused later, by Unsupported.
func ParseConfig(r io.Reader, name string) (*Config, error) {
	c := defaults(name)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line := 0
	mapLines := map[string]int{}
	ignored := map[string]bool{}
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		key, vals := f[0], f[1:]
		c.Raw[key] = strings.Join(vals, " ")
		c.lines[key] = line
		set, known := lookupSetter(key)
		if !known {
			if !ignored[key] {
				ignored[key] = true
				c.Ignored = append(c.Ignored, key)
			}
			continue
		}
		if strings.HasSuffix(key, "_MAP") {
			mapLines[key] = line
		}
		if err := set(c, key, vals); err != nil {
			return nil, &trace.ParseError{File: name, Line: line, Err: fmt.Errorf("%s: %w", key, err)}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &trace.ParseError{File: name, Line: line + 1, Err: errors.New("line longer than 1 MiB")}
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := c.checkECN(); err != nil {
		return nil, &trace.ParseError{File: name, Line: mapLines[err.key], Err: err}
	}
	if c.FCTOutputFile == "" {
		c.FCTOutputFile = filepath.Join(filepath.Dir(name), DefaultFCTOutput)
	}
	return c, nil
}

// ResolvePath resolves p, a file name from a config.txt at cfgPath, as
// the simulator does and then as a user who moved the files expects. The
// simulator opens such names relative to its working directory (its
// sample says "mix/topology.txt" for a file beside mix/config.txt, run
// from the folder above mix/). ResolvePath returns p if it is absolute;
// otherwise the first that exists of: p relative to the working
// directory, dir/p and dir/base(p) where dir is the config's directory,
// and a/p for each ancestor a of dir (a config in runs/X/ naming
// inputs/t.txt relative to the folder above runs/). If none exists (an
// output file yet to be written), the first of them whose directory
// exists; if only a folder of that name exists, the folder (so that its
// reader names it); otherwise dir/p.
func ResolvePath(cfgPath, p string) string {
	if p == "" {
		return ""
	}
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	dir := filepath.Dir(cfgPath)
	cands := []string{p, filepath.Join(dir, p)}
	if b := filepath.Base(p); b != p {
		cands = append(cands, filepath.Join(dir, b))
	}
	if abs, err := filepath.Abs(dir); err == nil {
		for a := filepath.Dir(abs); ; a = filepath.Dir(a) {
			cands = append(cands, filepath.Join(a, p))
			if filepath.Dir(a) == a {
				break
			}
		}
	}
	for _, c := range cands {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c
		}
	}
	for _, c := range cands {
		if _, err := os.Stat(c); err == nil {
			return c // a folder: its reader says so
		}
	}
	for _, c := range cands {
		if st, err := os.Stat(filepath.Dir(c)); err == nil && st.IsDir() {
			return c
		}
	}
	return cands[1]
}

// ECNTable returns the ECN marking entries, sorted by rate.
func (c *Config) ECNTable() []ECNEntry {
	out := make([]ECNEntry, 0, len(c.ecn))
	for _, e := range c.ecn {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rate < out[j].Rate })
	return out
}

// ECNFor returns the entry for links of rate r. The simulator requires
// one for the rate of every switch port.
func (c *Config) ECNFor(r units.BitsPerSec) (ECNEntry, bool) {
	e, ok := c.ecn[r]
	if !ok {
		return ECNEntry{}, false
	}
	return *e, true
}

// ecnError is a disagreement between the three maps, reported at the line
// of the map named by key.
type ecnError struct {
	key string
	msg string
}

func (e *ecnError) Error() string { return e.msg }

// checkECN requires the three maps to list the same rates, with
// kmin <= kmax.
func (c *Config) checkECN() *ecnError {
	for _, e := range c.ECNTable() {
		for _, m := range []struct {
			key string
			has bool
		}{{"KMIN_MAP", e.Kmin >= 0}, {"KMAX_MAP", e.Kmax >= 0}, {"PMAX_MAP", e.Pmax >= 0}} {
			if !m.has {
				return &ecnError{m.key, fmt.Sprintf("%s has no entry for rate %d, which the other ECN maps list (KMIN_MAP, KMAX_MAP and PMAX_MAP must list the same rates)", m.key, int64(e.Rate))}
			}
		}
		if e.Kmin > e.Kmax {
			return &ecnError{"KMIN_MAP", fmt.Sprintf("KMIN_MAP: kmin %d KB above kmax %d KB at rate %d", e.Kmin/1000, e.Kmax/1000, int64(e.Rate))}
		}
	}
	return nil
}
