package gen

import (
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

var incastKind = Kind{
	Name: "incast",
	Doc:  "n senders each send one message of size bytes to one receiver, starting within a window [start, start+jitter)",
	Keys: []Key{
		{"n", "16", "number of senders (count); they are the first n hosts other than dst"},
		{"size", "1MB", "payload of each message (bytes; MB = 10^6 bytes)"},
		{"start", "0", "start of the release window (time, e.g. 10us)"},
		{"jitter", "0", "width of the release window (time; 0 = all released at start)"},
		{"dist", "uniform", "release times in the window: uniform, or gaussian (mean start+jitter/2, sd jitter/6, redrawn until inside the window)"},
		{"dst", "n", "receiver host index (Hosts = max(n+1, dst+1))"},
	},
	build: buildIncast,
}

// buildIncast makes the n-to-1 incast. The gaussian window is the FDCC
// thesis setup ("each flow ... is initialized within 1 ms following
// Gaussian distribution", Sec. 6.2): with sd = jitter/6 the window spans
// +-3 sd, and the 0.27% of draws outside it are redrawn, so the release
// times follow a normal distribution truncated to the window.
func buildIncast(p *params) *trace.Trace {
	n := p.count("n", 1, maxCount)
	size := p.size("size")
	start := p.duration("start")
	jitter := p.duration("jitter")
	dist := p.choice("dist", "uniform", "gaussian")
	dst := n
	if p.has("dst") {
		dst = p.count("dst", 0, maxCount)
	}
	p.checkEnd("jitter", start, 1, jitter)
	if p.err != nil {
		return nil
	}

	t := &trace.Trace{Hosts: int(max(n, dst) + 1), Messages: make([]trace.Message, n)}
	src := int64(0)
	for i := range t.Messages {
		if src == dst {
			src++
		}
		t.Messages[i] = trace.Message{
			ID: int64(i), Src: int32(src), Dst: int32(dst), Bytes: size,
			Release:      start + windowOffset(p, jitter, dist),
			FlowID:       int64(i),
			CollectiveID: trace.NoCollective,
		}
		src++
	}
	return t
}

// windowOffset draws a release offset in [0, jitter), whole nanoseconds.
func windowOffset(p *params, jitter units.Time, dist string) units.Time {
	if jitter == 0 {
		return 0
	}
	slots := int64(jitter / units.Nanosecond) // jitter is whole ns
	if dist == "uniform" {
		return units.Time(p.rng.Int64N(slots)) * units.Nanosecond
	}
	mean, sd := float64(slots)/2, float64(slots)/6
	for {
		x := mean + sd*p.rng.NormFloat64()
		if x >= 0 && x < float64(slots) {
			// NB: floor stays below slots because x < slots.
			return units.Time(min(int64(x), slots-1)) * units.Nanosecond
		}
	}
}
