// Package testfiles makes, for tests, the inputs a bounded reader must
// refuse without reading them: a sparse file larger than a limit and a
// link to an endless device, and checks a reader refuses both; small
// input files of given content; a file's contents and the names in a
// folder; the rows and the table of a Parquet file read back by a
// second implementation (parquet-go, Arrow); the seeds a file reader's fuzz test starts from, and
// the fuzz target of a reader of one file in a folder; and Must, the one
// check of a call's error that test helpers share.
package testfiles

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v16/arrow"
	"github.com/apache/arrow/go/v16/arrow/memory"
	"github.com/apache/arrow/go/v16/parquet/file"
	"github.com/apache/arrow/go/v16/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"
)

// Sparse creates path as a sparse file of size bytes (no data is
// written), skipping the test where the file system has no sparse files.
func Sparse(t testing.TB, path string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	err = f.Truncate(size)
	f.Close()
	if err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
}

// ZeroLink makes path a symbolic link to /dev/zero, an endless input,
// skipping the test where there is no /dev/zero.
func ZeroLink(t testing.TB, path string) {
	t.Helper()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Fatal(err)
	}
}

// Write writes content to name inside dir, failing the test where it
// cannot, and returns the file's path.
func Write(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Read returns the contents of the file at path, failing the test where
// it cannot read them.
func Read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	return Must(t, b, err)
}

// Must returns v, failing t when err (from the call that gave v) is not
// nil.
func Must[T any](t testing.TB, v T, err error) T {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Names lists the names in folder dir, in name order (nil when dir does
// not exist), failing the test where it cannot read the folder.
func Names(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// ParquetRows reads every row of the Parquet file at path as a T with
// parquet-go, a reader apart from the code that wrote it, and returns
// them with the file's key-value metadata under key ("" when absent),
// failing the test where the file does not read.
func ParquetRows[T any](t testing.TB, path, key string) ([]T, string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	value, _ := pf.Lookup(key)
	r := parquet.NewGenericReader[T](f)
	defer r.Close()
	rows := make([]T, r.NumRows())
	if n, err := r.Read(rows); n != len(rows) {
		t.Fatalf("read %d of %d rows: %v", n, len(rows), err)
	}
	return rows, value
}

// ArrowTable reads the Parquet file at path whole with Arrow's reader and
// returns the table, which the caller releases, and the file's key-value
// metadata under key ("" when absent), failing the test where the file
// does not read.
func ArrowTable(t testing.TB, path, key string) (arrow.Table, string) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	var value string
	if v := pf.MetaData().KeyValueMetadata().FindValue(key); v != nil {
		value = *v
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	return Must(t, tbl, err), value
}

// Seeds returns the fuzz seeds a reader of valid file contents b starts
// from: b itself, its first half (a file cut short) and a copy with the
// byte a third of the way in flipped (a damaged one).
func Seeds(b []byte) [][]byte {
	flipped := append([]byte(nil), b...)
	if len(flipped) > 0 {
		flipped[len(b)/3] ^= 0x5a
	}
	return [][]byte{b, b[:len(b)/2], flipped}
}

// WrittenSeeds has write make a valid file at path, failing the test
// where it cannot, and returns the Seeds of its contents.
func WrittenSeeds(t testing.TB, path string, write func(path string) error) [][]byte {
	t.Helper()
	if err := write(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Seeds(b)
}

// FuzzFolder fuzzes a reader of the file name in a folder: each input is
// written as that file in one folder (made once) and read is called with
// the folder; an error read returns must be one line. read checks the
// rest (what the error names, what a file read holds).
func FuzzFolder(f *testing.F, name string, read func(t *testing.T, dir string) error) {
	dir := f.TempDir()
	p := filepath.Join(dir, name)
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := read(t, dir); err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("error on several lines: %q", err)
		}
	})
}

// Bounded is a reader with a bound on its input, as a test of it sees
// it: Read opens the file at a path (and closes it); Limit is its bound
// in bytes; Big and Zero name the too-large file and the link to
// /dev/zero the test makes; each error must start with Prefix, the
// file's path and ": ", then say TooBig or NotRegular.
type Bounded struct {
	Read               func(path string) error
	Limit              int64
	Big, Zero          string
	Prefix             string
	TooBig, NotRegular string
}

// CheckRefused checks that b.Read refuses, in one line naming the file,
// a Sparse file one byte past b.Limit (from its size) and a ZeroLink
// (as not a regular file), both made in a temporary folder.
func (b Bounded) CheckRefused(t testing.TB) {
	t.Helper()
	dir := t.TempDir()
	big := filepath.Join(dir, b.Big)
	Sparse(t, big, b.Limit+1)
	zero := filepath.Join(dir, b.Zero)
	ZeroLink(t, zero)
	for path, want := range map[string]string{
		big:  b.Prefix + big + ": " + b.TooBig,
		zero: b.Prefix + zero + ": " + b.NotRegular,
	} {
		err := b.Read(path)
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("reading %s: %v, want %q", path, err, want)
		}
	}
}
