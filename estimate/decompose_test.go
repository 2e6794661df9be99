package estimate

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// dumbbellCase is a 2+2 dumbbell (hosts 0,1 on switch 4 "left", 2,3 on
// switch 5 "right"; port 2 of each switch is the 40 Gb/s bottleneck, host
// links 100 Gb/s, every link 1 us) with four one-message flows:
// f0 0->2, f1 1->3, f2 0->1 (stays on the left), f3 2->0 (the other way).
func dumbbellCase(t *testing.T) (replay.Config, *trace.Trace) {
	t.Helper()
	topo := dumbbellTopo(t)
	tr := &trace.Trace{Hosts: 4}
	for i, sd := range [][2]int32{{0, 2}, {1, 3}, {0, 1}, {2, 0}} {
		tr.Messages = append(tr.Messages, trace.Message{ID: int64(i), Src: sd[0], Dst: sd[1], Bytes: 10_000 * int64(i+1),
			Release: units.Time(i) * units.Microsecond, FlowID: trace.NoFlow, CollectiveID: trace.NoCollective,
			Iteration: trace.NoIteration, SrcRank: trace.NoRank, DstRank: trace.NoRank})
	}
	return config(t, topo, "dcqcn"), tr
}

// dumbbellTopo is dumbbellCase's topology.
func dumbbellTopo(t *testing.T) *topology.Topology {
	t.Helper()
	topo, err := topology.Dumbbell(2, 100*units.Gbps, 40*units.Gbps, units.Microsecond)
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// dumbbellLinks is dumbbellCase routed (its flows' paths) and decomposed
// into links.
func dumbbellLinks(t *testing.T) (*trace.Trace, []replay.FlowPath, []Link) {
	t.Helper()
	cfg, tr := dumbbellCase(t)
	flows, err := replay.FlowPaths(&cfg, tr)
	if err != nil {
		t.Fatal(err)
	}
	return tr, flows, Decompose(cfg.Topology, flows)
}

// TestDecomposeDumbbell checks by hand which flows cross which link.
func TestDecomposeDumbbell(t *testing.T) {
	_, flows, links := dumbbellLinks(t)
	type want struct {
		node, port, peer int32
		kind             LinkKind
		flows            []int32
		hops             []int32
	}
	wants := []want{
		{0, 0, 4, HostUp, []int32{0, 2}, []int32{0, 0}},
		{1, 0, 4, HostUp, []int32{1}, []int32{0}},
		{2, 0, 5, HostUp, []int32{3}, []int32{0}},
		{4, 0, 0, HostDown, []int32{3}, []int32{2}},
		{4, 1, 1, HostDown, []int32{2}, []int32{1}},
		{4, 2, 5, Fabric, []int32{0, 1}, []int32{1, 1}},
		{5, 0, 2, HostDown, []int32{0}, []int32{2}},
		{5, 1, 3, HostDown, []int32{1}, []int32{2}},
		{5, 2, 4, Fabric, []int32{3}, []int32{1}},
	}
	if len(links) != len(wants) {
		t.Fatalf("%d links, want %d: %+v", len(links), len(wants), links)
	}
	for i, w := range wants {
		l := links[i]
		if l.Node != w.node || l.Port != w.port || l.Peer != w.peer || l.Kind != w.kind || !reflect.DeepEqual(l.Flows, w.flows) || !reflect.DeepEqual(l.Hop, w.hops) {
			t.Errorf("link %d: %d:%d->%d %s flows %v hops %v; want %+v", i, l.Node, l.Port, l.Peer, l.Kind, l.Flows, l.Hop, w)
		}
		var b units.Bytes
		for _, f := range w.flows {
			b += flows[f].Size
		}
		if l.Bytes != b {
			t.Errorf("link %d: %d bytes, want %d", i, l.Bytes, b)
		}
	}
}

// TestLinkNetDumbbell checks the network built for the left-to-right
// bottleneck by hand: senders h0 and h1 behind access links at their NIC
// rate, the 40 Gb/s link under study, receivers h2 and h3 behind 1 Tb/s
// links (FastFactor x 100 Gb/s) whose delay restores the base RTT.
func TestLinkNetDumbbell(t *testing.T) {
	tr, flows, links := dumbbellLinks(t)
	w := wire{1048, 60}
	net, err := BuildLinkNet(dumbbellTopo(t), &links[5], flows, tr, w.data, w.ack)
	if err != nil {
		t.Fatal(err)
	}
	topo := net.Topology
	if topo.NumHosts != 4 || len(topo.Nodes) != 6 {
		t.Fatalf("%d hosts, %d nodes; want 4 hosts (2 senders, 2 receivers) and 2 switches", topo.NumHosts, len(topo.Nodes))
	}
	us := units.Microsecond
	// The fast link's delay: half of (2 x 1 us + data and ACK at 100G)
	// minus data and ACK at 1T.
	fast := (2*us + units.TxTime(1048, 100*units.Gbps) + units.TxTime(60, 100*units.Gbps) -
		units.TxTime(1048, 1000*units.Gbps) - units.TxTime(60, 1000*units.Gbps)) / 2
	wantPorts := map[int32][]topology.Port{
		0: {{Peer: 4, PeerPort: 0, Rate: 100 * units.Gbps, Delay: us}},
		1: {{Peer: 4, PeerPort: 1, Rate: 100 * units.Gbps, Delay: us}},
		2: {{Peer: 5, PeerPort: 1, Rate: 1000 * units.Gbps, Delay: fast}},
		3: {{Peer: 5, PeerPort: 2, Rate: 1000 * units.Gbps, Delay: fast}},
		4: {{Peer: 0, PeerPort: 0, Rate: 100 * units.Gbps, Delay: us}, {Peer: 1, PeerPort: 0, Rate: 100 * units.Gbps, Delay: us}, {Peer: 5, PeerPort: 0, Rate: 40 * units.Gbps, Delay: us}},
		5: {{Peer: 4, PeerPort: 2, Rate: 40 * units.Gbps, Delay: us}, {Peer: 2, PeerPort: 0, Rate: 1000 * units.Gbps, Delay: fast}, {Peer: 3, PeerPort: 0, Rate: 1000 * units.Gbps, Delay: fast}},
	}
	for id, ports := range wantPorts {
		if got := topo.Nodes[id].Ports; !reflect.DeepEqual(got, ports) {
			t.Errorf("node %d (%s) ports %+v, want %+v", id, topo.Nodes[id].Name, got, ports)
		}
	}
	if !reflect.DeepEqual(net.Flows, []int32{0, 1}) || len(net.Trace.Messages) != 2 {
		t.Fatalf("link network flows %v with %d messages, want [0 1] with 2", net.Flows, len(net.Trace.Messages))
	}
	for k, m := range net.Trace.Messages {
		orig := tr.Messages[k]
		if m.Src != int32(k) || m.Dst != int32(2+k) || m.Bytes != orig.Bytes || m.Release != orig.Release || m.ID != orig.ID || m.FlowID != int64(k) {
			t.Errorf("message %d: %+v, want host %d -> %d with the original's id, size and release", k, m, k, 2+k)
		}
	}
	checkBaseRTTs(t, &links[5], net, flows, w)
}

// checkBaseRTTs asserts that every flow's base RTT in the link network is
// its base RTT in the full network, up to the halving of odd picoseconds
// on the two links that replace parts of its path.
func checkBaseRTTs(t *testing.T, l *Link, net *LinkNet, flows []replay.FlowPath, w wire) {
	t.Helper()
	routes := net.Topology.Routes()
	for k, m := range net.Trace.Messages {
		f := &flows[m.FlowID]
		path := routes.Path(m.Src, m.Dst, 0)
		got, want := topology.PathBaseRTT(path, w.data, w.ack), topology.PathBaseRTT(f.Path, w.data, w.ack)
		if net.Side != nil && net.Side[k] && !strings.HasPrefix(net.Topology.Nodes[m.Dst].Name, "sink") {
			// A sender's other flow that ends at the host behind one of
			// A's ports keeps the round trip of its first two hops only.
			if got > want {
				t.Errorf("link %d:%d sender's flow %d: base RTT %v in the link network, %v in the full one", l.Node, l.Port, f.ID, got, want)
			}
			continue
		}
		if net.Side != nil && net.Side[k] && got > want {
			// Its sink's link restores the rest of its round trip unless
			// the access link it shares with the link's flows (standing
			// for more of their path than of its own) is longer already.
			last := path[len(path)-1]
			if d := net.Topology.Nodes[last.Node].Ports[last.Port].Delay; d != 0 {
				t.Errorf("link %d:%d sender's flow %d: base RTT %v in the link network, %v in the full one, its sink %v away", l.Node, l.Port, f.ID, got, want, d)
			}
			continue
		}
		if d := got - want; d < -2 || d > 0 {
			t.Errorf("link %d:%d flow %d: base RTT %v in the link network, %v in the full one", l.Node, l.Port, f.ID, got, want)
		}
		if len(path) > 4 {
			t.Errorf("link %d:%d flow %d: %d hops in the link network, want at most 4", l.Node, l.Port, f.ID, len(path))
		}
	}
}

// TestLinkNetsFatTree builds the network of every link of a fat-tree
// under a WebSearch workload and checks that each holds the link's flows,
// the link under study at its rate and delay, and each flow's base RTT.
func TestLinkNetsFatTree(t *testing.T) {
	topo := replaytest.Topology(t, "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", 16)
	tr := replaytest.Workload(t, "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=2ms", 2)
	cfg := config(t, topo, "hpcc")
	flows, err := replay.FlowPaths(&cfg, tr)
	if err != nil {
		t.Fatal(err)
	}
	for _, rev := range []bool{false, true} {
		for _, side := range []bool{false, true} {
			checkLinkNetsFatTree(t, topo, tr, flows, rev, side)
		}
	}
}

// checkLinkNetsFatTree is TestLinkNetsFatTree with or without the reverse
// flows (ReverseFlows) and the senders' other flows (SenderFlows, every
// flow of a sender taken to run beside every other) in the link networks.
func checkLinkNetsFatTree(t *testing.T, topo *topology.Topology, tr *trace.Trace, flows []replay.FlowPath, rev, side bool) {
	t.Helper()
	links := Decompose(topo, flows)
	if rev {
		ReverseFlows(topo, links, flows)
	}
	nside := 0
	if side {
		life := make([]units.Time, len(flows))
		for i := range life {
			life[i] = units.Second
		}
		SenderFlows(links, flows, life)
	}
	w := wire{1048, 60}
	kinds := map[LinkKind]int{}
	nrev := 0
	for i := range links {
		l := &links[i]
		kinds[l.Kind]++
		net, err := BuildLinkNet(topo, l, flows, tr, w.data, w.ack)
		if err != nil {
			t.Fatal(err)
		}
		if len(net.Trace.Messages) != len(l.Flows)+len(l.Rev)+len(l.Side) || len(net.Flows) != len(net.Trace.Messages) || len(net.Reverse) != len(net.Flows) || len(net.Side) != len(net.Flows) {
			t.Fatalf("link %d: %d messages, %d flows for %d flows, %d reverse ones and %d of their senders", i, len(net.Trace.Messages), len(net.Flows), len(l.Flows), len(l.Rev), len(l.Side))
		}
		nrev += len(l.Rev)
		nside += len(l.Side)
		// A sender's other flows are every flow of the link's source hosts
		// that does not cross it (here all of them run beside each other).
		if l.Kind != HostUp {
			want := 0
			srcs := map[int32]bool{}
			for _, fi := range l.Flows {
				srcs[flows[fi].Src] = true
			}
			for fi := range flows {
				if srcs[flows[fi].Src] && !slices.Contains(l.Flows, int32(fi)) && !slices.ContainsFunc(l.Rev, func(r RevFlow) bool { return r.Flow == int32(fi) }) {
					want++
				}
			}
			if side && len(l.Side) != want || !side && len(l.Side) != 0 {
				t.Fatalf("link %d: %d senders' other flows, want %d", i, len(l.Side), want)
			}
		}
		checkBaseRTTs(t, l, net, flows, w)
		if l.Kind == HostUp {
			if p := net.Topology.Nodes[0].Ports[0]; p.Rate != l.Rate || p.Delay != l.Delay {
				t.Errorf("link %d (host-up): the sender's NIC at %v, %v; want the link's %v, %v", i, p.Rate, p.Delay, l.Rate, l.Delay)
			}
			continue
		}
		checkSwitchA(t, topo, l, net, flows)
	}
	if kinds[HostUp] == 0 || kinds[HostDown] == 0 || kinds[Fabric] == 0 {
		t.Fatalf("link kinds %v: want every kind", kinds)
	}
	// Each flow's ACKs cross its destination's uplink and its source's
	// downlink, which carry its own data the other way.
	if side && nside == 0 {
		t.Fatal("no link network carries a sender's other flow")
	}
	if m := len(flows) * 2; rev && nrev < m {
		t.Fatalf("links hold %d reverse flows, want at least %d (two host links per flow)", nrev, m)
	}
	// Every flow crosses as many links as its path has hops.
	n := 0
	for i := range links {
		n += len(links[i].Flows)
	}
	m := 0
	for i := range flows {
		m += len(flows[i].Path)
	}
	if n != m {
		t.Fatalf("links hold %d flow crossings, paths %d hops", n, m)
	}
}

// TestLinkNetReverseFlowsDumbbell checks by hand the reverse flows of the
// dumbbell's links (the flows whose ACKs cross each) and two link
// networks that carry them. The left-to-right bottleneck (4:2) carries the
// ACKs of f3 (2->0): its network is TestLinkNetDumbbell's, the
// bottleneck at its full 40 Gb/s, plus a host for f3's source hung off
// the switch behind the link by a 100 Gb/s, 1 us link (its NIC and the
// rest of its path), and f3 goes to sender h0 itself (cabled to A as in
// the full run). The left switch's port to h0 (4:0) carries f3 and the
// ACKs of f0 (0->2) and f2 (0->1), which h0 (the receiver) sends: f2's
// data leaves A by port 1 to the idle host standing for h1, f0's by port
// 2 to the feeder standing for the right switch and on to a host hung off
// it at 1 Tb/s (FastFactor x 100 Gb/s) with the delay that restores the
// rest of its round trip. Every flow keeps its base RTT.
func TestLinkNetReverseFlowsDumbbell(t *testing.T) {
	tr, flows, links := dumbbellLinks(t)
	topo := dumbbellTopo(t)
	ReverseFlows(topo, links, flows)
	wantRev := map[[2]int32][]RevFlow{ // (node, port) -> flow, ACK hop
		{0, 0}: {{Flow: 3, Hop: 0}}, {1, 0}: {{Flow: 2, Hop: 0}}, {2, 0}: {{Flow: 0, Hop: 0}},
		{4, 0}: {{Flow: 0, Hop: 2}, {Flow: 2, Hop: 1}}, {4, 1}: {{Flow: 1, Hop: 2}},
		{4, 2}: {{Flow: 3, Hop: 1}}, {5, 0}: {{Flow: 3, Hop: 2}}, {5, 1}: nil, {5, 2}: {{Flow: 0, Hop: 1}, {Flow: 1, Hop: 1}},
	}
	for _, l := range links {
		var got []RevFlow
		for _, r := range l.Rev {
			if a, b := r.Path[0].Node, r.Path[len(r.Path)-1]; a != flows[r.Flow].Dst || topo.Nodes[b.Node].Ports[b.Port].Peer != flows[r.Flow].Src {
				t.Errorf("link %d:%d: flow %d's ACK path %v does not go from its destination to its source", l.Node, l.Port, r.Flow, r.Path)
			}
			got = append(got, RevFlow{Flow: r.Flow, Hop: r.Hop})
		}
		if w := wantRev[[2]int32{l.Node, l.Port}]; !reflect.DeepEqual(got, w) {
			t.Errorf("link %d:%d: reverse flows %+v, want %+v", l.Node, l.Port, got, w)
		}
	}
	w := wire{1048, 60}
	us := units.Microsecond
	fast := (2*us + units.TxTime(1048, 100*units.Gbps) + units.TxTime(60, 100*units.Gbps) -
		units.TxTime(1048, 1000*units.Gbps) - units.TxTime(60, 1000*units.Gbps)) / 2
	for _, c := range []struct {
		link    int
		names   []string
		ports   map[int32][]topology.Port
		flows   []int32
		reverse []bool
		src     []int32 // per message
		dst     []int32
	}{{
		link:  5, // 4:2, left to right
		names: []string{"src0@0", "src1@1", "dst2", "dst3", "rsrc2", "up", "down"},
		ports: map[int32][]topology.Port{
			0: {{Peer: 5, PeerPort: 0, Rate: 100 * units.Gbps, Delay: us}},
			4: {{Peer: 6, PeerPort: 3, Rate: 100 * units.Gbps, Delay: us}},
			5: {{Peer: 0, PeerPort: 0, Rate: 100 * units.Gbps, Delay: us}, {Peer: 1, PeerPort: 0, Rate: 100 * units.Gbps, Delay: us}, {Peer: 6, PeerPort: 0, Rate: 40 * units.Gbps, Delay: us}},
			6: {{Peer: 5, PeerPort: 2, Rate: 40 * units.Gbps, Delay: us}, {Peer: 2, PeerPort: 0, Rate: 1000 * units.Gbps, Delay: fast}, {Peer: 3, PeerPort: 0, Rate: 1000 * units.Gbps, Delay: fast},
				{Peer: 4, PeerPort: 0, Rate: 100 * units.Gbps, Delay: us}},
		},
		flows: []int32{0, 1, 3}, reverse: []bool{false, false, true},
		src: []int32{0, 1, 4}, dst: []int32{2, 3, 0},
	}, {
		link:  3, // 4:0, the left switch to h0
		names: []string{"src2@2", "dst0", "idle1", "rdst2@2", "up", "in2"},
		ports: map[int32][]topology.Port{
			1: {{Peer: 4, PeerPort: 0, Rate: 100 * units.Gbps, Delay: us}},
			2: {{Peer: 4, PeerPort: 1, Rate: 100 * units.Gbps, Delay: us}},
			3: {{Peer: 5, PeerPort: 2, Rate: 1000 * units.Gbps, Delay: fast}},
			4: {{Peer: 1, PeerPort: 0, Rate: 100 * units.Gbps, Delay: us}, {Peer: 2, PeerPort: 0, Rate: 100 * units.Gbps, Delay: us}, {Peer: 5, PeerPort: 0, Rate: 40 * units.Gbps, Delay: us}},
			5: {{Peer: 4, PeerPort: 2, Rate: 40 * units.Gbps, Delay: us}, {Peer: 0, PeerPort: 0, Rate: 100 * units.Gbps, Delay: us}, {Peer: 3, PeerPort: 0, Rate: 1000 * units.Gbps, Delay: fast}},
		},
		flows: []int32{0, 2, 3}, reverse: []bool{true, true, false},
		src: []int32{1, 1, 0}, dst: []int32{3, 2, 1},
	}} {
		l := &links[c.link]
		net, err := BuildLinkNet(topo, l, flows, tr, w.data, w.ack)
		if err != nil {
			t.Fatal(err)
		}
		names := nodeNames(net.Topology)
		if !reflect.DeepEqual(names, c.names) || net.Topology.NumHosts != len(c.names)-2 {
			t.Fatalf("link %d:%d: nodes %q (%d hosts), want %q", l.Node, l.Port, names, net.Topology.NumHosts, c.names)
		}
		for id, ports := range c.ports {
			if got := net.Topology.Nodes[id].Ports; !reflect.DeepEqual(got, ports) {
				t.Errorf("link %d:%d: node %d (%s) ports %+v, want %+v", l.Node, l.Port, id, names[id], got, ports)
			}
		}
		if !reflect.DeepEqual(net.Flows, c.flows) || !reflect.DeepEqual(net.Reverse, c.reverse) {
			t.Errorf("link %d:%d: flows %v reverse %v, want %v %v", l.Node, l.Port, net.Flows, net.Reverse, c.flows, c.reverse)
		}
		for k, m := range net.Trace.Messages {
			if m.Src != c.src[k] || m.Dst != c.dst[k] || m.FlowID != int64(c.flows[k]) {
				t.Errorf("link %d:%d: message %d of flow %d from %d to %d, want flow %d from %d to %d", l.Node, l.Port, k, m.FlowID, m.Src, m.Dst, c.flows[k], c.src[k], c.dst[k])
			}
		}
		checkBaseRTTs(t, l, net, flows, w)
	}
}

// nodeNames lists a topology's node names in node order.
func nodeNames(topo *topology.Topology) []string {
	var names []string
	for _, n := range topo.Nodes {
		names = append(names, n.Name)
	}
	return names
}

// checkSwitchA asserts that the switch feeding l in its link network is
// the full run's switch: the same ports in the same order at the same
// rates and delays (l's own on its port), and that every flow of l enters
// it by the port it enters it by in the full run.
func checkSwitchA(t *testing.T, full *topology.Topology, l *Link, net *LinkNet, flows []replay.FlowPath) {
	t.Helper()
	var up *topology.Node
	for k := range net.Topology.Nodes {
		if net.Topology.Nodes[k].Name == "up" {
			up = &net.Topology.Nodes[k]
		}
	}
	want := full.Nodes[l.Node].Ports
	if up == nil || len(up.Ports) != len(want) {
		t.Fatalf("link %d:%d: switch %+v in its network, want one of %d ports", l.Node, l.Port, up, len(want))
	}
	for j, p := range up.Ports {
		if p.Rate != want[j].Rate || p.Delay != want[j].Delay {
			t.Errorf("link %d:%d: port %d at %v, %v; want %v, %v", l.Node, l.Port, j, p.Rate, p.Delay, want[j].Rate, want[j].Delay)
		}
	}
	routes := net.Topology.Routes()
	fk, rk := 0, 0 // the next of l.Flows, of l.Rev
	for k, m := range net.Trace.Messages {
		path := routes.Path(m.Src, m.Dst, 0)
		if net.Side != nil && net.Side[k] {
			// A sender's other flow leaves from a sender of its host and
			// never crosses l; from a host cabled to A it leaves A by the
			// port it leaves A by in the full run.
			g := &flows[m.FlowID]
			if name := net.Topology.Nodes[m.Src].Name; !strings.HasPrefix(name, "src"+strconv.Itoa(int(g.Src))+"@") {
				t.Errorf("link %d:%d sender's flow %d of host %d leaves from %s", l.Node, l.Port, g.ID, g.Src, name)
			}
			for h := 1; h < len(path); h++ {
				if path[h].Node != up.ID {
					continue
				}
				if path[h].Port == l.Port {
					t.Errorf("link %d:%d sender's flow %d crosses the link", l.Node, l.Port, g.ID)
				}
				if g.Path[0].Node == g.Src && g.Path[1].Node == l.Node && path[h].Port != g.Path[1].Port {
					t.Errorf("link %d:%d sender's flow %d leaves the switch by port %d, in the full run by %d", l.Node, l.Port, g.ID, path[h].Port, g.Path[1].Port)
				}
			}
			continue
		}
		if net.Reverse[k] {
			// A reverse flow's data crosses l's cable into A, and leaves A
			// by the port its ACKs enter A by in the full run.
			r := &l.Rev[rk]
			rk++
			prev := r.Path[r.Hop-1]
			want := full.Nodes[prev.Node].Ports[prev.Port].PeerPort
			var in, out int32 = -1, -1
			for h := 1; h < len(path); h++ {
				if path[h].Node == up.ID {
					p := path[h-1]
					in, out = net.Topology.Nodes[p.Node].Ports[p.Port].PeerPort, path[h].Port
				}
			}
			if in != l.Port || out != want {
				t.Errorf("link %d:%d reverse flow %d: through the switch from port %d to %d, want %d to %d", l.Node, l.Port, flows[r.Flow].ID, in, out, l.Port, want)
			}
			continue
		}
		f := &flows[l.Flows[fk]]
		prev := f.Path[l.Hop[fk]-1]
		fk++
		var in int32 = -1
		for h := 1; h < len(path); h++ {
			if path[h].Node == up.ID {
				if path[h].Port != l.Port {
					t.Errorf("link %d:%d flow %d leaves the switch by port %d", l.Node, l.Port, f.ID, path[h].Port)
				}
				p := path[h-1]
				in = net.Topology.Nodes[p.Node].Ports[p.Port].PeerPort
			}
		}
		if want := full.Nodes[prev.Node].Ports[prev.Port].PeerPort; in != want {
			t.Errorf("link %d:%d flow %d enters the switch by port %d, in the full run by %d", l.Node, l.Port, f.ID, in, want)
		}
	}
}

// TestReverseAcks checks ReverseAcks by hand on the dumbbell (flows of
// 10, 20, 30 and 40 packets of 1,000 B, ACKed every packet with 60 B, over
// a 10 us span: 10 ACKs are 0.48 Gb/s). Each link carries the ACKs of its
// reverse link's flows: host 0's uplink those of f3 (2->0, 40 ACKs),
// host 1's those of f2 (30), host 2's those of f0 (10); the downlinks of
// hosts 0, 1 and 2 those of what the host sends (f0 and f2: 40; f1: 20;
// f3: 40); host 3 sends nothing, so its downlink none; the bottleneck
// left->right those of f3 (40), right->left those of f0 and f1 (30).
func TestReverseAcks(t *testing.T) {
	tr, flows, links := dumbbellLinks(t)
	ReverseAcks(links, flows, 10*units.Microsecond, 1000, 60, 1)
	g := units.BitsPerSec(48_000_000) // one ACK per 10 us
	want := map[[2]int32]units.BitsPerSec{{0, 0}: 40 * g, {1, 0}: 30 * g, {2, 0}: 10 * g, {4, 0}: 40 * g, {4, 1}: 20 * g,
		{4, 2}: 40 * g, {5, 0}: 40 * g, {5, 1}: 0, {5, 2}: 30 * g}
	for _, l := range links {
		if w := want[[2]int32{l.Node, l.Port}]; l.AckRate != w {
			t.Errorf("link %d:%d: ACK rate %d b/s, want %d", l.Node, l.Port, l.AckRate, w)
		}
	}
	net, err := BuildLinkNet(dumbbellTopo(t), &links[5], flows, tr, 1048, 60)
	if err != nil {
		t.Fatal(err)
	}
	if got := net.Topology.Nodes[len(net.Topology.Nodes)-2].Ports; got[len(got)-1].Rate != 40*units.Gbps-1_920_000_000 {
		t.Fatalf("the bottleneck in its link network runs at %d b/s, want 40 Gb/s less its reverse ACKs", got[len(got)-1].Rate)
	}
}

// A link whose reverse flows were found for another link (their ACK hop
// is not the link) is refused with an error naming both, not built into
// a network whose ACKs would cross the wrong cable.
func TestLinkNetRefusesForeignReverseFlows(t *testing.T) {
	tr, flows, links := dumbbellLinks(t)
	topo := dumbbellTopo(t)
	ReverseFlows(topo, links, flows)
	var donor, target *Link
	for i := range links {
		switch {
		case donor == nil && len(links[i].Rev) > 0:
			donor = &links[i]
		case donor != nil && target == nil && links[i].Kind == donor.Kind:
			target = &links[i]
		}
	}
	if donor == nil || target == nil {
		t.Fatal("the dumbbell has no two links of one kind with reverse flows")
	}
	bad := *target
	bad.Rev = donor.Rev
	_, err := BuildLinkNet(topo, &bad, flows, tr, 1048, 60)
	want := fmt.Sprintf("link %d:%d: reverse flow", target.Node, target.Port)
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "ACKs cross") {
		t.Fatalf("BuildLinkNet with another link's reverse flows: %v, want an error starting %q", err, want)
	}
}

