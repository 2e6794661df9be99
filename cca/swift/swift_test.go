package swift

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// TestDataDriven runs the scripts in testdata/ (see STYLE.md section 3).
// Commands:
//
//	new [preset=P] [key=value ...]   build a fresh algorithm with Build
//	start [rate=R] [rtt=D] [mtu=S] [hops=H] [t=T]
//	ack t=T rtt=D [bytes=B]          one ACK (B defaults to 1000)
//	nack t=T | timeout t=T | cnp t=T
//	state                            Describe, the ceiling and the target now
//	target cwnd=W hops=H             Config.Target and its flow-based term
//
// Every event prints Describe.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var s *Swift
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			args := map[string]string{}
			for _, a := range td.CmdArgs {
				args[a.Key] = strings.Join(a.Vals, ",")
			}
			dur := func(key string) units.Time {
				v, ok := args[key]
				if !ok {
					return 0
				}
				x, err := units.ParseDuration(v)
				if err != nil {
					td.Fatalf(t, "%v", err)
				}
				return x
			}
			num := func(key string, def float64) float64 {
				v, ok := args[key]
				if !ok {
					return def
				}
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					td.Fatalf(t, "%v", err)
				}
				return f
			}
			if td.Cmd != "new" && s == nil {
				td.Fatalf(t, "%s before new", td.Cmd)
			}
			switch td.Cmd {
			case "new":
				preset := args["preset"]
				delete(args, "preset")
				spec, err := Build(preset, args)
				if err != nil {
					return "error: " + err.Error()
				}
				s = spec.New().(*Swift)
				return spec.Name
			case "start":
				f := cca.FlowInfo{LineRate: 100 * units.Gbps, MTU: 1000, Hops: int(num("hops", 2)), BaseRTT: dur("rtt")}
				if v, ok := args["rate"]; ok {
					r, err := units.ParseRate(v)
					if err != nil {
						td.Fatalf(t, "%v", err)
					}
					f.LineRate = r
				}
				f.MTU = units.Bytes(num("mtu", float64(f.MTU)))
				s.Start(dur("t"), f)
				return s.Describe()
			case "ack":
				s.OnAck(dur("t"), &cca.Ack{AckedBytes: units.Bytes(num("bytes", 1000)), RTT: dur("rtt")})
				return s.Describe()
			case "nack":
				s.OnNack(dur("t"))
				return s.Describe()
			case "timeout":
				s.OnTimeout(dur("t"))
				return s.Describe()
			case "cnp":
				s.OnCNP(dur("t"))
				return s.Describe()
			case "state":
				return fmt.Sprintf("%s max_cwnd=%s target_now=%v next=%v",
					s.Describe(), strconv.FormatFloat(s.MaxCwnd(), 'g', 6, 64), s.TargetDelay(), s.NextTimer())
			case "target":
				c := s.Config()
				w, h := num("cwnd", 1), int(num("hops", 0))
				return fmt.Sprintf("target=%v fs=%v", c.Target(w, h), c.FlowScaling(w))
			}
			td.Fatalf(t, "unknown command %q", td.Cmd)
			return ""
		})
	})
}
