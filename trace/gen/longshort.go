package gen

import (
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// The long-short test: long flows keep a bottleneck busy while short flows
// arrive. PCC-RL (Tessler et al., Sec. 8): one long flow "transmits an
// infinite amount of data, while several short flows randomly interrupt
// it" (Appendix E: 2 to 2048 flows); RL-CC on ConnectX-6Dx (Fuhrer et al.,
// Sec. VI-E): 1 or 4 long flows and 50 or 100 short ones on a 7-host
// switch, e.g. long-short:long=4,short=100,short_hosts=2; FDCC (Zhang,
// Sec. 6.1): "a continuous long flow ... while a short flow starts
// transmitting at 1 ms and completes within 1.5 ms", the default here. No
// paper gives the short flows' size; short_size is a key.
var longShortKind = Kind{
	Name: "long-short",
	Doc:  "long flows from the first hosts to one receiver, released at start, and rounds of short flows from other hosts to the same receiver arriving at time at (+ round*period), spread over jitter",
	Keys: []Key{
		countKey("long", "1", 0, maxCount, "number of long flows, one per host 0..long-1 (count)"),
		sizeKey("long_size", "100MB", "payload of each long flow (bytes; make it outlast the test: 100MB lasts 8 ms at 100 Gb/s)"),
		countKey("short", "1", 0, maxCount, "short flows per round (count)"),
		sizeKey("short_size", "1MB", "payload of each short flow (bytes)"),
		countKey("short_hosts", "0", 0, maxCount, "hosts sending the short flows, round robin (count; 0 = one per short flow)"),
		timeKey("at", "1ms", "arrival of the first round of short flows (time; FDCC's 1 ms)"),
		timeKey("jitter", "0", "short flows of a round arrive within [at, at+jitter) (time; 0 = together)"),
		choiceKey("dist", "arrivals in the window: uniform or gaussian (as incast)", "uniform", "gaussian"),
		countKey("rounds", "1", 1, maxCount, "rounds of short flows (count)"),
		timeKey("period", "0", "time between rounds (time)"),
		timeKey("start", "0", "release time of the long flows (time)"),
	},
	build: buildLongShort,
}

// buildLongShort makes the trace: long flow i from host i, short flow j of
// a round from host long + j mod short_hosts, all to the receiver, host
// long+short_hosts; every flow is one message on its own queue pair, the
// long flows first, then the short ones round by round.
func buildLongShort(p *params) *trace.Trace {
	var s struct {
		Long, LongSize, Short, ShortSize, ShortHosts, Rounds int64
		At, Jitter, Period, Start                            units.Time
		Dist                                                 string
	}
	p.decode(&s)
	long, short, shortHosts, rounds, at, period := s.Long, s.Short, s.ShortHosts, s.Rounds, s.At, s.Period
	if shortHosts == 0 {
		shortHosts = max(short, 1)
	}
	if p.err == nil && long+short == 0 {
		p.fail("long", p.raw("long"), "want at least one flow (long + short > 0)")
	}
	p.checkEnd("period", at+s.Jitter, rounds-1, period)
	if p.err != nil || p.tooMany(float64(long)+float64(short)*float64(rounds)) {
		return nil
	}

	dst := int32(long + shortHosts)
	t := &trace.Trace{Hosts: int(dst) + 1}
	add := func(src int32, bytes int64, release units.Time) {
		m := newMsg(src, dst, bytes)
		m.ID = int64(len(t.Messages))
		m.FlowID, m.Release = m.ID, release
		t.Messages = append(t.Messages, m)
	}
	for i := range long {
		add(int32(i), s.LongSize, s.Start)
	}
	for r := range rounds {
		for j := range short {
			add(int32(long+j%shortHosts), s.ShortSize, at+period*units.Time(r)+windowOffset(p, s.Jitter, s.Dist))
		}
	}
	return t
}
