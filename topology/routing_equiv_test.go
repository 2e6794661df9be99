package topology

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sameRoutes fails the test unless r answers NextPorts exactly like the
// reference (the former per-destination BFS) for every (node, destination)
// pair, ids one out of range on each side included, and counts the same
// number of distinct port sets. Pick and Path are functions of NextPorts,
// so equal answers mean equal ECMP choices and byte-identical runs.
func sameRoutes(t *testing.T, topo *Topology) {
	t.Helper()
	want := referenceRoutes(topo)
	got := topo.Routes()
	for node := int32(-1); node <= int32(len(topo.Nodes)); node++ {
		for dst := int32(-1); dst <= int32(topo.NumHosts); dst++ {
			g, w := got.NextPorts(node, dst), want.NextPorts(node, dst)
			if !slices.Equal(g, w) {
				t.Fatalf("%s: NextPorts(%d, %d) = %v, the reference says %v", topo.Name, node, dst, g, w)
			}
		}
	}
	if g, w := got.NumPortSets(), want.numPortSets(); g != w {
		t.Errorf("%s: NumPortSets() = %d, the reference counts %d", topo.Name, g, w)
	}
}

// Every built-in topology and preset routes exactly as before.
func TestRoutesMatchReferenceBuiltins(t *testing.T) {
	v := mustValid(t)
	topos := []*Topology{
		v(Star(2, G, us)), v(Star(5, 100*G, us)), v(Star(200, 100*G, us)),
		v(Dumbbell(1, G, G, us)), v(Dumbbell(3, 100*G, 10*G, us)), v(Dumbbell(40, 100*G, 10*G, 0)),
		v(LeafSpine(DolceTestbed)),
		v(LeafSpine(LeafSpineConfig{Leaves: 1, HostsPerLeaf: 3, Spines: 2, UplinksPerPair: 2, HostRate: G, FabricRate: G})),
		v(LeafSpine(LeafSpineConfig{Leaves: 3, HostsPerLeaf: 2, Spines: 2, UplinksPerPair: 2, HostRate: G, FabricRate: G})),
		v(LeafSpine(LeafSpineConfig{Leaves: 6, HostsPerLeaf: 5, Spines: 4, UplinksPerPair: 1, HostRate: G, FabricRate: G})),
		v(FatTree(HPCCFatTree)), v(FatTree(DolceFatTree)),
		v(FatTree(FatTreeConfig{Pods: 1, ToRsPerPod: 2, HostsPerToR: 2, AggsPerPod: 1, CoresPerAgg: 1, HostRate: G, FabricRate: G})),
		v(FatTree(FatTreeConfig{Pods: 2, ToRsPerPod: 1, HostsPerToR: 3, AggsPerPod: 3, CoresPerAgg: 2, HostRate: G, FabricRate: G})),
		v(FatTree(FatTreeConfig{Pods: 3, ToRsPerPod: 2, HostsPerToR: 3, AggsPerPod: 2, CoresPerAgg: 3, HostRate: G, FabricRate: G})),
		v(FatTree(FatTreeConfig{Pods: 4, ToRsPerPod: 4, HostsPerToR: 1, AggsPerPod: 2, CoresPerAgg: 1, HostRate: G, FabricRate: G})),
	}
	for _, spec := range []string{"dolce-testbed", "hpcc-fattree", "dolce-fattree", "", "dumbbell"} {
		topos = append(topos, v(Parse(spec, 7)))
	}
	for _, topo := range topos {
		sameRoutes(t, topo)
	}
}

// HPCC topology.txt files route exactly as before: the fat-tree in the
// simulator's fat.txt layout, one whose switch ids sit among the hosts',
// the shared example file when present, and any file in testdata/.
func TestRoutesMatchReferenceHPCC(t *testing.T) {
	texts := map[string]string{
		"fat.txt":   hpccFatTxt(HPCCFatTree),
		"small.txt": "5 2 4\n3 1\n0 1 100Gbps 0.001ms 0\n2 1 25Gbps 500ns 0\n1 3 400Gbps 1us 0\n4 3 12.5GBps 1us 0\n",
	}
	files, _ := filepath.Glob("testdata/*.txt")
	files = append(files, filepath.Join(sharedData, "hpcc_format/topology.txt"))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			t.Logf("%s not present; skipping it", path)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		texts[path] = string(data)
	}
	for name, text := range texts {
		topo, err := ReadHPCC(strings.NewReader(text), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameRoutes(t, topo)
	}
}

// Irregular networks route exactly as before: random switch graphs with
// parallel links, hosts on random switches, idle switches and switch
// islands that no host reaches, ports in random order, and two hosts
// cabled back to back, with an idle switch and with none.
func TestRoutesMatchReferenceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		topo := randomTopology(rng, fmt.Sprintf("random%d", i))
		if err := topo.Validate(); err != nil {
			t.Fatalf("%s: the generator made an invalid topology: %v", topo.Name, err)
		}
		sameRoutes(t, topo)
	}
	b2b := &Topology{Name: "back to back", NumHosts: 2, Nodes: []Node{
		{ID: 0, Kind: Host, Name: "h0"}, {ID: 1, Kind: Host, Name: "h1"}, {ID: 2, Kind: Switch, Name: "idle"},
	}}
	(&builder{t: b2b}).link(0, 1, G, us)
	sameRoutes(t, b2b)
	bare := &Topology{Name: "no switch", NumHosts: 2, Nodes: []Node{
		{ID: 0, Kind: Host, Name: "h0"}, {ID: 1, Kind: Host, Name: "h1"},
	}}
	(&builder{t: bare}).link(0, 1, G, us)
	sameRoutes(t, bare)
}

// randomTopology builds a connected random network: a random tree over the
// first `reached` switches plus extra (possibly parallel) links among them,
// hosts on random reached switches, and the remaining switches idle or
// linked only to each other. The links are added in random order so that
// host and switch ports interleave.
func randomTopology(rng *rand.Rand, name string) *Topology {
	hosts := 2 + rng.IntN(30)
	switches := 1 + rng.IntN(25)
	reached := 1 + rng.IntN(switches)
	t := &Topology{Name: name, NumHosts: hosts, Nodes: make([]Node, hosts+switches)}
	for i := range t.Nodes {
		t.Nodes[i] = Node{ID: int32(i), Kind: Host, Name: fmt.Sprintf("n%d", i)}
		if i >= hosts {
			t.Nodes[i].Kind = Switch
		}
	}
	sw := func(k int) int { return hosts + k }
	var links [][2]int
	for k := 1; k < reached; k++ {
		links = append(links, [2]int{sw(k), sw(rng.IntN(k))})
	}
	for e := rng.IntN(2 * reached); e > 0 && reached > 1; e-- {
		a, b := rng.IntN(reached), rng.IntN(reached)
		if a != b {
			links = append(links, [2]int{sw(a), sw(b)})
		}
	}
	for e := rng.IntN(switches - reached + 1); e > 0 && switches-reached > 1; e-- {
		a, b := reached+rng.IntN(switches-reached), reached+rng.IntN(switches-reached)
		if a != b {
			links = append(links, [2]int{sw(a), sw(b)})
		}
	}
	for h := 0; h < hosts; h++ {
		links = append(links, [2]int{h, sw(rng.IntN(reached))})
	}
	rng.Shuffle(len(links), func(i, j int) { links[i], links[j] = links[j], links[i] })
	b := &builder{t: t}
	for _, l := range links {
		b.link(l[0], l[1], G, us)
	}
	return t
}
