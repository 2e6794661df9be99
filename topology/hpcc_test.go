package topology

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sharedData is ../shared/data beside the project checkout, seen from this
// package's directory.
const sharedData = "../../shared/data"

func openShared(t *testing.T, rel string) *os.File {
	t.Helper()
	path := filepath.Join(sharedData, rel)
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("shared data %s not present (it lives in ../shared/data beside the checkout); skipping", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// The HPCC simulator's example mix/topology.txt (CRLF line ends): header
// "66 1 65", switch 0, 65 hosts 1..65 at 100 Gb/s and 0.001 ms; after the
// 65 declared links come 196 link lines the simulator never reads and a
// comment block.
func TestReadHPCCSharedData(t *testing.T) {
	f := openShared(t, "hpcc_format/topology.txt")
	topo, err := ReadHPCC(f, "topology.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := countsOf(topo), (counts{65, 1, 65}); got != want {
		t.Fatalf("counts %+v, want %+v", got, want)
	}
	if got := topo.Describe(); got != "hpcc topology.txt 65 hosts, 1 switch, 65 links" {
		t.Errorf("Describe() = %q", got)
	}
	// Hosts 1..65 become 0..64; switch 0 becomes 65.
	if topo.Nodes[0].Name != "1" || topo.Nodes[64].Name != "65" || topo.Nodes[65].Name != "0" || topo.Nodes[65].Kind != Switch {
		t.Errorf("renumbering: node 0 %q, node 64 %q, node 65 %q %v", topo.Nodes[0].Name, topo.Nodes[64].Name, topo.Nodes[65].Name, topo.Nodes[65].Kind)
	}
	for i, p := range topo.Nodes[65].Ports {
		if p.Peer != int32(i) || p.Rate != 100*G || p.Delay != us {
			t.Fatalf("switch port %d = %+v, want host %d at 100G/1us", i, p, i)
		}
	}
	if idx := topo.NameIndex(); idx["0"] != 65 || idx["17"] != 16 {
		t.Errorf("NameIndex: 0->%d 17->%d", idx["0"], idx["17"])
	}
	r := topo.Routes()
	if p := r.Path(0, 64, 1); len(p) != 2 || 2*PathOneWay(p) != 4*us {
		t.Errorf("path 1->65 = %v", p)
	}
}

// hpccFatTxt writes a fat-tree in the HPCC simulator's mix/fat.txt layout:
// hosts, then ToRs, aggs and cores; host links, then ToR-agg links ToR by
// ToR, then agg-core links agg by agg.
func hpccFatTxt(c FatTreeConfig) string {
	var b strings.Builder
	tors, aggs, cores := c.Pods*c.ToRsPerPod, c.Pods*c.AggsPerPod, c.AggsPerPod*c.CoresPerAgg
	hosts := tors * c.HostsPerToR
	links := hosts + tors*c.AggsPerPod + aggs*c.CoresPerAgg
	fmt.Fprintf(&b, "%d %d %d\n", hosts+tors+aggs+cores, tors+aggs+cores, links)
	for s := hosts; s < hosts+tors+aggs+cores; s++ {
		fmt.Fprintf(&b, "%d ", s)
	}
	b.WriteString("\n")
	for h := 0; h < hosts; h++ {
		fmt.Fprintf(&b, "%d %d %s 1000ns 0.000000\n", h, hosts+h/c.HostsPerToR, c.HostRate)
	}
	for t := 0; t < tors; t++ {
		pod := t / c.ToRsPerPod
		for j := 0; j < c.AggsPerPod; j++ {
			fmt.Fprintf(&b, "%d %d %s 1000ns 0.000000\n", hosts+t, hosts+tors+pod*c.AggsPerPod+j, c.FabricRate)
		}
	}
	for a := 0; a < aggs; a++ {
		j := a % c.AggsPerPod
		for k := 0; k < c.CoresPerAgg; k++ {
			fmt.Fprintf(&b, "%d %d %s 1000ns 0.000000\n", hosts+tors+a, hosts+tors+aggs+j*c.CoresPerAgg+k, c.FabricRate)
		}
	}
	return b.String()
}

// Reading the HPCC simulator's fat.txt gives exactly FatTree(HPCCFatTree),
// port for port (only the names differ).
func TestReadHPCCMatchesFatTree(t *testing.T) {
	text := hpccFatTxt(HPCCFatTree)
	if !strings.HasPrefix(text, "376 56 480\n320 321 ") || !strings.Contains(text, "\n359 375 400Gbps 1000ns 0.000000\n") {
		t.Fatalf("generated fat.txt does not look like HPCC's:\n%.200s", text)
	}
	got, err := ReadHPCC(strings.NewReader(text), "fat.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := mustValid(t)(FatTree(HPCCFatTree))
	if got.NumHosts != want.NumHosts || len(got.Nodes) != len(want.Nodes) {
		t.Fatalf("got %s, want %s", got.Describe(), want.Describe())
	}
	for i := range want.Nodes {
		g, w := got.Nodes[i], want.Nodes[i]
		if g.Name != fmt.Sprint(i) || g.Kind != w.Kind || !reflect.DeepEqual(g.Ports, w.Ports) {
			t.Fatalf("node %d: got %+v, want %+v", i, g, w)
		}
	}
}

// Switches listed among the hosts' ids are moved behind them.
func TestReadHPCCRenumbers(t *testing.T) {
	const text = "5 2 4\r\n3 1\r\n\r\n0 1 100Gbps 0.001ms 0\r\n2 1 25Gbps 500ns 0\r\n1 3 400Gbps 1us 0\r\n4 3 12.5GBps 1us 0.0\r\n"
	topo, err := ReadHPCC(strings.NewReader(text), "small.txt")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range topo.Nodes {
		names = append(names, n.Kind.String()+":"+n.Name)
	}
	if want := []string{"host:0", "host:2", "host:4", "switch:1", "switch:3"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("nodes %v, want %v", names, want)
	}
	// Switch 1 (now 3): ports in file order: host 0, host 2, switch 3.
	want := []Port{{0, 0, 100 * G, us}, {1, 0, 25 * G, 500_000}, {4, 0, 400 * G, us}}
	if got := topo.Nodes[3].Ports; !reflect.DeepEqual(got, want) {
		t.Errorf("switch 1 ports %+v, want %+v", got, want)
	}
	if got := topo.Nodes[4].Ports[1].Rate; got != 100*G { // 12.5 GB/s
		t.Errorf("12.5GBps = %v, want 100Gbps", got)
	}
	if topo.Name != "hpcc:small.txt" {
		t.Errorf("Name %q", topo.Name)
	}
}

func TestReadHPCCErrors(t *testing.T) {
	const hdr = "3 1 2\n2\n"
	for _, tc := range []struct{ text, want string }{
		{"", "t.txt: empty file (want a first line `nodes switches links`)"},
		{"\n\n3 1\n", "t.txt:3: want `nodes switches links`, got 2 fields"},
		{"x 1 2\n", `t.txt:1: node count "x" is not an integer`},
		{"0 0 0\n", "t.txt:1: node count 0 out of range [1, 2097152]"},
		{"3000000 0 0\n", "t.txt:1: node count 3000000 out of range [1, 2097152]"},
		{"2000000 0 0\n", "t.txt:1: 2000000 hosts is more than the limit of 1048576"},
		{"2000000 951423 0\n", "t.txt:1: 1048577 hosts is more than the limit of 1048576"},
		{"3 4 2\n", "t.txt:1: switch count 4 out of range [0, 3]"},
		{"3 1 -1\n", "t.txt:1: link count -1 out of range [0, 3145728]"},
		{"3 1 2\n", "t.txt: file ends after 0 of the 1 switch ids"},
		{"3 1 2\n3\n", "t.txt:2: switch id 3 out of range [0, 2]"},
		{"3 2 2\n1 1\n", "t.txt:2: switch id 1 listed twice"},
		{"3 1 2\n1 2\n", "t.txt:2: 2 switch ids so far, more than the 1 the header declares"},
		{hdr + "0 2 100Gbps 1us 0\n", "t.txt: file ends after 1 of the 2 links the header declares"},
		{hdr + "0 2 100Gbps 1us\n", "t.txt:3: want a link `a b rate delay error_rate`, got 4 fields"},
		{hdr + "0 5 100Gbps 1us 0\n", "t.txt:3: node id 5 out of range [0, 2]"},
		{hdr + "2 2 100Gbps 1us 0\n", "t.txt:3: link from node 2 to itself"},
		{hdr + "0 2 fast 1us 0\n", `t.txt:3: invalid rate "fast" (want e.g. 100Gbps, 25G, 50Mb/s)`},
		{hdr + "0 2 0Gbps 1us 0\n", `t.txt:3: rate "0Gbps" out of range (must be >= 1bps and <= 1Pbps)`},
		{hdr + "0 2 100Gbps 1 0\n", `t.txt:3: invalid duration "1" (want e.g. 1us, 0.5ms, 900ns)`},
		{hdr + "0 2 100Gbps 1us x\n", `t.txt:3: invalid error rate "x" (want a probability, normally 0)`},
		{hdr + "0 2 100Gbps 1us 0.001\n",
			"t.txt:3: link 0-2 has error rate 0.001: lossy links are not modelled (ccreplay links never drop packets at random; set the error rate to 0)"},
		{hdr + "0 2 100Gbps 1us 0\n0 2 100Gbps 1us 0\n", "t.txt:4: host 0 has a second link (its first is on line 3); a host must have exactly one link"},
		{hdr + "0 2 100Gbps 1us 0\n0 1 100Gbps 1us 0\n", "t.txt:4: host 0 has a second link (its first is on line 3); a host must have exactly one link"},
		{"3 1 1\n2\n0 2 100Gbps 1us 0\n", "t.txt: host 1 has no link"},
		{"3 2 1\n1 2\n0 2 100Gbps 1us 0\n", "t.txt: 1 hosts (nodes that are not switches), need at least 2"},
		{"4 2 2\n2 3\n0 2 100Gbps 1us 0\n1 3 100Gbps 1us 0\n",
			`t.txt: host node 1 "1" cannot reach host node 0 "0": the topology is not connected`},
		{"3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\nanything at all\n", ""},
	} {
		topo, err := ReadHPCC(strings.NewReader(tc.text), "t.txt")
		if tc.want == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.text, err)
			} else if topo.NumHosts != 2 {
				t.Errorf("%q: %d hosts", tc.text, topo.NumHosts)
			}
			continue
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got %v\nwant %s", tc.text, err, tc.want)
		}
	}
}

