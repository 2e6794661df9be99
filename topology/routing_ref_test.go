package topology

import (
	"encoding/binary"
	"slices"
)

// refRouting is the routing table as Routes built it before it grouped
// destinations by attachment switch: one breadth-first search over all
// nodes from every destination host, and a (switch x host) table of port
// set ids. It is kept here, unchanged in behaviour, as the reference that
// the faster Routes must match port for port.
type refRouting struct {
	numHosts int32
	numNodes int32
	setOf    []int32 // per (switch, dst host): port set id
	off      []int32 // port set id -> start in ports; len = sets + 1
	ports    []int32 // the port sets, back to back
}

// referenceRoutes is the former Topology.Routes: O(hosts x links) time and
// a 4-byte entry per (switch, host) pair.
func referenceRoutes(t *Topology) *refRouting {
	nh, nn := int32(t.NumHosts), int32(len(t.Nodes))
	r := &refRouting{
		numHosts: nh, numNodes: nn,
		setOf: make([]int32, int(nn-nh)*int(nh)),
		off:   []int32{0, 0}, // set 0 is the empty set (no route)
	}
	dist := make([]int32, nn)
	queue := make([]int32, 0, nn)
	scratch := make([]int32, 0, 64)
	key := make([]byte, 0, 256)
	sets := map[string]int32{"": 0}
	last := make([]int32, nn-nh)

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
			if id := last[s-nh]; slices.Equal(r.set(id), scratch) {
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

func (r *refRouting) set(id int32) []int32 {
	lo, hi := r.off[id], r.off[id+1]
	return r.ports[lo:hi:hi]
}

func (r *refRouting) numPortSets() int { return len(r.off) - 1 }

// NextPorts is the former Routing.NextPorts.
func (r *refRouting) NextPorts(node, dstHost int32) []int32 {
	if node < 0 || node >= r.numNodes || dstHost < 0 || dstHost >= r.numHosts || node == dstHost {
		return nil
	}
	if node < r.numHosts {
		return []int32{0}
	}
	return r.set(r.setOf[int(node-r.numHosts)*int(r.numHosts)+int(dstHost)])
}
