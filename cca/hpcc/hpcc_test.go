package hpcc

import (
	"fmt"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestDataDriven runs the scripts in testdata/ with the shared driver
// (package ccatest lists the commands; ACKs give sent=S, the RTT being
// t-S, and the INT stack as hop=(qlen,txBytes,ts,rate) or one synthetic
// hop util=U [qlen=Q]). Every event prints Describe; state adds the
// window, W_AI and T.
func TestDataDriven(t *testing.T) {
	d := &ccatest.Driver{
		Build: Build,
		Flow:  cca.FlowInfo{LineRate: 100 * units.Gbps, MTU: 1048},
		Print: func(a cca.Algorithm) string { return a.(*HPCC).Describe() },
		State: func(a cca.Algorithm) string {
			h := a.(*HPCC)
			return fmt.Sprintf("%s window=%d w_ai=%sB T=%v next=%v",
				h.Describe(), h.Window(), fmtB(h.AdditiveStep()), h.BaseRTT(), h.NextTimer())
		},
	}
	d.Run(t, "testdata")
}
