package topology

import "github.com/ccreplay/ccreplay/units"

// NS3MaxRTT is the largest base RTT between two hosts of t as the HPCC
// ns-3 simulator computes it (third.cc CalculateRoute, then
// CalculateRoutes' maxRtt), with its bandwidth-delay product (maxBdp),
// for GLOBAL_T 1, under which every flow takes these two as its base RTT
// and window. From every host, a breadth-first search through switches
// accumulates each node's propagation delay, one payload's serialization
// per hop (NS3BaseRTT's terms) and the slowest link, on the first path
// the search finds; a pair's RTT is 2 * delay + serialization and its
// BDP RTT * slowest rate / 8 bytes, both in whole nanoseconds and bytes,
// truncated. It costs one search per host: O(hosts * links).
func NS3MaxRTT(t *Topology, payload units.Bytes) (rtt units.Time, bdp units.Bytes) {
	n := len(t.Nodes)
	dist := make([]int32, n)
	delay := make([]int64, n) // ns
	tx := make([]int64, n)    // ns
	bw := make([]units.BitsPerSec, n)
	queue := make([]int32, 0, n)
	var maxRTT, maxBDP uint64
	for h := 0; h < t.NumHosts; h++ {
		for i := range dist {
			dist[i] = -1
		}
		dist[h], delay[h], tx[h], bw[h] = 0, 0, 0, units.MaxRate
		queue = append(queue[:0], int32(h))
		for qi := 0; qi < len(queue); qi++ {
			now := queue[qi]
			for _, p := range t.Nodes[now].Ports {
				next := p.Peer
				if dist[next] >= 0 {
					continue
				}
				dist[next] = dist[now] + 1
				delay[next] = delay[now] + int64(p.Delay/units.Nanosecond)
				tx[next] = tx[now] + int64(mulDiv(uint64(max(payload, 0)), 8_000_000_000, uint64(max(p.Rate, 1))))
				bw[next] = min(bw[now], p.Rate)
				if t.Nodes[next].Kind == Switch {
					queue = append(queue, next)
				}
			}
		}
		for d := 0; d < t.NumHosts; d++ {
			if d == h || dist[d] < 0 {
				continue
			}
			r := uint64(2*delay[d] + tx[d])
			maxRTT = max(maxRTT, r)
			maxBDP = max(maxBDP, mulDiv(r, uint64(bw[d]), 8_000_000_000))
		}
	}
	return units.Time(maxRTT) * units.Nanosecond, units.Bytes(maxBDP)
}
