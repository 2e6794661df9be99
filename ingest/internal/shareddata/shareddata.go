// Package shareddata finds, for the ingest tests, the third-party
// captures and traces kept in ../shared/data beside the project checkout
// (never in the repository), and skips a test where a fresh clone has no
// such folder.
package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Path returns the path of rel under ../shared/data beside the checkout,
// relative to the working directory (a test's package directory), whether
// or not it exists. The checkout is the nearest directory up from the
// working directory that holds go.mod; without one, the path is relative
// to the working directory.
func Path(rel string) string {
	root := "."
	if wd, err := os.Getwd(); err == nil {
		for d, up := wd, "."; ; d, up = filepath.Dir(d), filepath.Join(up, "..") {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				root = up
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return filepath.Join(root, "..", "shared", "data", rel)
}

// File is Path, skipping the test when the shared data folder is absent.
func File(t testing.TB, rel string) string {
	t.Helper()
	dir := Path("")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared data %s not present (it lives in ../shared/data beside the checkout); skipping", dir)
	}
	return filepath.Join(dir, rel)
}
