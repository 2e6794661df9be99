package timely

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
//	new [preset=P] [key=value ...]     build a fresh algorithm with Build
//	start [rate=R] [rtt=D] [t=T]        Start with line rate R, base RTT D
//	ack t=T rtt=D [bytes=B] [done]      one ACK of B bytes (default 1000);
//	                                    done: it completes a message
//	acks n=N t=T rtt=D [bytes=B]        N identical ACKs, the last printed
//	nack t=T | cnp t=T
//	state                               Describe and the resolved settings
//
// Every event prints Describe.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var tm *Timely
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
			num := func(key string, def int) int {
				v, ok := args[key]
				if !ok {
					return def
				}
				n, err := strconv.Atoi(v)
				if err != nil {
					td.Fatalf(t, "%v", err)
				}
				return n
			}
			if td.Cmd != "new" && tm == nil {
				td.Fatalf(t, "%s before new", td.Cmd)
			}
			switch td.Cmd {
			case "new":
				// The scripts check the paper's algorithm: without a
				// preset they use the paper's (mittal2015), not the default.
				preset := args["preset"]
				if preset == "" {
					preset = "mittal2015"
				}
				delete(args, "preset")
				spec, err := Build(preset, args)
				if err != nil {
					return "error: " + err.Error()
				}
				tm = spec.New().(*Timely)
				return spec.Name
			case "start":
				f := cca.FlowInfo{LineRate: 10 * units.Gbps, MTU: 1048, Hops: 2, BaseRTT: dur("rtt")}
				if v, ok := args["rate"]; ok {
					r, err := units.ParseRate(v)
					if err != nil {
						td.Fatalf(t, "%v", err)
					}
					f.LineRate = r
				}
				tm.Start(dur("t"), f)
				return tm.Describe()
			case "ack", "acks":
				_, done := args["done"]
				a := &cca.Ack{AckedBytes: units.Bytes(num("bytes", 1000)), RTT: dur("rtt"), MessageDone: done}
				for range num("n", 1) {
					tm.OnAck(dur("t"), a)
				}
				return tm.Describe()
			case "nack":
				tm.OnNack(dur("t"))
				return tm.Describe()
			case "cnp":
				tm.OnCNP(dur("t"))
				return tm.Describe()
			case "state":
				return fmt.Sprintf("%s t_low=%v t_high=%v delta=%v min_rtt=%v min_rate=%v window=%d next=%v",
					tm.Describe(), tm.tLow, tm.tHigh, units.BitsPerSec(tm.delta), tm.minRTT,
					units.BitsPerSec(tm.minRate), tm.Window(), tm.NextTimer())
			}
			td.Fatalf(t, "unknown command %q", td.Cmd)
			return ""
		})
	})
}
