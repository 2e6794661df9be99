package topology

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ccreplay/ccreplay/units"
)

// packetSizes cuts a message the way IdealOneWay assumes: full packets of
// mtuPayload+header bytes and a last one with the rest (one header-only
// packet for an empty message).
func packetSizes(payload, mtuPayload, header units.Bytes) []units.Bytes {
	var s []units.Bytes
	for left := payload; left > 0; left -= mtuPayload {
		s = append(s, min(left, mtuPayload)+header)
	}
	if len(s) == 0 {
		s = append(s, header)
	}
	return s
}

// simulateStoreAndForward sends the packets back to back from the sender at
// time 0 and moves them hop by hop, packet by packet: a link starts a packet
// when the packet has fully arrived at the link's node and the link has
// finished the previous packet (FIFO), and the packet reaches the next node
// Delay after its last bit left. It returns when the last packet's last byte
// reaches the end of the path.
func simulateStoreAndForward(path []Hop, sizes []units.Bytes) units.Time {
	linkFree := make([]units.Time, len(path)) // when each link finishes its previous packet
	var arrival units.Time
	for _, size := range sizes {
		at := units.Time(0) // the sender holds every packet from the start
		for k, h := range path {
			start := max(at, linkFree[k])
			linkFree[k] = start + units.TxTime(size, h.Rate)
			at = linkFree[k] + h.Delay
		}
		arrival = at
	}
	return arrival
}

// singleBottleneckBound is the textbook pipelining bound: the first packet
// up to the slowest hop b (the first of equal ones), every packet through
// b, the last packet after b. It is exact when all packets have the same
// size, and can be too small otherwise.
func singleBottleneckBound(path []Hop, sizes []units.Bytes) units.Time {
	b := 0
	for k, h := range path {
		if h.Rate < path[b].Rate {
			b = k
		}
	}
	t := PathOneWay(path)
	for k := 0; k < b; k++ {
		t += units.TxTime(sizes[0], path[k].Rate)
	}
	for _, s := range sizes {
		t += units.TxTime(s, path[b].Rate)
	}
	for k := b + 1; k < len(path); k++ {
		t += units.TxTime(sizes[len(sizes)-1], path[k].Rate)
	}
	return t
}

func hops(rates ...units.BitsPerSec) []Hop {
	p := make([]Hop, len(rates))
	for i, r := range rates {
		p[i] = Hop{Node: int32(i), Rate: r, Delay: us + units.Time(i)*100} // unequal delays too
	}
	return p
}

func TestIdealOneWayMatchesSimulation(t *testing.T) {
	const mtu, header = 1000, 48
	paths := map[string][]Hop{
		"1 hop":             hops(100 * G),
		"equal 100G":        hops(100*G, 100*G, 100*G, 100*G),
		"bottleneck middle": hops(100*G, 400*G, 25*G, 400*G, 100*G),
		"bottleneck first":  hops(25*G, 100*G, 100*G),
		"bottleneck last":   hops(100*G, 100*G, 25*G),
		"odd rates":         hops(100*G, 37*G+1, 100*G), // non-integer ps serialization
	}
	for name, path := range paths {
		for _, payload := range []units.Bytes{0, 1, 999, 1000, 2000, 2001, 2500, 3000, 9999, 10000} {
			sizes := packetSizes(payload, mtu, header)
			sim := simulateStoreAndForward(path, sizes)
			got := IdealOneWay(path, payload, mtu, header)
			if got != sim {
				t.Errorf("%s, %d B (%d packets): IdealOneWay = %d ps, simulation %d ps", name, payload, len(sizes), got, sim)
			}
			bound := singleBottleneckBound(path, sizes)
			if bound > sim {
				t.Errorf("%s, %d B: single-bottleneck bound %d > simulation %d", name, payload, bound, sim)
			}
			if payload%mtu == 0 && bound != sim { // all packets the same size
				t.Errorf("%s, %d B: single-bottleneck bound %d != simulation %d for equal packets", name, payload, bound, sim)
			}
		}
	}
}

