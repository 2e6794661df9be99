package estimate

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// TestCluster checks the greedy clustering by hand: links 0, 2 and 3 are
// alike within 10 % (2 differs by 8 % in load, 3 by 9 % in the median
// size), 1 is a different kind, 4 differs by 20 % in flow count; at
// tolerance 0.25 link 4 joins link 0 too; negative simulates every link.
func TestCluster(t *testing.T) {
	base := Features{Kind: Fabric, Rate: 400 * units.Gbps, Delay: units.Microsecond, Load: 0.5, Flows: 100, Senders: 20, RTT: 1e7,
		Sizes: [5]float64{1e3, 1e4, 1e5, 1e6, 1e7}}
	f := []Features{base, base, base, base, base}
	f[1].Kind = HostDown
	f[2].Load = 0.46
	f[3].Sizes[1] = 1.09e4
	f[4].Flows = 80
	for _, c := range []struct {
		tol  float64
		want []int32
	}{
		{0.1, []int32{0, 1, 0, 0, 4}},
		{0.25, []int32{0, 1, 0, 0, 0}},
		{-1, []int32{0, 1, 2, 3, 4}},
	} {
		if got := Cluster(f, c.tol); !reflect.DeepEqual(got, c.want) {
			t.Errorf("tolerance %v: representatives %v, want %v", c.tol, got, c.want)
		}
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
	d := NewDelays(rows)
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
		if s := d.Sample(5000, rng); s != 2e6 && s != 3e6 {
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
	d = NewDelays(rows)
	if !reflect.DeepEqual(d.upper, []int64{2000, 10_000}) || len(d.perPkt[0]) != 300 || len(d.perPkt[1]) != 300 {
		t.Fatalf("buckets %v (%d, %d samples), want [2000 10000] with 300 each", d.upper, len(d.perPkt[0]), len(d.perPkt[1]))
	}
	if !math.IsNaN(d.Own[0]) || !math.IsNaN(d.perPkt[0][0]) {
		t.Fatalf("unfinished flow's delay %v (per packet %v), want NaN", d.Own[0], d.perPkt[0][0])
	}
	for range 100 {
		if s := d.Sample(7000, rng); s != 1e6 {
			t.Fatalf("a 7 KB flow drew %v ps per packet from the 5-10 KB bucket, want 1 us", s)
		}
	}
}
