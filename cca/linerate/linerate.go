// Package linerate is the baseline without congestion control: every flow
// sends at its NIC's line rate, or at a fixed lower rate when asked to.
package linerate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// Register adds the baseline to r under the name "linerate".
func Register(r *cca.Registry) {
	r.Register("linerate", "no congestion control: send at line rate (or rate=, if lower)", Build)
}

// Build is the cca.Builder of the baseline. It has no presets; its one
// optional parameter, rate, caps the sending rate below the line rate.
func Build(preset string, params map[string]string) (cca.Spec, error) {
	if preset != "" {
		return cca.Spec{}, fmt.Errorf("unknown preset %q (linerate has none)", preset)
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rate units.BitsPerSec
	for _, k := range keys {
		if k != "rate" {
			return cca.Spec{}, fmt.Errorf("unknown parameter %q (known: rate)", k)
		}
		v := params[k]
		if strings.EqualFold(strings.TrimSpace(v), "line") {
			continue
		}
		r, err := units.ParseRate(v)
		if err != nil {
			return cca.Spec{}, fmt.Errorf("parameter rate: %w", err)
		}
		rate = r
	}
	shown := "line"
	if rate > 0 {
		shown = formatRate(rate)
	}
	return cca.Spec{
		Name:   "linerate",
		New:    func() cca.Algorithm { return New(rate) },
		Params: map[string]string{"rate": shown},
	}, nil
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

// formatRate prints r exactly (units.BitsPerSec.String rounds to 1 kb/s).
func formatRate(r units.BitsPerSec) string {
	switch {
	case r%units.Gbps == 0:
		return fmt.Sprintf("%dGbps", r/units.Gbps)
	case r%units.Mbps == 0:
		return fmt.Sprintf("%dMbps", r/units.Mbps)
	case r%units.Kbps == 0:
		return fmt.Sprintf("%dKbps", r/units.Kbps)
	}
	return fmt.Sprintf("%dbps", int64(r))
}
