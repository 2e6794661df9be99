package gen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

var incastKind = Kind{
	Name: "incast",
	Doc: "n sender hosts each open per_host flows of one message to one receiver, released within a window [start, start+jitter); " +
		"flows=N alone takes hosts and flows per host from PCC-RL's many-to-one table (Tessler et al., Table 6)",
	Keys: []Key{
		countKey("n", "16", 1, maxCount, "number of sender hosts (count); they are the first n hosts other than dst"),
		countKey("per_host", "1", 1, maxCount, "flows (queue pairs) per sender host (count)"),
		countKey("flows", "0", 0, maxCount*maxCount, "total flows (count; 0 = n x per_host); given alone, n and per_host come from PCC-RL Table 6 (2, 4, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192 flows)"),
		sizeKey("size", "1MB", "payload of each message (bytes; MB = 10^6 bytes); the lower bound when size_dist=uniform"),
		choiceKey("size_dist", "sizes: fixed (size), uniform (integers uniform in [size, size_max]), list (flow i takes sizes[i mod len])", "fixed", "uniform", "list"),
		sizeKey("size_max", "10MB", "upper bound of uniform sizes (bytes)"),
		sizesKey("sizes", "1MB", "sizes for size_dist=list, separated by ';' (bytes, e.g. 10KB;1MB;20MB)"),
		timeKey("start", "0", "start of the release window (time, e.g. 10us)"),
		timeKey("jitter", "0", "width of the release window (time; 0 = all released at start)"),
		choiceKey("dist", "release times in the window: uniform, or gaussian (mean start+jitter/2, sd jitter/6, redrawn until inside the window; FDCC's 1 ms Gaussian start)", "uniform", "gaussian"),
		countKey("dst", "n", 0, maxCount, "receiver host index (Hosts = max(n+1, dst+1))"),
	},
	build: buildIncast,
}

// pccRLManyToOne is PCC-RL's many-to-one experiment mapping (Tessler et
// al., "Reinforcement Learning for Datacenter Congestion Control",
// Appendix A.1, Table 6): total flows -> hosts x flows per host.
var pccRLManyToOne = []struct{ flows, hosts, perHost int64 }{
	{2, 2, 1}, {4, 4, 1}, {16, 16, 1}, {32, 32, 1}, {64, 64, 1}, {128, 64, 2},
	{256, 32, 8}, {512, 64, 8}, {1024, 32, 32}, {2048, 64, 32}, {4096, 64, 64}, {8192, 64, 128},
}

// incastShape reads n, per_host and flows: explicit n and per_host, flows
// with n (per_host = flows/n), or flows alone (PCC-RL Table 6).
func incastShape(p *params) (n, perHost int64) {
	var s struct{ N, PerHost, Flows int64 }
	p.decode(&s)
	n, perHost, flows := s.N, s.PerHost, s.Flows
	switch {
	case p.err != nil || flows == 0:
	case p.has("n") && p.has("per_host"):
		if flows != n*perHost {
			p.fail("flows", p.raw("flows"), fmt.Sprintf("want n x per_host = %d, or leave one of them out", n*perHost))
		}
	case p.has("n"):
		if perHost = flows / n; flows%n != 0 {
			p.fail("flows", p.raw("flows"), fmt.Sprintf("want a multiple of n = %d", n))
		}
	case p.has("per_host"):
		if n = flows / perHost; flows%perHost != 0 {
			p.fail("flows", p.raw("flows"), fmt.Sprintf("want a multiple of per_host = %d", perHost))
		}
	default:
		for _, row := range pccRLManyToOne {
			if row.flows == flows {
				return row.hosts, row.perHost
			}
		}
		var known []string
		for _, row := range pccRLManyToOne {
			known = append(known, strconv.FormatInt(row.flows, 10))
		}
		p.fail("flows", p.raw("flows"), "not a row of PCC-RL Table 6 ("+strings.Join(known, ", ")+"); give n or per_host too")
	}
	return n, perHost
}

// buildIncast makes the n-to-1 incast. The gaussian window is the FDCC
// thesis setup ("each flow ... is initialized within 1 ms following
// Gaussian distribution", Sec. 6.2, with 20 MB flows): with sd = jitter/6
// the window spans +-3 sd, and the 0.27% of draws outside it are redrawn,
// so the release times follow a normal distribution truncated to the
// window. Messages are in sender order, then flow order; each draws its
// release time and then, for uniform sizes, its size.
func buildIncast(p *params) *trace.Trace {
	n, perHost := incastShape(p)
	// size_max and sizes are read only when size_dist uses them, dst only
	// when given, each in table order.
	var s struct {
		Size     int64
		SizeDist string
	}
	p.decode(&s)
	size, sizeDist := s.Size, s.SizeDist
	var sizeMax int64
	var sizes []int64
	switch sizeDist {
	case "uniform":
		if p.read("size_max", &sizeMax); p.err == nil && sizeMax < size {
			p.fail("size_max", p.raw("size_max"), fmt.Sprintf("want at least size = %d bytes", size))
		}
	case "list":
		p.read("sizes", &sizes)
	}
	var w struct {
		Start, Jitter units.Time
		Dist          string
	}
	p.decode(&w)
	start, jitter, dist := w.Start, w.Jitter, w.Dist
	dst := n
	if p.has("dst") {
		p.read("dst", &dst)
	}
	p.checkEnd("jitter", start, 1, jitter)
	if p.err != nil || p.tooMany(float64(n)*float64(perHost)) {
		return nil
	}

	t := &trace.Trace{Hosts: int(max(n, dst) + 1), Messages: make([]trace.Message, 0, n*perHost)}
	src := int64(0)
	for range n {
		if src == dst {
			src++
		}
		for range perHost {
			i := int64(len(t.Messages))
			m := newMsg(int32(src), int32(dst), size)
			m.ID, m.FlowID = i, i
			m.Release = start + windowOffset(p, jitter, dist)
			switch sizeDist {
			case "uniform":
				m.Bytes = size + p.rng.Int64N(sizeMax-size+1)
			case "list":
				m.Bytes = sizes[i%int64(len(sizes))]
			}
			t.Messages = append(t.Messages, m)
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
