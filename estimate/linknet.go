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
	// Topology: hosts first (the senders, then the receivers, then the
	// idle hosts on the ports of the switch feeding the link that none of
	// its flows enter by, then the reverse flows' sources and destinations
	// that are none of these), then the switch feeding the link (absent
	// for a host-up link), the switch behind it (absent for a host-down
	// link) and the feeder switches, in the order of the ports they are
	// cabled to.
	Topology *topology.Topology
	// Trace holds the messages of the link's flows with their hosts
	// renumbered; each keeps its id, size, release and priority, and its
	// flow id is the flow's id in the full run.
	Trace *trace.Trace
	// Flows maps the link network's flows (as replay.Run numbers them) to
	// indices into the full run's flows: link-network flow k is Flows[k].
	Flows []int32
	// Reverse says, per flow of Flows, whether it is one of the link's
	// reverse flows (Link.Rev), there for its ACKs only, and Side whether
	// it is one of its senders' other flows (Link.Side), there for the
	// sender's NIC only; the others are the link's own flows (Link.Flows),
	// whose delays the estimate reads.
	Reverse, Side []bool
}

// What a flow of a link network is there for.
type netRole uint8

const (
	roleOwn  netRole = iota // one of the link's flows (Link.Flows), whose delays are read
	roleRev                 // a reverse flow (Link.Rev), there for its ACKs
	roleSide                // a sender's other flow (Link.Side), there for the sender's NIC
)

