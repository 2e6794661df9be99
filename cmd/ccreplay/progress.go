package main

import (
	"github.com/ccreplay/ccreplay/internal/progress"
	"github.com/ccreplay/ccreplay/units"
)

// progressLine is internal/progress's status line under the names the
// commands call (set, clear, replayProgress); nil when stderr is not a
// terminal.
type progressLine struct{ *progress.Line }

// newProgressLine returns the Factory's status line, or nil when stderr
// is not a terminal.
func (f *Factory) newProgressLine() *progressLine {
	if !f.ErrIsTerminal {
		return nil
	}
	p := &progressLine{progress.New(f.Err)}
	f.progress = p
	return p
}

func (p *progressLine) line() *progress.Line {
	if p == nil {
		return nil
	}
	return p.Line
}

func (p *progressLine) set(text string) { p.line().Set(text) }

func (p *progressLine) clear() { p.line().Clear() }

func (p *progressLine) replayProgress() func(now units.Time, delivered, total int) {
	return p.line().Replay()
}
