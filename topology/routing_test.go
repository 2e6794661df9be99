package topology

import (
	"reflect"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// hopDistances is an independent BFS: the number of links from node src to
// every node, never forwarding through a host other than src.
func hopDistances(topo *Topology, src int32) []int {
	dist := make([]int, len(topo.Nodes))
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	queue := []int32{src}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u != src && int(u) < topo.NumHosts {
			continue
		}
		for _, p := range topo.Nodes[u].Ports {
			if dist[p.Peer] < 0 {
				dist[p.Peer] = dist[u] + 1
				queue = append(queue, p.Peer)
			}
		}
	}
	return dist
}

// checkAllPairs walks Path for every host pair and checks it ends at the
// destination, has the shortest length, and that every hop is one of the
// equal-cost next ports. It returns the histogram of path lengths.
func checkAllPairs(t *testing.T, topo *Topology) map[int]int {
	t.Helper()
	r := topo.Routes()
	lengths := map[int]int{}
	for d := int32(0); d < int32(topo.NumHosts); d++ {
		dist := hopDistances(topo, d) // symmetric: links are full duplex
		for s := int32(0); s < int32(topo.NumHosts); s++ {
			if s == d {
				if p := r.Path(s, d, 1); p != nil {
					t.Fatalf("Path(%d, %d) = %v, want nil", s, d, p)
				}
				continue
			}
			flow := uint64(s)*1_000_003 + uint64(d)
			p := r.Path(s, d, flow)
			if len(p) != dist[s] {
				t.Fatalf("Path(%d, %d) has %d hops, shortest is %d: %s", s, d, len(p), dist[s], topo.DescribePath(p))
			}
			node := s
			for i, h := range p {
				if h.Node != node {
					t.Fatalf("Path(%d, %d) hop %d starts at %d, want %d", s, d, i, h.Node, node)
				}
				port := topo.Nodes[node].Ports[h.Port]
				if h.Rate != port.Rate || h.Delay != port.Delay {
					t.Fatalf("Path(%d, %d) hop %d: %+v, port %+v", s, d, i, h, port)
				}
				if dist[port.Peer] != dist[node]-1 {
					t.Fatalf("Path(%d, %d) hop %d goes away from the destination", s, d, i)
				}
				node = port.Peer
			}
			if node != d {
				t.Fatalf("Path(%d, %d) ends at %d", s, d, node)
			}
			lengths[len(p)]++
		}
	}
	return lengths
}

func TestRoutesAllPairs(t *testing.T) {
	v := mustValid(t)
	for _, tc := range []struct {
		topo    *Topology
		lengths map[int]int // path length -> ordered host pairs
	}{
		{v(Star(5, 100*G, us)), map[int]int{2: 20}},
		{v(Dumbbell(3, 100*G, 10*G, us)), map[int]int{2: 12, 3: 18}},
		{v(LeafSpine(DolceTestbed)), map[int]int{2: 24, 4: 32}},
		{v(LeafSpine(LeafSpineConfig{Leaves: 3, HostsPerLeaf: 2, Spines: 2, UplinksPerPair: 2, HostRate: G, FabricRate: G})), map[int]int{2: 6, 4: 24}},
		// HPCC fat-tree: per host, 15 under the same ToR (2 hops), 48 in the
		// same pod (4 hops), 256 in other pods (6 hops).
		{v(FatTree(HPCCFatTree)), map[int]int{2: 320 * 15, 4: 320 * 48, 6: 320 * 256}},
		// Dolce-RC fat-tree: 7 under the same ToR, 56 in the same pod, 960
		// in other pods.
		{v(FatTree(DolceFatTree)), map[int]int{2: 1024 * 7, 4: 1024 * 56, 6: 1024 * 960}},
	} {
		if got := checkAllPairs(t, tc.topo); !reflect.DeepEqual(got, tc.lengths) {
			t.Errorf("%s: path lengths %v, want %v", tc.topo.Describe(), got, tc.lengths)
		}
	}
}

