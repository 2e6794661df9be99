package topology

import (
	"fmt"

	"github.com/ccreplay/ccreplay/units"
)

// LeafSpineConfig describes a two-tier Clos network.
type LeafSpineConfig struct {
	Leaves         int              // leaf (top-of-rack) switches
	HostsPerLeaf   int              // hosts under each leaf
	Spines         int              // spine switches
	UplinksPerPair int              // parallel links between each leaf and each spine
	HostRate       units.BitsPerSec // host-to-leaf link rate, bits per second
	FabricRate     units.BitsPerSec // leaf-to-spine link rate, bits per second
	Delay          units.Time       // propagation delay of every link, picoseconds
}

// DolceTestbed is the Dolce-RC testbed (Dolce-RC paper Sec. V-A): 8 servers,
// 4 under each of 2 leaf switches, both leaves linked to one spine by four
// independent 100 Gb/s links, 1 us propagation delay per link (base RTT
// 4 us within a rack, 8 us across racks).
var DolceTestbed = LeafSpineConfig{
	Leaves: 2, HostsPerLeaf: 4, Spines: 1, UplinksPerPair: 4,
	HostRate: 100 * units.Gbps, FabricRate: 100 * units.Gbps, Delay: units.Microsecond,
}

// LeafSpine builds a two-tier Clos network. Switches are the leaves
// ("leaf0"...) then the spines ("spine0"...). Host h sits under leaf
// h/HostsPerLeaf. Leaf ports 0..HostsPerLeaf-1 lead to its hosts and port
// HostsPerLeaf + s*UplinksPerPair + u is its u-th uplink to spine s; spine
// port l*UplinksPerPair + u is the u-th link to leaf l.
func LeafSpine(cfg LeafSpineConfig) (*Topology, error) {
	c := argCheck{kind: "leafspine"}
	c.count("leaves", cfg.Leaves)
	c.count("hosts per leaf", cfg.HostsPerLeaf)
	c.count("spines", cfg.Spines)
	c.count("uplinks per pair", cfg.UplinksPerPair)
	c.rate("host rate", cfg.HostRate)
	c.rate("fabric rate", cfg.FabricRate)
	c.delay(cfg.Delay)
	c.size(mul(cfg.Leaves, cfg.HostsPerLeaf), mul(cfg.Leaves)+mul(cfg.Spines))
	c.links(mul(cfg.Leaves, cfg.HostsPerLeaf) + mul(cfg.Leaves, cfg.Spines, cfg.UplinksPerPair))
	if c.err != nil {
		return nil, c.err
	}
	name := fmt.Sprintf("leafspine:leaves=%d,hosts=%d,spines=%d,uplinks=%d,rate=%s,fabric=%s,delay=%s",
		cfg.Leaves, cfg.HostsPerLeaf, cfg.Spines, cfg.UplinksPerPair, fmtRate(cfg.HostRate), fmtRate(cfg.FabricRate), fmtDelay(cfg.Delay))
	hosts := cfg.Leaves * cfg.HostsPerLeaf
	b := newBuilder(name, hosts, append(names("leaf", cfg.Leaves), names("spine", cfg.Spines)...))
	leaf := func(l int) int { return hosts + l }
	spine := func(s int) int { return hosts + cfg.Leaves + s }
	for l := 0; l < cfg.Leaves; l++ {
		b.t.Nodes[leaf(l)].Ports = make([]Port, 0, cfg.HostsPerLeaf+cfg.Spines*cfg.UplinksPerPair)
	}
	for s := 0; s < cfg.Spines; s++ {
		b.t.Nodes[spine(s)].Ports = make([]Port, 0, cfg.Leaves*cfg.UplinksPerPair)
	}
	for h := 0; h < hosts; h++ {
		b.link(h, leaf(h/cfg.HostsPerLeaf), cfg.HostRate, cfg.Delay)
	}
	for l := 0; l < cfg.Leaves; l++ {
		for s := 0; s < cfg.Spines; s++ {
			for u := 0; u < cfg.UplinksPerPair; u++ {
				b.link(leaf(l), spine(s), cfg.FabricRate, cfg.Delay)
			}
		}
	}
	return b.t, nil
}

// FatTreeConfig describes a three-tier fat-tree: pods of ToR and
// aggregation switches under a layer of core switches.
type FatTreeConfig struct {
	Pods        int              // pods
	ToRsPerPod  int              // ToR switches per pod
	HostsPerToR int              // hosts under each ToR
	AggsPerPod  int              // aggregation switches per pod; each ToR links to all of its pod's
	CoresPerAgg int              // core switches each aggregation switch links to
	HostRate    units.BitsPerSec // host-to-ToR link rate, bits per second
	FabricRate  units.BitsPerSec // ToR-agg and agg-core link rate, bits per second
	Delay       units.Time       // propagation delay of every link, picoseconds
}

// HPCCFatTree is the fat-tree of the HPCC paper and of the HPCC simulator's
// mix/fat.txt: 320 hosts in 5 pods of 4 ToRs x 16 hosts, 4 aggregation
// switches per pod, 16 cores, 100 Gb/s host links, 400 Gb/s fabric, 1 us
// links (376 nodes, 56 switches, 480 links).
var HPCCFatTree = FatTreeConfig{
	Pods: 5, ToRsPerPod: 4, HostsPerToR: 16, AggsPerPod: 4, CoresPerAgg: 4,
	HostRate: 100 * units.Gbps, FabricRate: 400 * units.Gbps, Delay: units.Microsecond,
}