// Why IdealOneWay takes a maximum: two equal 100G hops, a 1048 B packet then
// a 148 B one. The short packet reaches the second hop while the long one is
// still on it and must wait, so the last byte arrives at
// 2*1us + 83.84ns + 83.84ns + 11.84ns, not 2*1us + 83.84ns + 11.84ns + 11.84ns.
func TestIdealOneWayShortLastPacket(t *testing.T) {
	path := []Hop{{Rate: 100 * G, Delay: us}, {Rate: 100 * G, Delay: us}}
	sizes := packetSizes(1100, 1000, 48)
	want := units.Time(2_000_000 + 83_840 + 83_840 + 11_840)
	if got := simulateStoreAndForward(path, sizes); got != want {
		t.Fatalf("simulation %d, want %d", got, want)
	}
	if got := IdealOneWay(path, 1100, 1000, 48); got != want {
		t.Errorf("IdealOneWay = %d, want %d", got, want)
	}
	if got := singleBottleneckBound(path, sizes); got != want-83_840+11_840 {
		t.Errorf("single-bottleneck bound %d", got)
	}
}

// Random paths and messages: IdealOneWay equals the simulation exactly.
func TestIdealOneWayRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rates := []units.BitsPerSec{10 * G, 25 * G, 40 * G, 100 * G, 100 * G, 200 * G, 400 * G, 33_333_333_333}
	for i := 0; i < 3000; i++ {
		path := make([]Hop, 1+rng.IntN(7))
		for k := range path {
			path[k] = Hop{Rate: rates[rng.IntN(len(rates))], Delay: units.Time(rng.IntN(2_000_000))}
		}
		mtu := units.Bytes(64 + rng.IntN(4000))
		header := units.Bytes(rng.IntN(100))
		payload := units.Bytes(rng.IntN(int(mtu) * 12))
		sizes := packetSizes(payload, mtu, header)
		if got, sim := IdealOneWay(path, payload, mtu, header), simulateStoreAndForward(path, sizes); got != sim {
			t.Fatalf("case %d: %v payload %d mtu %d header %d: IdealOneWay %d, simulation %d", i, path, payload, mtu, header, got, sim)
		}
	}
}

func TestIdealOneWayEdges(t *testing.T) {
	if got := IdealOneWay(nil, 5000, 1000, 48); got != 0 {
		t.Errorf("empty path: %d", got)
	}
	// 1 MB over one 100G hop: 1000 packets of 1048 B: 1000*83.84 ns + 1 us.
	if got := IdealOneWay(hops(100*G), units.MB, 1000, 48); got != 1000*83_840+us {
		t.Errorf("1MB: %d", got)
	}
}

