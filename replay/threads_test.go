package replay

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

// A run split among partitions (Config.Threads) gives the same outputs,
// byte for byte, as the run on one: every file of the run folder is
// compared for 1, 2, 3 and 4 partitions, on workloads that cross
// partitions every microsecond (WebSearch on the HPCC fat-tree), congest
// (an incast with RED marking in every switch), drop packets (PFC off, a
// small buffer) and carry INT (HPCC). An all-to-all whose rounds wait for
// deliveries at other hosts runs on one partition and says why.
func TestThreadsSameOutputs(t *testing.T) {
	cases := []struct {
		name, topo, wl, cc string
		lossy              bool
		serial             string // the expected SerialWhy, if any
	}{
		{"websearch-fattree", "hpcc-fattree", "cdf:dist=websearch,hosts=320,bw=100G,load=0.3,duration=200us", "dcqcn", false, ""},
		{"incast-star", "star", "incast:n=16,size=1MB", "dcqcn", false, ""},
		{"websearch-hpcc", "fattree:pods=2", "cdf:dist=websearch,hosts=128,bw=100G,load=0.5,duration=200us", "hpcc", false, ""},
		{"lossy-star", "star", "cdf:dist=websearch,hosts=16,bw=100G,load=0.5,duration=300us", "dcqcn", true, ""},
		{"alltoall-fattree", "fattree:pods=2", "osu-alltoall:nodes=128,ppn=1,sizes=4KiB,warmup=0,iters=1,algo=pairwise", "dcqcn", false,
			"message 128 at host 0 depends on message 0, delivered at host 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tr := mustGen(t, c.wl, 5)
			var ref map[string][]byte
			for _, threads := range []int{1, 2, 3, 4} {
				cfg := baseConfig(t, mustTopo(t, c.topo, tr.Hosts), c.cc)
				cfg.Threads = threads
				cfg.CheckEvery = 50_000_000 // 50 us
				if c.lossy {
					cfg.Switch.PFC.Enabled = false
					cfg.Switch.BufferBytes = 400_000
					cfg.NIC.WindowBDP = true
				}
				dir := t.TempDir()
				res := mustRun(t, cfg, tr, dir)
				if want := threads; c.serial != "" && threads > 1 {
					if res.Partitions != 1 || res.SerialWhy != c.serial {
						t.Errorf("threads %d: %d partitions, reason %q, want 1 and %q", threads, res.Partitions, res.SerialWhy, c.serial)
					}
				} else if c.serial == "" && (res.Partitions != want || res.SerialWhy != "") {
					t.Errorf("threads %d: ran on %d partitions (%s)", threads, res.Partitions, res.SerialWhy)
				}
				got := readDir(t, dir)
				if ref == nil {
					ref = got
					t.Logf("%d flows, %d data packets, %d events, sim end %v", len(res.Flows), res.DataPackets, res.Events, res.SimEnd)
					continue
				}
				for name, b := range ref {
					if !bytes.Equal(b, got[name]) {
						t.Errorf("threads %d: %s differs from the run on one partition", threads, name)
					}
				}
			}
		})
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
	topo := mustTopo(t, "hpcc-fattree", 320)
	for _, n := range []int{2, 4} {
		part := partitionNodes(topo, n)
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

// A topology with a link of no delay gives no lookahead: the run takes one
// partition and says why, with the same outputs.
func TestThreadsZeroDelayLink(t *testing.T) {
	tr := mustGen(t, "incast:n=4,size=100KB", 1)
	topo := mustTopo(t, "star:delay=0ns", tr.Hosts)
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
	tr := mustGen(t, "incast:n=16,size=1MB", 1)
	var ref []string
	for _, threads := range []int{1, 2, 4} {
		cfg := baseConfig(t, mustTopo(t, "fattree:pods=1,tors=2,hosts=9,aggs=2", tr.Hosts), "dcqcn")
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
