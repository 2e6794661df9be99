package estimate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/internal/replaytest"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

func mustEstimate(t *testing.T, cfg replay.Config, tr *trace.Trace, opt Options) *Result {
	t.Helper()
	res, err := Run(context.Background(), cfg, tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// smallFatTree is a 16-host, three-tier fat-tree under 30 % WebSearch.
func smallFatTree(t *testing.T, cc string) (replay.Config, *trace.Trace) {
	topo := replaytest.Topology(t, "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", 16)
	tr := replaytest.Workload(t, "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=400us", 5)
	return config(t, topo, cc), tr
}

// portTotals sums a run's ports' PFC pause time (ns) and dropped packets.
func portTotals(ports []v2.PortRow) (pausedNs, dropped int64) {
	for _, pt := range ports {
		pausedNs += pt.PausedNs
		dropped += pt.DroppedPkts
	}
	return pausedNs, dropped
}

// TestEstimateDeterministic runs the same estimate with one and with
// three workers (and with each way of carrying the reverse ACKs, and with
// the senders' NICs shared) and
// wants identical results and byte-identical files:
// each flow's draws come from its own generator, not from the order link
// simulations finish in; what Prepare and Assemble split over the workers
// (each link's features and backlogs, each flow's row and message; cut
// here into chunks of a few links and flows, so that it is split) writes
// only its own indexes; and -j 3 writes the Parquet files three at a
// time.
func TestEstimateDeterministic(t *testing.T) {
	defer func(l, f int) { linkChunk, flowChunk = l, f }(linkChunk, flowChunk)
	linkChunk, flowChunk = 3, 7
	cfg, tr := smallFatTree(t, "dcqcn")
	for _, mode := range []string{AggregateOwn, AggregateSample, ReverseAcksPackets, SenderNICsShared, SenderNICsAlone} {
		opt1 := Options{Tolerance: 0.3, PoolFlows: -1, Jobs: 1, Aggregate: mode}
		switch mode {
		case ReverseAcksPackets: // with the reverse flows in the link networks
			opt1.Aggregate, opt1.ReverseAcks = AggregateOwn, mode
		case SenderNICsShared: // with the senders' other flows in the link networks, every link simulated
			opt1.Aggregate, opt1.SenderNICs, opt1.Tolerance = AggregateOwn, mode, -1
		case SenderNICsAlone: // the link networks' flows at line rate (the others: paced to their NIC shares)
			opt1.Aggregate, opt1.SenderNICs = AggregateOwn, mode
		}
		opt3 := opt1
		opt3.Jobs = 3
		a := mustEstimate(t, cfg, tr, opt1)
		b := mustEstimate(t, cfg, tr, opt3)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: estimates differ between -j 1 and -j 3", mode)
		}
		if len(a.Flows) < 20 || len(a.Links) < 20 {
			t.Fatalf("%s: %d flows on %d links: want a workload that reaches the core", mode, len(a.Flows), len(a.Links))
		}
		if a.Simulated >= len(a.Links) && mode != SenderNICsShared {
			t.Fatalf("%s: every link simulated: want represented links, whose flows draw from pooled delays", mode)
		}
		dir1, dir3 := t.TempDir(), t.TempDir()
		if _, err := WriteFolder(dir1, &cfg, "ws", nil, opt1, a); err != nil {
			t.Fatal(err)
		}
		if _, err := WriteFolder(dir3, &cfg, "ws", nil, opt3, b); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{runfolder.FlowsFile, runfolder.MessagesFile, runfolder.PortsFile, runfolder.LinksFile, runfolder.SummaryFile} {
			f1, err1 := os.ReadFile(filepath.Join(dir1, name))
			f3, err3 := os.ReadFile(filepath.Join(dir3, name))
			if err1 != nil || err3 != nil || !bytes.Equal(f1, f3) {
				t.Errorf("%s: %s differs between -j 1 and -j 3 (%v, %v)", mode, name, err1, err3)
			}
		}
	}
}

// TestSplit: every index is in exactly one chunk, whatever the number of
// workers; with more than one, no chunk is larger than asked (with one,
// the caller does everything in one call).
func TestSplit(t *testing.T) {
	for _, c := range []struct{ jobs, n, chunk int }{{1, 10, 3}, {3, 10, 3}, {2, 9, 3}, {4, 1, 5}, {2, 0, 4}, {3, 100, 1}, {2, 5, 0}} {
		var mu sync.Mutex
		seen := make([]int, c.n)
		split(c.jobs, c.n, c.chunk, func(lo, hi int) {
			mu.Lock()
			defer mu.Unlock()
			if c.jobs > 1 && hi-lo > max(c.chunk, 1) {
				t.Errorf("%+v: chunk [%d, %d) larger than %d", c, lo, hi, c.chunk)
			}
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i, k := range seen {
			if k != 1 {
				t.Errorf("%+v: index %d in %d chunks", c, i, k)
			}
		}
	}
}

// TestEstimatePhysics checks what must hold of any estimate: every flow
// finishes no sooner than its ideal (slowdown >= 1, the ideal is a lower
// bound), a flow's delay at a link it was simulated with is its own delay
// there (own mode), links.parquet accounts for every flow crossing, and a
// represented link names a simulated representative of its own kind.
func TestEstimatePhysics(t *testing.T) {
	cfg, tr := smallFatTree(t, "hpcc")
	res := mustEstimate(t, cfg, tr, Options{Tolerance: 0.3, PoolFlows: -1})
	for _, f := range res.Flows {
		if f.FCTNs < f.IdealFCTNs || f.Slowdown < 1 {
			t.Fatalf("flow %d: estimated FCT %d ns below its ideal %d ns", f.FlowID, f.FCTNs, f.IdealFCTNs)
		}
	}
	crossings := int64(0)
	for _, l := range res.Links {
		crossings += l.Flows
		r := res.Links[l.RepresentedBy]
		if !r.Simulated || r.Kind != l.Kind || r.RateBps != l.RateBps || r.Cluster != l.Cluster {
			t.Fatalf("link %d represented by %+v", l.LinkID, r)
		}
		if l.Simulated && (l.Events == 0 || l.RepresentedBy != l.LinkID) {
			t.Fatalf("simulated link %+v", l)
		}
	}
	hops := int64(0)
	for _, f := range res.Flows {
		hops += int64(f.Hops)
	}
	if crossings != hops {
		t.Fatalf("links carry %d flow crossings, flows have %d hops", crossings, hops)
	}
	if res.Simulated >= len(res.Links) || res.Simulated == 0 {
		t.Fatalf("%d of %d links simulated at tolerance 0.3: want clustering to merge some", res.Simulated, len(res.Links))
	}
	// --no-cluster simulates every link.
	all := mustEstimate(t, cfg, tr, Options{Tolerance: -1})
	if all.Simulated != len(all.Links) {
		t.Fatalf("no clustering: %d of %d links simulated", all.Simulated, len(all.Links))
	}
}

// TestEstimateOneLinkIsTheRun: on a star every flow crosses two links,
// its host's uplink and its receiver's downlink. With one flow per host
// pair and no contention (a single flow), the estimate is exact: the
// flow's delay in each link network is zero under a line-rate sender.
func TestEstimateLoneFlowIsIdeal(t *testing.T) {
	topo := replaytest.Topology(t, "star:hosts=2", 2)
	tr := replaytest.Workload(t, "incast:n=1,size=200KB", 1)
	cfg := config(t, topo, "linerate")
	res := mustEstimate(t, cfg, tr, Options{})
	full, err := replay.Run(cfg, tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Flows) != 1 || res.Flows[0].FCTNs != full.Flows[0].FCTNs || res.Flows[0].FCTNs != res.Flows[0].IdealFCTNs {
		t.Fatalf("lone flow: estimate %+v, run %+v", res.Flows, full.Flows)
	}
}

// TestEveryAlgorithmEstimates runs every registered algorithm (learned
// ones included) through the estimate on the small fat-tree.
func TestEveryAlgorithmEstimates(t *testing.T) {
	reg := all.Registry()
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			topo := replaytest.Topology(t, "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", 16)
			tr := replaytest.Workload(t, "cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=100us", 3)
			cfg := config(t, topo, name)
			res := mustEstimate(t, cfg, tr, Options{Jobs: 2})
			finished := 0
			for _, f := range res.Flows {
				if f.FCTNs >= f.IdealFCTNs {
					finished++
				}
			}
			if finished != len(res.Flows) || finished == 0 {
				t.Fatalf("%d of %d flows estimated", finished, len(res.Flows))
			}
		})
	}
}

