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
func TestStandaloneFCT(t *testing.T) {
	for _, tc := range []struct {
		payload units.Bytes
		want    units.Time
	}{
		{0, 4*us + 3_840},      // one header-only packet: 48 B at 100G
		{1000, 4*us + 83_840},  // (1000+48)*8/100e9 s
		{2500, 4*us + 211_520}, // 3 packets: (2500+144)*8/100e9 s
		{units.MB, 4*us + 83_840_000},
	} {
		if got := StandaloneFCT(4*us, tc.payload, 1000, 48, 100*G); got != tc.want {
			t.Errorf("StandaloneFCT(%d B) = %d, want %d", tc.payload, got, tc.want)
		}
	}
	// Rounds the serialization up to the picosecond: 1 B at 3 bps.
	if got := StandaloneFCT(0, 1, 1000, 0, 3); got != units.Time(2_666_666_666_667) {
		t.Errorf("rounding: %d", got)
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
	// Base RTT 6*(2 us + 41.92 ns + 2.56 ns) + 67072 B at 200G (2.68288 us).
	fmt.Println(StandaloneFCT(PathBaseRTT(path, 1048, 64), 64*units.KB, 1000, 48, PathBottleneck(path)))
	// Output:
	// 8.89248us
	// 14.94976us
}
