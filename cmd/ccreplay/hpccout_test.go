package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// writePFCScenario makes a 16-to-1 DCQCN incast on a 17-host star (the
// switch is node 17) with a 1 MiB switch buffer, so that PFC pauses the
// senders, flows starting at 1.9999 s and a queue monitor window around
// 2 s (a dump time of the simulator's monitor_buffer). extra is appended
// to the config.
func writePFCScenario(t *testing.T, extra string) (dir, cfg string) {
	t.Helper()
	dir = t.TempDir()
	var topo, flows strings.Builder
	topo.WriteString("18 1 17\n17\n")
	flows.WriteString("16\n")
	for i := 0; i < 17; i++ {
		fmt.Fprintf(&topo, "%d 17 100Gbps 0.001ms 0\n", i)
	}
	for i := 1; i <= 16; i++ {
		fmt.Fprintf(&flows, "%d 0 3 100 1000000 1.9999\n", i)
	}
	files := map[string]string{
		"topology.txt": topo.String(),
		"flow.txt":     flows.String(),
		// A file the config names as its outputs: a run must not touch it.
		"ref_pfc.txt": "keep\n",
		"config.txt": "ENABLE_QCN 1\nUSE_DYNAMIC_PFC_THRESHOLD 1\nPACKET_PAYLOAD_SIZE 1000\n" +
			"TOPOLOGY_FILE topology.txt\nFLOW_FILE flow.txt\nTRACE_FILE trace.txt\nTRACE_OUTPUT_FILE mix.tr\n" +
			"FCT_OUTPUT_FILE ref_fct.txt\nPFC_OUTPUT_FILE ref_pfc.txt\nSIMULATOR_STOP_TIME 2.1\nCC_MODE 1\n" +
			"ALPHA_RESUME_INTERVAL 1\nRATE_DECREASE_INTERVAL 4\nCLAMP_TARGET_RATE 0\nRP_TIMER 300\nEWMA_GAIN 0.00390625\n" +
			"FAST_RECOVERY_TIMES 1\nRATE_AI 20Mb/s\nRATE_HAI 200Mb/s\nMIN_RATE 1000Mb/s\nERROR_RATE_PER_LINK 0.0000\n" +
			"L2_CHUNK_SIZE 4000\nL2_ACK_INTERVAL 1\nL2_BACK_TO_ZERO 0\nHAS_WIN 0\nACK_HIGH_PRIO 1\nLINK_DOWN 0 0 0\nENABLE_TRACE 0\n" +
			"KMAX_MAP 1 100000000000 1600\nKMIN_MAP 1 100000000000 400\nPMAX_MAP 1 100000000000 0.20\nBUFFER_SIZE 1\n" +
			"QLEN_MON_FILE ref_qlen.txt\nQLEN_MON_START 1999900000\nQLEN_MON_END 2000000300\n" + extra,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, filepath.Join(dir, "config.txt")
}

// ints parses a line of whitespace-separated integers, as the
// simulator's analysis scripts read its text outputs.
func ints(t *testing.T, line string) []int64 {
	t.Helper()
	var out []int64
	for _, f := range strings.Fields(line) {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		out = append(out, v)
	}
	return out
}

// A config with PFC_OUTPUT_FILE and a queue-monitor window gets pfc.txt
// and qlen.txt in the run folder, in third.cc's layouts (get_pfc,
// monitor_buffer), and the files the config names are left alone.
func TestRunHPCCConfigPFCAndQlen(t *testing.T) {
	dir, cfg := writePFCScenario(t, "")
	out := filepath.Join(t.TempDir(), "run")
	r := runCLI(t, "run", "--hpcc-config", cfg, "--out", out, "--packets", "none")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}

	// pfc.txt: "time_ns node node_type ifindex type" per frame received.
	b, err := os.ReadFile(filepath.Join(out, "pfc.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) < 2 {
		t.Fatalf("pfc.txt has %d lines:\n%s", len(lines), b)
	}
	paused := map[int64]bool{}
	var last int64
	for _, l := range lines {
		v := ints(t, l)
		if len(v) != 5 {
			t.Fatalf("pfc.txt line %q: want 5 fields", l)
		}
		tm, node, typ, ifx, pause := v[0], v[1], v[2], v[3], v[4] == 1
		// The switch pauses its senders, hosts 1..16, on their only link.
		if tm < 1_999_900_000 || tm > 2_100_000_000 || tm < last || node < 1 || node > 16 || typ != 0 || ifx != 1 || (v[4] != 0 && v[4] != 1) {
			t.Fatalf("pfc.txt line %q", l)
		}
		if !pause && !paused[node] {
			t.Fatalf("pfc.txt line %q: RESUME before PAUSE", l)
		}
		paused[node], last = pause, tm
	}

	// qlen.txt: one dump at 2 s (the only multiple of 100 ms in the
	// window) of the 1001 samples from 1.9999 s, per port of switch 17.
	b, err = os.ReadFile(filepath.Join(out, "qlen.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 18 || lines[0] != "time: 2000000000" {
		t.Fatalf("qlen.txt:\n%s", b)
	}
	busy := false
	for j, l := range lines[1:] {
		v := ints(t, l)
		var n int64
		for _, c := range v[2:] {
			n += c
		}
		if v[0] != 17 || v[1] != int64(j+1) || n != 1001 {
			t.Fatalf("qlen.txt line %q: want switch 17, port %d, 1001 samples (got %d)", l, j+1, n)
		}
		busy = busy || len(v) > 3
	}
	if !busy {
		t.Error("qlen.txt: every port empty at every sample of an incast")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "ref_pfc.txt")); string(b) != "keep\n" {
		t.Errorf("the config's PFC_OUTPUT_FILE was written: %q", b)
	}
	for _, f := range []string{"ref_qlen.txt", "ref_fct.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was written", f)
		}
	}
}