// TestWarningsPFCIncast: a 16-to-1 incast of 2 MB flows at line rate on a
// lossless star (32 MB shared buffer; the full run sends 562 PAUSE frames)
// pauses the senders' links in the receiver's link
// simulation; the link and the run say so.
func TestWarningsPFCIncast(t *testing.T) {
	topo := replaytest.Topology(t, "star:hosts=17", 17)
	tr := replaytest.Workload(t, "incast:n=16,size=2MB", 1)
	cfg := config(t, topo, "linerate")
	res := mustEstimate(t, cfg, tr, Options{})
	if !hasWarning(res, "pfc", "PFC pauses") {
		t.Fatalf("no PFC warning: links %+v, warnings %q", res.Links, res.Warnings)
	}
}

// TestIncastLinkSimIsTheRun checks the link network of a star's
// receiver link against the full run by hand. In an N-to-1 incast on a
// star every flow crosses its sender's NIC and the switch's port to the
// receiver, and nothing else; that port's link network is the star's
// switch with all its ports (the senders on theirs, idle hosts on the
// others) and no reverse ACK load (the receiver sends nothing), so it is
// the full run: the same shared buffer, the same dynamic PFC threshold
// ((buffer - headroom and reserves of every port - shared use) / 16, FDCC,
// Zhang 2023, Section 3.3), the same per-ingress accounting. The link
// simulation must then pause the senders exactly as the full run does, and
// finish every flow at the same time; and the estimate warns of it.
// Cases: 8-to-1 and 2-to-1 on a 32-port star (2 MB and 8 MB flows: each
// ingress holds a share of the queue, so PFC fires once a sender holds
// about buffer/(16+N), 1.3 MB and 1.7 MB), lossless; and 8-to-1 of 200 KB
// with PFC off and a 200 KB buffer, which drops.
func TestIncastLinkSimIsTheRun(t *testing.T) {
	cases := []struct {
		name, incast, cc string
		lossy            bool
	}{
		{"8:1 lossless", "incast:n=8,size=2MB", "linerate", false},
		{"2:1 lossless", "incast:n=2,size=8MB", "linerate", false},
		{"8:1 lossy", "incast:n=8,size=200KB", "dcqcn", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			topo := replaytest.Topology(t, "star:hosts=32", 32)
			tr := replaytest.Workload(t, c.incast, 1)
			cfg := config(t, topo, c.cc)
			if c.lossy {
				cfg.Switch.PFC.Enabled = false
				cfg.Switch.BufferBytes = 200 * units.KB
			}
			full, err := replay.Run(cfg, tr)
			if err != nil {
				t.Fatal(err)
			}
			paused, dropped := portTotals(full.Ports)
			if c.lossy && (dropped == 0 || paused != 0) || !c.lossy && (paused == 0 || dropped != 0) {
				t.Fatalf("full run: %d ns paused, %d drops: want the case to %s", paused, dropped, map[bool]string{false: "pause", true: "drop"}[c.lossy])
			}
			p, err := Prepare(cfg, tr, Options{Tolerance: -1})
			if err != nil {
				t.Fatal(err)
			}
			down := -1
			for i := range p.links {
				if p.links[i].Kind == HostDown {
					down = i
				}
			}
			l := &p.links[down]
			if l.AckRate != 0 || len(l.Flows) != len(full.Flows) {
				t.Fatalf("receiver link: ACK rate %d, %d flows", l.AckRate, len(l.Flows))
			}
			s, err := p.Simulate(context.Background(), down)
			if err != nil {
				t.Fatal(err)
			}
			if s.PausedNs != paused || s.DroppedPkts != dropped {
				t.Errorf("link simulation: %d ns paused, %d drops; full run %d ns, %d", s.PausedNs, s.DroppedPkts, paused, dropped)
			}
			for k, fi := range l.Flows {
				if s.FCTNs[k] != full.Flows[fi].FCTNs {
					t.Errorf("flow %d: FCT %d ns in the link simulation, %d ns in the full run", fi, s.FCTNs[k], full.Flows[fi].FCTNs)
				}
			}
			res, err := p.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			tag, text := "pfc", "PFC pauses"
			if c.lossy {
				tag, text = "drops", "dropped packets"
			}
			if !hasWarning(res, tag, text) {
				t.Fatalf("no %s warning: warnings %q", tag, res.Warnings)
			}
			if row := res.Links[down]; row.PFCPausedNs != paused || row.DroppedPkts != dropped {
				t.Fatalf("links row of the receiver link: %d ns paused, %d drops; want %d, %d", row.PFCPausedNs, row.DroppedPkts, paused, dropped)
			}
		})
	}
}

