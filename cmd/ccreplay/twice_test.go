package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// runTwice runs a command that writes a folder twice, the i-th time into
// dir(i) with args(dir) and --json as the last flags: each run must
// succeed, its stdout decode into a T, and check (given the folder) pass;
// then the named files of the two folders must be byte-identical, after
// each folder's own path in them is replaced by DIR when scrub is set.
// It returns the first run's files.
func runTwice[T any](t *testing.T, dir func(i int) string, args func(dir string) []string, names []string, scrub bool,
	check func(dir string, v *T)) [][]byte {
	t.Helper()
	var files [2][][]byte
	for i := range files {
		d := dir(i)
		r := runCLI(t, append(args(d), "--json")...)
		r.mustSucceed(t)
		var v T
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
			t.Fatalf("--json output: %v\n%s", err, r.stdout)
		}
		check(d, &v)
		for _, name := range names {
			b, err := os.ReadFile(filepath.Join(d, name))
			if err != nil {
				t.Fatal(err)
			}
			if scrub {
				b = bytes.ReplaceAll(b, []byte(d), []byte("DIR"))
			}
			files[i] = append(files[i], b)
		}
	}
	for j := range files[0] {
		if !bytes.Equal(files[0][j], files[1][j]) {
			t.Fatalf("file %d differs between two identical runs", j)
		}
	}
	return files[0]
}

// subdir names the i-th of two folders below parent, a and b.
func subdir(parent string) func(i int) string {
	return func(i int) string { return filepath.Join(parent, []string{"a", "b"}[i]) }
}
