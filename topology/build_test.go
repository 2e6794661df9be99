package topology

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

const (
	us = units.Microsecond
	G  = units.Gbps
)

// counts is what a builder must produce.
type counts struct {
	hosts, switches, links int
}

func countsOf(t *Topology) counts {
	return counts{t.NumHosts, t.NumSwitches(), t.NumLinks()}
}

// checkDuplex re-checks full-duplex consistency independently of Validate.
func checkDuplex(tb testing.TB, topo *Topology) {
	tb.Helper()
	for i, n := range topo.Nodes {
		for j, p := range n.Ports {
			back := topo.Nodes[p.Peer].Ports[p.PeerPort]
			if back.Peer != int32(i) || back.PeerPort != int32(j) || back.Rate != p.Rate || back.Delay != p.Delay {
				tb.Fatalf("node %d port %d -> %d:%d does not point back (%+v)", i, j, p.Peer, p.PeerPort, back)
			}
		}
	}
}

// degrees returns the port count of every switch whose name starts with
// prefix.
func degrees(topo *Topology, prefix string) map[int]int {
	d := map[int]int{}
	for _, n := range topo.Nodes[topo.NumHosts:] {
		if strings.HasPrefix(n.Name, prefix) {
			d[len(n.Ports)]++
		}
	}
	return d
}

// neighbours returns the names of the nodes behind node's ports, in port
// order.
func neighbours(topo *Topology, node int) []string {
	var s []string
	for _, p := range topo.Nodes[node].Ports {
		s = append(s, topo.Nodes[p.Peer].Name)
	}
	return s
}

// mustValid returns a function that fails the test unless a builder
// succeeded with a valid, full-duplex topology: mustValid(t)(Star(...)).
func mustValid(tb testing.TB) func(*Topology, error) *Topology {
	return func(topo *Topology, err error) *Topology {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		if err := topo.Validate(); err != nil {
			tb.Fatalf("%s: %v", topo.Name, err)
		}
		checkDuplex(tb, topo)
		return topo
	}
}

func TestStar(t *testing.T) {
	topo := mustValid(t)(Star(16, 100*G, us))
	if got, want := countsOf(topo), (counts{16, 1, 16}); got != want {
		t.Fatalf("counts %+v, want %+v", got, want)
	}
	if got := topo.Describe(); got != "star 16 hosts, 1 switch, 16 links" {
		t.Errorf("Describe() = %q", got)
	}
	sw := topo.Nodes[16]
	if sw.Name != "sw0" || sw.Kind != Switch || len(sw.Ports) != 16 {
		t.Fatalf("switch %+v", sw)
	}
	for h := 0; h < 16; h++ {
		if p := sw.Ports[h]; p.Peer != int32(h) || p.Rate != 100*G || p.Delay != us {
			t.Errorf("switch port %d = %+v, want host %d at 100G/1us", h, p, h)
		}
	}
}

func TestDumbbell(t *testing.T) {
	topo := mustValid(t)(Dumbbell(4, 100*G, 25*G, us))
	if got, want := countsOf(topo), (counts{8, 2, 9}); got != want {
		t.Fatalf("counts %+v, want %+v", got, want)
	}
	left, right := topo.Nodes[8], topo.Nodes[9]
	if got := neighbours(topo, 8); !reflect.DeepEqual(got, []string{"h0", "h1", "h2", "h3", "right"}) {
		t.Errorf("left neighbours %v", got)
	}
	if got := neighbours(topo, 9); !reflect.DeepEqual(got, []string{"h4", "h5", "h6", "h7", "left"}) {
		t.Errorf("right neighbours %v", got)
	}
	if left.Ports[4].Rate != 25*G || right.Ports[4].Rate != 25*G || left.Ports[0].Rate != 100*G {
		t.Errorf("bottleneck rates wrong: %+v %+v", left.Ports[4], right.Ports[4])
	}
}