// TestFabricIngressLinkSim: 8 hosts on one side of a 100 Gb/s dumbbell
// send 2 MB each at line rate to one host on the other side. The link
// under study is the right switch's port to the receiver; every flow
// enters that switch by its one fabric port. Its link network has the
// right switch with all its ports, and behind the fabric port a feeder
// switch at the fabric link's rate and delay carrying the eight senders:
// the full run, up to the order of the feeder's ports. The 800 Gb/s of
// senders meet the 100 Gb/s fabric link in the feeder (the full run's
// left switch), not at the receiver's port: the link simulation pauses the
// senders as the full run does, and the receiver's port, fed at its own
// rate, holds no queue.
func TestFabricIngressLinkSim(t *testing.T) {
	topo, err := topology.Dumbbell(8, 100*units.Gbps, 100*units.Gbps, units.Microsecond)
	if err != nil {
		t.Fatal(err)
	}
	tr := replaytest.Workload(t, "incast:n=8,size=2MB", 1)
	for i := range tr.Messages { // hosts 0..7 -> 8
		tr.Messages[i].Src, tr.Messages[i].Dst = int32(i), 8
	}
	tr.Hosts = 16
	cfg := config(t, topo, "linerate")
	full, err := replay.Run(cfg, tr)
	if err != nil {
		t.Fatal(err)
	}
	paused, _ := portTotals(full.Ports)
	p, err := Prepare(cfg, tr, Options{Tolerance: -1})
	if err != nil {
		t.Fatal(err)
	}
	down := -1
	for i := range p.links {
		if l := &p.links[i]; l.Kind == HostDown && l.Peer == 8 {
			down = i
		}
	}
	l := &p.links[down]
	c, ltr, err := p.linkConfig(down)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := replay.Run(c, ltr)
	if err != nil {
		t.Fatal(err)
	}
	lpaused, _ := portTotals(ls.Ports)
	if paused == 0 || lpaused != paused {
		t.Errorf("link simulation paused %d ns, the full run %d ns: want equal and positive", lpaused, paused)
	}
	for k, fi := range l.Flows {
		if ls.Flows[k].FCTNs != full.Flows[fi].FCTNs {
			t.Errorf("flow %d: FCT %d ns in the link simulation, %d ns in the full run", fi, ls.Flows[k].FCTNs, full.Flows[fi].FCTNs)
		}
	}
	// The receiver's port (the "up" switch's port l.Port) held at most a
	// few packets: its queue belongs to the fabric link.
	for _, pt := range ls.Ports {
		if c.Topology.Nodes[pt.Node].Name == "up" && pt.Port == l.Port && pt.QLenMaxBytes > 4*1048 {
			t.Errorf("receiver port queue reached %d B in its link simulation: want the fabric link's queue in the feeder", pt.QLenMaxBytes)
		}
	}
}

