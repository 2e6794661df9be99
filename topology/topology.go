// Package topology describes the simulated network: hosts, switches and the
// links between them, with builders for the standard datacenter shapes, a
// reader for the HPCC simulator's topology.txt, shortest-path ECMP routing
// and per-path base RTT.
//
// Files: topology.go (types, Validate), build.go (Star, Dumbbell), clos.go
// (LeafSpine, FatTree and the paper presets), hpcc.go (ReadHPCC), spec.go
// (Parse, the CLI's spec strings), routing.go (Routes, ECMP), path.go (base
// RTT, ideal and standalone completion times).
package topology

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// Kind tells hosts from switches.
type Kind uint8

// Node kinds.
const (
	Host Kind = iota
	Switch
)

// String returns "host" or "switch".
func (k Kind) String() string {
	switch k {
	case Host:
		return "host"
	case Switch:
		return "switch"
	default:
		return "kind(" + strconv.Itoa(int(k)) + ")"
	}
}

// Port is one side of a full-duplex link, owned by a node.
type Port struct {
	Peer     int32            // node id at the other end
	PeerPort int32            // port index on the peer
	Rate     units.BitsPerSec // link rate, bits per second (same both ways)
	Delay    units.Time       // propagation delay, picoseconds
}

// Node is a host or a switch. Hosts have exactly one port.
type Node struct {
	ID    int32  // equals the node's index in Topology.Nodes
	Kind  Kind   // Host for ids below NumHosts, Switch above
	Name  string // e.g. "h3", "tor1", "core0", or the HPCC file's node id
	Ports []Port
}

// Topology is a network. Node ids 0..NumHosts-1 are the hosts, in order;
// the switches follow.
type Topology struct {
	Name     string // the spec it was built from
	NumHosts int
	Nodes    []Node
}

// MaxNodes bounds the number of nodes (hosts + switches) a builder, Parse,
// ReadHPCC or Validate accepts, so that a typo such as hosts=1e9 is an
// error rather than an out-of-memory crash. It is twice limits.MaxHosts
// (2^21 = 2,097,152), so that a network with the most hosts allowed still
// has room for its switches; the host count is checked against
// limits.MaxHosts on its own.
const MaxNodes = 2 * limits.MaxHosts

// MaxLinks bounds the number of full-duplex links a builder, Parse,
// ReadHPCC or Validate accepts: 3 x 2^20 = 3,145,728, room for a
// three-tier fat-tree of limits.MaxHosts hosts at full bisection (host,
// ToR-aggregation and aggregation-core links). The simulator registers four
// event handlers per link and two per host, and one run holds at most
// 2^24 handlers (kernel.MaxHandlers): 4 x MaxLinks + 2 x limits.MaxHosts
// stays below it. Memory is bounded separately, by the run's budget
// (docs/LIMITS.md).
const MaxLinks = 3 * limits.MaxHosts

// NumSwitches returns the number of switches.
func (t *Topology) NumSwitches() int { return len(t.Nodes) - t.NumHosts }

// NumLinks returns the number of full-duplex links (half the number of
// ports).
func (t *Topology) NumLinks() int {
	n := 0
	for i := range t.Nodes {
		n += len(t.Nodes[i].Ports)
	}
	return n / 2
}

