package estimate

import (
	"math/rand/v2"

	"context"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"math"
	"slices"
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// nicFlow is a flow of pkts full packets from host src, released at start
// (in packet times T at 100 Gb/s), on a one-hop path.
func nicFlow(id, src int32, pkts int64, start units.Time) replay.FlowPath {
	const mtu = 1000
	return replay.FlowPath{ID: id, Src: src, Dst: 99, Size: units.Bytes(pkts * mtu), Start: start,
		Path: []topology.Hop{{Rate: 100 * units.Gbps, Delay: units.Microsecond}}}
}

// TestNICSharesByHand checks NICShares' processor sharing against
// schedules worked out by hand, in packet times T (1,048 wire bytes at
// 100 Gb/s: 83,840 ps):
//   - host 0: two flows of 64 packets released together: each is served
//     at half the NIC, so chunk k (one packet each: 64 packets fit in
//     MaxChunks) is released at 2kT;
//   - host 1: one flow alone on its NIC: never slowed, not paced;
//   - host 2: A of 100 packets at 0 and B of 10 packets at 20T. A is alone
//     until 20T (20 packets served), B and A share the NIC until B is
//     done at 40T (A at 30 packets), then A is alone again and ends at
//     110T, 10T late. A's chunks are two packets (100 > MaxChunks): chunk
//     k starts at 2k packets served. B's chunk j is released at 20T+2jT.
//
// NICDelay of each paced flow on its one-hop path is how late its last
// chunk, released at its share and then sent at the NIC's full rate,
// gets through: host 0's last chunk is released at 126T and through at
// 127T against 64T alone (63T); A's at 108T, through at 110T (10T); B's
// at 38T, through at 39T against 30T (9T).
func TestNICSharesByHand(t *testing.T) {
	const mtu, hdr = 1000, 48
	T := units.TxTime(mtu+hdr, 100*units.Gbps)
	flows := []replay.FlowPath{
		nicFlow(0, 0, 64, 0), nicFlow(1, 0, 64, 0),
		nicFlow(2, 1, 64, 0),
		nicFlow(3, 2, 100, 0), nicFlow(4, 2, 10, 20*T),
	}
	got := NICShares(flows, mtu, hdr)
	want := make([][]units.Time, len(flows)) // release times, in T
	for k := range 64 {
		want[0] = append(want[0], units.Time(2*k)*T)
	}
	want[1] = want[0]
	for k := range 50 {
		served := units.Time(2 * k)
		switch {
		case served <= 20:
			want[3] = append(want[3], served*T)
		case served <= 30:
			want[3] = append(want[3], (20+2*(served-20))*T)
		default:
			want[3] = append(want[3], (40+served-30)*T)
		}
	}
	for j := range 10 {
		want[4] = append(want[4], (20+2*units.Time(j))*T)
	}
	for i, w := range want {
		var rel []units.Time
		var bytes units.Bytes
		for _, c := range got[i] {
			rel = append(rel, c.Release)
			bytes += c.Bytes
		}
		if !slices.Equal(rel, w) {
			t.Errorf("flow %d: releases %v, want %v", i, rel, w)
		}
		if len(got[i]) > 0 && bytes != flows[i].Size {
			t.Errorf("flow %d: chunks hold %d bytes, want %d", i, bytes, flows[i].Size)
		}
	}
	for i, d := range map[int]units.Time{0: 63 * T, 1: 63 * T, 2: 0, 3: 10 * T, 4: 9 * T} {
		f := &flows[i]
		if got := NICDelay(f.Path, f.Start, f.Size, got[i], mtu, hdr); got != d {
			t.Errorf("flow %d: NICDelay %v, want %v", i, got, d)
		}
	}
}

// TestNICSharesConserve: on a fat-tree workload every paced flow's chunks
// hold its bytes in whole packets (all but the last chunk full), start at
// its release, never come faster than the NIC's full rate allows and
// number at most MaxChunks; and NICShares is a function of its inputs.
func TestNICSharesConserve(t *testing.T) {
	cfg, tr := smallFatTree(t, "dcqcn")
	flows, err := replay.FlowPaths(&cfg, tr)
	if err != nil {
		t.Fatal(err)
	}
	mtu, hdr := cfg.NIC.MTUPayload, cfg.NIC.HeaderBytes
	got := NICShares(flows, mtu, hdr)
	paced := 0
	for i, ch := range got {
		if len(ch) == 0 {
			continue
		}
		paced++
		f := &flows[i]
		pkts := topology.NumPackets(f.Size, mtu)
		cp := units.Bytes(chunkPackets(pkts)) * mtu
		if len(ch) > MaxChunks || ch[0].Release != f.Start {
			t.Fatalf("flow %d: %d chunks, first at %v (start %v)", i, len(ch), ch[0].Release, f.Start)
		}
		var sum units.Bytes
		var np int64
		for k, c := range ch {
			if k < len(ch)-1 && c.Bytes != cp || c.Bytes <= 0 {
				t.Fatalf("flow %d: chunk %d holds %d bytes, want %d", i, k, c.Bytes, cp)
			}
			if k > 0 && c.Release-ch[k-1].Release < units.TxTime(units.Bytes(chunkPackets(pkts))*(mtu+hdr), f.Path[0].Rate)-1 {
				t.Fatalf("flow %d: chunk %d released %v after the one before: faster than the NIC", i, k, c.Release-ch[k-1].Release)
			}
			sum += c.Bytes
			np += topology.NumPackets(c.Bytes, mtu)
		}
		if sum != f.Size || np != pkts {
			t.Fatalf("flow %d: chunks hold %d bytes in %d packets, want %d in %d", i, sum, np, f.Size, pkts)
		}
	}
	if paced == 0 {
		t.Fatal("no flow paced: want a workload whose hosts send flows side by side")
	}
	if again := NICShares(flows, mtu, hdr); !slices.EqualFunc(got, again, func(a, b []Chunk) bool { return slices.Equal(a, b) }) {
		t.Fatal("NICShares differs between two calls")
	}
	t.Logf("%d of %d flows paced", paced, len(flows))
}

// TestSenderNICsSharesStar: on a 3-host star h0 sends 1 MB to h1 and 1 MB
// to h2 at the same instant. In the full run they share h0's NIC and each
// ends about one flow's time late. Under SenderNICsShares the port to h2
// sees its flow paced to half the NIC (its link network's trace has the
// flow's chunks, the flow's ideal there is the paced one), and the
// estimate of each flow (the largest of its NIC link's delay and the
// pacing's delay plus its delay beyond the paced ideal at the port; under
// CombineSum, the sum of its delays, the pacing's not added) is within
// 5 % of the full run's FCT: the sharing is counted once either way.
func TestSenderNICsSharesStar(t *testing.T) {
	topo := replaytest.Topology(t, "star:hosts=3", 3)
	tr := &trace.Trace{Hosts: 3}
	for i, dst := range []int32{1, 2} {
		tr.Messages = append(tr.Messages, message(i, 0, dst, 1_000_000, 0))
	}
	for _, cc := range []string{"dcqcn", "dctcp", "hpcc"} {
		t.Run(cc, func(t *testing.T) {
			cfg := config(t, topo, cc)
			full, err := replay.Run(cfg, tr)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Prepare(cfg, tr, Options{Tolerance: -1, SenderNICs: SenderNICsShares})
			if err != nil {
				t.Fatal(err)
			}
			down := slices.IndexFunc(p.links, func(l Link) bool { return l.Kind == HostDown && l.Peer == 2 })
			_, ltr, err := p.linkConfig(down)
			if err != nil {
				t.Fatal(err)
			}
			if n, want := len(ltr.Messages), len(p.pace[1]); n != want || want < MaxChunks/2 {
				t.Fatalf("the port to h2's link network has %d messages, want the flow's %d chunks", n, want)
			}
			if err := ltr.Validate(); err != nil {
				t.Fatalf("the paced trace: %v", err)
			}
			s, err := p.Simulate(context.Background(), down)
			if err != nil {
				t.Fatal(err)
			}
			ch := p.pace[1]
			f := &p.flows[1]
			if paced := ch[len(ch)-1].Release - f.Start; units.Time(s.IdealFCTNs[0])*units.Nanosecond < paced {
				t.Fatalf("the paced flow's ideal at the port is %d ns, before its last chunk's release (%v)", s.IdealFCTNs[0], paced)
			}
			for _, comb := range []string{CombineMax, CombineSum} {
				est := mustEstimate(t, cfg, tr, Options{Tolerance: -1, SenderNICs: SenderNICsShares, Combine: comb})
				for i, r := range est.Flows {
					w := full.Flows[i].FCTNs
					if e := math.Abs(float64(r.FCTNs-w)) / float64(w); e > 0.05 {
						t.Errorf("%s: flow %d: estimated FCT %d ns, full run %d ns (%.1f %% off)", comb, i, r.FCTNs, w, 100*e)
					}
				}
			}
			for i := range full.Flows {
				w := full.Flows[i].FCTNs
				if w < 2*full.Flows[i].IdealFCTNs*9/10 {
					t.Errorf("flow %d: full run FCT %d ns, ideal %d ns: want the NIC shared", i, w, full.Flows[i].IdealFCTNs)
				}
			}
		})
	}
}

// TestPacedBacklogByHand: a 50 Gb/s link (6.25 B/ns) fed at 100 Gb/s. A
// (10,000 B) starts at 0; B (1,000 B) at 800 ns. Unpaced, A pours for
// 800 ns at twice the link's rate and leaves 5,000 B (800 ns of work) for
// B. Paced into two chunks of 5,000 B released at 0 and 1,600 ns, A's
// first chunk pours for 400 ns (2,500 B held at 400 ns) and is served by
// 800 ns: B meets an idle link. A meets nothing either way. With every
// flow unpaced (nil chunks) PacedBacklog is what it is without pacing
// (Backlog) on every link of a fat-tree workload, to the bit.
func TestPacedBacklogByHand(t *testing.T) {
	path := []topology.Hop{{Rate: 100 * units.Gbps}, {Rate: 50 * units.Gbps}}
	flows := []replay.FlowPath{
		{ID: 0, Size: 10_000, Start: 0, Path: path},
		{ID: 1, Size: 1_000, Start: 800 * units.Nanosecond, Path: path},
	}
	l := &Link{Kind: Fabric, Rate: 50 * units.Gbps, Flows: []int32{0, 1}, Hop: []int32{1, 1}}
	if got := Backlog(l, flows); got[0] != 0 || math.Abs(got[1]-800e-9) > 1e-15 {
		t.Fatalf("Backlog %v, want [0 800 ns]", got)
	}
	pace := [][]Chunk{{{0, 5_000}, {1600 * units.Nanosecond, 5_000}}, nil}
	if got := PacedBacklog(l, flows, pace); got[0] != 0 || got[1] != 0 {
		t.Fatalf("PacedBacklog %v, want [0 0]", got)
	}
	// The second chunk released at 500 ns instead: the first's 2,500 B
	// have drained to 1,875 B by then, and from 500 to 800 ns the link
	// holds 6.25 B/ns more: 3,750 B, 600 ns of work for B.
	pace[0][1].Release = 500 * units.Nanosecond
	if got := PacedBacklog(l, flows, pace); math.Abs(got[1]-600e-9) > 1e-15 {
		t.Fatalf("PacedBacklog with the second chunk at 500 ns: %v, want B at 600 ns", got)
	}
	cfg, tr := smallFatTree(t, "dcqcn")
	all, err := replay.FlowPaths(&cfg, tr)
	if err != nil {
		t.Fatal(err)
	}
	links := Decompose(cfg.Topology, all)
	none := make([][]Chunk, len(all))
	for i := range links {
		if a, b := PacedBacklog(&links[i], all, nil), PacedBacklog(&links[i], all, none); !slices.Equal(a, b) {
			t.Fatalf("link %d: PacedBacklog without pacing %v, Backlog %v", i, b, a)
		}
	}
}

// TestSamplePacedMatchesPacing: of 200 flows longer than a window in one
// bucket, the 100 unpaced ones were delayed 10 us and the 100 paced ones
// (pacing ratio 1, their NIC delay their ideal) 1 us beyond their paced
// ideals. A long flow draws from those of its own pacing; without pacing
// ratios (NewDelays), SamplePaced is Sample, draw for draw.
func TestSamplePacedMatchesPacing(t *testing.T) {
	var rows []v2.FlowRow
	var nic []float64
	for i := range 200 {
		d, r := int64(10_000), 0.0
		if i%2 == 1 {
			d, r = 1_000, 1
		}
		rows = append(rows, v2.FlowRow{SizeBytes: 100_000, Packets: 100, FCTNs: 1000 + d, IdealFCTNs: 1000})
		nic = append(nic, r)
	}
	d := NewPacedDelays(rows, nil, nic, 0)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		if s := d.SamplePaced(100_000, 0, 0, false, rng); s != 100e3 {
			t.Fatalf("an unpaced flow drew %v ps per packet, want 100 ns (10 us / 100)", s)
		}
		if s := d.SamplePaced(100_000, 0, 0.9, false, rng); s != 10e3 {
			t.Fatalf("a paced flow drew %v ps per packet, want 10 ns (1 us / 100)", s)
		}
	}
	plain := NewDelays(rows, nil, 0)
	r1, r2 := rand.New(rand.NewPCG(5, 6)), rand.New(rand.NewPCG(5, 6))
	seen := map[float64]bool{}
	for range 100 {
		a, b := plain.Sample(100_000, 0, false, r1), plain.SamplePaced(100_000, 0, 0.9, false, r2)
		if a != b {
			t.Fatalf("without pacing ratios Sample drew %v, SamplePaced %v", a, b)
		}
		seen[a] = true
	}
	if len(seen) != 2 {
		t.Fatalf("without pacing ratios a long flow drew %d distinct delays, want both", len(seen))
	}
}
