package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/switchmodel"
)

// Defect 1 (values that pass validation and fail later): YAML reads .nan
// and .inf as floats, and `pmax: .nan` passed the range check p < 0 ||
// p > 1; the run then failed writing summary.json after the Parquet files.
// The loader now rejects it, naming the key.
func TestLoadConfigRejectsNonFiniteFloats(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ yaml, want string }{
		{"switch: {ecn: {pmax: .nan}}\n", "switch.ecn.pmax: NaN is not a number in [0,1]"},
		{"switch: {ecn: {pmax: .inf}}\n", "switch.ecn.pmax: +Inf is not a number in [0,1]"},
		{"switch: {ecn: {pmax: -.inf}}\n", "switch.ecn.pmax: -Inf is not a number in [0,1]"},
		{"switch: {ecn: {pmax: 1.5}}\n", "switch.ecn.pmax: 1.5 is not a number in [0,1]"},
		{"switch:\n  ecn:\n    per_rate:\n      - {rate: 100Gbps, kmin: 1KB, kmax: 2KB, pmax: .nan}\n",
			"switch.ecn.per_rate[0].pmax: NaN is not a number in [0,1]"},
	} {
		path := writeFile(t, dir, "run.yaml", tc.yaml)
		fc, err := loadConfig(path)
		if err != nil {
			t.Fatalf("%q: load: %v", tc.yaml, err)
		}
		sw := switchmodel.DefaultConfig()
		err = fc.applySwitch(path, &sw)
		if want := path + ": " + tc.want; err == nil || err.Error() != want {
			t.Errorf("%q:\n got %v\nwant %s", tc.yaml, err, want)
		}
	}
}

// Defect 1: a switch or NIC error from the file names the file and the
// full YAML key, once ("run.yaml: switch.ecn.kmax ..."), not a section
// prefix and a Go field name.
func TestLoadConfigErrorsNameTheKey(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ yaml, want string }{
		{"switch: {ecn: {kmin: 100KB, kmax: 5KB}}\n", "switch.ecn.kmax 5000 B is below switch.ecn.kmin 100000 B (want kmin <= kmax <= 10^18 bytes)"},
		{"switch: {pfc: {mode: static, xoff_per_gbps: 9000, xon_per_gbps: 9250}}\n",
			"switch.pfc.xon_per_gbps 9250 B is above switch.pfc.xoff_per_gbps 9000 B: a paused port would never resume"},
		{"nic: {mtu_payload: 0}\n", "nic.mtu_payload must be in [1, 10^18] bytes, got 0 B"},
		{"nic: {rto: 2000000s}\n", `nic.rto: duration "2000000s" out of range (beyond the limit of 1000000s)`},
		{"nic: {ack_every: 0}\n", "nic.ack_every must be >= 1 packet, got 0"},
	} {
		path := writeFile(t, dir, "run.yaml", tc.yaml)
		fc, err := loadConfig(path)
		if err != nil {
			t.Fatalf("%q: load: %v", tc.yaml, err)
		}
		sw, n := switchmodel.DefaultConfig(), nic.DefaultConfig()
		err = fc.applySwitch(path, &sw)
		if err == nil {
			err = fc.applyNIC(path, &n)
		}
		if want := path + ": " + tc.want; err == nil || err.Error() != want {
			t.Errorf("%q:\n got %v\nwant %s", tc.yaml, err, want)
		}
	}
}

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