// netFlows lists the flows of l's network in the order replay.Run numbers
// them (the order of their messages, hence of their indices, as each flow
// has one message): l's flows, its reverse flows (Link.Rev) and its
// senders' other flows (Link.Side), each with its role.
func netFlows(l *Link) ([]int32, []netRole) {
	type netFlow struct {
		flow int32
		role netRole
	}
	all := make([]netFlow, 0, len(l.Flows)+len(l.Rev)+len(l.Side))
	for _, fi := range l.Flows {
		all = append(all, netFlow{fi, roleOwn})
	}
	for _, r := range l.Rev {
		all = append(all, netFlow{r.Flow, roleRev})
	}
	for _, g := range l.Side {
		all = append(all, netFlow{g, roleSide})
	}
	slices.SortFunc(all, func(a, b netFlow) int { return cmp.Compare(a.flow, b.flow) })
	flows, role := make([]int32, len(all)), make([]netRole, len(all))
	for k, f := range all {
		flows[k], role[k] = f.flow, f.role
	}
	return flows, role
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

// intern returns k's index in keys, appending k, and hop (the flow that
// brought it), when idx does not have it yet: the link network's hosts are
// numbered in the order of the flows that first need them.
func intern[K comparable](idx map[K]int32, keys *[]K, hops *[]int, k K, hop int) int32 {
	if i, ok := idx[k]; ok {
		return i
	}
	i := int32(len(*keys))
	idx[k] = i
	*keys, *hops = append(*keys, k), append(*hops, hop)
	return i
}

// BuildLinkNet builds link l's network (see Link, LinkNet) from topo, the
// full run's topology. flows are the full run's flows, tr its trace;
// dataBytes and ackBytes are the wire sizes of a full data packet and of
// an ACK.
//
// When l leaves a switch A, the switch feeding it in the link network is
// A as the full run has it: the same ports, each at its rate and delay
// (so the same shared buffer, headroom and reserves behind its dynamic PFC
// threshold, and the same RED thresholds per port), l on its own port,
// and every flow entering by the ingress port it enters A by in the full
// run, so that PFC counts each ingress port's bytes as the full switch
// does and pauses what is behind that port. Behind an ingress port is
// the flow's source host when A is its first switch, else a feeder switch
// standing for the upstream switch, reached by each sender over an access
// link at the slowest rate of the flow's path before that switch, with
// the delay that gives that part of the path its round trip. A's ports
// that none of l's flows enter by lead to idle hosts.
//
// Each sender is one source host of the full run and carries all of that
// host's flows crossing l by one ingress port of A, so they share its NIC
// as they do there (flows of one host that ECMP sends to A by two ports
// have a sender each). Each receiver is one destination host, reached
// from the switch behind l by a link FastFactor times the downstream
// path's slowest rate whose delay restores the downstream round trip. A
// flow's base RTT in the link network is therefore its base RTT in the
// full run, up to the serialisation of the hops it merges (a few ns). The
// link itself runs at its rate less Link.AckRate (the mean rate of the ACKs
// crossing it against its flows, under ReverseAcksRate; 0 otherwise).
//
// The flows of l.Rev (ReverseAcksPackets: the flows whose ACKs cross l)
// are in the link network too, so that their ACKs cross l as packets, at
// ACK priority, while they run. Each goes from B's side to A's, the only
// route being across l's cable from B to A: from B itself when B is a
// host, else from a host hung off the switch behind l at the slowest rate
// of its path up to B (its NIC's rate, not FastFactor's: it must not send
// faster than in the full run); to A itself when A is a host, else out of
// A by the port its ACKs enter A by in the full run (so PFC and the
// shared buffer count them as there), to the host behind that port (a
// sender or an idle host) or to a host hung off a switch standing for the
// one behind it by a link FastFactor times the slowest rate of the rest
// of its path. The links of its hosts restore its round trip, so it keeps
// its base RTT (the mirror of its ACK path's, which ECMP may route apart
// from its data; on a fat-tree both are the same length). Its messages
// keep their order among the link's flows'.
func BuildLinkNet(full *topology.Topology, l *Link, flows []replay.FlowPath, tr *trace.Trace, dataBytes, ackBytes units.Bytes) (*LinkNet, error) {
	w := wire{dataBytes, ackBytes}
	var aPorts []topology.Port // A's ports in the full run (none for a host's NIC)
	if l.Kind != HostUp {
		aPorts = full.Nodes[l.Node].Ports
	}
	// A sender is a source host and the ingress port of A its flows enter
	// by (-1 for a host's NIC).
	type sender struct{ host, in int32 }
	srcIdx, dstIdx := map[sender]int32{}, map[int32]int32{}
	var srcs []sender
	var dsts []int32 // full-run host of each receiver
	var srcHop, dstHop []int
	senderOf := make([]int32, len(l.Flows))
	inFrom := make([]int32, len(aPorts)) // per port of A: 0 unused, 1 a host behind it, 2 a switch
	for k, fi := range l.Flows {
		f := &flows[fi]
		s := sender{f.Src, -1}
		if l.Kind != HostUp {
			prev := f.Path[l.Hop[k]-1]
			s.in = full.Nodes[prev.Node].Ports[prev.Port].PeerPort
			inFrom[s.in] = 2
			if int(prev.Node) < full.NumHosts {
				inFrom[s.in] = 1
			}
		}
		senderOf[k] = intern(srcIdx, &srcs, &srcHop, s, k)
		intern(dstIdx, &dsts, &dstHop, f.Dst, k)
	}
	for s := range srcIdx {
		if _, ok := dstIdx[s.host]; ok {
			return nil, fmt.Errorf("link %d:%d: host %d both sends and receives flows across it", l.Node, l.Port, s.host)
		}
	}
	ns, nd := len(srcs), len(dsts)
	if l.Kind == HostUp && ns != 1 || l.Kind == HostDown && nd != 1 {
		return nil, fmt.Errorf("link %d:%d (%s): %d senders and %d receivers", l.Node, l.Port, l.Kind, ns, nd)
	}
	// Reverse flows: each from a host on B's side (B itself when it is a
	// host, else a host behind the switch behind l) to one on A's side (A
	// itself when it is a host; else the host behind the port of A its
	// ACKs enter A by, or a host hung off the switch standing for the one
	// behind that port), so that the only route in the link network takes
	// their data across l's cable from B to A and their ACKs across l.
	type revEnd struct{ host, at int32 } // a host and the port of A (-1: none) it is reached by
	var rsrcs, rdsts []revEnd
	var rsrcHop, rdstHop []int // the reverse flow (index into l.Rev) that made each
	rsrcIdx, rdstIdx := map[revEnd]int32{}, map[revEnd]int32{}
	revSrc := make([]int32, len(l.Rev)) // index into rsrcs, -1: B itself
	revDst := make([]int32, len(l.Rev)) // index into rdsts, -1: A itself or the host behind the port
	revIn := make([]int32, len(l.Rev))  // the port of A its ACKs enter A by (-1 for a host's NIC)
	for k, r := range l.Rev {
		f := &flows[r.Flow]
		if h := r.Path[r.Hop]; h.Node != l.Node || h.Port != l.Port {
			return nil, fmt.Errorf("link %d:%d: reverse flow %d's ACKs cross %d:%d there", l.Node, l.Port, f.ID, h.Node, h.Port)
		}
		revSrc[k], revDst[k], revIn[k] = -1, -1, -1
		if l.Kind != HostDown {
			revSrc[k] = intern(rsrcIdx, &rsrcs, &rsrcHop, revEnd{f.Src, -1}, k)
		}
		if l.Kind == HostUp {
			continue
		}
		prev := r.Path[r.Hop-1]
		in := full.Nodes[prev.Node].Ports[prev.Port].PeerPort
		revIn[k] = in
		if int(prev.Node) < full.NumHosts {
			if inFrom[in] == 2 {
				return nil, fmt.Errorf("link %d:%d: port %d leads to host %d and to a switch", l.Node, l.Port, in, prev.Node)
			}
			continue // the host behind the port: a sender or an idle host
		}
		if inFrom[in] == 1 {
			return nil, fmt.Errorf("link %d:%d: port %d leads to a host and to switch %d", l.Node, l.Port, in, prev.Node)
		}
		inFrom[in] = 2 // a switch stands for prev.Node, feeding l or not
		revDst[k] = intern(rdstIdx, &rdsts, &rdstHop, revEnd{f.Dst, in}, k)
	}
	// Senders' other flows (l.Side): each from the first sender of its
	// source host, so that it shares that host's NIC (and access link)
	// with the link's flows, then out of the link network before l. From
	// a sender behind a feeder, to a sink hung off the feeder; from one
	// cabled to A, out of A by the port it leaves A by in the full run (so
	// A's buffer and PFC count it there), to the host behind that port or
	// to a sink hung off the switch standing for the one behind it. Each
	// sink's link restores the rest of the flow's round trip.
	type sink struct {
		at   int32 // the port of A whose switch it hangs off
		rate units.BitsPerSec
		rtt  units.Time // round trip to restore on its link (< 0: that of rest)
		rest []topology.Hop
	}
	var sinks []sink
	sideSrc := make([]int32, len(l.Side)) // index into srcs
	sideDst := make([]int32, len(l.Side)) // index into sinks, or -1-j for the host behind A's port j
	if len(l.Side) > 0 {
		firstSender := map[int32]int32{}
		for i, s := range srcs {
			if _, ok := firstSender[s.host]; !ok {
				firstSender[s.host] = int32(i)
			}
		}
		for k, g := range l.Side {
			f := &flows[g]
			i, ok := firstSender[f.Src]
			if !ok || srcs[i].in < 0 || len(f.Path) < 2 {
				return nil, fmt.Errorf("link %d:%d: flow %d of host %d is not beside one of the link's flows", l.Node, l.Port, f.ID, f.Src)
			}
			sideSrc[k] = i
			if in := srcs[i].in; inFrom[in] == 2 { // behind a feeder
				hop := srcHop[i]
				up := flows[l.Flows[hop]].Path[:l.Hop[hop]-1]
				ra := topology.PathBottleneck(up)
				acc := 2*accessDelay(up, ra, w) + units.TxTime(w.data, ra) + units.TxTime(w.ack, ra)
				sideDst[k] = int32(len(sinks))
				sinks = append(sinks, sink{at: in, rate: topology.PathBottleneck(f.Path[1:]) * FastFactor, rtt: topology.PathBaseRTT(f.Path, w.data, w.ack) - acc})
				continue
			}
			out := f.Path[1]
			if out.Node != l.Node || out.Port == l.Port {
				return nil, fmt.Errorf("link %d:%d: flow %d of host %d does not leave A beside the link", l.Node, l.Port, f.ID, f.Src)
			}
			if inFrom[out.Port] != 2 {
				sideDst[k] = -1 - out.Port
				continue
			}
			rest := f.Path[2:]
			sideDst[k] = int32(len(sinks))
			sinks = append(sinks, sink{at: out.Port, rate: topology.PathBottleneck(rest) * FastFactor, rtt: -1, rest: rest})
		}
	}
	idle := 0
	for j := range aPorts {
		if j != int(l.Port) && inFrom[j] == 0 {
			idle++
		}
	}
	hosts := ns + nd + idle + len(rsrcs) + len(rdsts) + len(sinks)
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
	// Nodes: hosts (senders, receivers, idle hosts), then the switches
	// (A, the one behind l, the feeders).
	for _, s := range srcs {
		name := "src" + strconv.Itoa(int(s.host))
		if s.in >= 0 {
			name += "@" + strconv.Itoa(int(s.in))
		}
		add(topology.Host, name)
	}
	for _, h := range dsts {
		add(topology.Host, "dst"+strconv.Itoa(int(h)))
	}
	node := make([]int32, len(aPorts)) // per port of A: the node behind it
	for j := range aPorts {
		if j != int(l.Port) && inFrom[j] == 0 {
			node[j] = add(topology.Host, "idle"+strconv.Itoa(j))
		}
	}
	for _, e := range rsrcs {
		add(topology.Host, "rsrc"+strconv.Itoa(int(e.host)))
	}
	for _, e := range rdsts {
		add(topology.Host, "rdst"+strconv.Itoa(int(e.host))+"@"+strconv.Itoa(int(e.at)))
	}
	for k := range sinks {
		add(topology.Host, "sink"+strconv.Itoa(k))
	}
	// The node transmitting on l, and the node receiving from it.
	from, to := int32(0), int32(ns)
	if l.Kind != HostUp {
		from = add(topology.Switch, "up")
	}
	if l.Kind != HostDown {
		to = add(topology.Switch, "down")
	}
	for j := range aPorts {
		if inFrom[j] == 2 {
			node[j] = add(topology.Switch, "in"+strconv.Itoa(j))
		}
	}
	for i, s := range srcs {
		if s.in >= 0 && inFrom[s.in] == 1 { // a source host cabled to A
			node[s.in] = int32(i)
		}
	}
	// A's ports in its order; l's on its own.
	for j, p := range aPorts {
		if j == int(l.Port) {
			connect(from, to, l.Rate-l.AckRate, l.Delay)
		} else {
			connect(node[j], from, p.Rate, p.Delay)
		}
	}
	if l.Kind == HostUp {
		connect(from, to, l.Rate-l.AckRate, l.Delay)
	}
	// Access links to the feeders.
	for i, s := range srcs {
		if s.in < 0 || inFrom[s.in] != 2 {
			continue
		}
		k := srcHop[i]
		f := &flows[l.Flows[k]]
		up := f.Path[:l.Hop[k]-1]
		rate := topology.PathBottleneck(up)
		connect(int32(i), node[s.in], rate, accessDelay(up, rate, w))
	}
	if l.Kind != HostDown {
		for j := range dsts {
			k := dstHop[j]
			f := &flows[l.Flows[k]]
			down := f.Path[l.Hop[k]+1:]
			rate := topology.PathBottleneck(down) * FastFactor
			connect(to, int32(ns+j), rate, accessDelay(down, rate, w))
		}
	}
	// The reverse flows' hosts: a source behind the switch behind l at
	// the slowest rate of its path to B (its NIC's rate, as in the full
	// run), a destination behind a switch standing for an upstream one by
	// a link FastFactor times the slowest rate of its path from there;
	// each with the delay that restores that part of the round trip.
	rs, rd := int32(ns+nd+idle), int32(ns+nd+idle+len(rsrcs))
	for i := range rsrcs {
		r := &l.Rev[rsrcHop[i]]
		up := r.Path[r.Hop+1:] // from B to the source, as its ACKs go
		rate := topology.PathBottleneck(up)
		connect(rs+int32(i), to, rate, accessDelay(up, rate, w))
	}
	for i, e := range rdsts {
		r := &l.Rev[rdstHop[i]]
		down := r.Path[:r.Hop-1] // from the destination to the switch behind A's port
		rate := topology.PathBottleneck(down) * FastFactor
		connect(node[e.at], rd+int32(i), rate, accessDelay(down, rate, w))
	}
	sk := rd + int32(len(rdsts))
	for k, e := range sinks {
		d := accessDelay(e.rest, e.rate, w)
		if e.rtt >= 0 {
			d = max((e.rtt-units.TxTime(w.data, e.rate)-units.TxTime(w.ack, e.rate))/2, 0)
		}
		connect(node[e.at], sk+int32(k), e.rate, d)
	}
	if err := topo.Validate(); err != nil {
		return nil, fmt.Errorf("link %d:%d network: %w", l.Node, l.Port, err)
	}
	// The workload: the link's flows' messages and its reverse flows' in
	// trace order.
	net := &LinkNet{Topology: topo}
	var role []netRole
	net.Flows, role = netFlows(l)
	net.Reverse, net.Side = make([]bool, len(role)), make([]bool, len(role))
	for k, r := range role {
		net.Reverse[k], net.Side[k] = r == roleRev, r == roleSide
	}
	sub := &trace.Trace{Hosts: hosts}
	type msgOf struct{ msg, flow, src, dst int32 }
	var idx []msgOf
	for k, fi := range l.Flows {
		for _, m := range flows[fi].Msgs {
			idx = append(idx, msgOf{m, fi, senderOf[k], int32(ns) + dstIdx[flows[fi].Dst]})
		}
	}
	for k, r := range l.Rev {
		src, dst := to, from // B and A themselves
		if revSrc[k] >= 0 {
			src = rs + revSrc[k]
		}
		switch {
		case revDst[k] >= 0:
			dst = rd + revDst[k]
		case revIn[k] >= 0:
			dst = node[revIn[k]] // the host behind A's port
		}
		for _, m := range flows[r.Flow].Msgs {
			idx = append(idx, msgOf{m, r.Flow, src, dst})
		}
	}
	for k, g := range l.Side {
		dst := -1 - sideDst[k] // the host behind A's port
		if sideDst[k] >= 0 {
			dst = sk + sideDst[k]
		} else {
			dst = node[dst]
		}
		for _, m := range flows[g].Msgs {
			idx = append(idx, msgOf{m, g, sideSrc[k], dst})
		}
	}
	slices.SortFunc(idx, func(a, b msgOf) int { return cmp.Compare(a.msg, b.msg) })
	for _, x := range idx {
		m := tr.Messages[x.msg]
		f := &flows[x.flow]
		m.Src, m.Dst = x.src, x.dst
		m.FlowID = int64(f.ID)
		m.Deps, m.Gap = nil, 0
		m.CollectiveID, m.Iteration = trace.NoCollective, trace.NoIteration
		m.SrcRank, m.DstRank = trace.NoRank, trace.NoRank
		sub.Messages = append(sub.Messages, m)
	}
	net.Trace = sub
	return net, nil
}
