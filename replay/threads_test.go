package replay

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// A run split among partitions (Config.Threads) gives the same outputs,
// byte for byte, as the run on one: every file of the run folder is
// compared for 1, 2, 3 and 4 partitions, on workloads that cross
// partitions every microsecond (WebSearch on the HPCC fat-tree), congest
// (an incast with RED marking in every switch), drop packets (PFC off, a
// small buffer) and carry INT (HPCC), with packets.parquet at each level
// (its rows merged from the partitions at barriers). An all-to-all whose rounds wait for
// deliveries at other hosts keeps every host in the first partition and
// says why.
func TestThreadsSameOutputs(t *testing.T) {
	cases := []struct {
		name, topo, wl, cc string
		lossy              bool
		packets            PacketLevel
		hostsWhy           string // the expected HostsWhy, if any
	}{
		{"websearch-fattree", "hpcc-fattree", "cdf:dist=websearch,hosts=320,bw=100G,load=0.3,duration=200us", "dcqcn", false, PacketsNone, ""},
		{"incast-star", "star", "incast:n=16,size=1MB", "dcqcn", false, PacketsAll, ""},
		{"websearch-hpcc", "fattree:pods=2", "cdf:dist=websearch,hosts=128,bw=100G,load=0.5,duration=200us", "hpcc", false, PacketsData, ""},
		{"lossy-star", "star", "incast:n=8,size=200KB", "dcqcn", true, PacketsAll, ""},
		{"alltoall-fattree", "fattree:pods=2", "osu-alltoall:nodes=128,ppn=1,sizes=4KiB,warmup=0,iters=1,algo=pairwise", "dcqcn", false, PacketsData,
			"message 128 at host 0 depends on message 0, delivered at host 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tr := replaytest.Workload(t, c.wl, 5)
			var ref map[string][]byte
			for _, threads := range []int{1, 2, 3, 4} {
				cfg := baseConfig(t, replaytest.Topology(t, c.topo, tr.Hosts), c.cc)
				cfg.Threads = threads
				cfg.CheckEvery = 50_000_000 // 50 us
				cfg.Packets = c.packets
				if c.lossy {
					cfg.Switch.PFC.Enabled = false
					cfg.Switch.BufferBytes = 100_000
					cfg.NIC.WindowBDP = true
					cfg.NIC.RTO = 200 * units.Microsecond
				}
				dir := t.TempDir()
				res := mustRun(t, cfg, tr, dir)
				if res.Partitions != threads || res.SerialWhy != "" {
					t.Errorf("threads %d: ran on %d partitions (%s)", threads, res.Partitions, res.SerialWhy)
				}
				want := c.hostsWhy
				if threads == 1 {
					want = ""
				}
				if res.HostsWhy != want {
					t.Errorf("threads %d: hosts together because %q, want %q", threads, res.HostsWhy, want)
				}
				got := readDir(t, dir)
				if ref == nil {
					ref = got
					t.Logf("%d flows, %d data packets, %d events, %d packet rows, sim end %v", len(res.Flows), res.DataPackets, res.Events, res.PacketRows, res.SimEnd)
					if c.packets != PacketsNone && res.PacketRows < res.DataPackets {
						t.Errorf("%d packet rows for %d data packets", res.PacketRows, res.DataPackets)
					}
					if c.lossy && metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).DropsPkts == 0 {
						t.Error("the lossy case dropped nothing: its drop rows are not tested")
					}
					continue
				}
				sameFolder(t, threads, ref, got)
			}
		})
	}
}