// TestLinkNetsKeepTheRunsBaseRTT: under the HPCC simulator's base RTT
// modes (--hpcc-config GLOBAL_T, docs/HPCC_CONFIG.md), every flow of every
// link network of a fat-tree is given the base RTT the full run gives it:
// the full topology's largest (third.cc maxRtt, topology.NS3MaxRTT) under
// ns3-max, its full path's pairRtt (topology.NS3BaseRTT) under ns3-pair;
// and its full path's hop count. The link networks' own largest RTT is
// smaller (two to four hops against six), which they used before.
func TestLinkNetsKeepTheRunsBaseRTT(t *testing.T) {
	for _, mode := range []replay.BaseRTTMode{replay.BaseRTTNS3Max, replay.BaseRTTNS3Pair} {
		cfg, tr := smallFatTree(t, "hpcc")
		cfg.CCBaseRTT = mode
		p, err := Prepare(cfg, tr, Options{Tolerance: -1})
		if err != nil {
			t.Fatal(err)
		}
		full, _ := topology.NS3MaxRTT(cfg.Topology, cfg.NIC.MTUPayload)
		smaller := 0
		for i := range p.links {
			c, _, err := p.linkConfig(i)
			if err != nil {
				t.Fatal(err)
			}
			if own, _ := topology.NS3MaxRTT(c.Topology, cfg.NIC.MTUPayload); own < full {
				smaller++
			}
			for k, fi := range p.links[i].Flows {
				f := &p.flows[fi]
				want := full
				if mode == replay.BaseRTTNS3Pair {
					want = topology.NS3BaseRTT(f.Path, cfg.NIC.MTUPayload)
				}
				if got := c.FlowCC[k]; got.BaseRTT != want || got.Hops != len(f.Path) {
					t.Fatalf("%s: link %s flow %d: algorithm told %v, %d hops; want %v, %d", mode, p.LinkName(i), fi, got.BaseRTT, got.Hops, want, len(f.Path))
				}
			}
		}
		if mode == replay.BaseRTTNS3Max && smaller == 0 {
			t.Fatalf("no link network has a smaller largest RTT than the fat-tree's %v: the check shows nothing", full)
		}
		a, err := p.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		b := mustEstimate(t, cfg, tr, Options{Tolerance: -1, Jobs: 2})
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: two estimates differ", mode)
		}
	}
}

// TestWarningsLossy: the same incast without PFC and with a small buffer
// drops packets in the receiver's link simulation.
func TestWarningsLossy(t *testing.T) {
	topo := replaytest.Topology(t, "star:hosts=17", 17)
	tr := replaytest.Workload(t, "incast:n=16,size=200KB", 1)
	cfg := config(t, topo, "dcqcn")
	cfg.Switch.PFC.Enabled = false
	cfg.Switch.BufferBytes = 200 * units.KB
	res := mustEstimate(t, cfg, tr, Options{})
	if !hasWarning(res, "drops", "dropped packets") {
		t.Fatalf("no drop warning: links %+v, warnings %q", res.Links, res.Warnings)
	}
}

// TestWarningsLoad: a link offered more than 95 % is reported.
func TestWarningsLoad(t *testing.T) {
	topo := replaytest.Topology(t, "star:hosts=3", 3)
	tr := replaytest.Workload(t, "incast:n=2,size=1MB", 1) // 2 MB in an instant: any span is overloaded
	cfg := config(t, topo, "dcqcn")
	tr.Messages[1].Release = 10 * units.Microsecond
	res := mustEstimate(t, cfg, tr, Options{})
	if !hasWarning(res, "load>95%", "more than 95 %") {
		t.Fatalf("no load warning: links %+v, warnings %q", res.Links, res.Warnings)
	}
}

func hasWarning(res *Result, tag, text string) bool {
	link := false
	for _, l := range res.Links {
		link = link || strings.Contains(l.Warnings, tag)
	}
	run := false
	for _, w := range res.Warnings {
		run = run || strings.Contains(w, text)
	}
	return link && run
}

