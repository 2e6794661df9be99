package topology

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"

	"github.com/ccreplay/ccreplay/units"
)

// Routing holds, for every switch and every destination host, the egress
// ports that lie on a shortest (fewest-hop) path to that host, and picks
// among them by ECMP hashing.
//
// Storage is flat: setOf[(switch-NumHosts)*NumHosts + dst] indexes a
// deduplicated port set, whose ports are ports[off[s]:off[s+1]] in
// ascending port order. A 1024-host fat-tree needs about 1.3 MB.
type Routing struct {
	t        *Topology
	numHosts int32
	numNodes int32
	setOf    []int32 // per (switch, dst host): port set id
	off      []int32 // port set id -> start in ports; len = sets + 1
	ports    []int32 // the port sets, back to back
	hostPort []int32 // {0}: a host's only egress port
}

// Hop is one link of a path: the node that transmits, its egress port and
// that link's rate and propagation delay.
type Hop struct {
	Node  int32            // transmitting node id
	Port  int32            // egress port on Node
	Rate  units.BitsPerSec // link rate, bits per second
	Delay units.Time       // link propagation delay, picoseconds
}

// Routes computes shortest-path routes with one breadth-first search from
// every destination host; hosts never forward traffic. t must pass
// Validate. Port sets are numbered in order of first appearance (switch
// order within destination order), so the result is fully deterministic.
// It takes O(hosts x links) time and 4 bytes per (switch, host) pair plus
// the distinct port sets: about 50 ms and 1.3 MB for a 1024-host fat-tree.
func (t *Topology) Routes() *Routing {
	nh, nn := int32(t.NumHosts), int32(len(t.Nodes))
	r := &Routing{
		t: t, numHosts: nh, numNodes: nn,
		setOf:    make([]int32, int(nn-nh)*int(nh)),
		off:      []int32{0, 0}, // set 0 is the empty set (no route)
		hostPort: []int32{0},
	}
	dist := make([]int32, nn)
	queue := make([]int32, 0, nn)
	scratch := make([]int32, 0, 64)
	key := make([]byte, 0, 256)
	// NB: the map is only looked up (for deduplication), never iterated.
	sets := map[string]int32{"": 0}
	last := make([]int32, nn-nh) // per switch: the set it used for the previous destination

	for d := int32(0); d < nh; d++ {
		for i := range dist {
			dist[i] = -1
		}
		dist[d] = 0
		queue = append(queue[:0], d)
		for qi := 0; qi < len(queue); qi++ {
			u := queue[qi]
			if u < nh && u != d {
				continue // hosts do not forward
			}
			for _, p := range t.Nodes[u].Ports {
				if dist[p.Peer] < 0 {
					dist[p.Peer] = dist[u] + 1
					queue = append(queue, p.Peer)
				}
			}
		}
		for s := nh; s < nn; s++ {
			row := int(s-nh)*int(nh) + int(d)
			ds := dist[s]
			if ds <= 0 {
				r.setOf[row] = 0
				continue
			}
			scratch = scratch[:0]
			for pi, p := range t.Nodes[s].Ports {
				if dist[p.Peer] == ds-1 && (p.Peer >= nh || p.Peer == d) {
					scratch = append(scratch, int32(pi))
				}
			}
			if id := last[s-nh]; equalPorts(r.set(id), scratch) {
				r.setOf[row] = id
				continue
			}
			key = key[:0]
			for _, p := range scratch {
				key = binary.LittleEndian.AppendUint32(key, uint32(p))
			}
			id, ok := sets[string(key)]
			if !ok {
				id = int32(len(r.off) - 1)
				sets[string(key)] = id
				r.ports = append(r.ports, scratch...)
				r.off = append(r.off, int32(len(r.ports)))
			}
			r.setOf[row] = id
			last[s-nh] = id
		}
	}
	return r
}

func (r *Routing) set(id int32) []int32 {
	lo, hi := r.off[id], r.off[id+1]
	return r.ports[lo:hi:hi]
}