// Every registered algorithm gives the same run folder, packets.parquet
// included, on one partition and on two or three: none of them shares
// state between flows at different hosts (or, if one did, the race
// detector in make test-race would say so here). A 24-to-1 incast over a
// two-pod fat-tree, senders in both pods, so that queues build and every
// algorithm's signals (ECN, CNPs, INT, RTT) come into play.
func TestThreadsSameOutputsEveryAlgorithm(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=24,size=150KB,jitter=3us", 3)
	topo := replaytest.Topology(t, "fattree:pods=2,hosts=8", tr.Hosts)
	reg := all.Registry()
	for _, cc := range reg.Names() {
		t.Run(cc, func(t *testing.T) {
			t.Parallel()
			spec, err := reg.Build(cc, nil)
			if err != nil {
				t.Fatal(err)
			}
			var ref map[string][]byte
			for _, threads := range []int{1, 2, 3} {
				cfg := baseConfig(t, topo, "linerate")
				cfg.CC = spec
				cfg.ApplyCCHints()
				cfg.Threads = threads
				cfg.Packets = PacketsData
				dir := t.TempDir()
				res := mustRun(t, cfg, tr, dir)
				if res.Partitions != threads {
					t.Fatalf("threads %d: %d partitions (%s)", threads, res.Partitions, res.SerialWhy)
				}
				got := readDir(t, dir)
				if ref == nil {
					ref = got
					allFinished(t, res)
					t.Logf("%d flows, %d data packets, %d events, ECN ratio %.3f, max queue %d B", len(res.Flows), res.DataPackets, res.Events, metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).ECNRatio, metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).QLenMaxBytes)
					continue
				}
				sameFolder(t, threads, ref, got)
			}
		})
	}
}

// sameFolder reports every file of ref (the run on one partition) that
// got (the run on threads partitions) does not have byte for byte.
func sameFolder(t *testing.T, threads int, ref, got map[string][]byte) {
	t.Helper()
	for name, b := range ref {
		if !bytes.Equal(b, got[name]) {
			t.Errorf("threads %d: %s differs from the run on one partition", threads, name)
		}
	}
}

func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	if len(out) == 0 {
		t.Fatal("no output files")
	}
	return out
}

// partitionNodes splits the HPCC fat-tree (320 hosts, 20 ToRs, 20
// aggregation and 16 core switches) evenly tier by tier, keeps each ToR
// with its hosts, and cuts few of the links.
func TestPartitionNodesFatTree(t *testing.T) {
	topo := replaytest.Topology(t, "hpcc-fattree", 320)
	for _, n := range []int{2, 4} {
		part := partitionNodes(topo, n, false)
		count := map[string][]int{}
		cut, links := 0, 0
		for i := range topo.Nodes {
			nd := &topo.Nodes[i]
			tier := strings.TrimRight(nd.Name, "0123456789")
			if count[tier] == nil {
				count[tier] = make([]int, n)
			}
			count[tier][part[i]]++
			for _, p := range nd.Ports {
				links++
				if part[p.Peer] != part[i] {
					cut++
				}
				if nd.Kind == topology.Host && part[p.Peer] != part[i] {
					t.Errorf("%d partitions: host %s apart from its ToR", n, nd.Name)
				}
			}
		}
		for tier, c := range count {
			for p := range c {
				if c[p] != c[0] {
					t.Errorf("%d partitions: tier %s split %v, want even", n, tier, c)
					break
				}
			}
		}
		if cut*4 > links {
			t.Errorf("%d partitions: %d of %d link ends cut", n, cut, links)
		}
		t.Logf("%d partitions: %v, %d of %d link ends cut", n, count, cut, links)
	}
}

