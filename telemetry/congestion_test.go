package telemetry

import (
	"math"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// FDCC (Zhang 2023), Section 4.2: QLEN = qlen / (rate x base RTT),
// SWITCHRATE = tx bytes since the previous sample x 8 / elapsed / rate; the
// most congested hop maximises the sum; a hop's first sample only seeds it.
func TestCongestion(t *testing.T) {
	var c Congestion
	us := units.Microsecond
	g := 100 * units.Gbps
	base := 8 * us // BDP 100000 B
	if _, _, _, ok := c.Observe([]Hop{{TxBytes: 0, TS: 1 * us, LinkRate: g}, {TxBytes: 0, TS: 2 * us, LinkRate: g}}, base); ok {
		t.Fatal("the first stack has nothing to compare with")
	}
	q, sr, hop, ok := c.Observe([]Hop{
		{QLen: 40000, TxBytes: 25000, TS: 6 * us, LinkRate: g},  // 0.4 + 0.4
		{QLen: 10000, TxBytes: 50000, TS: 7 * us, LinkRate: g},  // 0.1 + 0.8
		{QLen: 90000, TxBytes: 999999, TS: 7 * us, LinkRate: g}, // no previous sample: skipped
	}, base)
	if !ok || hop != 1 || math.Abs(q-0.1) > 1e-12 || math.Abs(sr-0.8) > 1e-12 {
		t.Fatalf("got qlen %v switchrate %v hop %d ok %v, want hop 1 (0.1 + 0.8 > 0.4 + 0.4)", q, sr, hop, ok)
	}
	// The same timestamps again: no elapsed time, nothing measured.
	if _, _, _, ok := c.Observe([]Hop{{TS: 6 * us, LinkRate: g}, {TS: 7 * us, LinkRate: g}}, base); ok {
		t.Fatal("zero elapsed time measured a rate")
	}
	c.Reset()
	if _, _, _, ok := c.Observe([]Hop{{TS: 9 * us, LinkRate: g}}, base); ok {
		t.Fatal("after Reset the first stack only seeds")
	}
}
