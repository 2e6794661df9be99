package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/units"
)

// A nil line shows nothing and does not panic: commands call it whether
// or not stderr is a terminal.
func TestNilLine(t *testing.T) {
	var p *Line
	p.Set("x")
	p.Clear()
	if p.Replay() != nil {
		t.Error("a nil line's Replay is not nil")
	}
}

// The first Set draws at once (carriage return, erase, text, elapsed
// time); a second Set within Every is dropped; Clear erases what is shown
// and only then; after Every the line is redrawn.
func TestSetClear(t *testing.T) {
	var b bytes.Buffer
	p := New(&b)
	p.Set("one")
	if got := b.String(); !strings.HasPrefix(got, "\r\x1b[Kone  (") || !strings.HasSuffix(got, " s)") {
		t.Fatalf("first draw %q", got)
	}
	n := b.Len()
	p.Set("two")
	if b.Len() != n {
		t.Fatalf("redrawn within %v: %q", Every, b.String()[n:])
	}
	p.Clear()
	if got := b.String()[n:]; got != "\r\x1b[K" {
		t.Fatalf("clear wrote %q", got)
	}
	p.Clear()
	if b.Len() != n+len("\r\x1b[K") {
		t.Fatal("a second Clear wrote again")
	}
	p.Set("three") // not shown: drawn at once
	if !strings.Contains(b.String(), "three") {
		t.Fatal("a cleared line is not redrawn")
	}
	time.Sleep(Every + 10*time.Millisecond)
	p.Replay()(units.Nanos(1500), 2, 5)
	if !strings.Contains(b.String(), "simulated ") || !strings.Contains(b.String(), "messages 2/5") {
		t.Fatalf("replay progress not drawn after %v: %q", Every, b.String())
	}
}
