package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runWithin runs the CLI and fails the test if it has not returned within
// d (the goroutine is left behind: the test has failed anyway).
func runWithin(t *testing.T, d time.Duration, args ...string) cliResult {
	t.Helper()
	done := make(chan cliResult, 1)
	go func() { done <- runCLI(t, args...) }()
	select {
	case r := <-done:
		return r
	case <-time.After(d):
		t.Fatalf("ccreplay %s did not finish within %v", strings.Join(args, " "), d)
		return cliResult{}
	}
}

// Defect 2 (configurations that can never forward a packet hang forever):
// `switch: {buffer: 1B}` drops every packet and retransmitted forever; and
// defect 1: `pmax: .nan` ran and then failed writing summary.json. Both
// now stop before the run with exit code 3 and one line naming the key.
func TestRunRejectsConfigsBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, yaml, want string }{
		{"buffer below one packet", "switch: {buffer: 1B}\n",
			"ccreplay: switch.buffer 1B is smaller than one data packet (1048 B: nic.mtu_payload 1000 + nic.header 48)"},
		{"pmax nan", "switch: {ecn: {pmax: .nan}}\n", "ccreplay: PATH: switch.ecn.pmax: NaN is not a number in [0,1]"},
		{"cca param nan", "cca: dcqcn\ncca_params: {g: NaN}\n", `ccreplay: dcqcn: parameter g: want a number, got "NaN"`},
		{"max_time beyond the limit", "max_time: 2000000s\n", `ccreplay: PATH: max_time: duration "2000000s" out of range (beyond the limit of 1000000s)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, dir, strings.ReplaceAll(tc.name, " ", "_")+".yaml", "workload: "+smallWorkload+"\n"+tc.yaml)
			out := filepath.Join(t.TempDir(), "out")
			r := runWithin(t, 2*time.Minute, "run", "--config", path, "--out", out)
			line := checkOneErrorLine(t, r, ExitBadInput)
			want := strings.ReplaceAll(tc.want, "PATH", path)
			if p, ok := strings.CutSuffix(want, "..."); ok {
				if !strings.HasPrefix(line, p) {
					t.Fatalf("error\n got %q\nwant it to start with %q", line, p)
				}
			} else if line != want {
				t.Fatalf("error\n got %q\nwant %q", line, want)
			}
		})
	}
}
