package report

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
)

// --buckets out of range is a usage error, a folder that is no output an
// input error; neither writes the page.
func TestCommandOptionsErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.html")
	s := iostreams.Streams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	if err := (&CommandOptions{Dirs: []string{dir}, Out: out, Buckets: 0}).Run(s); clierr.Code(err) != clierr.ExitUsage {
		t.Errorf("--buckets 0: %v", err)
	}
	err := (&CommandOptions{Dirs: []string{filepath.Join(dir, "none")}, Out: out, Buckets: 10}).Run(s)
	var ie *clierr.InputError
	if !errors.As(err, &ie) {
		t.Errorf("missing folder: %v, want an input error", err)
	}
}
