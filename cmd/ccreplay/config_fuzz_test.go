package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/switchmodel"
)

// The YAML loader never panics: any input either loads into a config whose
// sections validate, or gives one error line naming the file.
func FuzzLoadConfig(f *testing.F) {
	for _, s := range []string{
		"workload: incast:n=4\nseed: 3\n",
		"switch:\n  buffer: 32MB\n  ecn: {enabled: true, kmin: 5KB, kmax: 200KB, pmax: 0.01}\n",
		"switch:\n  ecn:\n    per_rate:\n      - {rate: 100Gbps, kmin: 400KB, kmax: 1600KB, pmax: 0.2}\n",
		"nic: {mtu_payload: 1000, header: 48, ack_every: 2, cnp_interval: 50us, window: bdp}\n",
		"bogus: 1\n", "switch: [1,2]\n", "nic: {data_prio: 9}\n", "\x00\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		path := filepath.Join(t.TempDir(), "run.yaml")
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		fc, err := loadConfig(path)
		if err != nil {
			if msg := err.Error(); len(msg) == 0 || containsNewline(msg) {
				t.Fatalf("error is not one line: %q", msg)
			}
			return
		}
		sw, n := switchmodel.DefaultConfig(), nic.DefaultConfig()
		if err := fc.applySwitch(path, &sw); err == nil {
			if err := sw.Validate(); err != nil {
				t.Fatalf("applySwitch accepted an invalid switch config: %v", err)
			}
		} else if containsNewline(err.Error()) {
			t.Fatalf("error is not one line: %q", err)
		}
		if err := fc.applyNIC(path, &n); err == nil {
			if err := n.Validate(); err != nil {
				t.Fatalf("applyNIC accepted an invalid NIC config: %v", err)
			}
		}
	})
}

func containsNewline(s string) bool {
	for _, c := range s {
		if c == '\n' {
			return true
		}
	}
	return false
}
