package dcqcn

import (
	"fmt"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestDataDriven runs the scripts in testdata/ with the shared driver
// (package ccatest lists the commands). Every event prints
// "<Describe> next=<NextTimer>"; state adds the window.
func TestDataDriven(t *testing.T) {
	line := func(a cca.Algorithm) string { return fmt.Sprintf("%s next=%v", a.(*DCQCN).Describe(), a.NextTimer()) }
	d := &ccatest.Driver{
		Build: Build,
		Flow:  cca.FlowInfo{LineRate: 100 * units.Gbps, MTU: 1000},
		Print: line,
		State: func(a cca.Algorithm) string { return fmt.Sprintf("%s window=%d", line(a), a.Window()) },
	}
	d.Run(t, "testdata")
}
