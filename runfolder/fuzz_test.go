package runfolder

import (
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
)

// FuzzReadManifest: any summary.json is read or refused with one line
// naming the file, never a panic.
func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(`{"schema_version": "ccreplay.v2", "kind": "run", "complete": true, "cca": "dcqcn"}`))
	f.Add([]byte(`{"schema_version": 5}`))
	f.Add([]byte(`{"schema_version": "ccreplay.v2", "metrics": {"flows": "x"}}`))
	f.Add([]byte(`{`))
	testfiles.FuzzFolder(f, SummaryFile, func(t *testing.T, dir string) error {
		_, err := ReadManifest(dir)
		if err != nil && !strings.Contains(err.Error(), dir) {
			t.Fatalf("error not naming the folder: %q", err)
		}
		return err
	})
}
