package runconfig

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/switchmodel"
)

// writeFile writes content to name inside dir and returns the path.
var writeFile = testfiles.Write

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
		fc, err := Load(path)
		if err != nil {
			t.Fatalf("%q: load: %v", tc.yaml, err)
		}
		sw := switchmodel.DefaultConfig()
		err = fc.ApplySwitch(path, &sw)
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
		fc, err := Load(path)
		if err != nil {
			t.Fatalf("%q: load: %v", tc.yaml, err)
		}
		sw, n := switchmodel.DefaultConfig(), nic.DefaultConfig()
		err = fc.ApplySwitch(path, &sw)
		if err == nil {
			err = fc.ApplyNIC(path, &n)
		}
		if want := path + ": " + tc.want; err == nil || err.Error() != want {
			t.Errorf("%q:\n got %v\nwant %s", tc.yaml, err, want)
		}
	}
}
