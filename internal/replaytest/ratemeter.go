// Package replaytest holds measuring instruments for tests that run the
// replay: observers to plug into replay.Config.Observer.
package replaytest

import (
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/units"
)

// RateMeter counts the payload delivered per flow during [From, To), and
// per Slot-long interval of it when Slot > 0: the goodput each flow gets,
// for fairness and convergence tests.
type RateMeter struct {
	From, To, Slot units.Time
	// Bytes is the payload delivered per flow in the window, bytes.
	Bytes map[int32]int64
	// Slots is the payload per flow per slot (Slot > 0), bytes.
	Slots map[int32][]int64
}

// NewRateMeter measures [from, to), in slots of slot when slot > 0.
func NewRateMeter(from, to, slot units.Time) *RateMeter {
	return &RateMeter{From: from, To: to, Slot: slot, Bytes: map[int32]int64{}, Slots: map[int32][]int64{}}
}

// Rate is flow f's goodput over the window, bits per second.
func (m *RateMeter) Rate(f int32) float64 {
	return float64(m.Bytes[f]) * 8 / (m.To - m.From).Seconds()
}

// Dequeue implements fabric.Tap.
func (m *RateMeter) Dequeue(units.Time, int32, int32, *fabric.Packet) {}

// Drop implements fabric.Tap.
func (m *RateMeter) Drop(units.Time, int32, int32, *fabric.Packet) {}

// Deliver implements fabric.Tap: it counts data payload reaching its
// destination inside the window.
func (m *RateMeter) Deliver(now units.Time, _ int32, p *fabric.Packet) {
	if now < m.From || now >= m.To {
		return
	}
	m.Bytes[p.Flow] += int64(p.Payload)
	if m.Slot <= 0 {
		return
	}
	i := int((now - m.From) / m.Slot)
	s := m.Slots[p.Flow]
	for len(s) <= i {
		s = append(s, 0)
	}
	s[i] += int64(p.Payload)
	m.Slots[p.Flow] = s
}

var _ fabric.Tap = (*RateMeter)(nil)

// Rates is the goodput of flows 0 to n-1 over the window, bits per second.
func (m *RateMeter) Rates(n int) []float64 {
	out := make([]float64, n)
	for f := range out {
		out[f] = m.Rate(int32(f))
	}
	return out
}