// Bottleneck is PathBottleneck of Path, without the path, for every
// ordered pair of nodes (switches as sources too, and host to itself) and
// several flow hashes: on a dumbbell whose middle link is the slowest, a
// fat-tree slower in its fabric than at its hosts, and the HPCC fat-tree.
func TestBottleneckMatchesPath(t *testing.T) {
	v := mustValid(t)
	for _, topo := range []*Topology{
		v(Dumbbell(3, 100*G, 10*G, us)),
		v(FatTree(FatTreeConfig{Pods: 2, ToRsPerPod: 2, HostsPerToR: 2, AggsPerPod: 2, CoresPerAgg: 2, HostRate: 100 * G, FabricRate: 40 * G, Delay: us})),
		v(FatTree(HPCCFatTree)),
	} {
		r := topo.Routes()
		routed := 0
		for src := int32(0); src < int32(len(topo.Nodes)); src++ {
			for dst := int32(-1); dst <= int32(topo.NumHosts); dst++ {
				for h := uint64(0); h < 3; h++ {
					hash := h * 0x9e3779b97f4a7c15
					path := r.Path(src, dst, hash)
					b, ok := r.Bottleneck(src, dst, hash)
					if ok != (len(path) > 0) || b != PathBottleneck(path) {
						t.Fatalf("%s: %d -> %d hash %x: Bottleneck %v %v, path %v", topo.Describe(), src, dst, hash, b, ok, path)
					}
					if ok {
						routed++
					}
				}
			}
		}
		if routed == 0 {
			t.Fatalf("%s: no pair routed", topo.Describe())
		}
	}
}

// The routing table stores each distinct port set once, in one column per
// group of hosts that share a ToR rather than one per host.
func TestRoutesCompact(t *testing.T) {
	r := mustValid(t)(FatTree(DolceFatTree)).Routes()
	// Sets are shared by all switches: the empty set; {0}..{7} (a ToR's
	// port to a local host, an agg's port to a ToR of its pod, a core's port
	// to pods 0..7); {8..15} (all uplinks of a ToR or an agg: both have 8
	// down and 8 up ports); {8}..{15} (a core's port to pods 8..15).
	if got, want := r.NumPortSets(), 1+8+1+8; got != want {
		t.Errorf("NumPortSets() = %d, want %d", got, want)
	}
	// One table column per ToR (the hosts' attachment groups), one entry
	// per switch in it.
	if got := len(r.setOf); got != 128*320 {
		t.Errorf("table has %d entries, want 128 groups x 320 switches", got)
	}
}

func TestNextPortsAndPickEdges(t *testing.T) {
	topo := mustValid(t)(LeafSpine(DolceTestbed))
	r := topo.Routes()
	leaf0, spine := int32(8), int32(10)
	for _, tc := range []struct {
		node, dst int32
		want      []int32
	}{
		{0, 5, []int32{0}},              // a host: its only port
		{0, 0, nil},                     // at the destination
		{leaf0, 2, []int32{2}},          // down to a local host
		{leaf0, 6, []int32{4, 5, 6, 7}}, // the 4 parallel uplinks
		{spine, 6, []int32{4, 5, 6, 7}}, // the 4 parallel links down to leaf1
		{spine, 1, []int32{0, 1, 2, 3}},
		{-1, 1, nil}, {11, 1, nil}, {leaf0, 8, nil}, {leaf0, -1, nil},
	} {
		if got := r.NextPorts(tc.node, tc.dst); !reflect.DeepEqual(got, tc.want) && (len(got) != 0 || len(tc.want) != 0) {
			t.Errorf("NextPorts(%d, %d) = %v, want %v", tc.node, tc.dst, got, tc.want)
		}
	}
	if got := r.Pick(3, 3, 99); got != 0 {
		t.Errorf("Pick(host, itself) = %d, want 0 (a host always uses port 0)", got)
	}
	if got := r.Pick(leaf0, 8, 99); got != -1 {
		t.Errorf("Pick to a switch = %d, want -1", got)
	}
	if got := r.Pick(42, 1, 99); got != -1 {
		t.Errorf("Pick from a missing node = %d, want -1", got)
	}
	if got := topo.DescribePath(r.Path(0, 1, 5)); got != "h0:0 > leaf0:1 > h1" {
		t.Errorf("DescribePath = %q", got)
	}
	if p := r.Path(0, 99, 5); p != nil {
		t.Errorf("Path to a missing host = %v", p)
	}
}

