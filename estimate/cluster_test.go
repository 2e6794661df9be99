package estimate

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/ccreplay/ccreplay/replay"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

// TestCluster checks the clustering by hand. Five links: 1 is another
// kind, 2 is 8 % below link 0's load, 3 is 40 % below it and 4 has half
// its senders. At tolerance 0.1, links 0 and 2 share a cluster (numbered
// by first link: {0,2} {1} {3} {4}); at 0.5, links 0, 2, 3 and 4 do. Each
// cluster simulates ceil(poolFlows x members / flows) members spread over
// its load (ranks (m+1/2) x members / k by decreasing load), and every
// link is represented by the simulated member nearest in load.
func TestCluster(t *testing.T) {
	base := Features{Kind: Fabric, Rate: 400 * units.Gbps, Delay: units.Microsecond, Load: 0.5, Flows: 100, Senders: 20, RTT: 1e7}
	f := []Features{base, base, base, base, base}
	f[1].Kind = HostDown
	f[2].Load = 0.46
	f[3].Load = 0.3
	f[4].Senders = 10
	for _, c := range []struct {
		tol       float64
		poolFlows int
		want      Clusters
	}{
		// Cluster {0,2} by decreasing load is [0 2]: k = 1 takes rank 1, link 2.
		{0.1, 1, Clusters{Of: []int32{0, 1, 0, 2, 3}, Pool: [][]int32{{2}, {1}, {3}, {4}}, Rep: []int32{2, 1, 2, 3, 4}}},
		{0.1, 150, Clusters{Of: []int32{0, 1, 0, 2, 3}, Pool: [][]int32{{0, 2}, {1}, {3}, {4}}, Rep: []int32{0, 1, 2, 3, 4}}},
		// Cluster {0,4,2,3} by decreasing load is [0 4 2 3]: k = 1 takes
		// rank 2 (link 2); k = ceil(250 x 4 / 400) = 3 takes ranks 0, 2, 3.
		{0.5, 1, Clusters{Of: []int32{0, 1, 0, 0, 0}, Pool: [][]int32{{2}, {1}}, Rep: []int32{2, 1, 2, 2, 2}}},
		{0.5, 250, Clusters{Of: []int32{0, 1, 0, 0, 0}, Pool: [][]int32{{0, 2, 3}, {1}}, Rep: []int32{0, 1, 2, 3, 0}}},
		{-1, 1, Clusters{Of: []int32{0, 1, 2, 3, 4}, Pool: [][]int32{{0}, {1}, {2}, {3}, {4}}, Rep: []int32{0, 1, 2, 3, 4}}},
	} {
		if got := Cluster(f, c.tol, c.poolFlows); !reflect.DeepEqual(got, c.want) {
			t.Errorf("tolerance %v, pool %d: %+v, want %+v", c.tol, c.poolFlows, got, c.want)
		}
	}
}

// TestClusterSimulateEvery: links of a kind in SimulateEvery are each a
// cluster of their own (so simulated), and the other links cluster as
// before. Two host downlinks alike share a cluster and one of them is
// simulated (link 5, rank 1 of [1 5]) until every host downlink is.
func TestClusterSimulateEvery(t *testing.T) {
	base := Features{Kind: Fabric, Rate: 400 * units.Gbps, Delay: units.Microsecond, Load: 0.5, Flows: 100, Senders: 20, RTT: 1e7}
	f := []Features{base, base, base, base, base, base}
	f[1].Kind, f[5].Kind = HostDown, HostDown
	f[2].Load = 0.46
	f[3].Load = 0.3
	f[4].Senders = 10
	want := Clusters{Of: []int32{0, 1, 0, 0, 0, 1}, Pool: [][]int32{{2}, {5}}, Rep: []int32{2, 5, 2, 2, 2, 5}}
	if got := Cluster(f, 0.5, 1); !reflect.DeepEqual(got, want) {
		t.Errorf("clustered: %+v, want %+v", got, want)
	}
	want = Clusters{Of: []int32{0, 1, 0, 0, 0, 2}, Pool: [][]int32{{2}, {1}, {5}}, Rep: []int32{2, 1, 2, 2, 2, 5}}
	if got := Cluster(f, 0.5, 1, HostDown); !reflect.DeepEqual(got, want) {
		t.Errorf("every host downlink simulated: %+v, want %+v", got, want)
	}
	for _, k := range LinkKinds {
		if got, err := ParseLinkKind(k.String()); got != k || err != nil {
			t.Errorf("ParseLinkKind(%q) = %v, %v", k.String(), got, err)
		}
	}
	if _, err := ParseLinkKind("core"); err == nil {
		t.Error(`ParseLinkKind("core"): want an error`)
	}
}

