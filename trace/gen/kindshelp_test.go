package gen

import (
	"strings"
	"testing"
)

// Every generator has one line, in Kinds' order, its description cut
// before the first parenthesis.
func TestKindsHelp(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(KindsHelp(), "\n"), "\n")
	ks := Kinds()
	if len(lines) != len(ks)+1 {
		t.Fatalf("%d lines for %d generators:\n%s", len(lines), len(ks), KindsHelp())
	}
	for i, k := range ks {
		f := strings.Fields(lines[i+1])
		if f[0] != k.Name || strings.Contains(lines[i+1], " (") {
			t.Errorf("line %d %q: want %s without a parenthesis", i+1, lines[i+1], k.Name)
		}
	}
}