// ECMP over the 4 parallel Dolce-RC testbed uplinks, and over the 4 aggs and
// 4 cores of the HPCC fat-tree: 10k flows with consecutive hashes (the
// hardest input for a weak mixer) land within 10 % of 1/4 on every port.
func TestECMPSpread(t *testing.T) {
	const flows = 10000
	testbed := mustValid(t)(LeafSpine(DolceTestbed))
	fat := mustValid(t)(FatTree(HPCCFatTree))
	for _, tc := range []struct {
		topo      *Topology
		node, dst int32
	}{
		{testbed, 8, 7},         // leaf0 -> host 7 under leaf1
		{fat, 320, 100},         // tor0 -> a host in pod 1
		{fat, 320 + 20, 100},    // agg0 (pod 0) -> a host in pod 1
		{fat, 320 + 20 + 7, 70}, // agg7 (pod 1) -> a host in pod 1, other ToR: down port, 1 choice
	} {
		r := tc.topo.Routes()
		ports := r.NextPorts(tc.node, tc.dst)
		count := map[int32]int{}
		for f := uint64(0); f < flows; f++ {
			count[r.Pick(tc.node, tc.dst, f)]++
		}
		if len(count) != len(ports) {
			t.Errorf("%s node %d: used %d ports, want all %d", tc.topo.Name, tc.node, len(count), len(ports))
		}
		for _, p := range ports {
			share := float64(count[p]) / flows
			want := 1 / float64(len(ports))
			if share < 0.9*want || share > 1.1*want {
				t.Errorf("%s node %d port %d: share %.4f, want %.4f +-10%%", tc.topo.Name, tc.node, p, share, want)
			}
		}
	}
}

// Different switches make independent choices for the same flow: on
// cross-pod paths of the HPCC fat-tree the (ToR uplink, agg uplink) pair is
// uniform over all 16 combinations.
func TestECMPIndependentAcrossSwitches(t *testing.T) {
	topo := mustValid(t)(FatTree(HPCCFatTree))
	r := topo.Routes()
	const flows = 16000
	var joint [4][4]int
	for f := uint64(0); f < flows; f++ {
		p := r.Path(0, 319, f)
		if len(p) != 6 {
			t.Fatalf("path of %d hops", len(p))
		}
		joint[p[1].Port-16][p[2].Port-4]++ // ToR uplinks are ports 16..19, agg uplinks 4..7
	}
	for i := range joint {
		for j := range joint[i] {
			if n := joint[i][j]; n < 850 || n > 1150 { // 1000 +- 15 % (about 5 sigma)
				t.Errorf("ToR port %d with agg port %d: %d flows, want about 1000", 16+i, 4+j, n)
			}
		}
	}
}

// Pick is a pure function of (topology, node, destination, flow hash).
func TestPickDeterministic(t *testing.T) {
	a := mustValid(t)(FatTree(HPCCFatTree)).Routes()
	b := mustValid(t)(FatTree(HPCCFatTree)).Routes()
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two Routes() of the same topology differ")
	}
	for f := uint64(0); f < 2000; f++ {
		h := f * 0x9E3779B97F4A7C15
		src, dst := int32(f%320), int32((f*7+3)%320)
		if !reflect.DeepEqual(a.Path(src, dst, h), b.Path(src, dst, h)) || !reflect.DeepEqual(a.Path(src, dst, h), a.Path(src, dst, h)) {
			t.Fatalf("Path(%d, %d, %#x) is not deterministic", src, dst, h)
		}
	}
	// Pinned values: changing ECMPHash changes every run's paths, so it
	// must be a deliberate act.
	if got := ECMPHash(0, 0); got != 0xe220a8397b1dcdaf {
		t.Errorf("ECMPHash(0, 0) = %#x", got)
	}
	if got := ECMPHash(12345, 340); got != ECMPHash(12345, 340) || got == ECMPHash(12345, 341) {
		t.Error("ECMPHash does not depend on the node as it should")
	}
}

// Dolce-RC Sec. V-A: "All links have ... 1 us propagation delay. Thus, the
// minimum base RTT is 4 us and the maximum base RTT is 12 us" (propagation
// only); testbed: "the base RTT is 4 us within a rack and 8 us across racks".
func TestBaseRTTDolce(t *testing.T) {
	for _, tc := range []struct {
		topo     *Topology
		min, max units.Time
	}{
		{mustValid(t)(FatTree(DolceFatTree)), 4 * us, 12 * us},
		{mustValid(t)(LeafSpine(DolceTestbed)), 4 * us, 8 * us},
	} {
		r := tc.topo.Routes()
		lo, hi := units.Never, units.Time(0)
		for d := int32(1); d < int32(tc.topo.NumHosts); d++ {
			rtt := 2 * PathOneWay(r.Path(0, d, uint64(d)))
			lo, hi = min(lo, rtt), max(hi, rtt)
		}
		if lo != tc.min || hi != tc.max {
			t.Errorf("%s: propagation RTT from host 0 in [%v, %v], want [%v, %v]", tc.topo.Name, lo, hi, tc.min, tc.max)
		}
	}
}

