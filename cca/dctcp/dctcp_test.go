package dctcp

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
//	new [preset=P] [key=value ...]      build a fresh algorithm with Build
//	start rate=R rtt=D [mtu=S] [t=T]    Start (MTU default 1000 B)
//	ack t=T sent=S [bytes=B] [ece]      an ACK arriving at T for a packet
//	                                    sent at S (RTT = T-S), acknowledging
//	                                    B payload bytes (default 1000)
//	send t=T bytes=B | cnp t=T | nack t=T | tick t=T
//	state                               Describe plus window, R_AI, timer
//
// Every event prints Describe.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var d *DCTCP
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
			size := func(key string, def units.Bytes) units.Bytes {
				v, ok := args[key]
				if !ok {
					return def
				}
				b, err := units.ParseSize(v)
				if err != nil {
					td.Fatalf(t, "%v", err)
				}
				return b
			}
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
				d = spec.New().(*DCTCP)
				e := spec.ECN
				return fmt.Sprintf("%s ecn: kmin=%d kmax=%d pmax=%v ref=%v", spec.Name, e.KminBytes, e.KmaxBytes, e.Pmax, e.RefRate)
			case "start":
				line := 100 * units.Gbps
				if v, ok := args["rate"]; ok {
					var err error
					if line, err = units.ParseRate(v); err != nil {
						td.Fatalf(t, "%v", err)
					}
				}
				d.Start(dur("t"), cca.FlowInfo{LineRate: line, BaseRTT: dur("rtt"), MTU: size("mtu", 1000)})
				return d.Describe()
			case "ack":
				now := dur("t")
				_, ece := args["ece"]
				d.OnAck(now, &cca.Ack{AckedBytes: size("bytes", 1000), RTT: now - dur("sent"), ECE: ece})
				return d.Describe()
			case "send":
				d.OnSend(dur("t"), size("bytes", 1000))
				return d.Describe()
			case "cnp":
				d.OnCNP(dur("t"))
				return d.Describe()
			case "nack":
				d.OnNack(dur("t"))
				return d.Describe()
			case "tick":
				d.OnTimer(dur("t"))
				return d.Describe()
			case "state":
				return fmt.Sprintf("%s window=%d ai=%v next=%v", d.Describe(), d.Window(), d.AdditiveStep(), d.NextTimer())
			}
			td.Fatalf(t, "unknown command %q", td.Cmd)
			return ""
		})
	})
}