// TestSenderFlowsDumbbell checks by hand the senders' other flows of the
// dumbbell's links and three link networks that carry them. h0 sends f0
// (0->2, at 0) and f2 (0->1, at 2 us); with lives of 100 us each runs
// beside the other. f2 is then beside f0 on the bottleneck (4:2) and on
// the right switch's port to h2 (5:0), and f0 beside f2 on the left
// switch's port to h1 (4:1); h1, h2 and h3 send one flow or none, and a
// host's own NIC carries all its flows, so no other link has any. With
// lives of 1 ns no two flows overlap and no link has any.
//   - 5:0: h0 is behind the feeder standing for the left switch, so f2
//     goes from h0's sender over its access link (h0's NIC) to a sink hung
//     off that feeder, whose link restores the rest of f2's round trip.
//   - 4:1: h0 is cabled to A, so f0 leaves A by port 2, as in the full
//     run, to the idle host behind it.
//   - 4:2: f2 leaves A by port 1 to h1, the sender of f1 there.
//
// In the fat-tree of TestLinkNetsFatTree some of those flows keep a longer
// round trip than their own: an access link stands for its flows' path up
// to the switch before A, which can be longer than the other flow's whole
// path (checkBaseRTTs).
func TestSenderFlowsDumbbell(t *testing.T) {
	tr, flows, links := dumbbellLinks(t)
	topo := dumbbellTopo(t)
	life := make([]units.Time, len(flows))
	for i := range life {
		life[i] = units.Nanosecond
	}
	SenderFlows(links, flows, life)
	for _, l := range links {
		if l.Side != nil {
			t.Fatalf("link %d:%d: senders' flows %v with lives of 1 ns", l.Node, l.Port, l.Side)
		}
	}
	for i := range life {
		life[i] = 100 * units.Microsecond
	}
	SenderFlows(links, flows, life)
	want := map[[2]int32][]int32{{4, 1}: {0}, {4, 2}: {2}, {5, 0}: {2}}
	at := map[[2]int32]int{}
	for i, l := range links {
		at[[2]int32{l.Node, l.Port}] = i
		if w := want[[2]int32{l.Node, l.Port}]; !reflect.DeepEqual(l.Side, w) {
			t.Errorf("link %d:%d: senders' flows %v, want %v", l.Node, l.Port, l.Side, w)
		}
	}
	w := wire{1048, 60}
	for _, c := range []struct {
		link     [2]int32
		names    []string
		flows    []int32
		side     []bool
		src, dst []int32
	}{
		{[2]int32{5, 0}, []string{"src0@2", "dst2", "idle1", "sink0", "up", "in2"}, []int32{0, 2}, []bool{false, true}, []int32{0, 0}, []int32{1, 3}},
		{[2]int32{4, 1}, []string{"src0@0", "dst1", "idle2", "up"}, []int32{0, 2}, []bool{true, false}, []int32{0, 0}, []int32{2, 1}},
		{[2]int32{4, 2}, nil, []int32{0, 1, 2}, []bool{false, false, true}, []int32{0, 1, 0}, []int32{2, 3, 1}},
	} {
		l := &links[at[c.link]]
		net, err := BuildLinkNet(topo, l, flows, tr, w.data, w.ack)
		if err != nil {
			t.Fatal(err)
		}
		names := nodeNames(net.Topology)
		if c.names != nil && !reflect.DeepEqual(names, c.names) {
			t.Fatalf("link %d:%d: nodes %q, want %q", l.Node, l.Port, names, c.names)
		}
		if !reflect.DeepEqual(net.Flows, c.flows) || !reflect.DeepEqual(net.Side, c.side) {
			t.Errorf("link %d:%d: flows %v side %v, want %v %v", l.Node, l.Port, net.Flows, net.Side, c.flows, c.side)
		}
		for k, m := range net.Trace.Messages {
			if m.Src != c.src[k] || m.Dst != c.dst[k] {
				t.Errorf("link %d:%d: message %d of flow %d from %d to %d, want %d to %d", l.Node, l.Port, k, m.FlowID, m.Src, m.Dst, c.src[k], c.dst[k])
			}
		}
		checkBaseRTTs(t, l, net, flows, w)
		checkSwitchA(t, topo, l, net, flows)
	}
}

// A link's senders' other flows must come from one of its source hosts
// and leave the switch feeding it by another port; a list that breaks
// either is refused with an error naming the link and the flow, not built
// into a network that would route it across the link.
func TestLinkNetRefusesForeignSenderFlows(t *testing.T) {
	tr, flows, links := dumbbellLinks(t)
	topo := dumbbellTopo(t)
	i := slices.IndexFunc(links, func(l Link) bool { return l.Node == 4 && l.Port == 1 }) // the left switch to h1: f2 from h0
	for _, c := range []struct {
		side []int32
		want string
	}{
		{[]int32{1}, "flow 1 of host 1 is not beside one of the link's flows"}, // f1 is h1's, which sends nothing across it
		{[]int32{2}, "flow 2 of host 0 does not leave A beside the link"},      // f2 crosses the link itself
	} {
		l := links[i]
		l.Side = c.side
		if _, err := BuildLinkNet(topo, &l, flows, tr, 1048, 60); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "link 4:1") {
			t.Errorf("senders' flows %v: %v, want an error with %q", c.side, err, c.want)
		}
	}
}