func equalPorts(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// NumPortSets returns the number of distinct port sets stored (including
// the empty one), a measure of the table's size.
func (r *Routing) NumPortSets() int { return len(r.off) - 1 }

// NextPorts returns the egress ports of node on shortest paths to dstHost,
// in ascending order. A host's answer is its only port, {0}, unless it is
// dstHost itself. The result is empty when node is dstHost, when no path
// exists or when an id is out of range. The slice is shared: do not modify
// it.
func (r *Routing) NextPorts(node, dstHost int32) []int32 {
	if node < 0 || node >= r.numNodes || dstHost < 0 || dstHost >= r.numHosts || node == dstHost {
		return nil
	}
	if node < r.numHosts {
		return r.hostPort[:1:1]
	}
	return r.set(r.setOf[int(node-r.numHosts)*int(r.numHosts)+int(dstHost)])
}

// Pick chooses node's egress port towards dstHost for a flow: ECMP among
// NextPorts(node, dstHost). With n > 1 equal-cost ports it returns
// ports[hi64(ECMPHash(flowHash, node) * n)], the high 64 bits of the 128-bit
// product (a near-uniform map of the hash onto 0..n-1). A host always gets
// its only port, 0. It returns -1 when the node has no route (node is
// dstHost, a switch that cannot reach it, or an id out of range).
func (r *Routing) Pick(node, dstHost int32, flowHash uint64) int32 {
	if node >= 0 && node < r.numHosts {
		return 0
	}
	ports := r.NextPorts(node, dstHost)
	switch len(ports) {
	case 0:
		return -1
	case 1:
		return ports[0]
	}
	hi, _ := bits.Mul64(ECMPHash(flowHash, node), uint64(len(ports)))
	return ports[hi]
}

// ECMPHash mixes a flow's hash with the id of the switch choosing a port:
//
//	ECMPHash(h, node) = splitmix64(h ^ (uint64(node)+1) * 0x9E3779B97F4A7C15)
//
// where splitmix64 is Steele, Lea and Flood's SplitMix64 finalizer (xor-shift
// 30, multiply 0xBF58476D1CE4E5B9, xor-shift 27, multiply 0x94D049BB133111EB,
// xor-shift 31). Mixing in the node id makes the choices of different
// switches on a path independent of each other, so that a flow that takes
// the first uplink at its ToR is not more likely to take the first uplink
// at the aggregation switch too (hash polarization).
func ECMPHash(flowHash uint64, node int32) uint64 {
	return splitmix64(flowHash ^ ((uint64(node) + 1) * 0x9E3779B97F4A7C15))
}

func splitmix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Path walks Pick from node src to host dst and returns the links taken,
// the first one leaving src. It returns nil when src == dst, when an id is
// out of range or when dst cannot be reached.
func (r *Routing) Path(src, dst int32, flowHash uint64) []Hop {
	if src == dst || src < 0 || src >= r.numNodes || dst < 0 || dst >= r.numHosts {
		return nil
	}
	hops := make([]Hop, 0, 8)
	for node := src; node != dst; {
		if len(hops) >= int(r.numNodes) {
			return nil // cannot happen on shortest paths; guards a corrupt topology
		}
		pi := r.Pick(node, dst, flowHash)
		if pi < 0 {
			return nil
		}
		p := r.t.Nodes[node].Ports[pi]
		hops = append(hops, Hop{Node: node, Port: pi, Rate: p.Rate, Delay: p.Delay})
		node = p.Peer
	}
	return hops
}

// DescribePath formats a path with node names and egress ports, e.g.
// "h0:0 > tor0:17 > agg1:5 > h300"; the last name is the node the last hop
// reaches.
func (t *Topology) DescribePath(path []Hop) string {
	if len(path) == 0 {
		return "(empty path)"
	}
	var b strings.Builder
	name := func(n int32) string {
		if n >= 0 && int(n) < len(t.Nodes) && t.Nodes[n].Name != "" {
			return t.Nodes[n].Name
		}
		return fmt.Sprintf("n%d", n)
	}
	for _, h := range path {
		fmt.Fprintf(&b, "%s:%d > ", name(h.Node), h.Port)
	}
	last := path[len(path)-1]
	end := int32(-1)
	if last.Node >= 0 && int(last.Node) < len(t.Nodes) && last.Port >= 0 && int(last.Port) < len(t.Nodes[last.Node].Ports) {
		end = t.Nodes[last.Node].Ports[last.Port].Peer
	}
	b.WriteString(name(end))
	return b.String()
}
