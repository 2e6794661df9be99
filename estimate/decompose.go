package estimate

import (
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

// LinkKind says where a link sits, which decides the shape of its link
// network.
type LinkKind uint8

// Link kinds.
const (
	HostUp   LinkKind = iota // a host's NIC to its switch: one sender, no access link
	Fabric                   // between two switches: access links in, a fast link out
	HostDown                 // a switch to a host: access links in, the host is the receiver
)

// String names the kind as links.parquet does.
func (k LinkKind) String() string {
	switch k {
	case HostUp:
		return "host-up"
	case HostDown:
		return "host-down"
	}
	return "fabric"
}

// Link is one directed link that carries traffic and the flows crossing it.
type Link struct {
	Node, Port int32            // transmitting node and its egress port
	Peer       int32            // the node at the other end
	Kind       LinkKind         // where it sits
	Rate       units.BitsPerSec // link rate, bits per second
	Delay      units.Time       // propagation delay, picoseconds
	// Flows are indices into the flows Decompose was given, ascending
	// (hence in the order replay.Run numbers them).
	Flows []int32
	// Hop is, per flow of Flows, the position of this link on its path.
	Hop   []int32
	Bytes units.Bytes // payload bytes of the flows crossing it
}

// Decompose returns the links of topo that flows cross, ordered by
// (node, port), each with its flows.
func Decompose(topo *topology.Topology, flows []replay.FlowPath) []Link {
	base := make([]int, len(topo.Nodes)+1) // first dense index of each node's ports
	for i := range topo.Nodes {
		base[i+1] = base[i] + len(topo.Nodes[i].Ports)
	}
	byPort := make([]int32, base[len(topo.Nodes)]) // dense port -> link index + 1
	var links []Link
	for fi := range flows {
		for hi, h := range flows[fi].Path {
			k := base[h.Node] + int(h.Port)
			if byPort[k] == 0 {
				p := topo.Nodes[h.Node].Ports[h.Port]
				kind := Fabric
				switch {
				case int(h.Node) < topo.NumHosts:
					kind = HostUp
				case int(p.Peer) < topo.NumHosts:
					kind = HostDown
				}
				links = append(links, Link{Node: h.Node, Port: h.Port, Peer: p.Peer, Kind: kind, Rate: p.Rate, Delay: p.Delay})
				byPort[k] = int32(len(links))
			}
			l := &links[byPort[k]-1]
			l.Flows = append(l.Flows, int32(fi))
			l.Hop = append(l.Hop, int32(hi))
			l.Bytes += flows[fi].Size
		}
	}
	// Order by (node, port): the dense port index is that order.
	ordered := make([]Link, 0, len(links))
	for _, v := range byPort {
		if v != 0 {
			ordered = append(ordered, links[v-1])
		}
	}
	return ordered
}
