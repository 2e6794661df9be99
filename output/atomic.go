// Package output writes ccreplay's result files atomically: every file is
// written under a temporary name in its final directory, synced, and renamed
// into place only when complete, so a killed run never leaves a file that
// looks finished (docs/OUTPUTS.md, "The run-folder contract").
//
// Parquet files are written with parquet-go from the row types of
// schema/v1; each carries the key/value metadata v1.MetadataKey = v1.Version
// (docs/OUTPUTS.md, "Versioning"). Writing the same rows twice gives
// byte-identical files.
package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ccreplay/ccreplay/internal/staging"
)

// fileMode is the permission of every finished output file. os.CreateTemp
// creates 0600; results are meant to be shared, so it is widened explicitly.
const fileMode = 0o644

// tempFile is a file being written under a temporary name beside its final
// path.
type tempFile struct {
	f    *os.File
	path string // final name
}

// createTemp creates path's temporary file ("<path>.tmp-<pid>.<start>-<random>",
// see package internal/staging) in the same directory, so that the final
// rename never crosses file systems, after removing those that writers
// killed before they finished left there.
func createTemp(path string) (*tempFile, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	staging.Clean(dir, base)
	f, err := os.CreateTemp(dir, staging.Prefix(base)+"*")
	if err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	if err := f.Chmod(fileMode); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("output: %w", err)
	}
	return &tempFile{f: f, path: path}, nil
}

// Write implements io.Writer.
func (t *tempFile) Write(p []byte) (int, error) { return t.f.Write(p) }

// commit syncs and closes the temporary file, renames it to the final path
// and syncs the directory. On error the temporary file is removed.
func (t *tempFile) commit() error {
	err := t.f.Sync()
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(t.f.Name(), t.path)
	}
	if err != nil {
		os.Remove(t.f.Name())
		return fmt.Errorf("output: %s: %w", t.path, err)
	}
	syncDir(filepath.Dir(t.path))
	return nil
}

// abort closes and removes the temporary file.
func (t *tempFile) abort() {
	t.f.Close()
	os.Remove(t.f.Name())
}

// syncDir makes a rename in dir durable. NB: some file systems refuse to
// fsync a directory; the rename itself has already succeeded, so errors are
// ignored.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}

// WriteJSONAtomic writes v as indented JSON (two spaces, trailing newline)
// to path through a temporary file and a rename.
func WriteJSONAtomic(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("output: %s: %w", path, err)
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// WriteFileAtomic writes b to path through a temporary file in the same
// folder and a rename, so a half-written file never has the final name.
func WriteFileAtomic(path string, b []byte) error {
	t, err := createTemp(path)
	if err != nil {
		return err
	}
	if _, err := t.Write(b); err != nil {
		t.abort()
		return fmt.Errorf("output: %s: %w", path, err)
	}
	return t.commit()
}
