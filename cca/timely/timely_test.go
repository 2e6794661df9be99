package timely

import (
	"fmt"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestDataDriven runs the scripts in testdata/ with the shared driver
// (package ccatest lists the commands; ACKs give rtt=D, and done
// completes a message). The scripts check the paper's algorithm: new
// without a preset is mittal2015, not the package default. Every event
// prints Describe; state adds the resolved settings.
func TestDataDriven(t *testing.T) {
	d := &ccatest.Driver{
		Build:  Build,
		Preset: "mittal2015",
		Flow:   cca.FlowInfo{LineRate: 10 * units.Gbps, MTU: 1048, Hops: 2},
		Print:  func(a cca.Algorithm) string { return a.(*Timely).Describe() },
		State: func(a cca.Algorithm) string {
			tm := a.(*Timely)
			return fmt.Sprintf("%s t_low=%v t_high=%v delta=%v min_rtt=%v min_rate=%v window=%d next=%v",
				tm.Describe(), tm.tLow, tm.tHigh, units.BitsPerSec(tm.delta), tm.minRTT,
				units.BitsPerSec(tm.minRate), tm.Window(), tm.NextTimer())
		},
	}
	d.Run(t, "testdata")
}
