package switchmodel_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

// TestDataDriven runs the switch scripts in testdata/ with
// cockroachdb/datadriven, as etcd-io/raft's interaction tests do. Host h
// sits behind port h. Commands:
//
//	switch ports=N rate=R delay=D buffer=B pfc=off|static|dynamic
//	       [xoff=X xon=Y] [reserve=S headroom=S divisor=N offset=S]
//	pause port=P prio=Q [t=T]    the neighbour on P sends PAUSE for Q
//	resume port=P prio=Q [t=T]   ... or RESUME
//	send in=P dst=H [n=N] [size=S] [prio=Q] [kind=data|ack] [t=T]
//	                             N packets arrive on ingress P; prints the
//	                             packets after which a PFC frame was queued
//	                             or that were dropped
//	run [until=T]                runs the simulation; prints what reached
//	                             each neighbour (runs of data collapsed)
//	state                        buffer, queues and counters per port
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var r *rig
		seen := map[int]int{} // arrivals already printed, by port
		psn := int64(0)       // data packets are numbered across sends
		var clock units.Time  // the script's time: the latest t= or event
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			args := map[string]string{}
			for _, a := range td.CmdArgs {
				args[a.Key] = strings.Join(a.Vals, ",")
			}
			dur := func(k string, def units.Time) units.Time { return scriptArg(t, td, args, k, def, units.ParseDuration) }
			size := func(k string, def units.Bytes) units.Bytes { return scriptArg(t, td, args, k, def, units.ParseSize) }
			num := func(k string, def int) int { return scriptArg(t, td, args, k, def, strconv.Atoi) }
			if td.Cmd != "switch" && r == nil {
				td.Fatalf(t, "%s before switch", td.Cmd)
			}
			now := func() units.Time {
				at := dur("t", clock)
				if at < clock {
					td.Fatalf(t, "t=%v is before now (%v)", at, clock)
				}
				r.sim.Run(at) // bring the simulation up to t
				clock = at
				return at
			}
			switch td.Cmd {
			case "switch":
				rate, err := units.ParseRate(args["rate"])
				if err != nil {
					td.Fatalf(t, "rate: %v", err)
				}
				cfg := switchmodel.Config{BufferBytes: size("buffer", 10*units.MB)}
				switch args["pfc"] {
				case "off":
				case "static":
					cfg.PFC = switchmodel.PFCConfig{Enabled: true, Mode: switchmodel.PFCStatic,
						XoffPerGbps: size("xoff", 9500), XonPerGbps: size("xon", 9250), FrameBytes: 64}
				case "dynamic":
					cfg.PFC = switchmodel.PFCConfig{Enabled: true, Mode: switchmodel.PFCDynamic,
						ReserveBytes: size("reserve", 4000), HeadroomBytes: size("headroom", 0),
						Divisor: int64(num("divisor", 16)), ResumeOffsetBytes: size("offset", 0), FrameBytes: 64}
				default:
					td.Fatalf(t, "pfc=%q", args["pfc"])
				}
				r = newRig(t, cfg, ports(num("ports", 2), rate, dur("delay", units.Microsecond))...)
				seen, psn, clock = map[int]int{}, 0, 0
				return "ok"
			case "pause", "resume":
				r.pfc(now(), int32(num("port", 0)), uint8(num("prio", dataPrio)), td.Cmd == "pause")
				return "ok"
			case "send":
				tm := now()
				in, dst := int32(num("in", 0)), int32(num("dst", 1))
				var out []string
				for k := 1; k <= num("n", 1); k++ {
					var p *fabric.Packet
					if args["kind"] == "ack" {
						p = r.ctrl(in, dst, size("size", 1000))
					} else {
						psn++
						p = r.data(in, dst, psn, size("size", 1000))
						p.Prio = uint8(num("prio", dataPrio))
					}
					sentBefore, dropBefore := r.sw.Port(int(in)).PausesSent, r.sw.Port(int(dst)).DroppedPkts
					r.sw.Receive(tm, p, in)
					if d := r.sw.Port(int(in)).PausesSent - sentBefore; d > 0 {
						out = append(out, fmt.Sprintf("pkt %d: PAUSE queued on port %d (buffer used %d)", k, in, r.sw.BufferUsed()))
					}
					if r.sw.Port(int(dst)).DroppedPkts > dropBefore {
						out = append(out, fmt.Sprintf("pkt %d: dropped (buffer used %d)", k, r.sw.BufferUsed()))
					}
				}
				if len(out) == 0 {
					return "ok"
				}
				return strings.Join(out, "\n")
			case "run":
				clock = max(clock, r.sim.Run(dur("until", units.Never)))
				var out []string
				for i, pr := range r.peers {
					fs := pr.got[seen[i]:]
					seen[i] = len(pr.got)
					for j := 0; j < len(fs); j++ {
						f := fs[j]
						if f.p.Kind != fabric.Data {
							out = append(out, fmt.Sprintf("%v port%d <- %v", f.at, i, &f.p))
							continue
						}
						k := j
						for k+1 < len(fs) && fs[k+1].p.Kind == fabric.Data {
							k++
						}
						if k == j {
							out = append(out, fmt.Sprintf("%v port%d <- %v", f.at, i, &f.p))
						} else {
							out = append(out, fmt.Sprintf("%v..%v port%d <- %d DATA psn %d..%d", f.at, fs[k].at, i, k-j+1, f.p.PSN, fs[k].p.PSN))
						}
						j = k
					}
				}
				if len(out) == 0 {
					return fmt.Sprintf("now=%v, nothing arrived", clock)
				}
				return strings.Join(out, "\n")
			case "state":
				now := clock
				out := []string{fmt.Sprintf("now=%v buffer used=%d dropped data=%d", now, r.sw.BufferUsed(), r.sw.DroppedDataBytes)}
				for i := 0; i < r.sw.NumPorts(); i++ {
					e := r.sw.Port(i)
					var qs []string
					for pr := 0; pr < fabric.NumPrio; pr++ {
						if b := e.QueueBytes(pr); b > 0 {
							qs = append(qs, fmt.Sprintf("q%d=%d", pr, b))
						}
					}
					out = append(out, fmt.Sprintf("port%d: [%s] pauses sent=%d received=%d paused=%v drops=%d",
						i, strings.Join(qs, " "), e.PausesSent, e.PausesReceived, e.PausedUntilNow(now), e.DroppedPkts))
				}
				return strings.Join(out, "\n")
			default:
				td.Fatalf(t, "unknown command %q", td.Cmd)
				return ""
			}
		})
	})
}

// scriptArg is the command's argument k parsed by parse, def when absent;
// a value parse rejects fails the script at its line.
func scriptArg[T any](t *testing.T, td *datadriven.TestData, args map[string]string, k string, def T, parse func(string) (T, error)) T {
	v, ok := args[k]
	if !ok {
		return def
	}
	x, err := parse(v)
	if err != nil {
		td.Fatalf(t, "%s: %v", k, err)
	}
	return x
}