// Without PFC_OUTPUT_FILE and QLEN_MON_FILE no such file is written.
func TestRunHPCCConfigNoMonitorOutputs(t *testing.T) {
	cfg := writeScenario(t, "1")
	out := filepath.Join(t.TempDir(), "run")
	if r := runCLI(t, "run", "--hpcc-config", cfg, "--out", out, "--packets", "none"); r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, f := range []string{"pfc.txt", "qlen.txt"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s written without its key", f)
		}
	}
}

// Keys asking for what ccreplay lacks exit 3 in one line naming the file,
// the line and the key; a key third.cc does not read is a warning, which
// --strict refuses.
func TestRunHPCCConfigRefusals(t *testing.T) {
	for _, c := range []struct{ extra, want string }{
		{"LINK_DOWN 1000 1 17\n", "config.txt:36: LINK_DOWN 1000 1 17: the simulator takes the link between nodes 1 and 17 down"},
		{"ERROR_RATE_PER_LINK 0.01\n", "config.txt:36: ERROR_RATE_PER_LINK 0.01:"},
		{"L2_BACK_TO_ZERO 1\n", "config.txt:36: L2_BACK_TO_ZERO 1:"},
		{"PAUSE_TIME 0\n", "config.txt:36: PAUSE_TIME 0:"},
		{"L2_ACK_INTERVAL 0\n", "config.txt:36: L2_ACK_INTERVAL 0:"},
		{"L2_ACK_INTERVAL 2000\n", "config.txt:36: L2_ACK_INTERVAL 2000: more than one packet's payload"},
		// SwitchNode EcnEnabled off under DCQCN (CC_MODE 1): no signal.
		{"ENABLE_QCN 0\n", "config.txt:36: ENABLE_QCN 0: dcqcn:hpcc-run reacts to ECN marks"},
		// The maps list 25G only (below), the switch's ports are 100G.
		{"", "config.txt:30: KMIN_MAP, KMAX_MAP and PMAX_MAP have no entry for 100000000000 bps, the rate of switch 17 port 1"},
	} {
		_, cfg := writePFCScenario(t, c.extra)
		if c.extra == "" {
			b, _ := os.ReadFile(cfg)
			os.WriteFile(cfg, []byte(strings.ReplaceAll(string(b), " 100000000000 ", " 25000000000 ")), 0o644)
		}
		r := runCLI(t, "run", "--hpcc-config", cfg, "--out", filepath.Join(t.TempDir(), "o"), "--packets", "none")
		if r.code != ExitBadInput || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", c.extra, r.code, r.stderr, c.want)
		}
	}
	_, cfg := writePFCScenario(t, "NOT_A_KEY 1\n")
	r := runCLI(t, "run", "--hpcc-config", cfg, "--out", filepath.Join(t.TempDir(), "o"), "--packets", "none")
	if r.code != ExitOK || !strings.Contains(r.stderr, "config.txt:36: unknown key NOT_A_KEY: the simulator ignores it") {
		t.Errorf("unknown key: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runCLI(t, "run", "--hpcc-config", cfg, "--strict", "--out", filepath.Join(t.TempDir(), "o"), "--packets", "none")
	if r.code != ExitBadInput || !strings.Contains(r.stderr, "unknown key NOT_A_KEY") {
		t.Errorf("unknown key under --strict: exit %d, stderr %q", r.code, r.stderr)
	}
}

// Every reference run of the simulator (../shared/data/ns3_reference)
// runs: their configs ask for nothing ccreplay refuses.
func TestRunHPCCReferenceConfigs(t *testing.T) {
	runs, _ := filepath.Glob("../../../shared/data/ns3_reference/runs/*/config.txt")
	if len(runs) == 0 {
		t.Skip("../shared/data is absent: skipping the simulator's reference runs")
	}
	for _, cfg := range runs {
		out := filepath.Join(t.TempDir(), "run")
		r := runCLI(t, "run", "--hpcc-config", cfg, "--out", out, "--packets", "none", "--strict")
		if r.code != ExitOK {
			t.Errorf("%s: exit %d: %s", cfg, r.code, r.stderr)
			continue
		}
		for _, f := range []string{"pfc.txt", "qlen.txt", runfolder.FCTFile} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Errorf("%s: %v", cfg, err)
			}
		}
	}
}