// Describe returns a one-line summary such as
// "fattree 320 hosts, 56 switches, 480 links": the kind or preset name (the
// file name for an HPCC topology), then the counts.
func (t *Topology) Describe() string {
	kind := t.Name
	if path, ok := strings.CutPrefix(kind, "hpcc:"); ok {
		kind = "hpcc " + path
	} else if k, _, ok := strings.Cut(kind, ":"); ok {
		kind = k
	}
	if kind == "" {
		kind = "topology"
	}
	return fmt.Sprintf("%s %s, %s, %s", kind,
		plural(t.NumHosts, "host"), plural(t.NumSwitches(), "switch"), plural(t.NumLinks(), "link"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "ch") {
		return strconv.Itoa(n) + " " + what + "es"
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// NameIndex maps every node's Name to its id. For a topology read by
// ReadHPCC it translates the file's original node ids (as decimal strings)
// to ccreplay's ids. Nodes with an empty name are left out; with duplicate
// names the lowest id wins.
func (t *Topology) NameIndex() map[string]int32 {
	m := make(map[string]int32, len(t.Nodes))
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		if name := t.Nodes[i].Name; name != "" {
			m[name] = int32(i)
		}
	}
	return m
}

// label names node i in error messages: `node 3 "tor1"`.
func (t *Topology) label(i int) string {
	if i >= 0 && i < len(t.Nodes) && t.Nodes[i].Name != "" {
		return fmt.Sprintf("node %d %q", i, t.Nodes[i].Name)
	}
	return fmt.Sprintf("node %d", i)
}

// Validate checks the invariants every other package relies on: at least
// two and at most limits.MaxHosts hosts and at most MaxNodes nodes; node i
// has ID i; nodes 0..NumHosts-1 are hosts and the rest switches; every host
// has exactly one port; every port names an existing peer port that points
// back at it (full duplex) with the same rate and delay; rates are > 0 and
// delays >= 0 (an error names the node and port); no node links to itself;
// and every host reaches every other host without passing through a third
// host.
func (t *Topology) Validate() error {
	if t.NumHosts < 2 {
		return fmt.Errorf("topology has %d hosts, need at least 2", t.NumHosts)
	}
	if t.NumHosts > limits.MaxHosts {
		return hostLimitError("topology", int64(t.NumHosts))
	}
	if t.NumHosts > len(t.Nodes) {
		return fmt.Errorf("topology says %d hosts but has only %d nodes", t.NumHosts, len(t.Nodes))
	}
	if len(t.Nodes) > MaxNodes {
		return fmt.Errorf("topology has %d nodes, more than the limit of %d", len(t.Nodes), MaxNodes)
	}
	if l := t.NumLinks(); l > MaxLinks {
		return fmt.Errorf("topology has %d links, more than the limit of %d", l, MaxLinks)
	}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.ID != int32(i) {
			return fmt.Errorf("%s has id %d, want %d (ids must equal the node's index)", t.label(i), n.ID, i)
		}
		want := Switch
		if i < t.NumHosts {
			want = Host
		}
		if n.Kind != want {
			return fmt.Errorf("%s is a %v, want a %v (hosts are ids 0..%d, switches follow)", t.label(i), n.Kind, want, t.NumHosts-1)
		}
		if n.Kind == Host && len(n.Ports) != 1 {
			return fmt.Errorf("host %s has %d ports, want exactly 1", t.label(i), len(n.Ports))
		}
		for j, p := range n.Ports {
			if err := t.checkPort(i, j, p); err != nil {
				return err
			}
		}
	}
	// NB: a second pass, so that a port's own fault (say a zero rate) is
	// reported as such rather than as a mismatch seen from its peer.
	for i := range t.Nodes {
		for j, p := range t.Nodes[i].Ports {
			if err := t.checkDuplex(i, j, p); err != nil {
				return err
			}
		}
	}
	return t.checkConnected()
}

// portLabel names port j of node i in error messages: `node 3 "tor1" port
// 2`. It is only called once an error is found: formatting it for every
// port made Validate take seconds on a million-host star.
func (t *Topology) portLabel(i, j int) string {
	return fmt.Sprintf("%s port %d", t.label(i), j)
}

// checkPort checks what port j of node i says on its own.
func (t *Topology) checkPort(i, j int, p Port) error {
	var problem string
	switch {
	case p.Rate <= 0:
		problem = fmt.Sprintf("rate %d bps must be > 0", int64(p.Rate))
	case p.Delay < 0:
		problem = fmt.Sprintf("delay %d ps must be >= 0", int64(p.Delay))
	case p.Peer < 0 || int(p.Peer) >= len(t.Nodes):
		problem = fmt.Sprintf("peer %d does not exist (%d nodes)", p.Peer, len(t.Nodes))
	case int(p.Peer) == i:
		problem = "links the node to itself"
	default:
		return nil
	}
	return fmt.Errorf("%s: %s", t.portLabel(i, j), problem)
}

// checkDuplex checks that port j of node i and its peer port point at each
// other and agree on rate and delay.
func (t *Topology) checkDuplex(i, j int, p Port) error {
	peer := &t.Nodes[p.Peer]
	if p.PeerPort < 0 || int(p.PeerPort) >= len(peer.Ports) {
		return fmt.Errorf("%s: peer port %d does not exist on %s (%d ports)", t.portLabel(i, j), p.PeerPort, t.label(int(p.Peer)), len(peer.Ports))
	}
	back := peer.Ports[p.PeerPort]
	if int(back.Peer) != i || int(back.PeerPort) != j {
		return fmt.Errorf("%s: link is not full duplex: it points at %s port %d, which points at node %d port %d",
			t.portLabel(i, j), t.label(int(p.Peer)), p.PeerPort, back.Peer, back.PeerPort)
	}
	if back.Rate != p.Rate || back.Delay != p.Delay {
		return fmt.Errorf("%s: link to %s port %d has %v/%v one way and %v/%v the other (rate/delay must match)",
			t.portLabel(i, j), t.label(int(p.Peer)), p.PeerPort, p.Rate, p.Delay, back.Rate, back.Delay)
	}
	return nil
}

// checkConnected runs a BFS from host 0 that does not forward through other
// hosts. Host 0 has a single link, so if it reaches every host, any two hosts
// reach each other through host 0's switch without transiting a host.
func (t *Topology) checkConnected() error {
	seen := make([]bool, len(t.Nodes))
	queue := make([]int32, 0, len(t.Nodes))
	seen[0] = true
	queue = append(queue, 0)
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u != 0 && int(u) < t.NumHosts {
			continue // hosts do not forward
		}
		for _, p := range t.Nodes[u].Ports {
			if !seen[p.Peer] {
				seen[p.Peer] = true
				queue = append(queue, p.Peer)
			}
		}
	}
	for h := 1; h < t.NumHosts; h++ {
		if !seen[h] {
			return fmt.Errorf("host %s cannot reach host %s: the topology is not connected", t.label(h), t.label(0))
		}
	}
	return nil
}

// hostLimitError says that what (a builder's kind, "topology" or a file
// position) has more than limits.MaxHosts hosts, e.g. "star: 2000000 hosts
// is more than the limit of 1048576". A count at or above hugeCount is
// given as "over" that bound: it was saturated when it was computed.
func hostLimitError(what string, hosts int64) error {
	count := fmt.Sprintf("%d", hosts)
	if hosts >= hugeCount {
		count = fmt.Sprintf("over %d", int64(hugeCount))
	}
	return fmt.Errorf("%s: %s hosts is more than the limit of %d", what, count, limits.MaxHosts)
}
