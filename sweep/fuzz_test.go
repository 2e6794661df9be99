package sweep

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
)

// FuzzReadManifest: any sweep.json is read or refused with one line
// naming it, never a panic.
func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(`{"schema_version": "ccreplay.sweep.v1", "kind": "sweep", "points": []}`))
	f.Add([]byte(`{"kind": "sweep", "points": {}}`))
	f.Add([]byte(`{"schema_version": "ccreplay.sweep.v1", "kind": "sweep", "points": [{"index": 7, "dir": "../x"}]}`))
	f.Add([]byte("\x00"))
	testfiles.FuzzFolder(f, ManifestFile, func(_ *testing.T, dir string) error {
		_, err := ReadManifest(dir)
		return err
	})
}

// FuzzParseSpec: any sweep specification is parsed or refused, never a
// panic.
func FuzzParseSpec(f *testing.F) {
	f.Add([]byte("workload: incast:n=2,size=1KB\naxes:\n  cca: [dcqcn, hpcc]\n  seed: 1..3\n"))
	f.Add([]byte("axes:\n  switch.buffer: {from: 8, to: 32, step: 8, unit: MB}\n---\nseed: 1\n"))
	f.Add([]byte("zip:\n  - [workload.load, max_time]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ParseSpec("s.yaml", b)
	})
}