// On a star the one switch has as much port rate as all its hosts
// together, and a host's port costs more than a switch's (hostCostNum /
// hostCostDen), so the switch's partition takes only a few hosts, the
// rest fill the others in consecutive blocks, and the partitions' work
// differs by no more than one host's.
func TestPartitionNodesStar(t *testing.T) {
	topo := replaytest.Topology(t, "star", 16)
	sw := -1
	for i := range topo.Nodes {
		if topo.Nodes[i].Kind != topology.Host {
			sw = i
		}
	}
	hostWork := int64(100 * hostCostNum / hostCostDen) // one 100 Gb/s port
	for _, n := range []int{2, 4} {
		part := partitionNodes(topo, n, false)
		count := make([]int, n)
		work := make([]int64, n)
		work[part[sw]] = 16 * 100
		last := int32(-1)
		for i := range topo.Nodes {
			if i == sw {
				continue
			}
			count[part[i]]++
			work[part[i]] += hostWork
			if part[i] < last {
				t.Errorf("%d partitions: host %d in partition %d after one in %d: blocks not consecutive", n, i, part[i], last)
			}
			last = part[i]
		}
		t.Logf("%d partitions: switch in %d, hosts per partition %v, work %v", n, part[sw], count, work)
		// The switch cannot be split: its partition may hold more than the
		// others, but no host beside it then; the others differ by at most
		// one host's work.
		others := slices.Delete(slices.Clone(work), int(part[sw]), int(part[sw])+1)
		if lo, hi := slices.Min(others), slices.Max(others); hi-lo > hostWork {
			t.Errorf("%d partitions: work %v differs by more than one host's (%d)", n, work, hostWork)
		}
		if w := work[part[sw]]; w > slices.Max(others)+hostWork && count[part[sw]] > 0 {
			t.Errorf("%d partitions: work %v: hosts beside a switch that is already the most work", n, work)
		}
		for p, c := range count {
			if int32(p) != part[sw] && c <= count[part[sw]] {
				t.Errorf("%d partitions: %v hosts per partition, want fewer beside the switch", n, count)
				break
			}
		}
	}
}

// With hostsTogether (a trace whose messages wait for deliveries at other
// hosts) every host is in the first partition and the switches fill the
// others first, so that the partitions' work (the sum of their ports'
// rates) stays within a tenth of each other.
func TestPartitionNodesHostsTogether(t *testing.T) {
	for _, name := range []string{"hpcc-fattree", "star"} {
		topo := replaytest.Topology(t, name, 16)
		for _, n := range []int{2, 3} {
			part := partitionNodes(topo, n, true)
			work := make([]int64, n)
			for i := range topo.Nodes {
				nd := &topo.Nodes[i]
				if nd.Kind == topology.Host && part[i] != 0 {
					t.Errorf("%s, %d partitions: host %s in partition %d", name, n, nd.Name, part[i])
				}
				for _, p := range nd.Ports {
					work[part[i]] += int64(p.Rate / units.Gbps)
				}
			}
			t.Logf("%s, %d partitions: work %v", name, n, work)
			if name == "star" {
				continue // one switch: it cannot be cut in two
			}
			lo, hi := slices.Min(work), slices.Max(work)
			if 10*(hi-lo) > hi {
				t.Errorf("%s, %d partitions: work %v, want within 10 %%", name, n, work)
			}
		}
	}
}

// Two hosts cabled back to back, and a message released by a delivery at
// the other host: with no switch to split off the hosts, the run takes one
// partition and says why; the outputs are those of --threads 1.
func TestThreadsHostsOnly(t *testing.T) {
	topo := &topology.Topology{Name: "back-to-back", NumHosts: 2, Nodes: []topology.Node{
		{ID: 0, Kind: topology.Host, Name: "h0", Ports: []topology.Port{{Peer: 1, PeerPort: 0, Rate: 100 * units.Gbps, Delay: units.Microsecond}}},
		{ID: 1, Kind: topology.Host, Name: "h1", Ports: []topology.Port{{Peer: 0, PeerPort: 0, Rate: 100 * units.Gbps, Delay: units.Microsecond}}},
	}}
	if err := topo.Validate(); err != nil {
		t.Fatal(err)
	}
	tr := &trace.Trace{Hosts: 2, Messages: []trace.Message{
		{ID: 0, Src: 0, Dst: 1, Bytes: 100_000, FlowID: -1, CollectiveID: -1, Iteration: -1, SrcRank: -1, DstRank: -1},
		{ID: 1, Src: 0, Dst: 1, Bytes: 100_000, FlowID: -1, CollectiveID: -1, Iteration: -1, SrcRank: -1, DstRank: -1, Deps: []int64{0}},
	}}
	var ref map[string][]byte
	for _, threads := range []int{1, 2} {
		cfg := baseConfig(t, topo, "dcqcn")
		cfg.Threads = threads
		dir := t.TempDir()
		res := mustRun(t, cfg, tr, dir)
		allFinished(t, res)
		if threads == 2 {
			want := "message 1 at host 0 depends on message 0, delivered at host 1"
			if res.Partitions != 1 || res.SerialWhy != want || res.HostsWhy != "" {
				t.Errorf("%d partitions, serial %q, hosts %q; want 1 and %q", res.Partitions, res.SerialWhy, res.HostsWhy, want)
			}
		}
		got := readDir(t, dir)
		if ref == nil {
			ref = got
			continue
		}
		sameFolder(t, threads, ref, got)
	}
}

