// Package ccatest is the one datadriven driver of every algorithm's
// scripts (testdata/*.txt, run with cockroachdb/datadriven). The
// commands every algorithm shares:
//
//	new [preset=P] [key=value ...]   build a fresh algorithm (Driver.Build)
//	start [t=T] [rate=R] [rtt=D] [mtu=S] [hops=H]
//	                                 Start; absent fields take Driver.Flow's
//	send t=T [bytes=B] [n=N] [gap=G] N data packets of B bytes (default the
//	                                 MTU) at T, T+G, ...
//	ack t=T [sent=S | rtt=D] [bytes=B] [n=N] [ece[=M]] [done]
//	    [hop=(qlen,txBytes,ts,rate) ...] [util=U [qlen=Q]]
//	                                 N ACKs (default 1) of B payload bytes
//	                                 (default 1000) with RTT D (or T-S); ece
//	                                 marks all of them, ece=M the first M;
//	                                 done completes a message; hop gives the
//	                                 INT stack, util one synthetic hop at
//	                                 the line rate stamped at T whose
//	                                 txBytes grew by U*rate*(T - previous
//	                                 stamp) and whose queue is Q (so that
//	                                 HPCC's u' = U + Q/(rate*T)). acks is
//	                                 the same command.
//	done id=I t=T bytes=S first=F [ece]
//	                                 the ACK (1000 B) completing message I
//	                                 of S bytes whose first packet left at F
//	msg id=I t=T                     cca.MessageObserver.OnMessageStart
//	cnp t=T | nack t=T | tick t=T    OnCNP, OnNack, OnTimer (possibly late)
//	timeout t=T                      cca.TimeoutObserver.OnTimeout
//	probe t=T rtt=D                  cca.RTTProber.OnRTT
//	advance t=T                      a punctual NIC: OnTimer at every
//	                                 deadline <= T, one line each
//	state                            Driver.State
//
// After "new" the driver prints Driver.Built (default: the spec's name)
// or "error: ..."; after an event, Driver.Print. A package adds its own
// commands in Driver.Commands.
package ccatest

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

// Driver describes how one package's scripts drive its algorithm.
type Driver struct {
	// Build makes the algorithm of "new"; Builders adds other commands
	// that build ("newplus").
	Build    cca.Builder
	Builders map[string]cca.Builder
	// Preset is the preset "new" uses when the script names none ("" for
	// the package's default).
	Preset string
	// Flow is what "start" passes where the script gives no value.
	Flow cca.FlowInfo
	// Built prints the spec after "new"; nil prints its name.
	Built func(s cca.Spec) string
	// Print prints the algorithm after an event.
	Print func(a cca.Algorithm) string
	// State prints "state"; nil is Print.
	State func(a cca.Algorithm) string
	// Commands are the package's own commands.
	Commands map[string]func(e *Env) string
}

// Env is one command being run.
type Env struct {
	T    *testing.T
	TD   *datadriven.TestData
	Alg  cca.Algorithm
	args map[string]string
	hops []telemetry.Hop
}

// Has reports whether the command gives key.
func (e *Env) Has(key string) bool { _, ok := e.args[key]; return ok }

// Time is key as a time (0 when absent).
func (e *Env) Time(key string) units.Time { return arg(e, key, 0, units.ParseDuration) }

// Size is key as a size, def when absent.
func (e *Env) Size(key string, def units.Bytes) units.Bytes {
	return arg(e, key, def, units.ParseSize)
}

// Rate is key as a rate, def when absent.
func (e *Env) Rate(key string, def units.BitsPerSec) units.BitsPerSec {
	return arg(e, key, def, units.ParseRate)
}

// Float is key as a number, def when absent.
func (e *Env) Float(key string, def float64) float64 { return arg(e, key, def, units.ParseFloat) }

// Int is key as an integer, def when absent.
func (e *Env) Int(key string, def int) int { return arg(e, key, def, strconv.Atoi) }

// arg is key parsed by parse, def when absent; a value parse rejects
// fails the script at its line.
func arg[T any](e *Env, key string, def T, parse func(string) (T, error)) T {
	v, ok := e.args[key]
	if !ok {
		return def
	}
	x, err := parse(v)
	if err != nil {
		e.TD.Fatalf(e.T, "%s: %v", key, err)
	}
	return x
}

// runner is the state of one script.
type runner struct {
	d     *Driver
	alg   cca.Algorithm
	line  units.BitsPerSec // the line rate at Start
	synTx units.Bytes      // synthetic hop: cumulative txBytes
	synTS units.Time       // synthetic hop: last stamp; -1 none yet
}

// Run runs every script in dir.
func (d *Driver) Run(t *testing.T, dir string) {
	datadriven.Walk(t, dir, func(t *testing.T, path string) {
		r := &runner{d: d}
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			return r.run(t, td)
		})
	})
}