// Dolce-RC Sec. V-A: "eight servers and three switches ... four servers are
// connected to one leaf switch and the remaining four servers are connected
// to another leaf switch. Each of the two leaf switches is connected to the
// same spine switch via four independent 100 Gbps links."
func TestLeafSpineDolceTestbed(t *testing.T) {
	topo := mustValid(t)(LeafSpine(DolceTestbed))
	if got, want := countsOf(topo), (counts{8, 3, 8 + 2*4}); got != want {
		t.Fatalf("counts %+v, want %+v", got, want)
	}
	if got, want := degrees(topo, "leaf"), map[int]int{8: 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("leaf degrees %v, want %v", got, want)
	}
	if got, want := degrees(topo, "spine"), map[int]int{8: 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("spine degrees %v, want %v", got, want)
	}
	if got := neighbours(topo, 8); !reflect.DeepEqual(got, []string{"h0", "h1", "h2", "h3", "spine0", "spine0", "spine0", "spine0"}) {
		t.Errorf("leaf0 neighbours %v", got)
	}
	if got := neighbours(topo, 10); !reflect.DeepEqual(got, []string{"leaf0", "leaf0", "leaf0", "leaf0", "leaf1", "leaf1", "leaf1", "leaf1"}) {
		t.Errorf("spine0 neighbours %v", got)
	}
	for _, n := range topo.Nodes {
		for _, p := range n.Ports {
			if p.Rate != 100*G || p.Delay != us {
				t.Fatalf("%s: port %+v, want 100G/1us", n.Name, p)
			}
		}
	}
}

func TestLeafSpineMultiSpine(t *testing.T) {
	topo := mustValid(t)(LeafSpine(LeafSpineConfig{Leaves: 3, HostsPerLeaf: 2, Spines: 2, UplinksPerPair: 2,
		HostRate: 25 * G, FabricRate: 100 * G, Delay: 500 * units.Nanosecond}))
	if got, want := countsOf(topo), (counts{6, 5, 6 + 3*2*2}); got != want {
		t.Fatalf("counts %+v, want %+v", got, want)
	}
	// leaf1: hosts h2 h3, then 2 links to spine0, 2 to spine1.
	if got := neighbours(topo, 7); !reflect.DeepEqual(got, []string{"h2", "h3", "spine0", "spine0", "spine1", "spine1"}) {
		t.Errorf("leaf1 neighbours %v", got)
	}
}

// The HPCC simulator's mix/fat.txt header is "376 56 480": 320 hosts, 20
// ToRs, 20 aggs, 16 cores; every ToR has 16 hosts and 4 aggs, every agg 4
// ToRs and 4 cores, every core one agg in each of the 5 pods.
func TestFatTreeHPCC(t *testing.T) {
	topo := mustValid(t)(FatTree(HPCCFatTree))
	if got, want := countsOf(topo), (counts{320, 56, 480}); got != want {
		t.Fatalf("counts %+v, want %+v", got, want)
	}
	if got := topo.Describe(); got != "fattree 320 hosts, 56 switches, 480 links" {
		t.Errorf("Describe() = %q", got)
	}
	for prefix, want := range map[string]map[int]int{"tor": {20: 20}, "agg": {8: 20}, "core": {5: 16}} {
		if got := degrees(topo, prefix); !reflect.DeepEqual(got, want) {
			t.Errorf("%s degrees %v, want %v", prefix, got, want)
		}
	}
	// agg1 (pod 0, j=1) links to tor0..tor3 then cores 4..7.
	agg1 := topo.NumHosts + 20 + 1
	if got := neighbours(topo, agg1); !reflect.DeepEqual(got, []string{"tor0", "tor1", "tor2", "tor3", "core4", "core5", "core6", "core7"}) {
		t.Errorf("agg1 neighbours %v", got)
	}
	// core5 links to agg j=1 of every pod: agg1, agg5, agg9, agg13, agg17.
	core5 := topo.NumHosts + 40 + 5
	if got := neighbours(topo, core5); !reflect.DeepEqual(got, []string{"agg1", "agg5", "agg9", "agg13", "agg17"}) {
		t.Errorf("core5 neighbours %v", got)
	}
	for _, n := range topo.Nodes {
		for _, p := range n.Ports {
			want := 400 * G
			if n.Kind == Host || topo.Nodes[p.Peer].Kind == Host {
				want = 100 * G
			}
			if p.Rate != want || p.Delay != us {
				t.Fatalf("%s: port %+v, want %v/1us", n.Name, p, want)
			}
		}
	}
}

