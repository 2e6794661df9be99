package topology

import (
	"fmt"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// Port numbering used by every builder (tests and switch models may rely on
// it): a switch's host-facing (down) ports come first, in host order, then
// its up ports; a spine's or core's ports are in the order of the switches
// below it. A host's only port is port 0.

// builder accumulates nodes and links.
type builder struct {
	t *Topology
}

func newBuilder(name string, hosts int, switchNames []string) *builder {
	t := &Topology{Name: name, NumHosts: hosts, Nodes: make([]Node, hosts+len(switchNames))}
	for i := 0; i < hosts; i++ {
		t.Nodes[i] = Node{ID: int32(i), Kind: Host, Name: fmt.Sprintf("h%d", i), Ports: make([]Port, 0, 1)}
	}
	for j, s := range switchNames {
		i := hosts + j
		t.Nodes[i] = Node{ID: int32(i), Kind: Switch, Name: s}
	}
	return &builder{t: t}
}

// link adds a full-duplex link between nodes a and b.
func (b *builder) link(a, c int, rate units.BitsPerSec, delay units.Time) {
	na, nc := &b.t.Nodes[a], &b.t.Nodes[c]
	pa, pc := int32(len(na.Ports)), int32(len(nc.Ports))
	na.Ports = append(na.Ports, Port{Peer: int32(c), PeerPort: pc, Rate: rate, Delay: delay})
	nc.Ports = append(nc.Ports, Port{Peer: int32(a), PeerPort: pa, Rate: rate, Delay: delay})
}

func names(prefix string, n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return s
}

// argCheck keeps the first argument error of a builder: a count < 1, a rate
// <= 0, a negative delay, fewer than 2 or more than limits.MaxHosts hosts,
// or more than MaxNodes nodes.
type argCheck struct {
	kind string
	err  error
}

func (c *argCheck) count(name string, v int) {
	if c.err == nil && v < 1 {
		c.err = fmt.Errorf("%s: %s must be >= 1, got %d", c.kind, name, v)
	}
}

func (c *argCheck) rate(name string, r units.BitsPerSec) {
	if c.err == nil && r <= 0 {
		c.err = fmt.Errorf("%s: %s must be > 0, got %d bps", c.kind, name, int64(r))
	}
}

func (c *argCheck) delay(d units.Time) {
	if c.err == nil && d < 0 {
		c.err = fmt.Errorf("%s: delay must be >= 0, got %v", c.kind, d)
	}
}

// links checks the number of links a builder would make (computed with
// mul, so that huge arguments cannot overflow).
func (c *argCheck) links(n int64) {
	if c.err == nil && n > MaxLinks {
		c.err = fmt.Errorf("%s: %d links is more than the limit of %d", c.kind, n, MaxLinks)
	}
}

// size checks the totals; factors are multiplied in int64 so that huge
// arguments cannot overflow.
func (c *argCheck) size(hosts, switches int64) {
	if c.err != nil {
		return
	}
	if hosts < 2 {
		c.err = fmt.Errorf("%s: %d hosts, need at least 2", c.kind, hosts)
	} else if hosts > limits.MaxHosts {
		c.err = hostLimitError(c.kind, hosts)
	} else if switches > MaxNodes {
		c.err = fmt.Errorf("%s: more than the limit of %d nodes", c.kind, MaxNodes)
	} else if hosts+switches > MaxNodes {
		c.err = fmt.Errorf("%s: %s and %s exceed the limit of %d nodes", c.kind,
			plural(int(hosts), "host"), plural(int(switches), "switch"), MaxNodes)
	}
}

// fmtRate formats r for a spec string so that units.ParseRate gives r back.
func fmtRate(r units.BitsPerSec) string {
	return roundTrip(r, r.String(), mustRate, fmt.Sprintf("%d", int64(r)))
}

// roundTrip returns s, the short form of v, when back reads it as v again,
// else raw, an exact form.
func roundTrip[T comparable](v T, s string, back func(string) T, raw string) string {
	if back(s) == v {
		return s
	}
	return raw
}

func mustRate(s string) units.BitsPerSec {
	r, _ := units.ParseRate(s)
	return r
}

// fmtDelay formats d for a spec string so that units.ParseDuration gives d
// back.
func fmtDelay(d units.Time) string {
	return roundTrip(d, d.String(), mustDelay, fmt.Sprintf("%dps", int64(d)))
}

func mustDelay(s string) units.Time {
	d, err := units.ParseDuration(s)
	if err != nil {
		return -1
	}
	return d
}

// hugeCount is where mul saturates: far above every limit, and small
// enough that a sum of a few saturated counts cannot overflow int64.
const hugeCount = 1 << 50

// mul multiplies non-negative counts exactly up to hugeCount and saturates
// there, so that the size checks fail (and can quote the count) instead of
// overflowing.
func mul(v ...int) int64 {
	p := int64(1)
	for _, x := range v {
		if x <= 0 {
			return 0
		}
		if p > hugeCount/int64(x) {
			return hugeCount
		}
		p *= int64(x)
	}
	return p
}

// Star builds one switch ("sw0") with hosts h0..h(hosts-1), each on its own
// link of the given rate (bits per second) and propagation delay
// (picoseconds). Switch port i leads to host i.
func Star(hosts int, rate units.BitsPerSec, delay units.Time) (*Topology, error) {
	c := argCheck{kind: "star"}
	c.count("hosts", hosts)
	c.rate("rate", rate)
	c.delay(delay)
	c.size(int64(hosts), 1)
	if c.err != nil {
		return nil, c.err
	}
	b := newBuilder(fmt.Sprintf("star:hosts=%d,rate=%s,delay=%s", hosts, fmtRate(rate), fmtDelay(delay)), hosts, []string{"sw0"})
	sw := hosts
	b.t.Nodes[sw].Ports = make([]Port, 0, hosts)
	for h := 0; h < hosts; h++ {
		b.link(h, sw, rate, delay)
	}
	return b.t, nil
}

// Dumbbell builds two switches ("left" and "right") joined by one
// bottleneck link: hosts 0..n-1 hang off the left switch and hosts n..2n-1
// off the right one. Host links run at hostRate and the bottleneck at
// bottleneckRate (bits per second); every link has the given propagation
// delay (picoseconds). Each switch's port n is the bottleneck.
func Dumbbell(n int, hostRate, bottleneckRate units.BitsPerSec, delay units.Time) (*Topology, error) {
	c := argCheck{kind: "dumbbell"}
	c.count("n", n)
	c.rate("host rate", hostRate)
	c.rate("bottleneck rate", bottleneckRate)
	c.delay(delay)
	c.size(2*mul(n), 2)
	if c.err != nil {
		return nil, c.err
	}
	name := fmt.Sprintf("dumbbell:n=%d,rate=%s,bottleneck=%s,delay=%s", n, fmtRate(hostRate), fmtRate(bottleneckRate), fmtDelay(delay))
	b := newBuilder(name, 2*n, []string{"left", "right"})
	left, right := 2*n, 2*n+1
	b.t.Nodes[left].Ports = make([]Port, 0, n+1)
	b.t.Nodes[right].Ports = make([]Port, 0, n+1)
	for h := 0; h < n; h++ {
		b.link(h, left, hostRate, delay)
	}
	for h := n; h < 2*n; h++ {
		b.link(h, right, hostRate, delay)
	}
	b.link(left, right, bottleneckRate, delay)
	return b.t, nil
}
