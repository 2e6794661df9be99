package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadManifest: any sweep.json is read or refused with one line
// naming it, never a panic.
func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(`{"schema_version": "ccreplay.sweep.v1", "kind": "sweep", "points": []}`))
	f.Add([]byte(`{"kind": "sweep", "points": {}}`))
	f.Add([]byte(`{"schema_version": "ccreplay.sweep.v1", "kind": "sweep", "points": [{"index": 7, "dir": "../x"}]}`))
	f.Add([]byte("\x00"))
	root := f.TempDir()
	p := filepath.Join(root, ManifestFile)
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadManifest(root)
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("error on several lines: %q", err)
		}
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
