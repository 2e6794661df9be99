package shareddata

import (
	"path/filepath"
	"testing"
)

// From this package's directory the checkout is four levels up, so the
// shared data folder is ../../../../shared/data.
func TestPath(t *testing.T) {
	if got, want := Path("mpi/dumpi"), filepath.FromSlash("../../../../shared/data/mpi/dumpi"); got != want {
		t.Errorf("Path = %q, want %q", got, want)
	}
}
