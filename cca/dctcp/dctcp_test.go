package dctcp

import (
	"fmt"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestDataDriven runs the scripts in testdata/ with the shared driver
// (package ccatest lists the commands; ACKs give sent=S, the RTT being
// t-S). new prints the spec's ECN hint, every event Describe, state adds
// the window, R_AI and the timer.
func TestDataDriven(t *testing.T) {
	d := &ccatest.Driver{
		Build: Build,
		Flow:  cca.FlowInfo{LineRate: 100 * units.Gbps, MTU: 1000},
		Built: func(s cca.Spec) string {
			e := s.ECN
			return fmt.Sprintf("%s ecn: kmin=%d kmax=%d pmax=%v ref=%v", s.Name, e.KminBytes, e.KmaxBytes, e.Pmax, e.RefRate)
		},
		Print: func(a cca.Algorithm) string { return a.(*DCTCP).Describe() },
		State: func(a cca.Algorithm) string {
			d := a.(*DCTCP)
			return fmt.Sprintf("%s window=%d ai=%v next=%v", d.Describe(), d.Window(), d.AdditiveStep(), d.NextTimer())
		},
	}
	d.Run(t, "testdata")
}
