package hpcc

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/telemetry"
	"github.com/ccreplay/ccreplay/units"
)

// TestDataDriven runs the scripts in testdata/ (see STYLE.md section 3).
// Commands:
//
//	new [preset=P] [key=value ...]   build a fresh algorithm with Build
//	start rate=R rtt=D [t=T]         Start with line rate R and base RTT D
//	ack t=T sent=S [bytes=B] hop=(qlen,txBytes,ts,rate) ...
//	                                 an ACK arriving at T for a packet sent
//	                                 at S (RTT = T-S) with the INT stack given
//	ack t=T sent=S util=U [qlen=Q]   the same with one synthetic hop at the
//	                                 line rate, stamped at T, whose txBytes
//	                                 grew by U*B*(T - previous stamp) and
//	                                 whose queue is Q (default 0): line 4-5
//	                                 then give u' = U + Q/(B*T)
//	ack t=T sent=S                   an ACK without INT
//	send t=T bytes=B | cnp t=T | nack t=T | tick t=T
//	state                            Describe plus window, W_AI and T
//
// Every event prints Describe.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var h *HPCC
		var synTx units.Bytes // synthetic hop: cumulative txBytes
		var synTS units.Time  // synthetic hop: last stamp
		var line units.BitsPerSec
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			args := map[string]string{}
			var hops []telemetry.Hop
			for _, a := range td.CmdArgs {
				if a.Key == "hop" {
					hops = append(hops, parseHop(t, td, a.Vals))
					continue
				}
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
			if td.Cmd != "new" && h == nil {
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
				h = spec.New().(*HPCC)
				return spec.Name
			case "start":
				var err error
				line = 100 * units.Gbps
				if v, ok := args["rate"]; ok {
					line, err = units.ParseRate(v)
					if err != nil {
						td.Fatalf(t, "%v", err)
					}
				}
				h.Start(dur("t"), cca.FlowInfo{LineRate: line, BaseRTT: dur("rtt"), MTU: 1048})
				synTx, synTS = 0, -1
				return h.Describe()
			case "ack":
				now := dur("t")
				a := &cca.Ack{RTT: now - dur("sent"), AckedBytes: 1000}
				if v, ok := args["bytes"]; ok {
					b, err := units.ParseSize(v)
					if err != nil {
						td.Fatalf(t, "%v", err)
					}
					a.AckedBytes = b
				}
				if v, ok := args["util"]; ok {
					u, err := strconv.ParseFloat(v, 64)
					if err != nil {
						td.Fatalf(t, "%v", err)
					}
					q, _ := units.ParseSize(args["qlen"])
					if synTS >= 0 {
						synTx += units.Bytes(math.Round(u * float64(line) / 8 * (now - synTS).Seconds()))
					}
					synTS = now
					hops = []telemetry.Hop{{QLen: q, TxBytes: synTx, TS: now, LinkRate: line}}
				}
				a.NumHops = copy(a.Hops[:], hops)
				h.OnAck(now, a)
				return h.Describe()
			case "send":
				b, err := units.ParseSize(args["bytes"])
				if err != nil {
					td.Fatalf(t, "%v", err)
				}
				h.OnSend(dur("t"), b)
				return h.Describe()
			case "cnp":
				h.OnCNP(dur("t"))
				return h.Describe()
			case "nack":
				h.OnNack(dur("t"))
				return h.Describe()
			case "tick":
				h.OnTimer(dur("t"))
				return h.Describe()
			case "state":
				return fmt.Sprintf("%s window=%d w_ai=%sB T=%v next=%v",
					h.Describe(), h.Window(), fmtB(h.AdditiveStep()), h.BaseRTT(), h.NextTimer())
			}
			td.Fatalf(t, "unknown command %q", td.Cmd)
			return ""
		})
	})
}

// parseHop reads hop=(qlen,txBytes,ts,rate).
func parseHop(t *testing.T, td *datadriven.TestData, v []string) telemetry.Hop {
	if len(v) != 4 {
		td.Fatalf(t, "hop wants (qlen,txBytes,ts,rate), got %v", v)
	}
	q, err1 := units.ParseSize(v[0])
	tx, err2 := units.ParseSize(v[1])
	ts, err3 := units.ParseDuration(v[2])
	r, err4 := units.ParseRate(v[3])
	for _, err := range []error{err1, err2, err3, err4} {
		if err != nil {
			td.Fatalf(t, "hop %v: %v", v, err)
		}
	}
	return telemetry.Hop{QLen: q, TxBytes: tx, TS: ts, LinkRate: r}
}