// Dolce-RC Sec. V-A: "1024 servers, 128 ToR switches, 128 aggregation
// switches, and 64 core switches. Each ToR switch is connected by 8 servers,
// and each spine switch is connected by 16 aggregation switches ... All
// links have the capacity of 200 Gbps and 1 us propagation delay."
func TestFatTreeDolce(t *testing.T) {
	topo := mustValid(t)(FatTree(DolceFatTree))
	if got, want := countsOf(topo), (counts{1024, 128 + 128 + 64, 1024 + 128*8 + 128*8}); got != want {
		t.Fatalf("counts %+v, want %+v", got, want)
	}
	kinds := map[string]int{}
	for _, n := range topo.Nodes[topo.NumHosts:] {
		kinds[strings.TrimRight(n.Name, "0123456789")]++
	}
	if want := map[string]int{"tor": 128, "agg": 128, "core": 64}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("switches %v, want %v", kinds, want)
	}
	for prefix, want := range map[string]map[int]int{"tor": {16: 128}, "agg": {16: 128}, "core": {16: 64}} {
		if got := degrees(topo, prefix); !reflect.DeepEqual(got, want) {
			t.Errorf("%s degrees %v, want %v", prefix, got, want)
		}
	}
	for _, n := range topo.Nodes {
		for _, p := range n.Ports {
			if p.Rate != 200*G || p.Delay != us {
				t.Fatalf("%s: port %+v, want 200G/1us", n.Name, p)
			}
		}
	}
}

