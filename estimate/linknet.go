package estimate

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// FastFactor is how much faster than the downstream path's slowest link
// the link carrying a fabric link's flows on to their receivers is: fast
// enough never to hold a queue (that queueing belongs to the downstream
// links' own simulations; Parsimon, Section 4.1, uses the same factor).
const FastFactor = 10

// LinkNet is the small network that isolates one link's queueing, and the
// workload replayed through it.
type LinkNet struct {
	// Topology: hosts first (the senders, then the receivers), then the
	// switch feeding the link (absent for a host-up link) and the switch
	// behind it (absent for a host-down link).
	Topology *topology.Topology
	// Trace holds the messages of the link's flows with their hosts
	// renumbered; each keeps its id, size, release and priority, and its
	// flow id is the flow's id in the full run.
	Trace *trace.Trace
	// Flows maps the link network's flows (as replay.Run numbers them) to
	// indices into the full run's flows: link-network flow k is Flows[k].
	Flows []int32
}

// Sizes of the packets whose round trip the base RTT counts.
type wire struct{ data, ack units.Bytes }

// accessDelay is the propagation delay of one link at rate that gives the
// same round trip as hops (topology.PathBaseRTT), never negative.
func accessDelay(hops []topology.Hop, rate units.BitsPerSec, w wire) units.Time {
	rtt := topology.PathBaseRTT(hops, w.data, w.ack)
	d := (rtt - units.TxTime(w.data, rate) - units.TxTime(w.ack, rate)) / 2
	return max(d, 0)
}

// BuildLinkNet builds link l's network (see Link, LinkNet). flows are the
// full run's flows, tr its trace; dataBytes and ackBytes are the wire
// sizes of a full data packet and of an ACK.
//
// Each sender is one source host of the full run and carries all of that
// host's flows crossing l, so they share its NIC as they do there; its
// access link runs at the slowest rate of the first such flow's path before
// l, with the delay that gives that part of the path its round trip. Each
// receiver is one destination host, reached from the switch behind l by a
// link FastFactor times the downstream path's slowest rate whose delay
// restores the downstream round trip. A flow's base RTT in the link network
// is therefore its base RTT in the full run, up to the serialisation of the
// hops it merges (a few ns). The link itself runs at its rate less the
// reverse flows' ACKs (Link.AckRate).
func BuildLinkNet(l *Link, flows []replay.FlowPath, tr *trace.Trace, dataBytes, ackBytes units.Bytes) (*LinkNet, error) {
	w := wire{dataBytes, ackBytes}
	srcIdx, dstIdx := map[int32]int32{}, map[int32]int32{}
	var srcs, dsts []int32 // full-run host of each sender, receiver
	var srcHop, dstHop []int
	for k, fi := range l.Flows {
		f := &flows[fi]
		if _, ok := srcIdx[f.Src]; !ok {
			srcIdx[f.Src] = int32(len(srcs))
			srcs, srcHop = append(srcs, f.Src), append(srcHop, k)
		}
		if _, ok := dstIdx[f.Dst]; !ok {
			dstIdx[f.Dst] = int32(len(dsts))
			dsts, dstHop = append(dsts, f.Dst), append(dstHop, k)
		}
	}
	for s := range srcIdx {
		if _, ok := dstIdx[s]; ok {
			return nil, fmt.Errorf("link %d:%d: host %d both sends and receives flows across it", l.Node, l.Port, s)
		}
	}
	ns, nd := len(srcs), len(dsts)
	if l.Kind == HostUp && ns != 1 || l.Kind == HostDown && nd != 1 {
		return nil, fmt.Errorf("link %d:%d (%s): %d senders and %d receivers", l.Node, l.Port, l.Kind, ns, nd)
	}
	hosts := ns + nd
	topo := &topology.Topology{Name: fmt.Sprintf("link %d:%d", l.Node, l.Port), NumHosts: hosts}
	add := func(kind topology.Kind, name string) int32 {
		id := int32(len(topo.Nodes))
		topo.Nodes = append(topo.Nodes, topology.Node{ID: id, Kind: kind, Name: name})
		return id
	}
	connect := func(a, b int32, rate units.BitsPerSec, delay units.Time) {
		pa, pb := int32(len(topo.Nodes[a].Ports)), int32(len(topo.Nodes[b].Ports))
		topo.Nodes[a].Ports = append(topo.Nodes[a].Ports, topology.Port{Peer: b, PeerPort: pb, Rate: rate, Delay: delay})
		topo.Nodes[b].Ports = append(topo.Nodes[b].Ports, topology.Port{Peer: a, PeerPort: pa, Rate: rate, Delay: delay})
	}
	for _, h := range srcs {
		add(topology.Host, "src"+strconv.Itoa(int(h)))
	}
	for _, h := range dsts {
		add(topology.Host, "dst"+strconv.Itoa(int(h)))
	}
	// The node transmitting on l, and the node receiving from it.
	from, to := int32(0), int32(ns)
	if l.Kind != HostUp {
		from = add(topology.Switch, "up")
		for i := range srcs {
			k := srcHop[i]
			f := &flows[l.Flows[k]]
			up := f.Path[:l.Hop[k]]
			rate := topology.PathBottleneck(up)
			connect(int32(i), from, rate, accessDelay(up, rate, w))
		}
	}
	if l.Kind != HostDown {
		to = add(topology.Switch, "down")
	}
	connect(from, to, l.Rate-l.AckRate, l.Delay)
	if l.Kind != HostDown {
		for j := range dsts {
			k := dstHop[j]
			f := &flows[l.Flows[k]]
			down := f.Path[l.Hop[k]+1:]
			rate := topology.PathBottleneck(down) * FastFactor
			connect(to, int32(ns+j), rate, accessDelay(down, rate, w))
		}
	}
	if err := topo.Validate(); err != nil {
		return nil, fmt.Errorf("link %d:%d network: %w", l.Node, l.Port, err)
	}
	// The workload: the link's flows' messages in trace order.
	net := &LinkNet{Topology: topo, Flows: l.Flows}
	sub := &trace.Trace{Hosts: hosts}
	type msgOf struct{ msg, flow int32 }
	var idx []msgOf
	for _, fi := range l.Flows {
		for _, m := range flows[fi].Msgs {
			idx = append(idx, msgOf{m, fi})
		}
	}
	slices.SortFunc(idx, func(a, b msgOf) int { return cmp.Compare(a.msg, b.msg) })
	for _, x := range idx {
		m := tr.Messages[x.msg]
		f := &flows[x.flow]
		m.Src, m.Dst = srcIdx[f.Src], int32(ns)+dstIdx[f.Dst]
		m.FlowID = int64(f.ID)
		m.Deps, m.Gap = nil, 0
		m.CollectiveID, m.Iteration = trace.NoCollective, trace.NoIteration
		m.SrcRank, m.DstRank = trace.NoRank, trace.NoRank
		sub.Messages = append(sub.Messages, m)
	}
	net.Trace = sub
	return net, nil
}
