package cca

import "testing"

// Help has a heading and one line per algorithm, sorted by name, each
// with its Doc.
func TestRegistryHelp(t *testing.T) {
	r := NewRegistry()
	r.Register("zeta", "the last one", nil, nil)
	r.Register("alpha", "the first one", nil, nil)
	want := "Algorithms (--cca NAME[:PRESET], --cca-param KEY=VALUE):\n" +
		"  alpha      the first one\n" +
		"  zeta       the last one\n"
	if got := r.Help(); got != want {
		t.Errorf("Help() =\n%s\nwant\n%s", got, want)
	}
}
