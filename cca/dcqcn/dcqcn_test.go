package dcqcn

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// TestDataDriven runs the scripts in testdata/ (see STYLE.md section 3).
// Commands:
//
//	new [preset=P] [key=value ...]    build a fresh algorithm with Build
//	start rate=R [t=T] [rtt=D] [mtu=S]
//	cnp t=T | send t=T bytes=S | ack t=T | nack t=T
//	tick t=T                          one OnTimer(T) call, possibly late
//	advance t=T                       a punctual NIC: OnTimer at every deadline <= T
//	state                             the state, next timer and window
//
// Every event prints "<Describe> next=<NextTimer>".
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var d *DCQCN
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			args := map[string]string{}
			for _, a := range td.CmdArgs {
				args[a.Key] = strings.Join(a.Vals, ",")
			}
			tm := func() units.Time {
				v, ok := args["t"]
				if !ok {
					return 0
				}
				x, err := units.ParseDuration(v)
				if err != nil {
					td.Fatalf(t, "%v", err)
				}
				return x
			}
			line := func() string { return fmt.Sprintf("%s next=%v", d.Describe(), d.NextTimer()) }
			if td.Cmd != "new" && d == nil {
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
				d = spec.New().(*DCQCN)
				return spec.Name
			case "start":
				f := cca.FlowInfo{LineRate: 100 * units.Gbps, MTU: 1000}
				var err error
				if v, ok := args["rate"]; ok {
					f.LineRate, err = units.ParseRate(v)
				}
				if v, ok := args["rtt"]; ok && err == nil {
					f.BaseRTT, err = units.ParseDuration(v)
				}
				if v, ok := args["mtu"]; ok && err == nil {
					f.MTU, err = units.ParseSize(v)
				}
				if err != nil {
					td.Fatalf(t, "%v", err)
				}
				d.Start(tm(), f)
				return line()
			case "cnp":
				d.OnCNP(tm())
				return line()
			case "send":
				b, err := units.ParseSize(args["bytes"])
				if err != nil {
					td.Fatalf(t, "%v", err)
				}
				d.OnSend(tm(), b)
				return line()
			case "ack":
				d.OnAck(tm(), &cca.Ack{AckedBytes: 1000})
				return line()
			case "nack":
				d.OnNack(tm())
				return line()
			case "tick":
				d.OnTimer(tm())
				return line()
			case "advance":
				var b strings.Builder
				for end := tm(); d.NextTimer() <= end; {
					at := d.NextTimer()
					d.OnTimer(at)
					fmt.Fprintf(&b, "%v: %s\n", at, line())
				}
				if b.Len() == 0 {
					return "no timer due"
				}
				return b.String()
			case "state":
				return fmt.Sprintf("%s window=%d", line(), d.Window())
			}
			td.Fatalf(t, "unknown command %q", td.Cmd)
			return ""
		})
	})
}