// pfc.txt and qlen.txt, which see every switch at once, are the same for
// any --threads: PAUSE and RESUME frames are taken up between windows in
// the run's event order, and the queue monitor's samples (every 100 ns)
// at window ends, and so are the other files of the run folder.
func TestRunHPCCConfigThreadsSameFiles(t *testing.T) {
	t.Parallel()
	_, cfg := writePFCScenario(t, "")
	var ref map[string][]byte
	for _, threads := range []string{"1", "2", "3"} {
		out := filepath.Join(t.TempDir(), "run")
		r := runCLI(t, "run", "--hpcc-config", cfg, "--out", out, "--packets", "none", "--threads", threads, "--stats")
		if r.code != ExitOK {
			t.Fatalf("--threads %s: exit %d: %s", threads, r.code, r.stderr)
		}
		if want := threads + " partitions"; threads != "1" && !strings.Contains(r.stderr, want) {
			t.Errorf("--threads %s: %q does not say %q", threads, r.stderr, want)
		}
		files := readDirBytes(t, out)
		if len(files["pfc.txt"]) == 0 || len(files["qlen.txt"]) == 0 {
			t.Fatalf("--threads %s: pfc.txt %d bytes, qlen.txt %d bytes: the scenario should pause and sample", threads, len(files["pfc.txt"]), len(files["qlen.txt"]))
		}
		if ref == nil {
			ref = files
			continue
		}
		for name, b := range ref {
			if string(b) != string(files[name]) {
				t.Errorf("--threads %s: %s differs from --threads 1", threads, name)
			}
		}
	}
}
