package version

import (
	"strings"
	"testing"
)

// The version names the commit when the build recorded one (a linker
// flag here; go build records it from git), and is the bare version
// otherwise.
func TestStringNamesTheCommit(t *testing.T) {
	old := commit
	defer func() { commit = old }()
	commit = ""
	if s := String(); s != Version && !strings.HasPrefix(s, Version+" (") {
		t.Errorf("String() = %q", s)
	}
	commit = "0123456789abcdef0123"
	if s := String(); !strings.HasPrefix(s, Version+" (0123456789ab") {
		t.Errorf("String() = %q, want the 12-character commit", s)
	}
}