// TestDelaysBuckets checks the size buckets of a link's delays
// (Parsimon, Section 4.4: at least BucketMin flows, the largest at least
// BucketSpread times the smallest, what is left joins the last bucket)
// and the per-packet delays kept in them.
func TestDelaysBuckets(t *testing.T) {
	var rows []v2.FlowRow
	// 150 flows of 1 KB (1 packet) delayed 2 us; 150 of 1.5 KB (2 packets)
	// delayed 4 us; 50 of 10 KB (10 packets) delayed 30 us.
	add := func(n int, size, pkts, delayNs int64) {
		for range n {
			rows = append(rows, v2.FlowRow{SizeBytes: size, Packets: pkts, FCTNs: 1000 + delayNs, IdealFCTNs: 1000})
		}
	}
	add(150, 1000, 1, 2000)
	add(150, 1500, 2, 4000)
	add(50, 10_000, 10, 30_000)
	d := NewDelays(rows, nil, 0)
	// Neither 1 KB nor 1.5 KB is twice the smallest size: the first size
	// that is, 10 KB, closes one bucket holding all 350 flows.
	if d.Buckets() != 1 || d.upper[0] != 10_000 || len(d.perPkt[0]) != 350 {
		t.Fatalf("buckets %v with %d samples, want one bucket of 350 up to 10 KB", d.upper, len(d.perPkt[0]))
	}
	// Own delays in ps, per packet in the bucket.
	if d.Own[0] != 2e6 || d.Own[200] != 4e6 || d.Own[349] != 30e6 {
		t.Fatalf("own delays %v %v %v", d.Own[0], d.Own[200], d.Own[349])
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		if s := d.Sample(5000, 0, true, rng); s != 2e6 && s != 3e6 {
			t.Fatalf("sampled per-packet delay %v ps: want 2 us (1 KB flows), 2 us (1.5 KB: 4 us / 2) or 3 us (10 KB: 30 us / 10)", s)
		}
	}
	// 150 flows each of 1, 2, 5 and 10 KB: the first bucket closes at
	// 2 KB (300 flows, 2x its smallest), the second at 10 KB. An
	// unfinished flow's delay is NaN.
	rows = rows[:0]
	add(150, 1000, 1, 2000)
	add(150, 2000, 2, 2000)
	add(150, 5000, 5, 5000)
	add(150, 10_000, 10, 10_000)
	rows[0].FCTNs = -1
	d = NewDelays(rows, nil, 0)
	if !reflect.DeepEqual(d.upper, []int64{2000, 10_000}) || len(d.perPkt[0]) != 300 || len(d.perPkt[1]) != 300 {
		t.Fatalf("buckets %v (%d, %d samples), want [2000 10000] with 300 each", d.upper, len(d.perPkt[0]), len(d.perPkt[1]))
	}
	if !math.IsNaN(d.Own[0]) || !math.IsNaN(d.perPkt[0][0]) {
		t.Fatalf("unfinished flow's delay %v (per packet %v), want NaN", d.Own[0], d.perPkt[0][0])
	}
	for range 100 {
		if s := d.Sample(7000, 0, true, rng); s != 1e6 {
			t.Fatalf("a 7 KB flow drew %v ps per packet from the 5-10 KB bucket, want 1 us", s)
		}
	}
}

// TestBacklog checks Backlog by hand on a 100 Gb/s link (12.5 bytes/ns,
// 80 ns per KB): A's 125,000 B pour in at 100 Gb/s from 0 (its upstream
// link is as fast as this one: no work held), B's 125,000 B at 200 Gb/s
// from 5 us, C's 12,500 B arrive at once at 8 us (its first link is this
// one), D's 1,000 B at once at 30 us. From 5 us, A and B pour 300 Gb/s
// into 100: at 8 us the link holds 3 us x 25 B/ns = 75,000 B (6 us of
// work) for C, who adds its 12,500 B. B stops pouring at 5 + 5 = 10 us,
// A at 10 us too: the link then holds 125,000 + 12,500 B, 11 us of work,
// cleared at 21 us: D finds it idle. A and B meet none. The link lists D
// first: backlogs come back in the link's flow order, seconds.
func TestBacklog(t *testing.T) {
	us := units.Microsecond
	g100, g200 := []topology.Hop{{Rate: 100 * units.Gbps}}, []topology.Hop{{Rate: 200 * units.Gbps}}
	flows := []replay.FlowPath{
		{Size: 125_000, Start: 0, Path: append(g100, topology.Hop{})},
		{Size: 125_000, Start: 5 * us, Path: append(g200, topology.Hop{})},
		{Size: 12_500, Start: 8 * us, Path: g100},
		{Size: 1_000, Start: 30 * us, Path: g100},
	}
	l := &Link{Rate: 100 * units.Gbps, Flows: []int32{3, 0, 1, 2}, Hop: []int32{0, 1, 1, 0}}
	got := Backlog(l, flows)
	want := []float64{0, 0, 0, 6e-6}
	for k := range want {
		if math.Abs(got[k]-want[k]) > 1e-12 {
			t.Fatalf("backlog %v, want %v", got, want)
		}
	}
}

