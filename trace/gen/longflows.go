package gen

import (
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

var longflowsKind = Kind{
	Name: "longflows",
	Doc:  "n long flows, one message each, joining one every stagger from start (the FDCC fair-share setup: 4 flows, one every 35 ms)",
	Keys: []Key{
		{"n", "4", "number of flows (count); senders are hosts 0..n-1"},
		{"size", "100MB", "payload of each flow (bytes; MB = 10^6 bytes)"},
		{"start", "0", "release time of the first flow (time, e.g. 10us)"},
		{"stagger", "0", "time between successive flows' releases (time; 0 = all at start)"},
		{"mode", "incast", "incast: all flows to host n (Hosts = n+1); pairs: sender i to host n+i (Hosts = 2n, the dumbbell's left and right hosts)"},
	},
	build: buildLongflows,
}

// buildLongflows makes n long flows released at start + i*stagger.
func buildLongflows(p *params) *trace.Trace {
	n := p.count("n", 1, maxCount)
	size := p.size("size")
	start := p.duration("start")
	stagger := p.duration("stagger")
	mode := p.choice("mode", "incast", "pairs")
	p.checkEnd("stagger", start, n-1, stagger)
	if p.err != nil {
		return nil
	}

	t := &trace.Trace{Hosts: int(n) + 1, Messages: make([]trace.Message, n)}
	if mode == "pairs" {
		t.Hosts = int(2 * n)
	}
	for i := range t.Messages {
		dst := n
		if mode == "pairs" {
			dst = n + int64(i)
		}
		t.Messages[i] = trace.Message{
			ID: int64(i), Src: int32(i), Dst: int32(dst), Bytes: size,
			Release:      start + units.Time(i)*stagger,
			FlowID:       int64(i),
			CollectiveID: trace.NoCollective,
		}
	}
	return t
}