// PathBaseRTT by hand on the Dolce-RC fat-tree (200 Gb/s, 1 us): a 1048 B
// data packet takes 1048*8/200e9 s = 41.92 ns = 41920 ps per hop, a 64 B
// ACK 2560 ps, so a hop adds 2*1 us + 41920 + 2560 ps = 2044480 ps.
func TestPathBaseRTTHand(t *testing.T) {
	topo := mustValid(t)(FatTree(DolceFatTree))
	r := topo.Routes()
	for _, tc := range []struct {
		dst  int32
		hops int
		want units.Time
	}{
		{1, 2, 4_088_960},     // same ToR
		{8, 4, 8_177_920},     // same pod
		{1023, 6, 12_266_880}, // other pod
	} {
		p := r.Path(0, tc.dst, 42)
		if len(p) != tc.hops {
			t.Fatalf("Path(0, %d) has %d hops, want %d", tc.dst, len(p), tc.hops)
		}
		if got := PathBaseRTT(p, 1048, 64); got != tc.want {
			t.Errorf("PathBaseRTT(0->%d) = %d ps, want %d", tc.dst, got, tc.want)
		}
		if got := PathBottleneck(p); got != 200*G {
			t.Errorf("PathBottleneck = %v", got)
		}
	}
	// HPCC fat-tree: 100G host links, 400G fabric; bottleneck is the host link.
	hp := mustValid(t)(FatTree(HPCCFatTree)).Routes()
	p := hp.Path(0, 319, 1)
	if got := PathBottleneck(p); got != 100*G {
		t.Errorf("HPCC bottleneck %v", got)
	}
	// 2 host hops: 2*(2us + 83840 + 5120); 4 fabric hops: 4*(2us + 20960 + 1280).
	if got, want := PathBaseRTT(p, 1048, 64), units.Time(2*(2_000_000+83_840+5_120)+4*(2_000_000+20_960+1_280)); got != want {
		t.Errorf("HPCC cross-pod PathBaseRTT = %d, want %d", got, want)
	}
}

// BenchmarkRoutes builds the routing table of the 1024-host Dolce-RC
// fat-tree, the HPCC fat-tree and a 100,000-host star.
func BenchmarkRoutes(b *testing.B) {
	for _, tc := range []struct {
		name string
		topo func() (*Topology, error)
	}{
		{"dolce-fattree-1024", func() (*Topology, error) { return FatTree(DolceFatTree) }},
		{"hpcc-fattree-320", func() (*Topology, error) { return FatTree(HPCCFatTree) }},
		{"star-100k", func() (*Topology, error) { return Star(100_000, 100*G, us) }},
	} {
		topo := mustValid(b)(tc.topo())
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				topo.Routes()
			}
		})
	}
}

// BenchmarkRoutesReference is the former algorithm (one BFS over all nodes
// per destination host) on the 1024-host fat-tree, for comparison.
func BenchmarkRoutesReference(b *testing.B) {
	topo := mustValid(b)(FatTree(DolceFatTree))
	b.ReportAllocs()
	for b.Loop() {
		referenceRoutes(topo)
	}
}

func BenchmarkPick(b *testing.B) {
	r := mustValid(b)(FatTree(DolceFatTree)).Routes()
	tor := int32(1024) // 8 equal-cost uplinks towards other racks
	b.ReportAllocs()
	var f uint64
	for b.Loop() {
		f++
		_ = r.Pick(tor, int32(f&1023|64), f)
	}
}

func BenchmarkPath(b *testing.B) {
	r := mustValid(b)(FatTree(DolceFatTree)).Routes()
	b.ReportAllocs()
	var f uint64
	for b.Loop() {
		f++
		_ = r.Path(int32(f&1023), int32((f*7+513)&1023), f)
	}
}
