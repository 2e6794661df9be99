package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// fuzzTopologies are the topologies FuzzRun picks from: small and always
// explicit, so that an execution stays in milliseconds (the default star
// is sized to the trace, and a trace naming host 999999 would make a
// legal but slow million-host run; that case has tests of its own).
var fuzzTopologies = []string{"star:hosts=8", "dumbbell:n=3", "leafspine:leaves=2,hosts=3,spines=2,uplinks=1", "dolce-testbed", "star:hosts=2,rate=1G,delay=10us"}

// FuzzRun drives the whole `ccreplay run` path (trace parsing, the YAML
// configuration, algorithm parameters, topology, validation, the replay
// itself, the outputs) from arbitrary bytes, 200 us of simulated time at
// most per execution. The property: nothing panics, and every exit is
// 0, a usage error (2) or a bad-input error (3) with one line on stderr;
// exit 1 (an invariant broke, e.g. byte conservation) is a simulator bug.
func FuzzRun(f *testing.F) {
	for _, c := range []struct {
		csv, yaml, param string
		cca, topo        uint8
	}{
		{csvTrace("0,0,1,100000,0,-1,-1,,0", "1,2,1,100000,0,-1,-1,,0"), "", "", 0, 0},
		{csvTrace("0,0,1,5000,0,7,-1,,0", "1,0,1,5000,1000,7,-1,0,500"), "switch: {buffer: 1MB}\n", "", 3, 1},
		{csvTrace("0,0,1,1000000000000000000,0,-1,-1,,0"), "", "", 1, 0},
		{csvTrace("0,0,1,1000,9223372036854775,-1,-1,,0"), "", "", 2, 0},
		{"# hosts=1000000\n" + csvTrace("0,0,1,1000,0,-1,-1,,0"), "", "", 0, 0},
		{csvTrace("0,0,1,1000,0,-1,-1,,0"), "switch: {buffer: 1B}\n", "", 0, 0},
		{csvTrace("0,0,1,1000,0,-1,-1,,0"), "switch: {ecn: {pmax: .nan}}\n", "", 0, 0},
		{csvTrace("0,0,1,1000,0,-1,-1,,0"), "", "g=NaN", 0, 0},
		{csvTrace("0,0,3,300000,0,-1,-1,,0", "1,1,3,300000,0,-1,-1,,0", "2,2,3,300000,0,-1,-1,,0"), "nic: {window: bdp}\n", "", 4, 3},
		{csvTrace("0,0,1,1000,0,-1,-1,,0", "1,1,0,1000,0,-1,-1,0,100000000000000"), "", "", 5, 4},
	} {
		f.Add([]byte(c.csv), []byte(c.yaml), c.cca, c.topo, c.param)
	}
	names := registry().Names()
	f.Fuzz(func(t *testing.T, csv, yaml []byte, ccaSel, topoSel uint8, param string) {
		if len(csv) > 8192 || len(yaml) > 4096 {
			return
		}
		dir := t.TempDir()
		args := []string{
			"run", "--trace", writeFile(t, dir, "t.csv", string(csv)),
			"--cca", names[int(ccaSel)%len(names)], "--topology", fuzzTopologies[int(topoSel)%len(fuzzTopologies)],
			"--max-time", "200us", "--packets", "none", "--out", filepath.Join(dir, "out"),
		}
		if len(yaml) > 0 {
			args = append(args, "--config", writeFile(t, dir, "c.yaml", string(yaml)))
		}
		if param != "" {
			args = append(args, "--cca-param", param)
		}
		r := runCLI(t, args...)
		switch r.code {
		case ExitOK:
		case ExitUsage, ExitBadInput:
			if lines := strings.Count(strings.TrimRight(r.stderr, "\n"), "\n") + 1; lines != 1 || !strings.HasPrefix(r.stderr, "ccreplay: ") {
				t.Errorf("exit %d with %d lines on stderr, want one ccreplay: line:\n%s", r.code, lines, r.stderr)
			}
		default:
			t.Errorf("exit %d (want 0, 2 or 3) for %v\nstderr: %s", r.code, args, r.stderr)
		}
	})
}
