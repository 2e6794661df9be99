package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/ccreplay/ccreplay/units"
)

// progressLine is a status line rewritten in place on a terminal's stderr,
// at most five times a second; clear erases it, so that what a command
// prints afterwards (a table, an error) starts on a clean line. It is safe
// for concurrent use (compare's workers share one).
type progressLine struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	last  time.Time
	shown bool
}

// progressEvery is the shortest wall time between two redraws.
const progressEvery = 200 * time.Millisecond

// newProgressLine returns the stream's status line, or nil when stderr is
// not a terminal (progress is for people, never for logs or pipes).
func (s *streams) newProgressLine() *progressLine {
	if !s.ErrIsTerminal {
		return nil
	}
	p := &progressLine{w: s.Err, start: time.Now()}
	s.progress = p
	return p
}

// set shows text (with the wall time elapsed) unless the line was redrawn
// less than progressEvery ago.
func (p *progressLine) set(text string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.shown && now.Sub(p.last) < progressEvery {
		return
	}
	p.last, p.shown = now, true
	// \r returns to the line's start, ESC[K erases to its end.
	fmt.Fprintf(p.w, "\r\x1b[K%s  (%.1f s)", text, now.Sub(p.start).Seconds())
}

// clear erases the line if it is shown.
func (p *progressLine) clear() {
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

// replayProgress adapts the line to replay.Config.Progress: simulated time
// and messages delivered.
func (p *progressLine) replayProgress() func(now units.Time, delivered, total int) {
	if p == nil {
		return nil
	}
	return func(now units.Time, delivered, total int) {
		p.set(fmt.Sprintf("simulated %v, messages %d/%d", now, delivered, total))
	}
}
