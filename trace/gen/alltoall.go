package gen

import (
	"github.com/ccreplay/ccreplay/trace"
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
		{"hosts", "4", "number of hosts N (count; PCC-RL Table 2 uses 4 and 8)"},
		{"per_host", "0", "flows per host (count; 0 = 2N as in PCC-RL)"},
		{"size", "10MB", "payload of each flow (bytes; PCC-RL's flows send constantly, so make it outlast the test)"},
		{"self", "local", "flows whose i mod N is their own host: local (kept as same-host transfers) or skip"},
		{"start", "0", "start of the release window (time)"},
		{"jitter", "0", "flows are released uniformly within [start, start+jitter) (time; 0 = all at start)"},
	},
	build: buildAllToAll,
}

// buildAllToAll makes the flows host by host, flow i of host h on its own
// queue pair, h*per_host + i.
func buildAllToAll(p *params) *trace.Trace {
	n := p.count("hosts", 1, maxCount)
	perHost := p.count("per_host", 0, maxCount)
	size := p.size("size")
	skip := p.choice("self", "local", "skip") == "skip"
	start := p.duration("start")
	jitter := p.duration("jitter")
	p.checkEnd("jitter", start, 1, jitter)
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
			m := newMsg(int32(h), int32(i%n), size)
			m.ID, m.FlowID = int64(len(t.Messages)), h*perHost+i
			m.Release = start + windowOffset(p, jitter, "uniform")
			t.Messages = append(t.Messages, m)
		}
	}
	return t
}
