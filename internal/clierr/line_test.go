package clierr

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A message up to MaxLine bytes passes unchanged; a longer one is cut at
// or before MaxLine without splitting a character, and the bytes left out
// are counted.
func TestLine(t *testing.T) {
	short := strings.Repeat("x", MaxLine)
	if Line(short) != short {
		t.Error("a message of MaxLine bytes was changed")
	}
	long := strings.Repeat("x", MaxLine-1) + "é" + strings.Repeat("y", 10) // é straddles the cut
	got := Line(long)
	want := strings.Repeat("x", MaxLine-1) + "... (12 bytes more)"
	if got != want || !utf8.ValidString(got) {
		t.Errorf("Line = ...%q, want ...%q", got[MaxLine-5:], want[MaxLine-5:])
	}
}
