// Package progress is the status line a command shows on a terminal's
// stderr while it works: rewritten in place at most five times a second,
// erased before the command prints anything else.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/ccreplay/ccreplay/units"
)

// Line is a status line rewritten in place on a terminal, at most every
// Every; Clear erases it, so that what a command prints afterwards (a
// table, an error) starts on a clean line. It is safe for concurrent use
// (compare's workers share one), and a nil *Line shows nothing (stderr is
// not a terminal: progress is for people, never for logs or pipes).
type Line struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	last  time.Time
	shown bool
}

// Every is the shortest wall time between two redraws.
const Every = 200 * time.Millisecond

// New returns a line drawn on w, a terminal, counting wall time from now.
func New(w io.Writer) *Line { return &Line{w: w, start: time.Now()} }

// Set shows text (with the wall time elapsed) unless the line was redrawn
// less than Every ago.
func (p *Line) Set(text string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.shown && now.Sub(p.last) < Every {
		return
	}
	p.last, p.shown = now, true
	// \r returns to the line's start, ESC[K erases to its end.
	fmt.Fprintf(p.w, "\r\x1b[K%s  (%.1f s)", text, now.Sub(p.start).Seconds())
}

// Clear erases the line if it is shown.
func (p *Line) Clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// Replay adapts the line to replay.Config.Progress: simulated time and
// messages delivered; nil for a nil line.
func (p *Line) Replay() func(now units.Time, delivered, total int) {
	if p == nil {
		return nil
	}
	return func(now units.Time, delivered, total int) {
		p.Set(fmt.Sprintf("simulated %v, messages %d/%d", now, delivered, total))
	}
}