func TestBuilderErrors(t *testing.T) {
	good := HPCCFatTree
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"star 1 host", second(Star(1, G, us)), "star: 1 hosts, need at least 2"},
		{"star 0 hosts", second(Star(0, G, us)), "star: hosts must be >= 1, got 0"},
		{"star rate", second(Star(4, 0, us)), "star: rate must be > 0, got 0 bps"},
		{"star delay", second(Star(4, G, -1)), "star: delay must be >= 0, got -1ps"},
		{"star past the host limit", second(Star(limits.MaxHosts+1, G, us)), "star: 1048577 hosts is more than the limit of 1048576"},
		{"star 2M hosts", second(Star(2_000_000, G, us)), "star: 2000000 hosts is more than the limit of 1048576"},
		{"dumbbell past the host limit", second(Dumbbell(600_000, G, G, us)), "dumbbell: 1200000 hosts is more than the limit of 1048576"},
		{"leafspine past the host limit", second(LeafSpine(LeafSpineConfig{Leaves: 1024, HostsPerLeaf: 1025, Spines: 1, UplinksPerPair: 1, HostRate: G, FabricRate: G})),
			"leafspine: 1049600 hosts is more than the limit of 1048576"},
		{"leafspine too many switches", second(LeafSpine(LeafSpineConfig{Leaves: 1, HostsPerLeaf: 2, Spines: MaxNodes, UplinksPerPair: 1, HostRate: G, FabricRate: G})),
			"leafspine: more than the limit of 2097152 nodes"},
		{"leafspine too many nodes", second(LeafSpine(LeafSpineConfig{Leaves: 1, HostsPerLeaf: limits.MaxHosts, Spines: limits.MaxHosts, UplinksPerPair: 1, HostRate: G, FabricRate: G})),
			"leafspine: 1048576 hosts and 1048577 switches exceed the limit of 2097152 nodes"},
		{"fattree past the host limit", second(FatTree(with(good, func(c *FatTreeConfig) { c.Pods, c.ToRsPerPod, c.HostsPerToR = 64, 64, 257 }))),
			"fattree: 1052672 hosts is more than the limit of 1048576"},
		{"dumbbell n", second(Dumbbell(0, G, G, us)), "dumbbell: n must be >= 1, got 0"},
		{"dumbbell bottleneck", second(Dumbbell(2, G, -5, us)), "dumbbell: bottleneck rate must be > 0, got -5 bps"},
		{"leafspine spines", second(LeafSpine(LeafSpineConfig{Leaves: 2, HostsPerLeaf: 2, UplinksPerPair: 1, HostRate: G, FabricRate: G})),
			"leafspine: spines must be >= 1, got 0"},
		{"leafspine 1 host", second(LeafSpine(LeafSpineConfig{Leaves: 1, HostsPerLeaf: 1, Spines: 1, UplinksPerPair: 1, HostRate: G, FabricRate: G})),
			"leafspine: 1 hosts, need at least 2"},
		{"fattree fabric", second(FatTree(with(good, func(c *FatTreeConfig) { c.FabricRate = 0 }))), "fattree: fabric rate must be > 0, got 0 bps"},
		{"fattree cores", second(FatTree(with(good, func(c *FatTreeConfig) { c.CoresPerAgg = 0 }))), "fattree: cores per agg must be >= 1, got 0"},
		{"leafspine too many links", second(LeafSpine(LeafSpineConfig{Leaves: 2, HostsPerLeaf: 2, Spines: 2000, UplinksPerPair: 1000, HostRate: G, FabricRate: G})),
			"leafspine: 4000004 links is more than the limit of 3145728"},
		{"fattree too many links", second(FatTree(with(good, func(c *FatTreeConfig) {
			c.Pods, c.ToRsPerPod, c.HostsPerToR, c.AggsPerPod, c.CoresPerAgg = 1000, 100, 10, 40, 1
		}))),
			"fattree: 5040000 links is more than the limit of 3145728"},
		{"fattree overflow", second(FatTree(with(good, func(c *FatTreeConfig) { c.Pods, c.ToRsPerPod, c.HostsPerToR = 1<<40, 1<<40, 1<<40 }))),
			"fattree: over 1125899906842624 hosts is more than the limit of 1048576"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, tc.err, tc.want)
		}
	}
}

// The host limit is inclusive: a star with exactly limits.MaxHosts hosts
// (and so MaxHosts+1 nodes) builds, validates and routes.
func TestStarAtHostLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1,048,576-host star")
	}
	topo := mustValid(t)(Star(limits.MaxHosts, G, us))
	r := topo.Routes()
	if p := r.Path(0, limits.MaxHosts-1, 1); len(p) != 2 || p[1].Port != limits.MaxHosts-1 {
		t.Fatalf("path h0 -> last host = %v", p)
	}
}

func second(_ *Topology, err error) error { return err }

func with(c FatTreeConfig, f func(*FatTreeConfig)) FatTreeConfig {
	f(&c)
	return c
}

// A builder's Name is a spec that Parse turns back into the same topology.
func TestBuilderNameRoundTrip(t *testing.T) {
	odd := units.Time(1234567) // not a round number of ns
	for _, topo := range []*Topology{
		mustValid(t)(Star(5, 100*G, us)),
		mustValid(t)(Star(3, 12345678901, odd)),
		mustValid(t)(Dumbbell(3, 100*G, 40*G, 0)),
		mustValid(t)(LeafSpine(DolceTestbed)),
		mustValid(t)(FatTree(DolceFatTree)),
	} {
		again, err := Parse(topo.Name, 0)
		if err != nil {
			t.Fatalf("Parse(%q): %v", topo.Name, err)
		}
		if !reflect.DeepEqual(again, topo) {
			t.Errorf("Parse(%q) built a different topology", topo.Name)
		}
	}
}