// TestSampleNearestContention: a draw takes one of the Neighbours flows
// of the size bucket whose contention is nearest the query's: 200 flows of
// one size, flow i with contention i and delay i us per packet; a query at
// contention 50.2 draws from flows 46..55 only, one at -3 from 0..9.
func TestSampleNearestContention(t *testing.T) {
	var rows []v2.FlowRow
	var ctx []float64
	for i := range 200 {
		rows = append(rows, v2.FlowRow{SizeBytes: 1000, Packets: 1, FCTNs: 1000 + int64(i)*1000, IdealFCTNs: 1000})
		ctx = append(ctx, float64(199-i)) // listed in reverse: the buckets sort them
	}
	for i := range rows {
		rows[i].FCTNs = 1000 + int64(199-i)*1000 // flow with contention c is delayed c us
	}
	d := NewDelays(rows, ctx, 0)
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[float64]bool{}
	for range 500 {
		s := d.Sample(1000, 50.2, true, rng) / 1e6
		if s < 46 || s > 55 {
			t.Fatalf("contention 50.2 drew a flow delayed %v us, want 46..55", s)
		}
		seen[s] = true
		if s := d.Sample(1000, -3, true, rng) / 1e6; s < 0 || s > 9 {
			t.Fatalf("contention -3 drew %v us, want 0..9", s)
		}
	}
	if len(seen) != Neighbours {
		t.Fatalf("drew %d distinct flows, want all %d neighbours", len(seen), Neighbours)
	}
}

// TestSampleTies: samples tied with the farthest of the Neighbours nearest
// are drawn as often as those: 150 flows of one size at backlog 0 (delays
// 0..149 us per packet, listed in that order) and 50 at backlog 1; a query
// at 0 draws from all 150 (not the first 10), one at 1 from the 50.
func TestSampleTies(t *testing.T) {
	var rows []v2.FlowRow
	var ctx []float64
	for i := range 200 {
		rows = append(rows, v2.FlowRow{SizeBytes: 1000, Packets: 1, FCTNs: 1000 + int64(i)*1000, IdealFCTNs: 1000})
		ctx = append(ctx, float64(i/150))
	}
	d := NewDelays(rows, ctx, 0)
	rng := rand.New(rand.NewPCG(5, 6))
	seen := map[float64]bool{}
	for range 3000 {
		s := d.Sample(1000, 0, true, rng) / 1e6
		if s >= 150 {
			t.Fatalf("backlog 0 drew a flow of backlog 1 (%v us)", s)
		}
		seen[s] = true
		if s := d.Sample(1000, 1, true, rng) / 1e6; s < 150 {
			t.Fatalf("backlog 1 drew a flow of backlog 0 (%v us)", s)
		}
	}
	if len(seen) != 150 {
		t.Fatalf("backlog 0 drew %d distinct flows of the 150 tied", len(seen))
	}
}

// TestSampleLongFlowWholeBucket: a flow longer than its window is not
// matched on backlog (its delay comes from the traffic arriving during its
// life): with the 200 flows of TestSampleNearestContention, an unmatched
// query at backlog 50.2 draws from the whole bucket, uniformly (each
// quarter of the delays about a quarter of the time), not from 46..55.
func TestSampleLongFlowWholeBucket(t *testing.T) {
	var rows []v2.FlowRow
	var ctx []float64
	for i := range 200 {
		rows = append(rows, v2.FlowRow{SizeBytes: 1000, Packets: 1, FCTNs: 1000 + int64(i)*1000, IdealFCTNs: 1000})
		ctx = append(ctx, float64(i))
	}
	d := NewDelays(rows, ctx, 0)
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 4000
	var quarter [4]int
	seen := map[float64]bool{}
	for range n {
		s := d.Sample(1000, 50.2, false, rng) / 1e6
		if s < 0 || s > 199 {
			t.Fatalf("drew %v us, want 0..199", s)
		}
		seen[s] = true
		quarter[int(s)/50]++
	}
	for q, c := range quarter {
		if c < n/4*8/10 || c > n/4*12/10 {
			t.Fatalf("quarter %d of the delays drawn %d times of %d, want about %d", q, c, n, n/4)
		}
	}
	if len(seen) < 190 {
		t.Fatalf("drew %d distinct flows of 200", len(seen))
	}
}

// TestNormWindow: the window a delay is normalised with is the link's
// (its flows' mean base RTT at its rate: 8 us at 100 Gb/s with 1,048-byte
// packets on the wire is 95.4 packets) where the link leaves a switch,
// and none at a host's uplink, whose NIC serves its flows' packets in
// turn: there a 5-packet flow's delay is per 5 packets, at a switch's
// egress per 95.4.
func TestNormWindow(t *testing.T) {
	l := &Link{Kind: HostDown, Rate: 100 * units.Gbps}
	w := LinkWindow(l, &Features{RTT: float64(8 * units.Microsecond)}, 1048)
	if math.Abs(w-95.42) > 0.01 {
		t.Fatalf("LinkWindow = %v packets, want 95.42", w)
	}
	if e := EffectivePackets(5, NormWindow(HostDown, w)); e != w {
		t.Fatalf("host downlink: effective packets %v, want the window %v", e, w)
	}
	if e := EffectivePackets(5, NormWindow(Fabric, w)); e != w {
		t.Fatalf("fabric link: effective packets %v, want the window %v", e, w)
	}
	if e := EffectivePackets(5, NormWindow(HostUp, w)); e != 5 {
		t.Fatalf("host uplink: effective packets %v, want the flow's 5 packets", e)
	}
}