func (r *runner) run(t *testing.T, td *datadriven.TestData) string {
	e := &Env{T: t, TD: td, Alg: r.alg, args: map[string]string{}}
	for _, a := range td.CmdArgs {
		if a.Key == "hop" {
			e.hops = append(e.hops, parseHop(e, a.Vals))
			continue
		}
		e.args[a.Key] = strings.Join(a.Vals, ",")
	}
	if b, ok := r.builder(td.Cmd); ok {
		preset := e.args["preset"]
		delete(e.args, "preset")
		if preset == "" {
			preset = r.d.Preset
		}
		spec, err := b(preset, e.args)
		if err != nil {
			return "error: " + err.Error()
		}
		r.alg = spec.New()
		if r.d.Built != nil {
			return r.d.Built(spec)
		}
		return spec.Name
	}
	if r.alg == nil {
		td.Fatalf(t, "%s before new", td.Cmd)
	}
	a := r.alg
	if fn, ok := r.d.Commands[td.Cmd]; ok {
		return fn(e)
	}
	now := e.Time("t")
	switch td.Cmd {
	case "start":
		f := r.d.Flow
		f.LineRate, f.BaseRTT, f.MTU = e.Rate("rate", f.LineRate), e.Time("rtt"), e.Size("mtu", f.MTU)
		if !e.Has("rtt") {
			f.BaseRTT = r.d.Flow.BaseRTT
		}
		f.Hops = e.Int("hops", f.Hops)
		r.line, r.synTx, r.synTS = f.LineRate, 0, -1
		a.Start(now, f)
	case "send":
		b := e.Size("bytes", r.d.Flow.MTU)
		for range e.Int("n", 1) {
			a.OnSend(now, b)
			now += e.Time("gap")
		}
	case "ack", "acks":
		ack := &cca.Ack{AckedBytes: e.Size("bytes", 1000), RTT: e.Time("rtt"), MessageDone: e.Has("done")}
		if e.Has("sent") {
			ack.RTT = now - e.Time("sent")
		}
		if e.Has("util") {
			r.synthetic(e, now)
		}
		ack.NumHops = copy(ack.Hops[:], e.hops)
		n, ece := e.Int("n", 1), 0
		if e.Has("ece") {
			ece = n
			if e.args["ece"] != "" {
				ece = e.Int("ece", 0)
			}
		}
		for i := range n {
			ack.ECE = i < ece
			a.OnAck(now, ack)
		}
	case "done":
		a.OnAck(now, &cca.Ack{AckedBytes: 1000, ECE: e.Has("ece"), MessageDone: true,
			MsgID: int64(e.Int("id", 0)), MsgBytes: e.Size("bytes", 0), MsgFirstTx: e.Time("first")})
	case "msg":
		a.(cca.MessageObserver).OnMessageStart(now, cca.MessageInfo{ID: int64(e.Int("id", 0)), Bytes: e.Size("bytes", 0)})
	case "cnp":
		a.OnCNP(now)
	case "nack":
		a.OnNack(now)
	case "tick":
		a.OnTimer(now)
	case "timeout":
		a.(cca.TimeoutObserver).OnTimeout(now)
	case "probe":
		a.(cca.RTTProber).OnRTT(now, e.Time("rtt"))
	case "advance":
		var b strings.Builder
		for end := now; a.NextTimer() <= end; {
			at := a.NextTimer()
			a.OnTimer(at)
			fmt.Fprintf(&b, "%v: %s\n", at, r.d.Print(a))
		}
		if b.Len() == 0 {
			return "no timer due"
		}
		return b.String()
	case "state":
		if r.d.State != nil {
			return r.d.State(a)
		}
	default:
		td.Fatalf(t, "unknown command %q", td.Cmd)
	}
	return r.d.Print(a)
}

func (r *runner) builder(cmd string) (cca.Builder, bool) {
	if cmd == "new" {
		return r.d.Build, true
	}
	b, ok := r.d.Builders[cmd]
	return b, ok
}

// synthetic sets the one hop of "util=U [qlen=Q]".
func (r *runner) synthetic(e *Env, now units.Time) {
	u := e.Float("util", 0)
	if r.synTS >= 0 {
		r.synTx += units.Bytes(math.Round(u * float64(r.line) / 8 * (now - r.synTS).Seconds()))
	}
	r.synTS = now
	e.hops = []telemetry.Hop{{QLen: e.Size("qlen", 0), TxBytes: r.synTx, TS: now, LinkRate: r.line}}
}

// parseHop reads hop=(qlen,txBytes,ts,rate).
func parseHop(e *Env, v []string) telemetry.Hop {
	if len(v) != 4 {
		e.TD.Fatalf(e.T, "hop wants (qlen,txBytes,ts,rate), got %v", v)
	}
	q, err1 := units.ParseSize(v[0])
	tx, err2 := units.ParseSize(v[1])
	ts, err3 := units.ParseDuration(v[2])
	rate, err4 := units.ParseRate(v[3])
	for _, err := range []error{err1, err2, err3, err4} {
		if err != nil {
			e.TD.Fatalf(e.T, "hop %v: %v", v, err)
		}
	}
	return telemetry.Hop{QLen: q, TxBytes: tx, TS: ts, LinkRate: rate}
}
