package gen

import (
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// allToAllKind is PCC-RL's all-to-all test (Tessler et al., Sec. 8.1,
// Table 2, with 4 and 8 hosts): "there are N hosts and 2N flows running
// on each (a total of 2N^2). At each host, flow i constantly sends data
// towards host i mod N". Taken literally, two of each host's 2N flows go
// to the host itself; self=local keeps them as same-host transfers (they
// never touch the network, so 2N(N-1) flows cross it), self=skip drops
// them.
var allToAllKind = Kind{
	Name: "all-to-all",
	Doc:  "PCC-RL's all-to-all: each of N hosts opens per_host flows of one message (2N by default, 2N^2 in all), flow i to host i mod N",
	Keys: []Key{
		countKey("hosts", "4", 1, maxCount, "number of hosts N (count; PCC-RL Table 2 uses 4 and 8)"),
		countKey("per_host", "0", 0, maxCount, "flows per host (count; 0 = 2N as in PCC-RL)"),
		sizeKey("size", "10MB", "payload of each flow (bytes; PCC-RL's flows send constantly, so make it outlast the test)"),
		choiceKey("self", "flows whose i mod N is their own host: local (kept as same-host transfers) or skip", "local", "skip"),
		timeKey("start", "0", "start of the release window (time)"),
		timeKey("jitter", "0", "flows are released uniformly within [start, start+jitter) (time; 0 = all at start)"),
	},
	build: buildAllToAll,
}

// buildAllToAll makes the flows host by host, flow i of host h on its own
// queue pair, h*per_host + i.
func buildAllToAll(p *params) *trace.Trace {
	var s struct {
		Hosts, PerHost, Size int64
		Self                 string
		Start, Jitter        units.Time
	}
	p.decode(&s)
	n, perHost, skip := s.Hosts, s.PerHost, s.Self == "skip"
	p.checkEnd("jitter", s.Start, 1, s.Jitter)
	if perHost == 0 {
		perHost = 2 * n
	}
	if p.err != nil || p.tooMany(float64(n)*float64(perHost)) {
		return nil
	}
	t := &trace.Trace{Hosts: int(n)}
	for h := range n {
		for i := range perHost {
			if skip && i%n == h {
				continue
			}
			m := newMsg(int32(h), int32(i%n), s.Size)
			m.ID, m.FlowID = int64(len(t.Messages)), h*perHost+i
			m.Release = s.Start + windowOffset(p, s.Jitter, "uniform")
			t.Messages = append(t.Messages, m)
		}
	}
	return t
}
