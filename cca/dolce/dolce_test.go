package dolce

import (
	"fmt"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/internal/ccatest"
	"github.com/ccreplay/ccreplay/units"
)

// TestDataDriven runs the scripts in testdata/ with the shared driver
// (package ccatest lists the commands; send defaults to one 1048 B packet,
// ack ece=M marks the first M of n ACKs, msg and done start and complete
// Dolce-RC+'s messages). new builds Dolce-RC, newplus Dolce-RC+, both from
// the paper preset; start defaults to 100Gbps and 8us. Every event prints
// "<Describe> next=<NextTimer>", and
//
//	reward                       the last reward (and its factors)
func TestDataDriven(t *testing.T) {
	d := &ccatest.Driver{
		Build:    Build,
		Builders: map[string]cca.Builder{"newplus": BuildPlus},
		Flow:     cca.FlowInfo{LineRate: 100 * units.Gbps, BaseRTT: 8 * units.Microsecond, MTU: 1048},
		Print: func(a cca.Algorithm) string {
			return fmt.Sprintf("%s next=%v", a.(interface{ Describe() string }).Describe(), a.NextTimer())
		},
		Commands: map[string]func(e *ccatest.Env) string{
			"reward": func(e *ccatest.Env) string {
				switch a := e.Alg.(type) {
				case *RC:
					return fmt.Sprintf("X=%s arm=%d %s", fmtFloat(a.LastReward()), a.Arm(), a.Bandit().Describe())
				case *Plus:
					x, m, r := a.LastReward()
					return fmt.Sprintf("X=%s mct_ratio=%s ecn=%s\n%s", fmtFloat(x), fmtFloat(m), fmtFloat(r), a.Bandit().Describe())
				}
				return "no reward"
			},
		},
	}
	d.Run(t, "testdata")
}
