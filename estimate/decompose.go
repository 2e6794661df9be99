package estimate

import (
	"cmp"
	"fmt"
	"math"
	"slices"

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

// LinkKinds are the link kinds, in order.
var LinkKinds = []LinkKind{HostUp, Fabric, HostDown}

// ParseLinkKind reads a kind as String names it.
func ParseLinkKind(s string) (LinkKind, error) {
	for _, k := range LinkKinds {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("link kind %q: want host-up, fabric or host-down", s)
}

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
	// AckRate is the mean rate, bits per second, of the ACKs that the
	// flows crossing the reverse link send back across this one
	// (ReverseAcks; 0 until set): the link network runs the link that
	// much slower, as Parsimon does, since those ACKs are not in it.
	AckRate units.BitsPerSec
	// Rev are the flows whose ACKs cross this link (ReverseFlows; nil
	// until set), in flow order: with ReverseAcksPackets they run in the
	// link network as flows of their own, from B's side to A's, so that
	// their ACKs cross the link as packets while they run.
	Rev []RevFlow
	// Side are the flows of the link's senders that do not cross it but
	// may run beside the link's flows from the same host (SenderFlows; nil
	// until set), in flow order: with SenderNICsShared they run in the
	// link network from the same sender, so that the host's NIC is shared
	// as in the full run.
	Side []int32
}

// RevFlow is a flow whose ACKs cross a link.
type RevFlow struct {
	Flow int32 // index into the flows
	// Path is the route of the flow's ACKs, from its destination host
	// back to its source (replay sends an ACK with its flow's hash from
	// the destination, so ECMP may route it apart from the data), and
	// Hop the link's position on it.
	Path []topology.Hop
	Hop  int32
}

// ReverseFlows sets each link's Rev: the flows whose ACKs cross it, found
// by routing every flow's ACKs as replay does (topo's ECMP from the
// destination to the source, with the flow's hash).
func ReverseFlows(topo *topology.Topology, links []Link, flows []replay.FlowPath) {
	base := make([]int, len(topo.Nodes)+1) // first dense index of each node's ports
	for i := range topo.Nodes {
		base[i+1] = base[i] + len(topo.Nodes[i].Ports)
	}
	at := make([]int32, base[len(topo.Nodes)]) // dense port -> link index + 1
	for i := range links {
		at[base[links[i].Node]+int(links[i].Port)] = int32(i + 1)
	}
	routes := topo.Routes()
	for fi := range flows {
		f := &flows[fi]
		path := routes.Path(f.Dst, f.Src, f.Hash)
		for h, hop := range path {
			if i := at[base[hop.Node]+int(hop.Port)]; i != 0 {
				l := &links[i-1]
				l.Rev = append(l.Rev, RevFlow{Flow: int32(fi), Path: path, Hop: int32(h)})
			}
		}
	}
}

// SenderLife is how long, in multiples of its ideal FCT from its release,
// a flow is taken to run when SenderFlows decides which of a host's flows
// may share its NIC: the WebSearch runs' p99 slowdown at 30-50 % load is
// about 5 to 10 (docs/ESTIMATE.md).
const SenderLife = 8

// SenderFlows sets each link's Side: for each source host of the link's
// flows, the host's other flows (not crossing the link, not among its
// reverse flows) whose lives overlap the life of one of the link's flows
// from that host, a flow's life running from its release for life[i]
// (SenderLife times its ideal FCT, say). In the full run they share the
// host's NIC with the link's flows. A host's NIC (a host-up link) carries
// every flow of the host, so it has none.
func SenderFlows(links []Link, flows []replay.FlowPath, life []units.Time) {
	bySrc := map[int32][]int32{}
	for fi := range flows {
		bySrc[flows[fi].Src] = append(bySrc[flows[fi].Src], int32(fi))
	}
	type span struct{ from, to units.Time }
	for i := range links {
		l := &links[i]
		l.Side = nil
		if l.Kind == HostUp {
			continue
		}
		own := map[int32][]span{} // per source host, its flows' lives
		var hosts []int32
		for _, fi := range l.Flows {
			f := &flows[fi]
			if _, ok := own[f.Src]; !ok {
				hosts = append(hosts, f.Src)
			}
			own[f.Src] = append(own[f.Src], span{f.Start, f.Start + life[fi]})
		}
		for _, h := range hosts {
			lives := own[h]
			for _, g := range bySrc[h] {
				if _, found := slices.BinarySearch(l.Flows, g); found {
					continue
				}
				if _, found := slices.BinarySearchFunc(l.Rev, g, func(r RevFlow, g int32) int { return cmp.Compare(r.Flow, g) }); found {
					continue
				}
				from, to := flows[g].Start, flows[g].Start+life[g]
				if slices.ContainsFunc(lives, func(s span) bool { return s.from < to && from < s.to }) {
					l.Side = append(l.Side, g)
				}
			}
		}
		slices.Sort(l.Side)
	}
}

// ReverseAcks sets each link's AckRate: the ACKs of the flows crossing its
// reverse link (one of ackBytes on the wire every ackEvery data packets of
// mtuPayload bytes, and one for a flow's last packet), spread over span,
// at most half the link's rate.
func ReverseAcks(links []Link, flows []replay.FlowPath, span units.Time, mtuPayload, ackBytes units.Bytes, ackEvery int) {
	if span <= 0 || ackEvery < 1 {
		return
	}
	at := map[[2]int32]int{} // (node, peer) -> link index
	for i := range links {
		at[[2]int32{links[i].Node, links[i].Peer}] = i
	}
	for i := range links {
		r, ok := at[[2]int32{links[i].Peer, links[i].Node}]
		if !ok {
			continue
		}
		acks := int64(0)
		for _, fi := range links[r].Flows {
			acks += (topology.NumPackets(flows[fi].Size, mtuPayload) + int64(ackEvery) - 1) / int64(ackEvery)
		}
		bits := float64(acks) * float64(ackBytes) * 8
		rate := units.BitsPerSec(math.Round(bits / span.Seconds()))
		links[i].AckRate = min(rate, links[i].Rate/2)
	}
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
