package estimate

import (
	"fmt"
	"reflect"
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
	for _, m := range net.Trace.Messages {
		f := &flows[m.FlowID]
		path := routes.Path(m.Src, m.Dst, 0)
		got, want := topology.PathBaseRTT(path, w.data, w.ack), topology.PathBaseRTT(f.Path, w.data, w.ack)
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
		checkLinkNetsFatTree(t, topo, tr, flows, rev)
	}
}

// checkLinkNetsFatTree is TestLinkNetsFatTree with or without the reverse
// flows (ReverseFlows) in the link networks.
func checkLinkNetsFatTree(t *testing.T, topo *topology.Topology, tr *trace.Trace, flows []replay.FlowPath, rev bool) {
	t.Helper()
	links := Decompose(topo, flows)
	if rev {
		ReverseFlows(topo, links, flows)
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
		if len(net.Trace.Messages) != len(l.Flows)+len(l.Rev) || len(net.Flows) != len(net.Trace.Messages) || len(net.Reverse) != len(net.Flows) {
			t.Fatalf("link %d: %d messages, %d flows for %d flows and %d reverse ones", i, len(net.Trace.Messages), len(net.Flows), len(l.Flows), len(l.Rev))
		}
		nrev += len(l.Rev)
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
		var names []string
		for _, n := range net.Topology.Nodes {
			names = append(names, n.Name)
		}
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