// DolceFatTree is the Dolce-RC simulation fat-tree (Dolce-RC paper Sec. V-A):
// 1024 servers, 128 ToRs with 8 servers each, 128 aggregation and 64 core
// switches, every core linked to 16 aggregation switches, all links 200 Gb/s
// with 1 us propagation delay (base RTT 4 us to 12 us): 16 pods of 8 ToRs
// and 8 aggregation switches, 8 cores per aggregation switch.
var DolceFatTree = FatTreeConfig{
	Pods: 16, ToRsPerPod: 8, HostsPerToR: 8, AggsPerPod: 8, CoresPerAgg: 8,
	HostRate: 200 * units.Gbps, FabricRate: 200 * units.Gbps, Delay: units.Microsecond,
}

// FatTree builds a three-tier fat-tree. Every ToR links to every
// aggregation switch of its pod; there are AggsPerPod*CoresPerAgg cores and
// aggregation switch j of every pod links to cores j*CoresPerAgg ..
// j*CoresPerAgg+CoresPerAgg-1 (the HPCC simulator's wiring).
//
// Switches are the ToRs ("tor0"..., pod-major), then the aggregation
// switches ("agg0"..., pod-major), then the cores ("core0"...). Host h sits
// under ToR h/HostsPerToR. A ToR's ports are its hosts then its pod's aggs
// in order; an agg's ports are its pod's ToRs then its cores in order; core
// j*CoresPerAgg+c has port p leading to agg j of pod p.
func FatTree(cfg FatTreeConfig) (*Topology, error) {
	c := argCheck{kind: "fattree"}
	c.count("pods", cfg.Pods)
	c.count("tors per pod", cfg.ToRsPerPod)
	c.count("hosts per tor", cfg.HostsPerToR)
	c.count("aggs per pod", cfg.AggsPerPod)
	c.count("cores per agg", cfg.CoresPerAgg)
	c.rate("host rate", cfg.HostRate)
	c.rate("fabric rate", cfg.FabricRate)
	c.delay(cfg.Delay)
	c.size(mul(cfg.Pods, cfg.ToRsPerPod, cfg.HostsPerToR),
		mul(cfg.Pods, cfg.ToRsPerPod)+mul(cfg.Pods, cfg.AggsPerPod)+mul(cfg.AggsPerPod, cfg.CoresPerAgg))
	c.links(mul(cfg.Pods, cfg.ToRsPerPod, cfg.HostsPerToR) + mul(cfg.Pods, cfg.ToRsPerPod, cfg.AggsPerPod) + mul(cfg.Pods, cfg.AggsPerPod, cfg.CoresPerAgg))
	if c.err != nil {
		return nil, c.err
	}
	name := fmt.Sprintf("fattree:pods=%d,tors=%d,hosts=%d,aggs=%d,cores=%d,rate=%s,fabric=%s,delay=%s",
		cfg.Pods, cfg.ToRsPerPod, cfg.HostsPerToR, cfg.AggsPerPod, cfg.CoresPerAgg, fmtRate(cfg.HostRate), fmtRate(cfg.FabricRate), fmtDelay(cfg.Delay))
	tors := cfg.Pods * cfg.ToRsPerPod
	aggs := cfg.Pods * cfg.AggsPerPod
	cores := cfg.AggsPerPod * cfg.CoresPerAgg
	hosts := tors * cfg.HostsPerToR
	sw := append(append(names("tor", tors), names("agg", aggs)...), names("core", cores)...)
	b := newBuilder(name, hosts, sw)
	tor := func(g int) int { return hosts + g }        // g: global ToR index
	agg := func(g int) int { return hosts + tors + g } // g: global agg index
	core := func(k int) int { return hosts + tors + aggs + k }
	for g := 0; g < tors; g++ {
		b.t.Nodes[tor(g)].Ports = make([]Port, 0, cfg.HostsPerToR+cfg.AggsPerPod)
	}
	for g := 0; g < aggs; g++ {
		b.t.Nodes[agg(g)].Ports = make([]Port, 0, cfg.ToRsPerPod+cfg.CoresPerAgg)
	}
	for k := 0; k < cores; k++ {
		b.t.Nodes[core(k)].Ports = make([]Port, 0, cfg.Pods)
	}
	for h := 0; h < hosts; h++ {
		b.link(h, tor(h/cfg.HostsPerToR), cfg.HostRate, cfg.Delay)
	}
	for p := 0; p < cfg.Pods; p++ {
		for t := 0; t < cfg.ToRsPerPod; t++ {
			for j := 0; j < cfg.AggsPerPod; j++ {
				b.link(tor(p*cfg.ToRsPerPod+t), agg(p*cfg.AggsPerPod+j), cfg.FabricRate, cfg.Delay)
			}
		}
	}
	for p := 0; p < cfg.Pods; p++ {
		for j := 0; j < cfg.AggsPerPod; j++ {
			for c := 0; c < cfg.CoresPerAgg; c++ {
				b.link(agg(p*cfg.AggsPerPod+j), core(j*cfg.CoresPerAgg+c), cfg.FabricRate, cfg.Delay)
			}
		}
	}
	return b.t, nil
}
