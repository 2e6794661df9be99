package iostreams

import (
	"bytes"
	"testing"
)

// PrintJSON prints what the commands' --json printed before it moved
// here: two-space indentation and one newline at the end.
func TestPrintJSON(t *testing.T) {
	var out bytes.Buffer
	s := Streams{Out: &out}
	if err := s.PrintJSON(map[string]any{"a": 1, "b": []int{2}}); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
	if err := s.PrintJSON(func() {}); err == nil {
		t.Error("a value JSON cannot encode printed no error")
	}
}

func TestWarn(t *testing.T) {
	var errw bytes.Buffer
	Streams{Err: &errw}.Warn("a truncated capture")
	if got := errw.String(); got != "warning: a truncated capture\n" {
		t.Errorf("got %q", got)
	}
}