// TestInterruptedBetweenLinks: a cancel that falls between two link
// simulations (here: once the first is done, -j 1) ends Run with an
// InterruptedError that counts the links done and wraps the context's
// error, not the bare "context canceled".
func TestInterruptedBetweenLinks(t *testing.T) {
	cfg, tr := smallFatTree(t, "dcqcn")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := Options{Jobs: 1, Tolerance: -1, Progress: func(done, total int) {
		if done == 1 {
			cancel()
		}
	}}
	p, err := Prepare(cfg, tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Run(ctx)
	var in *InterruptedError
	if !errors.As(err, &in) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v (%T), want an *InterruptedError wrapping context.Canceled", err, err)
	}
	want := fmt.Sprintf("interrupted after 1 of %d link simulations", len(p.Simulated()))
	if in.Done != 1 || in.Total != len(p.Simulated()) || err.Error() != want || in.Total < 2 {
		t.Errorf("err %q (done %d of %d), want %q", err, in.Done, in.Total, want)
	}
}

// TestRefusesClosedLoop: messages released by others' completion tie
// links together; estimate refuses them in one line.
func TestRefusesClosedLoop(t *testing.T) {
	topo := replaytest.Topology(t, "star:hosts=8", 8)
	tr := replaytest.Workload(t, "osu-alltoall:nodes=8,ppn=1,sizes=1KB..1KB,warmup=0,iters=1", 1)
	cfg := config(t, topo, "dcqcn")
	_, err := Run(context.Background(), cfg, tr, Options{})
	if err == nil || !strings.Contains(err.Error(), "open-loop") {
		t.Fatalf("closed-loop workload: err %v", err)
	}
	var _ = errors.New
}

// TestCombineMaxLoneFlow: a lone 3 MB HPCC flow across a fat-tree (6
// links) runs at HPCC's target utilisation (eta = 95 %, Li 2019, Section
// 3.3), a few % above its ideal; the estimate taking its largest link
// delay finds the full run's FCT within 0.5 %.
func TestCombineMaxLoneFlow(t *testing.T) {
	topo := replaytest.Topology(t, "fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2", 16)
	tr := &trace.Trace{Hosts: 16, Messages: []trace.Message{{ID: 0, Src: 0, Dst: 15, Bytes: 3_000_000, FlowID: trace.NoFlow,
		CollectiveID: trace.NoCollective, Iteration: trace.NoIteration, SrcRank: trace.NoRank, DstRank: trace.NoRank}}}
	cfg := config(t, topo, "hpcc")
	full, err := replay.Run(cfg, tr)
	if err != nil {
		t.Fatal(err)
	}
	real := full.Flows[0]
	if real.Hops != 6 || real.Slowdown < 1.01 {
		t.Fatalf("lone flow: %d hops, slowdown %.4f: want 6 hops and HPCC's few %% above the ideal", real.Hops, real.Slowdown)
	}
	for _, c := range []string{CombineMax, CombineSum} {
		got := mustEstimate(t, cfg, tr, Options{Combine: c}).Flows[0].FCTNs
		if d := float64(got)/float64(real.FCTNs) - 1; d < -0.005 || d > 0.005 {
			t.Errorf("%s: FCT %d ns, the full run's %d ns (%+.2f %%)", c, got, real.FCTNs, d*100)
		}
	}
}

