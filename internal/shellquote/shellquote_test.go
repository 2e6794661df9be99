package shellquote

import (
	"os/exec"
	"strings"
	"testing"
)

var words = []struct{ in, want string }{
	{"ccreplay", "ccreplay"},
	{"runs/cca=dcqcn/seed=1", "runs/cca=dcqcn/seed=1"},
	{"a-b_c.d:e,f+g", "a-b_c.d:e,f+g"},
	{"50%", "50%"},
	{"user@host", "user@host"},
	{"", "''"},
	{"two words", "'two words'"},
	{"it's", `'it'\''s'`},
	{"$HOME", "'$HOME'"},
	{"~", "'~'"},
	{"a*b", "'a*b'"},
	{"é", "'é'"},
}

func TestWord(t *testing.T) {
	for _, c := range words {
		if got := Word(c.in); got != c.want {
			t.Errorf("Word(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestWordReadBack has sh read every quoted word back as the one word it
// was.
func TestWordReadBack(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	var line []string
	for _, c := range words {
		line = append(line, Word(c.in))
	}
	out, err := exec.Command(sh, "-c", `for w in `+strings.Join(line, " ")+`; do printf '%s\n' "$w"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(got) != len(words) {
		t.Fatalf("sh read %d words, want %d: %q", len(got), len(words), got)
	}
	for i, c := range words {
		if got[i] != c.in {
			t.Errorf("sh read %s as %q, want %q", line[i], got[i], c.in)
		}
	}
}