// FuzzReadHPCC: any input either fails with an error or yields a topology
// that passes Validate and can be routed. It must never panic.
func FuzzReadHPCC(f *testing.F) {
	f.Add([]byte("3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n"))
	f.Add([]byte("5 2 4\r\n3 1\r\n0 1 100Gbps 0.001ms 0\r\n2 1 25Gbps 500ns 0\r\n1 3 400Gbps 1us 0\r\n4 3 12.5GBps 1us 0\r\n"))
	f.Add([]byte("4 2 2\n2 3\n0 2 100Gbps 1us 0\n1 3 100Gbps 1us 0\n"))
	f.Add([]byte("3 1 2\n2\n0 2 100Gbps 1us 0.5\n"))
	f.Add([]byte("999999 0 4194304\n"))
	f.Add([]byte(hpccFatTxt(FatTreeConfig{Pods: 2, ToRsPerPod: 2, HostsPerToR: 2, AggsPerPod: 2, CoresPerAgg: 1, HostRate: G, FabricRate: G})))
	f.Fuzz(func(t *testing.T, data []byte) {
		topo, err := ReadHPCC(bytes.NewReader(data), "fuzz.txt")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.txt") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := topo.Validate(); err != nil {
			t.Fatalf("ReadHPCC returned an invalid topology: %v", err)
		}
		if len(topo.Nodes) <= 2000 {
			r := topo.Routes()
			for h := int32(1); h < int32(topo.NumHosts); h++ {
				if r.Path(0, h, uint64(h)) == nil {
					t.Fatalf("no path from host 0 to host %d", h)
				}
			}
		}
	})
}