func TestNumPackets(t *testing.T) {
	for _, tc := range []struct {
		payload, mtu units.Bytes
		want         int64
	}{{0, 1000, 1}, {1, 1000, 1}, {1000, 1000, 1}, {1001, 1000, 2}, {10_000, 1000, 10}, {-3, 1000, 1}} {
		if got := NumPackets(tc.payload, tc.mtu); got != tc.want {
			t.Errorf("NumPackets(%d, %d) = %d, want %d", tc.payload, tc.mtu, got, tc.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("NumPackets with mtu 0 did not panic")
		}
	}()
	NumPackets(1, 0)
}

// The HPCC simulator's standalone FCT: base RTT + (size + packets*header)*8
// / bottleneck.
// third.cc qp_finish: standalone_fct = pairRtt + total_bytes * 8e9 / bw
// with pairRtt = 2 * delay + one payload's serialization per hop
// (CalculateRoute), total_bytes = size + packets * 48, all in integer ns.
// The reference runs' README: star16 (2 hops of 100G, 1 us), 99,564 B ->
// 12,509 ns.
func TestNS3StandaloneFCT(t *testing.T) {
	star := []Hop{{Rate: 100 * G, Delay: us}, {Rate: 100 * G, Delay: us}}
	if got := NS3BaseRTT(star, 1000); got != 4160*units.Nanosecond {
		t.Errorf("NS3BaseRTT(star16) = %v, want 4160ns", got)
	}
	for _, tc := range []struct {
		size units.Bytes
		want int64 // ns
	}{
		{99_564, 12_509},   // the README's example
		{1000, 4160 + 83},  // 1048 B * 8 / 100 = 83.84, truncated
		{0, 4160 + 3},      // one header-only packet
		{2500, 4160 + 211}, // 3 packets: 2644 B
		{1_000_000, 4160 + 83840},
	} {
		if got := NS3StandaloneFCT(star, tc.size, 1000, 48); got != units.Time(tc.want)*units.Nanosecond {
			t.Errorf("NS3StandaloneFCT(%d B) = %v, want %d ns", tc.size, got, tc.want)
		}
	}
	// The bottleneck sets the transmission term, each hop its own
	// serialization (truncated per hop: 1000 B at 3 Gb/s is 2666 ns).
	mixed := []Hop{{Rate: 100 * G, Delay: us}, {Rate: 3 * G, Delay: 2 * us}}
	if got, want := NS3BaseRTT(mixed, 1000), (6000+80+2666)*units.Nanosecond; got != want {
		t.Errorf("NS3BaseRTT(mixed) = %v, want %v", got, want)
	}
	if got, want := NS3StandaloneFCT(mixed, 1000, 1000, 48), (6000+80+2666+2794)*units.Nanosecond; got != want {
		t.Errorf("NS3StandaloneFCT(mixed) = %v, want %v", got, want)
	}
	if NS3StandaloneFCT(nil, 10, 1000, 48) != 0 {
		t.Error("empty path")
	}
}

func TestPathHelpersEmpty(t *testing.T) {
	if PathBottleneck(nil) != 0 || PathOneWay(nil) != 0 || PathBaseRTT(nil, 1000, 64) != 0 {
		t.Error("empty path helpers should return 0")
	}
	p := hops(100*G, 25*G, 40*G)
	if got := PathBottleneck(p); got != 25*G {
		t.Errorf("bottleneck %v", got)
	}
	if got := PathOneWay(p); got != 3*us+300 {
		t.Errorf("one way %v", got)
	}
}

func ExampleIdealOneWay() {
	// Dolce-RC fat-tree, cross-pod: 6 hops of 200G and 1 us; a 64 KB
	// message in 1000 B payloads with 48 B of headers each.
	path := make([]Hop, 6)
	for i := range path {
		path[i] = Hop{Rate: 200 * units.Gbps, Delay: units.Microsecond}
	}
	// 64 packets of 1048 B, 41.92 ns each at 200G: 6 us + (6+63)*41.92 ns.
	fmt.Println(IdealOneWay(path, 64*units.KB, 1000, 48))
	// The HPCC simulator's standalone FCT: 6 x (2 us + 40 ns) of base RTT
	// plus 67072 B at 200G (2682 ns, truncated).
	fmt.Println(NS3StandaloneFCT(path, 64*units.KB, 1000, 48))
	// Output:
	// 8.89248us
	// 14.922us
}

// third.cc CalculateRoutes: maxRtt and maxBdp over all host pairs. On a
// 2-tier leaf-spine the cross-leaf pair (4 hops) is the largest: 8 us of
// propagation plus 4 x 80 ns, and its BDP at 100 Gb/s.
func TestNS3MaxRTT(t *testing.T) {
	star, err := Star(4, 100*G, us)
	if err != nil {
		t.Fatal(err)
	}
	if rtt, bdp := NS3MaxRTT(star, 1000); rtt != 4160*units.Nanosecond || bdp != 52000 {
		t.Errorf("star: %v %d B, want 4160ns 52000 B", rtt, bdp)
	}
	ls, err := LeafSpine(LeafSpineConfig{Leaves: 2, HostsPerLeaf: 2, Spines: 2, UplinksPerPair: 1, HostRate: 100 * G, FabricRate: 100 * G, Delay: us})
	if err != nil {
		t.Fatal(err)
	}
	if rtt, bdp := NS3MaxRTT(ls, 1000); rtt != 8320*units.Nanosecond || bdp != 104000 {
		t.Errorf("leaf-spine: %v %d B, want 8320ns 104000 B", rtt, bdp)
	}
}
