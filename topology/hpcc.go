package topology

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// HPCC topology.txt, as read by the HPCC ns-3 simulator
// (github.com/alibaba-edu/High-Precision-Congestion-Control,
// simulation/scratch/third.cc):
//
//	nodes switches links            e.g. "376 56 480"
//	sw_id sw_id ...                 the switch node ids (all others are hosts)
//	a b rate delay error_rate       one line per link, e.g. "0 320 100Gbps 1000ns 0"
//
// rate is an ns-3 DataRate ("100Gbps"; "Bps" means bytes per second), delay
// an ns-3 Time ("0.001ms", "1000ns"), error_rate the probability that the
// receiver drops a packet.

// maxHPCCLinks bounds the link count a header may declare.
const maxHPCCLinks = MaxLinks

// ReadHPCC reads an HPCC simulator topology.txt. name is used in error
// messages ("topology.txt:5: ...") and in the topology's Name ("hpcc:" +
// name).
//
// Hosts are renumbered to come first, in ascending order of their original
// id, followed by the switches in ascending original id; every node's Name is
// its original id in decimal (NameIndex maps them back). A node's ports are
// in the order its links appear in the file. Blank lines are skipped; the
// switch ids may span several lines. Exactly the declared number of links is
// read and anything after them is ignored, as the HPCC simulator does (its
// sample mix/topology.txt carries unused link lines and a comment block
// there). A link with a non-zero error rate is rejected: ccreplay does not
// model random loss. A file with more than MaxNodes nodes or more than
// limits.MaxHosts hosts (nodes that are not switches) is rejected before
// anything is allocated for them.
func ReadHPCC(r io.Reader, name string) (*Topology, error) {
	p := hpccParser{name: name, sc: bufio.NewScanner(r)}
	p.sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	return p.parse()
}

type hpccParser struct {
	name string
	sc   *bufio.Scanner
	line int
}

// next returns the fields of the next non-blank line, or nil at the end of
// the input.
func (p *hpccParser) next() ([]string, error) {
	for p.sc.Scan() {
		p.line++
		if f := strings.Fields(p.sc.Text()); len(f) > 0 {
			return f, nil
		}
	}
	if err := p.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line too long", p.name, p.line+1)
		}
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	return nil, nil
}

func (p *hpccParser) errf(format string, a ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.line, fmt.Sprintf(format, a...))
}

// hpccLink is one link line, in original node ids.
type hpccLink struct {
	a, b  int
	rate  units.BitsPerSec
	delay units.Time
	line  int
}

func (p *hpccParser) parse() (*Topology, error) {
	f, err := p.next()
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, fmt.Errorf("%s: empty file (want a first line `nodes switches links`)", p.name)
	}
	if len(f) != 3 {
		return nil, p.errf("want `nodes switches links`, got %d fields", len(f))
	}
	nodes, err := p.int(f[0], "node count", 1, MaxNodes)
	if err != nil {
		return nil, err
	}
	switches, err := p.int(f[1], "switch count", 0, nodes)
	if err != nil {
		return nil, err
	}
	links, err := p.int(f[2], "link count", 0, maxHPCCLinks)
	if err != nil {
		return nil, err
	}
	if hosts := nodes - switches; hosts > limits.MaxHosts {
		return nil, hostLimitError(fmt.Sprintf("%s:%d", p.name, p.line), int64(hosts))
	}

	isSwitch := make([]bool, nodes)
	for got := 0; got < switches; {
		f, err := p.next()
		if err != nil {
			return nil, err
		}
		if f == nil {
			return nil, fmt.Errorf("%s: file ends after %d of the %d switch ids", p.name, got, switches)
		}
		if got+len(f) > switches {
			return nil, p.errf("%d switch ids so far, more than the %d the header declares", got+len(f), switches)
		}
		for _, s := range f {
			id, err := p.int(s, "switch id", 0, nodes-1)
			if err != nil {
				return nil, err
			}
			if isSwitch[id] {
				return nil, p.errf("switch id %d listed twice", id)
			}
			isSwitch[id] = true
		}
		got += len(f)
	}

	ls := make([]hpccLink, 0, min(links, 1<<16))
	degree := make([]int32, nodes)
	firstLine := make([]int32, nodes) // line of a node's first link, for errors
	for len(ls) < links {
		f, err := p.next()
		if err != nil {
			return nil, err
		}
		if f == nil {
			return nil, fmt.Errorf("%s: file ends after %d of the %d links the header declares", p.name, len(ls), links)
		}
		l, err := p.link(f, nodes)
		if err != nil {
			return nil, err
		}
		for _, n := range [2]int{l.a, l.b} {
			if degree[n] == 0 {
				firstLine[n] = int32(l.line)
			}
			degree[n]++
			if !isSwitch[n] && degree[n] > 1 {
				return nil, p.errf("host %d has a second link (its first is on line %d); a host must have exactly one link", n, firstLine[n])
			}
		}
		ls = append(ls, l)
	}

	// Renumber: hosts first, then switches, each in ascending original id.
	newID := make([]int32, nodes)
	hosts := nodes - switches
	nh, ns := 0, hosts
	for id := 0; id < nodes; id++ {
		if isSwitch[id] {
			newID[id] = int32(ns)
			ns++
		} else {
			if degree[id] == 0 {
				return nil, fmt.Errorf("%s: host %d has no link", p.name, id)
			}
			newID[id] = int32(nh)
			nh++
		}
	}
	if hosts < 2 {
		return nil, fmt.Errorf("%s: %d hosts (nodes that are not switches), need at least 2", p.name, hosts)
	}
	t := &Topology{Name: "hpcc:" + p.name, NumHosts: hosts, Nodes: make([]Node, nodes)}
	for id := 0; id < nodes; id++ {
		n := &t.Nodes[newID[id]]
		n.ID = newID[id]
		n.Kind = Host
		if isSwitch[id] {
			n.Kind = Switch
		}
		n.Name = strconv.Itoa(id)
		n.Ports = make([]Port, 0, degree[id])
	}
	b := builder{t: t}
	for _, l := range ls {
		b.link(int(newID[l.a]), int(newID[l.b]), l.rate, l.delay)
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	return t, nil
}