// WriteHPCC writes what ReadHPCC reads back: the same hosts, switches,
// links, rates and delays; for topologies built here (each link added to
// both ends in turn) also the same port numbers. The HPCC fat-tree comes
// out as the simulator's own mix/fat.txt up to the number format.
func TestWriteHPCCRoundTrip(t *testing.T) {
	t.Parallel()
	for _, spec := range []string{"hpcc-fattree", "leafspine:leaves=3,hosts=5,spines=2,uplinks=2", "star:hosts=7,delay=3us", "dumbbell:n=4,bottleneck=25G", "fattree:pods=2,rate=25G,fabric=50G"} {
		want, err := Parse(spec, 0)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteHPCC(&b, want); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		got, err := ReadHPCC(bytes.NewReader(b.Bytes()), spec)
		if err != nil {
			t.Fatalf("%s: reading back: %v\n%.300s", spec, err, b.String())
		}
		if got.NumHosts != want.NumHosts || len(got.Nodes) != len(want.Nodes) {
			t.Fatalf("%s: got %s, want %s", spec, got.Describe(), want.Describe())
		}
		for i := range want.Nodes {
			g, w := got.Nodes[i], want.Nodes[i]
			if g.Kind != w.Kind || !reflect.DeepEqual(g.Ports, w.Ports) {
				t.Fatalf("%s: node %d: got %+v, want %+v", spec, i, g, w)
			}
		}
	}
	ft := mustValid(t)(FatTree(HPCCFatTree))
	var b bytes.Buffer
	if err := WriteHPCC(&b, ft); err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(hpccFatTxt(HPCCFatTree), " 0.000000\n", " 0\n")
	want = strings.Replace(want, " \n", "\n", 1) // the switch list's trailing blank
	if got := b.String(); got != want {
		t.Errorf("the HPCC fat-tree differs from the simulator's fat.txt layout:\n%.300s\nwant\n%.300s", got, want)
	}
}

func TestWriteHPCCRefusesSubNanosecondDelays(t *testing.T) {
	t.Parallel()
	topo, err := Parse("star:hosts=2,delay=1500ps", 0)
	if err != nil {
		t.Fatal(err)
	}
	err = WriteHPCC(&bytes.Buffer{}, topo)
	if err == nil || !strings.Contains(err.Error(), "whole number of nanoseconds") {
		t.Errorf("err = %v, want a refusal of the 1.5 ns delay", err)
	}
}
