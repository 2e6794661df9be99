package plot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/output"
)

// FuzzReadDecisions feeds arbitrary bytes as decisions.parquet to the
// rate view's reader: it returns decisions or a one-line error naming
// the file, and never panics.
func FuzzReadDecisions(f *testing.F) {
	dir := f.TempDir()
	for _, b := range testfiles.WrittenSeeds(f, filepath.Join(dir, "seed.parquet"), func(p string) error {
		return output.WriteRows(p, []decisionRow{{TNs: 0, FlowID: 0, NewRateBps: 100e9}, {TNs: 150, FlowID: 1, NewRateBps: 5e9}})
	}) {
		f.Add(b)
	}
	f.Add([]byte{})
	f.Add([]byte("PAR1PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), DecisionsFile)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readDecisions(path, map[int64]bool{0: true, 1: true})
		if err != nil && (!strings.Contains(err.Error(), DecisionsFile) || strings.Contains(err.Error(), "\n")) {
			t.Errorf("error %q: want one line naming the file", err)
		}
	})
}