func (p *hpccParser) int(s, what string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, p.errf("%s %q is not an integer", what, s)
	}
	if v < lo || v > hi {
		return 0, p.errf("%s %d out of range [%d, %d]", what, v, lo, hi)
	}
	return v, nil
}

func (p *hpccParser) link(f []string, nodes int) (hpccLink, error) {
	if len(f) != 5 {
		return hpccLink{}, p.errf("want a link `a b rate delay error_rate`, got %d fields", len(f))
	}
	a, err := p.int(f[0], "node id", 0, nodes-1)
	if err != nil {
		return hpccLink{}, err
	}
	b, err := p.int(f[1], "node id", 0, nodes-1)
	if err != nil {
		return hpccLink{}, err
	}
	if a == b {
		return hpccLink{}, p.errf("link from node %d to itself", a)
	}
	rate, err := parseNS3Rate(f[2])
	if err != nil {
		return hpccLink{}, p.errf("%v", err)
	}
	delay, err := units.ParseDuration(f[3])
	if err != nil {
		return hpccLink{}, p.errf("%v", err)
	}
	e, err := units.ParseFloat(f[4])
	if err != nil || e < 0 || e > 1 {
		return hpccLink{}, p.errf("invalid error rate %q (want a probability, normally 0)", f[4])
	}
	if e != 0 {
		return hpccLink{}, p.errf("link %d-%d has error rate %s: lossy links are not modelled (ccreplay links never drop packets at random; set the error rate to 0)", a, b, f[4])
	}
	return hpccLink{a: a, b: b, rate: rate, delay: delay, line: p.line}, nil
}

// parseNS3Rate parses an ns-3 DataRate string. ns-3 reads "b" as bits and
// "B" as bytes ("100Gbps" vs "12.5GBps"); units.ParseRate only knows bits.
func parseNS3Rate(s string) (units.BitsPerSec, error) {
	if strings.HasSuffix(s, "Bps") {
		r, err := units.ParseRate(strings.TrimSuffix(s, "Bps") + "bps")
		if err != nil {
			return 0, fmt.Errorf("invalid rate %q", s)
		}
		if r > math.MaxInt64/8 {
			return 0, fmt.Errorf("rate %q out of range", s)
		}
		return r * 8, nil
	}
	return units.ParseRate(s)
}

// WriteHPCC writes t as an HPCC simulator topology.txt (the format ReadHPCC
// reads), so that the simulator and ccreplay can run the same network: the
// header, the switch ids (t's switch node ids), then one line per link,
// "a b RATE DELAY 0", in order of the lower end's id and port. Node ids
// are t's own (hosts first), so ReadHPCC gives the same hosts, switches,
// links, rates and delays back; a node's ports come back in the order its
// links are listed, which may number them differently from t. Rates are
// written in Gbps when whole (else bps) and delays in whole nanoseconds,
// the simulator's time resolution: a delay that is not a whole number of
// nanoseconds is an error.
func WriteHPCC(w io.Writer, t *Topology) error {
	if err := t.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%d %d %d\n", len(t.Nodes), t.NumSwitches(), t.NumLinks())
	for i := t.NumHosts; i < len(t.Nodes); i++ {
		if i > t.NumHosts {
			bw.WriteByte(' ')
		}
		bw.WriteString(strconv.Itoa(i))
	}
	bw.WriteByte('\n')
	for i := range t.Nodes {
		for _, p := range t.Nodes[i].Ports {
			if int(p.Peer) < i {
				continue // listed from the peer's side
			}
			if p.Delay%units.Nanosecond != 0 {
				return fmt.Errorf("topology %s: link %d-%d: delay %v is not a whole number of nanoseconds (the HPCC simulator's resolution)", t.Name, i, p.Peer, p.Delay)
			}
			rate := strconv.FormatInt(int64(p.Rate), 10) + "bps"
			if p.Rate%units.Gbps == 0 {
				rate = strconv.FormatInt(int64(p.Rate/units.Gbps), 10) + "Gbps"
			}
			fmt.Fprintf(bw, "%d %d %s %dns 0\n", i, p.Peer, rate, p.Delay/units.Nanosecond)
		}
	}
	return bw.Flush()
}
