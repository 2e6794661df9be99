package runfolder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadManifest: any summary.json is read or refused with one line
// naming the file, never a panic.
func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(`{"schema_version": "ccreplay.v2", "kind": "run", "complete": true, "cca": "dcqcn"}`))
	f.Add([]byte(`{"schema_version": 5}`))
	f.Add([]byte(`{"schema_version": "ccreplay.v2", "metrics": {"flows": "x"}}`))
	f.Add([]byte(`{`))
	dir := f.TempDir()
	p := filepath.Join(dir, SummaryFile)
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadManifest(dir)
		if err != nil && (strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), dir)) {
			t.Fatalf("error not one line naming the folder: %q", err)
		}
	})
}
