package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// writeScenario makes an HPCC-simulator scenario whose config names its
// files under mix/ while they sit beside it, as the simulator's own does.
func writeScenario(t *testing.T, ccMode string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		// 3 nodes, 1 switch (node 2), 2 links at 100G, 1 us.
		"topology.txt": "3 1 2\n2\n0 2 100Gbps 0.001ms 0\n1 2 100Gbps 0.001ms 0\n",
		// two flows 0 -> 1 of 100 kB, one at 2 s, one 10 us later.
		"flow.txt": "2\n0 1 3 100 100000 2\n0 1 3 100 100000 2.00001\n",
		"config.txt": "CC_MODE " + ccMode + "\nTOPOLOGY_FILE mix/topology.txt\nFLOW_FILE mix/flow.txt\n" +
			"RATE_AI 50Mb/s\nRATE_HAI 100Mb/s\nMIN_RATE 100Mb/s\nBUFFER_SIZE 16\nPACKET_PAYLOAD_SIZE 1000\n" +
			"KMAX_MAP 1 100000000000 1600\nKMIN_MAP 1 100000000000 400\nPMAX_MAP 1 100000000000 0.2\n" +
			"SIMULATOR_STOP_TIME 4.00\nSOME_KEY_WE_IGNORE 1\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "config.txt")
}

// run --hpcc-config takes the topology, flows, algorithm and network keys
// from an HPCC simulator config; --fct-txt writes that simulator's layout.
func TestRunHPCCConfig(t *testing.T) {
	for _, c := range []struct{ mode, cca string }{{"1", "dcqcn"}, {"3", "hpcc"}} {
		cfg := writeScenario(t, c.mode)
		out := filepath.Join(t.TempDir(), "run")
		fct := filepath.Join(out, runfolder.FCTFile)
		r := runCLI(t, "run", "--hpcc-config", cfg, "--out", out, "--fct-txt", fct, "--json", "--packets", "none")
		if r.code != ExitOK {
			t.Fatalf("CC_MODE %s: exit %d: %s", c.mode, r.code, r.stderr)
		}
		s := decodeSummary(t, []byte(r.stdout))
		if !strings.HasPrefix(s.CCA, c.cca+":") {
			t.Errorf("CC_MODE %s ran %s, want %s", c.mode, s.CCA, c.cca)
		}
		b, err := os.ReadFile(fct)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 2 {
			t.Fatalf(runfolder.FCTFile+" has %d lines, want 2:\n%s", len(lines), b)
		}
		// node 0 -> node 1: the simulator's IPs 0b000001 and 0b000101,
		// ports 10000 and 10001, 100000 B, started at 2 s.
		f := strings.Fields(lines[0])
		if len(f) != 8 || f[0] != "0b000001" || f[1] != "0b000101" || f[2] != "10000" || f[3] != "100" || f[4] != "100000" || f[5] != "2000000000" {
			t.Errorf(runfolder.FCTFile+" line %q", lines[0])
		}
		if g := strings.Fields(lines[1]); g[2] != "10001" || g[5] != "2000010000" {
			t.Errorf(runfolder.FCTFile+" second line %q", lines[1])
		}
	}
	// Flags still win: --cca over CC_MODE.
	cfg := writeScenario(t, "3")
	r := runCLI(t, "run", "--hpcc-config", cfg, "--cca", "linerate", "--out", filepath.Join(t.TempDir(), "o"), "--json", "--packets", "none")
	if r.code != ExitOK || decodeSummary(t, []byte(r.stdout)).CCA != "linerate" {
		t.Fatalf("--cca did not win over CC_MODE: %d %s", r.code, r.stderr)
	}
	// Errors: missing file, PINT (unsupported), a flow on a switch node.
	bad := writeScenario(t, "10")
	if r := runCLI(t, "run", "--hpcc-config", bad, "--out", t.TempDir()); r.code != ExitBadInput || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("CC_MODE 10: exit %d %q", r.code, r.stderr)
	}
	if r := runCLI(t, "run", "--hpcc-config", filepath.Join(t.TempDir(), "none.txt"), "--out", t.TempDir()); r.code != ExitBadInput {
		t.Errorf("missing config: exit %d %q", r.code, r.stderr)
	}
	sw := writeScenario(t, "1")
	os.WriteFile(filepath.Join(filepath.Dir(sw), "flow.txt"), []byte("1\n0 2 3 100 1000 2\n"), 0o644)
	if r := runCLI(t, "run", "--hpcc-config", sw, "--out", t.TempDir()); r.code != ExitBadInput || !strings.Contains(r.stderr, "flow.txt:2") {
		t.Errorf("flow to a switch: exit %d %q", r.code, r.stderr)
	}
}

func TestRunHPCCConfigSharedData(t *testing.T) {
	cfg := "../../../shared/data/hpcc_format/config.txt"
	if _, err := os.Stat(cfg); err != nil {
		t.Skip("../shared/data is absent: skipping the HPCC simulator's sample scenario")
	}
	out := t.TempDir()
	r := runCLI(t, "run", "--hpcc-config", cfg, "--out", out, "--json", "--packets", "none")
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	s := decodeSummary(t, []byte(r.stdout))
	if s.Metrics["flows"] != 2.0 || s.Metrics["flows_finished"] != 2.0 || !strings.HasPrefix(s.CCA, "hpcc") {
		t.Fatalf("sample scenario: %+v", s)
	}
}
