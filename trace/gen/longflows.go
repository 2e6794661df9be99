package gen

import (
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

var longflowsKind = Kind{
	Name: "longflows",
	Doc:  "n long flows, one message each, joining one every stagger from start (fairshare has FDCC's 4 flows every 35 ms as defaults)",
	Keys: []Key{
		countKey("n", "4", 1, maxCount, "number of flows (count); senders are hosts 0..n-1"),
		sizeKey("size", "100MB", "payload of each flow (bytes; MB = 10^6 bytes)"),
		timeKey("start", "0", "release time of the first flow (time, e.g. 10us)"),
		timeKey("stagger", "0", "time between successive flows' releases (time; 0 = all at start)"),
		choiceKey("mode", "incast: all flows to host n (Hosts = n+1); pairs: sender i to host n+i (Hosts = 2n, the dumbbell's left and right hosts)", "incast", "pairs"),
	},
	build: buildLongflows,
}

// fairshareKind is the FDCC thesis' fair-share experiment (Zhang, Sec.
// 6.1: "4 flows join a link one by one every 35 ms", Fig. 6.2): longflows
// with that setup as defaults. Each flow must outlast the last join: with
// 1 GB each at 100 Gb/s, flow 0 has about 200 MB left when the fourth
// joins, so all four share the link for about 60 ms.
var fairshareKind = longflowsKind.variant("fairshare",
	"FDCC's fair-share join: n long flows joining one every stagger (4 flows every 35 ms), to one receiver or in pairs across a dumbbell",
	sizeKey("size", "1GB", "payload of each flow (bytes; GB = 10^9 bytes)"),
	timeKey("start", "0", "release time of the first flow (time)"),
	timeKey("stagger", "35ms", "time between successive flows' releases (time)"),
	choiceKey("mode", "incast: all flows to host n (Hosts = n+1); pairs: sender i to host n+i (Hosts = 2n, a dumbbell's left and right hosts)", "incast", "pairs"))

// buildLongflows makes n long flows released at start + i*stagger.
func buildLongflows(p *params) *trace.Trace {
	var s struct {
		N, Size        int64
		Start, Stagger units.Time
		Mode           string
	}
	p.decode(&s)
	n, pairs := s.N, s.Mode == "pairs"
	p.checkEnd("stagger", s.Start, n-1, s.Stagger)
	if p.err != nil {
		return nil
	}

	t := &trace.Trace{Hosts: int(n) + 1, Messages: make([]trace.Message, n)}
	if pairs {
		t.Hosts = int(2 * n)
	}
	for i := range t.Messages {
		dst := n
		if pairs {
			dst = n + int64(i)
		}
		m := newMsg(int32(i), int32(dst), s.Size)
		m.ID, m.FlowID, m.Release = int64(i), int64(i), s.Start+units.Time(i)*s.Stagger
		t.Messages[i] = m
	}
	return t
}
