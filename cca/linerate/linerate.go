// Package linerate is the baseline without congestion control: every flow
// sends at its NIC's line rate, or at a fixed lower rate when asked to.
package linerate

import (
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/keyval"
	"github.com/ccreplay/ccreplay/units"
)

// config is the baseline's one parameter.
type config struct {
	rate units.BitsPerSec // 0: the line rate
}

// table is the baseline's parameter; it has no presets.
var table = &keyval.Table[config]{
	Name: "linerate",
	Params: []*keyval.Param[config]{
		keyval.Rate("rate", func(c *config) *units.BitsPerSec { return &c.rate }).Zero("line").
			Default("line").
			Doc("fixed sending rate, if below the line rate (line: the line rate)"),
	},
}

// algorithm registers the baseline under the name "linerate". It has no
// presets; its one optional parameter, rate, caps the sending rate below
// the line rate.
var algorithm = &keyval.Algorithm[config]{
	Table:   table,
	Summary: "no congestion control: send at line rate (or rate=, if lower)",
	Spec:    func(c config) cca.Spec { return cca.Spec{New: func() cca.Algorithm { return New(c.rate) }} },
}

// Register adds the baseline to r under the name "linerate".
func Register(r *cca.Registry) { algorithm.Register(r) }

// Build is the cca.Builder of the baseline.
func Build(preset string, overrides map[string]string) (cca.Spec, error) {
	return algorithm.Build(preset, overrides)
}

// LineRate is the baseline algorithm of one flow.
type LineRate struct {
	cap  units.BitsPerSec // fixed rate, 0 for none
	rate units.BitsPerSec
}

var _ cca.Algorithm = (*LineRate)(nil)

// New returns a baseline that sends at min(rate, line rate); a rate of 0
// means the line rate.
func New(rate units.BitsPerSec) *LineRate { return &LineRate{cap: rate} }

// Name returns "linerate".
func (l *LineRate) Name() string { return "linerate" }

// Start fixes the rate at the line rate, or at the configured rate if lower.
func (l *LineRate) Start(now units.Time, f cca.FlowInfo) {
	l.rate = f.LineRate
	if l.cap > 0 && l.cap < l.rate {
		l.rate = l.cap
	}
}

// OnSend does nothing.
func (l *LineRate) OnSend(now units.Time, bytes units.Bytes) {}

// OnAck does nothing.
func (l *LineRate) OnAck(now units.Time, a *cca.Ack) {}

// OnCNP does nothing.
func (l *LineRate) OnCNP(now units.Time) {}

// OnNack does nothing.
func (l *LineRate) OnNack(now units.Time) {}

// OnTimer does nothing; no timer is ever requested.
func (l *LineRate) OnTimer(now units.Time) {}

// NextTimer is always units.Never.
func (l *LineRate) NextTimer() units.Time { return units.Never }

// Rate is the fixed rate chosen at Start, bits per second.
func (l *LineRate) Rate() units.BitsPerSec { return l.rate }

// Window is 0: no window.
func (l *LineRate) Window() units.Bytes { return 0 }