// TestLinksFolder: the link simulations run as a tracked batch plan into
// a link folder give the estimate Run gives; Collect refuses a folder
// with a link not done, and a link's hash depends on the scenario only,
// not on the clustering that chose it.
func TestLinksFolder(t *testing.T) {
	cfg, tr := smallFatTree(t, "dctcp")
	opt := Options{Tolerance: 0.3, PoolFlows: -1, Jobs: 1}
	want := mustEstimate(t, cfg, tr, opt)
	p, err := Prepare(cfg, tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := PrepareLinks(root, &LinksManifest{Scenario: "s1", Inputs: []byte("{}"), Links: p.LinkItems("s1")}); err != nil {
		t.Fatal(err)
	}
	pl := p.Batch("s1")
	last := len(pl.Items) - 1
	pl.Items = pl.Items[:last] // one link not run yet
	if _, _, err := batch.Run(context.Background(), root, pl, batch.Options{Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Collect(root, "s1"); !errors.Is(err, ErrLinksNotDone) || !strings.Contains(err.Error(), "1 pending") {
		t.Fatalf("Collect with a link not done: %v", err)
	}
	if _, _, err := batch.Run(context.Background(), root, p.Batch("s1"), batch.Options{Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	sims, err := p.Collect(root, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Assemble(sims); !reflect.DeepEqual(got, want) {
		t.Fatal("the estimate from the link folder differs from Run's")
	}
	all, err := Prepare(cfg, tr, Options{Tolerance: -1})
	if err != nil {
		t.Fatal(err)
	}
	hashes := map[int]string{}
	for _, it := range all.LinkItems("s1") {
		hashes[it.Index] = it.Hash
	}
	for _, it := range p.LinkItems("s1") {
		if hashes[it.Index] != it.Hash {
			t.Fatalf("link %d: hash %s under one clustering, %s under another", it.Index, it.Hash, hashes[it.Index])
		}
	}
	if p.LinkItems("s2")[0].Hash == p.LinkItems("s1")[0].Hash {
		t.Fatal("a link's hash does not depend on the scenario")
	}
	// The senders' NICs change the link networks: each choice its hash
	// (all's are the default's, SenderNICsShares).
	base := all.LinkItems("s1")
	for _, mode := range []string{SenderNICsAlone, SenderNICsShared} {
		q, err := Prepare(cfg, tr, Options{Tolerance: -1, SenderNICs: mode})
		if err != nil {
			t.Fatal(err)
		}
		for k, it := range q.LinkItems("s1") {
			if it.Hash == base[k].Hash {
				t.Fatalf("%s: link %d has the hash it has with the NICs' shares", mode, it.Index)
			}
		}
	}
}

// TestOptionDefaults: empty settings take their defaults, the choices are
// kept, and a setting that is none of them is an error naming it.
func TestOptionDefaults(t *testing.T) {
	o, err := Options{}.withDefaults()
	if err != nil || o.Aggregate != AggregateOwn || o.Combine != CombineMax || o.PoolFlows != DefaultPoolFlows || o.ReverseAcks != ReverseAcksRate {
		t.Errorf("zero options: %+v, %v", o, err)
	}
	o, err = Options{Aggregate: AggregateSample, Combine: CombineSum, PoolFlows: -1}.withDefaults()
	if err != nil || o.Aggregate != AggregateSample || o.Combine != CombineSum || o.PoolFlows != -1 {
		t.Errorf("set options: %+v, %v", o, err)
	}
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Aggregate: "mean"}, `aggregation "mean": want own or sample`},
		{Options{Combine: "min"}, `combination "min": want max or sum`},
		{Options{Aggregate: "mean", Combine: "min"}, `aggregation "mean": want own or sample`},
		{Options{ReverseAcks: "mean"}, `reverse ACKs "mean": want rate or packets`},
	} {
		if _, err := c.opt.withDefaults(); err == nil || err.Error() != c.want {
			t.Errorf("%+v: error %v, want %s", c.opt, err, c.want)
		}
	}
}

// TestReverseFlowsStar: on a 3-host star, h0 sends 1 MB to h1, h2 sends
// 2 KB to h1 60 us later (while the first flow runs at its line rate), and
// h1 sends 1 MB to h2 once both are done. The switch's port to h1 carries
// the first two flows and the ACKs of the third. With ReverseAcksRate its
// link network runs the port slower by those ACKs' mean rate over the
// trace (97.6 Gb/s), below the 100 Gb/s the first flow arrives at: a
// standing queue the full run never has, which holds the small flow back
// under DCQCN and DCTCP (docs/ESTIMATE.md measured 3.8 against 2.4 us).
// With ReverseAcksPackets the third flow runs in that link network, from
// h1 itself to h2 (the sender behind the switch's port to h2, as its ACKs
// enter the switch by that port in the full run), the port at its rate:
// the link network is then the full run (the same switch, ports, hosts and
// flows), and the small flow's delay there is the full run's to the
// nanosecond; so is every flow's estimate (each other link's network
// holds the link's flows alone at their line rate, or the full run less
// flows that never overlap them).
func TestReverseFlowsStar(t *testing.T) {
	topo := replaytest.Topology(t, "star:hosts=3", 3)
	tr := &trace.Trace{Hosts: 3}
	for i, m := range []struct {
		src, dst int32
		size     int64
		at       units.Time
	}{{0, 1, 1_000_000, 0}, {2, 1, 2_000, 60 * units.Microsecond}, {1, 2, 1_000_000, 200 * units.Microsecond}} {
		tr.Messages = append(tr.Messages, message(i, m.src, m.dst, m.size, m.at))
	}
	for _, cc := range []string{"dcqcn", "dctcp"} {
		t.Run(cc, func(t *testing.T) {
			cfg := config(t, topo, cc)
			full, err := replay.Run(cfg, tr)
			if err != nil {
				t.Fatal(err)
			}
			small := full.Flows[1]
			delay := map[string]int64{}
			for _, mode := range []string{ReverseAcksRate, ReverseAcksPackets} {
				p, err := Prepare(cfg, tr, Options{Tolerance: -1, ReverseAcks: mode})
				if err != nil {
					t.Fatal(err)
				}
				down := -1
				for i, l := range p.links {
					if l.Kind == HostDown && l.Peer == 1 {
						down = i
					}
				}
				l := &p.links[down]
				if !reflect.DeepEqual(l.Flows, []int32{0, 1}) {
					t.Fatalf("%s: the port to h1 carries flows %v", mode, l.Flows)
				}
				s, err := p.Simulate(context.Background(), down)
				if err != nil {
					t.Fatal(err)
				}
				delay[mode] = s.FCTNs[1] - s.IdealFCTNs[1]
				if mode == ReverseAcksRate {
					if l.AckRate == 0 || len(l.Rev) != 0 || s.ReverseFlows != 0 {
						t.Fatalf("rate: ACK rate %d, %d reverse flows (%d simulated)", l.AckRate, len(l.Rev), s.ReverseFlows)
					}
					continue
				}
				if l.AckRate != 0 || len(l.Rev) != 1 || l.Rev[0].Flow != 2 || s.ReverseFlows != 1 {
					t.Fatalf("packets: ACK rate %d, reverse flows %+v (%d simulated)", l.AckRate, l.Rev, s.ReverseFlows)
				}
				c, _, err := p.linkConfig(down)
				if err != nil {
					t.Fatal(err)
				}
				if n := c.Topology; n.NumHosts != 3 || len(n.Nodes) != 4 {
					t.Fatalf("packets: the link network has %d nodes, %d hosts; want the star", len(n.Nodes), n.NumHosts)
				}
				res, err := p.Run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				for i, f := range full.Flows {
					if e := res.Flows[i]; e.FCTNs != f.FCTNs {
						t.Errorf("packets: flow %d: the estimate finishes it in %d ns, the full run in %d ns", i, e.FCTNs, f.FCTNs)
					}
				}
			}
			want := small.FCTNs - small.IdealFCTNs
			if delay[ReverseAcksPackets] != want {
				t.Errorf("the 2 KB flow is delayed %d ns in the link simulation with its reverse flow, %d ns in the full run", delay[ReverseAcksPackets], want)
			}
			if delay[ReverseAcksRate] <= want+500 {
				t.Errorf("the 2 KB flow is delayed %d ns with the ACK rate taken off, %d ns in the full run: want the standing queue that makes it longer", delay[ReverseAcksRate], want)
			}
			t.Logf("%s: the 2 KB flow's delay: full run %d ns, link simulation %d ns (packets), %d ns (rate)", cc, want, delay[ReverseAcksPackets], delay[ReverseAcksRate])
		})
	}
}

// TestSenderNICsStar: on a 3-host star h0 sends 1 MB to h1 and, 30 us
// later, 4 KB to h2. The port to h2 carries the small flow only; in the
// full run its packets leave h0's NIC between the large flow's. With
// SenderNICsShared the large flow is in that port's link network as its
// sender's other flow, leaving the switch by the port to h1, so the link
// network is the star itself and the small flow is delayed there exactly
// as in the full run; with SenderNICsAlone its NIC is its own and it is
// not delayed at all.
func TestSenderNICsStar(t *testing.T) {
	topo := replaytest.Topology(t, "star:hosts=3", 3)
	tr := &trace.Trace{Hosts: 3}
	for i, m := range []struct {
		dst  int32
		size int64
		at   units.Time
	}{{1, 1_000_000, 0}, {2, 4_000, 30 * units.Microsecond}} {
		tr.Messages = append(tr.Messages, message(i, 0, m.dst, m.size, m.at))
	}
	for _, cc := range []string{"dcqcn", "dctcp", "hpcc"} {
		t.Run(cc, func(t *testing.T) {
			cfg := config(t, topo, cc)
			full, err := replay.Run(cfg, tr)
			if err != nil {
				t.Fatal(err)
			}
			want := full.Flows[1].FCTNs - full.Flows[1].IdealFCTNs
			delay := map[string]int64{}
			for _, mode := range []string{SenderNICsAlone, SenderNICsShared} {
				p, err := Prepare(cfg, tr, Options{Tolerance: -1, SenderNICs: mode})
				if err != nil {
					t.Fatal(err)
				}
				down := slices.IndexFunc(p.links, func(l Link) bool { return l.Kind == HostDown && l.Peer == 2 })
				l := &p.links[down]
				if wantSide := map[string][]int32{SenderNICsShared: {0}}[mode]; !reflect.DeepEqual(l.Flows, []int32{1}) || !reflect.DeepEqual(l.Side, wantSide) {
					t.Fatalf("%s: the port to h2 carries flows %v and its senders' %v", mode, l.Flows, l.Side)
				}
				s, err := p.Simulate(context.Background(), down)
				if err != nil {
					t.Fatal(err)
				}
				if len(s.FCTNs) != 1 || s.SideFlows != len(l.Side) {
					t.Fatalf("%s: %d flows read, %d senders' flows simulated", mode, len(s.FCTNs), s.SideFlows)
				}
				delay[mode] = s.FCTNs[0] - s.IdealFCTNs[0]
				if mode == SenderNICsShared {
					c, _, err := p.linkConfig(down)
					if err != nil {
						t.Fatal(err)
					}
					if n := c.Topology; n.NumHosts != 3 || len(n.Nodes) != 4 {
						t.Fatalf("shared: the link network has %d nodes, %d hosts; want the star", len(n.Nodes), n.NumHosts)
					}
				}
			}
			if delay[SenderNICsShared] != want {
				t.Errorf("the 4 KB flow is delayed %d ns in the link simulation with its sender's other flow, %d ns in the full run", delay[SenderNICsShared], want)
			}
			if want <= 0 || delay[SenderNICsAlone] >= want {
				t.Errorf("the 4 KB flow is delayed %d ns in the full run, %d ns alone on its NIC: want the NIC's sharing to delay it", want, delay[SenderNICsAlone])
			}
			t.Logf("%s: the 4 KB flow's delay: full run %d ns, link simulation %d ns (shared), %d ns (alone)", cc, want, delay[SenderNICsShared], delay[SenderNICsAlone])
		})
	}
}

// TestSenderNICsSharedRefusesClustering: with clustering a flow would take
// the largest of several other flows' NIC delays from pooled links
// (measured on the 320-host fat-tree, docs/ESTIMATE.md), so the shared
// NICs need every link simulated.
func TestSenderNICsSharedRefusesClustering(t *testing.T) {
	cfg, tr := smallFatTree(t, "dcqcn")
	if _, err := Prepare(cfg, tr, Options{Tolerance: DefaultTolerance, SenderNICs: SenderNICsShared}); !errors.Is(err, ErrSharedNICsClustered) {
		t.Fatalf("shared NICs with clustering: %v", err)
	}
	if _, err := Prepare(cfg, tr, Options{Tolerance: -1, SenderNICs: SenderNICsShared}); err != nil {
		t.Fatal(err)
	}
}

// TestDrawSeed: Options.DrawSeed reseeds only the draws of the flows'
// delays at the links not simulated (method step 4 in docs/ESTIMATE.md):
// the scenario's own seed gives the default estimate exactly; another
// seed, on the same link simulations, leaves the links and every flow
// whose links were all simulated (their own delays, AggregateOwn) as they
// were and moves some flow that drew. The manifest echoes the seed used.
func TestDrawSeed(t *testing.T) {
	cfg, tr := smallFatTree(t, "dcqcn")
	p, err := Prepare(cfg, tr, Options{Tolerance: 0.3, PoolFlows: -1, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	sims := make([]*LinkSim, p.Links())
	for _, i := range p.Simulated() {
		if sims[i], err = p.Simulate(context.Background(), i); err != nil {
			t.Fatal(err)
		}
	}
	base := p.Assemble(sims)
	same := cfg.Seed
	p.opt.DrawSeed = &same
	if !reflect.DeepEqual(p.Assemble(sims), base) {
		t.Fatal("DrawSeed = the scenario's seed: the estimate differs from the default's")
	}
	other := cfg.Seed + 1
	p.opt.DrawSeed = &other
	o := p.Assemble(sims)
	if !reflect.DeepEqual(o.Links, base.Links) {
		t.Error("another draw seed changed links.parquet's rows")
	}
	drew := make([]bool, len(p.flows)) // a hop at a link not simulated
	for li := range p.links {
		if int(p.cl.Rep[li]) != li {
			for _, fi := range p.links[li].Flows {
				drew[fi] = true
			}
		}
	}
	moved, drawing := 0, 0
	for i := range base.Flows {
		if drew[i] {
			drawing++
		}
		if !reflect.DeepEqual(base.Flows[i], o.Flows[i]) {
			if !drew[i] {
				t.Errorf("flow %d: every link of its path simulated, yet another draw seed moved it", base.Flows[i].FlowID)
			}
			moved++
		}
	}
	if drawing == 0 || moved == 0 {
		t.Fatalf("%d flows drew at links not simulated, %d moved with the draw seed: want some of each", drawing, moved)
	}
	if got := Manifest(&cfg, "ws", Options{DrawSeed: &other}, o).Estimate.DrawSeed; got != other {
		t.Errorf("manifest draw_seed %d, want %d", got, other)
	}
	if got := Manifest(&cfg, "ws", Options{}, base).Estimate.DrawSeed; got != cfg.Seed {
		t.Errorf("manifest draw_seed %d by default, want the run's seed %d", got, cfg.Seed)
	}
	t.Logf("%d of %d flows drew at links not simulated; %d moved", drawing, len(base.Flows), moved)
}

// TestSimulateEvery: with SimulateEvery HostDown every host downlink is
// simulated (links.parquet's rows), other links are still represented,
// and every flow's delay at its host downlink is its own there: a flow
// whose other links were all simulated too keeps its no-clustering
// estimate. The manifest echoes the kinds.
func TestSimulateEvery(t *testing.T) {
	cfg, tr := smallFatTree(t, "dcqcn")
	opt := Options{Tolerance: 0.3, PoolFlows: -1, Jobs: 2, SimulateEvery: []LinkKind{HostDown}}
	res := mustEstimate(t, cfg, tr, opt)
	represented := 0
	for _, r := range res.Links {
		if r.Kind == HostDown.String() && !r.Simulated {
			t.Errorf("link %d (host-down) represented by %d", r.LinkID, r.RepresentedBy)
		}
		if !r.Simulated {
			represented++
		}
	}
	if represented == 0 {
		t.Fatal("every link simulated: want the other kinds clustered")
	}
	all := mustEstimate(t, cfg, tr, Options{Tolerance: -1, Jobs: 2})
	p, err := Prepare(cfg, tr, opt)
	if err != nil {
		t.Fatal(err)
	}
	drew := make([]bool, len(p.flows))
	for li := range p.links {
		if int(p.cl.Rep[li]) != li {
			for _, fi := range p.links[li].Flows {
				drew[fi] = true
			}
		}
	}
	same := 0
	for i := range res.Flows {
		if !drew[i] {
			if !reflect.DeepEqual(res.Flows[i], all.Flows[i]) {
				t.Errorf("flow %d: every link of its path simulated, yet its estimate differs from --no-cluster's", res.Flows[i].FlowID)
			}
			same++
		}
	}
	if same == 0 {
		t.Fatal("no flow with every link simulated")
	}
	if got := Manifest(&cfg, "ws", opt, res).Estimate.SimulateEvery; !reflect.DeepEqual(got, []string{"host-down"}) {
		t.Errorf("manifest simulate_every %v", got)
	}
}
