package dolce

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/units"
)

// TestDataDriven runs the scripts in testdata/ (STYLE.md section 3).
// Commands:
//
//	new [key=value ...]          Dolce-RC from Build("paper", overrides)
//	newplus [key=value ...]      Dolce-RC+ from BuildPlus("paper", overrides)
//	start [rate=R] [rtt=D]       Start at t=0 (default 100Gbps, 8us)
//	send t=T [n=N] [gap=G]       N data packets of 1048 B at T, T+G, ...
//	ack t=T [n=N] [ece=M]        N ACKs of 1000 B at T, the first M CE-echoing
//	cnp t=T                      a CNP
//	advance t=T                  OnTimer at every deadline <= T
//	msg id=I t=T                 Dolce-RC+: OnMessageStart
//	done id=I t=T bytes=S first=F [ece]  Dolce-RC+: the ACK completing
//	                             message I (S bytes, first packet sent at F)
//	state                        Describe and the next timer
//	reward                       the last reward (and its factors)
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var alg interface {
			cca.Algorithm
			Describe() string
		}
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
					td.Fatalf(t, "%s: %v", key, err)
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
					td.Fatalf(t, "%s: %v", key, err)
				}
				return n
			}
			line := func() string { return fmt.Sprintf("%s next=%v", alg.Describe(), alg.NextTimer()) }
			if !strings.HasPrefix(td.Cmd, "new") && alg == nil {
				td.Fatalf(t, "%s before new", td.Cmd)
			}
			switch td.Cmd {
			case "new", "newplus":
				build := Build
				if td.Cmd == "newplus" {
					build = BuildPlus
				}
				spec, err := build("", args)
				if err != nil {
					return "error: " + err.Error()
				}
				alg = spec.New().(interface {
					cca.Algorithm
					Describe() string
				})
				return spec.Name
			case "start":
				f := cca.FlowInfo{LineRate: 100 * units.Gbps, BaseRTT: 8 * units.Microsecond, MTU: 1048}
				if v, ok := args["rate"]; ok {
					r, err := units.ParseRate(v)
					if err != nil {
						td.Fatalf(t, "%v", err)
					}
					f.LineRate = r
				}
				if _, ok := args["rtt"]; ok {
					f.BaseRTT = dur("rtt")
				}
				alg.Start(0, f)
				return line()
			case "send":
				at := dur("t")
				for range num("n", 1) {
					alg.OnSend(at, 1048)
					at += dur("gap")
				}
				return line()
			case "ack":
				ece := num("ece", 0)
				for i := range num("n", 1) {
					alg.OnAck(dur("t"), &cca.Ack{AckedBytes: 1000, ECE: i < ece})
				}
				return line()
			case "cnp":
				alg.OnCNP(dur("t"))
				return line()
			case "advance":
				var b strings.Builder
				for end := dur("t"); alg.NextTimer() <= end; {
					at := alg.NextTimer()
					alg.OnTimer(at)
					fmt.Fprintf(&b, "%v: %s\n", at, line())
				}
				if b.Len() == 0 {
					return "no timer due"
				}
				return b.String()
			case "msg":
				alg.(cca.MessageObserver).OnMessageStart(dur("t"), cca.MessageInfo{ID: int64(num("id", 0))})
				return line()
			case "done":
				b, err := units.ParseSize(args["bytes"])
				if err != nil {
					td.Fatalf(t, "%v", err)
				}
				_, ece := args["ece"]
				alg.OnAck(dur("t"), &cca.Ack{AckedBytes: 1000, ECE: ece, MessageDone: true,
					MsgID: int64(num("id", 0)), MsgBytes: b, MsgFirstTx: dur("first")})
				return line()
			case "state":
				return line()
			case "reward":
				switch a := alg.(type) {
				case *RC:
					return fmt.Sprintf("X=%s arm=%d %s", fmtFloat(a.LastReward()), a.Arm(), a.Bandit().Describe())
				case *Plus:
					x, m, e := a.LastReward()
					return fmt.Sprintf("X=%s mct_ratio=%s ecn=%s\n%s", fmtFloat(x), fmtFloat(m), fmtFloat(e), a.Bandit().Describe())
				}
			}
			td.Fatalf(t, "unknown command %q", td.Cmd)
			return ""
		})
	})
}
