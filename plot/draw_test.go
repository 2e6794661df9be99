package plot

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// TestPooling: auto pools when an algorithm has more than two runs.
func TestPooling(t *testing.T) {
	runs := func(ccas ...string) []*Run {
		var out []*Run
		for _, c := range ccas {
			out = append(out, &Run{Manifest: runfolder.Manifest{CCA: c}})
		}
		return out
	}
	for _, tt := range []struct {
		pool string
		runs []*Run
		want bool
	}{
		{"auto", runs("a", "a", "b", "b"), false},
		{"auto", runs("a", "b", "a", "a"), true},
		{"yes", runs("a"), true},
		{"no", runs("a", "a", "a"), false},
	} {
		if got := pooling(tt.pool, tt.runs); got != tt.want {
			t.Errorf("pooling(%s, %d runs) = %v, want %v", tt.pool, len(tt.runs), got, tt.want)
		}
	}
}

// TestRemoveStale removes a skipped view's figures of an earlier plot and
// says so, and nothing else.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"queue_time.png", "fct_cdf.png"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	notes := removeStale(dir, "queue_time", []string{"png", "svg"})
	if len(notes) != 1 {
		t.Errorf("notes %q, want one", notes)
	}
	if _, err := os.Stat(filepath.Join(dir, "queue_time.png")); !os.IsNotExist(err) {
		t.Error("the stale figure is still there")
	}
	if _, err := os.Stat(filepath.Join(dir, "fct_cdf.png")); err != nil {
		t.Error("another view's figure was removed")
	}
}
