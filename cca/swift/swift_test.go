package swift

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestDataDriven runs the scripts in testdata/ with the shared driver
// (package ccatest lists the commands; ACKs give rtt=D). Every event
// prints Describe; state adds the ceiling and the target now, and
//
//	target cwnd=W hops=H             Config.Target and its flow-based term
func TestDataDriven(t *testing.T) {
	d := &ccatest.Driver{
		Build: Build,
		Flow:  cca.FlowInfo{LineRate: 100 * units.Gbps, MTU: 1000, Hops: 2},
		Print: func(a cca.Algorithm) string { return a.(*Swift).Describe() },
		State: func(a cca.Algorithm) string {
			s := a.(*Swift)
			return fmt.Sprintf("%s max_cwnd=%s target_now=%v next=%v",
				s.Describe(), strconv.FormatFloat(s.MaxCwnd(), 'g', 6, 64), s.TargetDelay(), s.NextTimer())
		},
		Commands: map[string]func(e *ccatest.Env) string{
			"target": func(e *ccatest.Env) string {
				c := e.Alg.(*Swift).Config()
				w, h := e.Float("cwnd", 1), e.Int("hops", 0)
				return fmt.Sprintf("target=%v fs=%v", c.Target(w, h), c.FlowScaling(w))
			},
		},
	}
	d.Run(t, "testdata")
}