// A topology with a link of no delay gives no lookahead: the run takes one
// partition and says why, with the same outputs.
func TestThreadsZeroDelayLink(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=4,size=100KB", 1)
	topo := replaytest.Topology(t, "star:delay=0ns", tr.Hosts)
	cfg := baseConfig(t, topo, "dcqcn")
	cfg.Threads = 2
	res := mustRun(t, cfg, tr, "")
	if res.Partitions != 1 || res.SerialWhy != "a link has no propagation delay" {
		t.Errorf("partitions %d, reason %q", res.Partitions, res.SerialWhy)
	}
	allFinished(t, res)
}

// The PFC observer and the queue sampler see the same frames and samples,
// in the same order, for any number of partitions: a 16-to-1 incast into
// a 1 MB buffer pauses the senders, and the switches are sampled every
// 200 ns.
func TestThreadsPFCAndSamples(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=16,size=1MB", 1)
	var ref []string
	for _, threads := range []int{1, 2, 4} {
		cfg := baseConfig(t, replaytest.Topology(t, "fattree:pods=1,tors=2,hosts=9,aggs=2", tr.Hosts), "dcqcn")
		cfg.Threads = threads
		cfg.Switch.BufferBytes = 1_000_000
		var log []string
		cfg.PFCObserver = func(now units.Time, node, port int32, prio uint8, pause bool) {
			log = append(log, fmt.Sprintf("pfc %d %d %d %d %v", now, node, port, prio, pause))
		}
		cfg.QueueSampler = &QueueSampler{Start: 0, Every: 200_000, End: 10 * units.Millisecond,
			Sample: func(now units.Time, sws []*switchmodel.Switch) {
				var b units.Bytes
				for _, sw := range sws {
					for j := 0; j < sw.NumPorts(); j++ {
						b += sw.Port(j).Bytes()
					}
				}
				log = append(log, fmt.Sprintf("q %d %d", now, b))
			}}
		res := mustRun(t, cfg, tr, "")
		allFinished(t, res)
		if threads > 1 && res.Partitions != threads {
			t.Fatalf("threads %d: %d partitions (%s)", threads, res.Partitions, res.SerialWhy)
		}
		pfc := 0
		for _, l := range log {
			if strings.HasPrefix(l, "pfc") {
				pfc++
			}
		}
		if pfc == 0 || len(log)-pfc < 1000 {
			t.Fatalf("threads %d: %d PFC frames and %d samples: the incast should pause and be sampled", threads, pfc, len(log)-pfc)
		}
		if ref == nil {
			ref = log
			continue
		}
		if len(log) != len(ref) {
			t.Fatalf("threads %d: %d records, want %d", threads, len(log), len(ref))
		}
		for i := range log {
			if log[i] != ref[i] {
				t.Fatalf("threads %d: record %d is %q, want %q", threads, i, log[i], ref[i])
			}
		}
	}
}
