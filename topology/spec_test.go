package topology

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		spec     string
		minHosts int
		describe string // Describe() of the result
		name     string // Name of the result, when it matters
	}{
		{"", 0, "star 2 hosts, 1 switch, 2 links", "star:hosts=2,rate=100Gbps,delay=1us"},
		{"", 40, "star 40 hosts, 1 switch, 40 links", ""},
		{"  ", 3, "star 3 hosts, 1 switch, 3 links", ""},
		{"star", 5, "star 5 hosts, 1 switch, 5 links", ""},
		{"star:hosts=16,rate=100G,delay=1us", 0, "star 16 hosts, 1 switch, 16 links", "star:hosts=16,rate=100Gbps,delay=1us"},
		{"star: hosts = 16 , rate=25Gbps ,", 16, "star 16 hosts, 1 switch, 16 links", "star:hosts=16,rate=25Gbps,delay=1us"},
		{"dumbbell", 7, "dumbbell 8 hosts, 2 switches, 9 links", "dumbbell:n=4,rate=100Gbps,bottleneck=100Gbps,delay=1us"},
		{"dumbbell:n=4,rate=100G,bottleneck=40G,delay=500ns", 0, "dumbbell 8 hosts, 2 switches, 9 links",
			"dumbbell:n=4,rate=100Gbps,bottleneck=40Gbps,delay=500ns"},
		{"leafspine:leaves=2,hosts=4,spines=1,uplinks=4,rate=100G,fabric=100G,delay=1us", 8, "leafspine 8 hosts, 3 switches, 16 links", ""},
		{"leafspine:spines=2", 0, "leafspine 8 hosts, 4 switches, 24 links", ""},
		{"fattree:pods=5,tors=4,hosts=16,aggs=4,cores=4,rate=100G,fabric=400G,delay=1us", 320, "fattree 320 hosts, 56 switches, 480 links", ""},
		{"fattree", 0, "fattree 320 hosts, 56 switches, 480 links",
			"fattree:pods=5,tors=4,hosts=16,aggs=4,cores=4,rate=100Gbps,fabric=400Gbps,delay=1us"},
		{"dolce-testbed", 8, "dolce-testbed 8 hosts, 3 switches, 16 links", "dolce-testbed"},
		{"hpcc-fattree", 0, "hpcc-fattree 320 hosts, 56 switches, 480 links", "hpcc-fattree"},
		{"dolce-fattree", 1024, "dolce-fattree 1024 hosts, 320 switches, 3072 links", "dolce-fattree"},
		{"dolce-fattree:rate=100G", 0, "fattree 1024 hosts, 320 switches, 3072 links",
			"fattree:pods=16,tors=8,hosts=8,aggs=8,cores=8,rate=100Gbps,fabric=200Gbps,delay=1us"},
	} {
		topo, err := Parse(tc.spec, tc.minHosts)
		if err != nil {
			t.Errorf("Parse(%q, %d): %v", tc.spec, tc.minHosts, err)
			continue
		}
		if err := topo.Validate(); err != nil {
			t.Errorf("Parse(%q): invalid: %v", tc.spec, err)
		}
		if got := topo.Describe(); got != tc.describe {
			t.Errorf("Parse(%q).Describe() = %q, want %q", tc.spec, got, tc.describe)
		}
		if tc.name != "" && topo.Name != tc.name {
			t.Errorf("Parse(%q).Name = %q, want %q", tc.spec, topo.Name, tc.name)
		}
	}
}

// Named presets are the paper configurations.
func TestParsePresets(t *testing.T) {
	for spec, want := range map[string]string{
		"dolce-testbed": "leafspine:leaves=2,hosts=4,spines=1,uplinks=4,rate=100Gbps,fabric=100Gbps,delay=1us",
		"hpcc-fattree":  "fattree:pods=5,tors=4,hosts=16,aggs=4,cores=4,rate=100Gbps,fabric=400Gbps,delay=1us",
		"dolce-fattree": "fattree:pods=16,tors=8,hosts=8,aggs=8,cores=8,rate=200Gbps,fabric=200Gbps,delay=1us",
	} {
		a, err := Parse(spec, 0)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Parse(want, 0)
		if err != nil {
			t.Fatal(err)
		}
		a.Name = b.Name
		if !equalTopologies(a, b) {
			t.Errorf("%s differs from %s", spec, want)
		}
	}
}

func equalTopologies(a, b *Topology) bool {
	if a.Name != b.Name || a.NumHosts != b.NumHosts || len(a.Nodes) != len(b.Nodes) {
		return false
	}
	for i := range a.Nodes {
		x, y := a.Nodes[i], b.Nodes[i]
		if x.ID != y.ID || x.Kind != y.Kind || x.Name != y.Name || len(x.Ports) != len(y.Ports) {
			return false
		}
		for j := range x.Ports {
			if x.Ports[j] != y.Ports[j] {
				return false
			}
		}
	}
	return true
}

func TestParseErrors(t *testing.T) {
	const kinds = "star, dumbbell, leafspine, fattree, hpcc:PATH, dolce-testbed, hpcc-fattree, dolce-fattree"
	for _, tc := range []struct {
		spec     string
		minHosts int
		want     string
	}{
		{"ring:n=4", 0, `unknown topology kind "ring" (known: ` + kinds + ")"},
		{"Star", 0, `unknown topology kind "Star" (known: ` + kinds + ")"},
		{"star:nodes=4", 0, `star: unknown key "nodes" (known: hosts, rate, delay)`},
		{"fattree:spines=2", 0, `fattree: unknown key "spines" (known: pods, tors, hosts, aggs, cores, rate, fabric, delay)`},
		{"dolce-testbed:pods=2", 0, `dolce-testbed: unknown key "pods" (known: leaves, hosts, spines, uplinks, rate, fabric, delay)`},
		{"star:hosts", 0, `star: "hosts" is not key=value`},
		{"star:=4", 0, `star: "=4" is not key=value`},
		{"star:hosts=4,hosts=5", 0, `star: key "hosts" given twice`},
		{"star:hosts=four", 0, `star: hosts: invalid integer "four"`},
		{"star:hosts=1e3", 0, `star: hosts: invalid integer "1e3"`},
		{"star:rate=fast", 0, `star: rate: invalid rate "fast" (want e.g. 100Gbps, 25G, 50Mb/s)`},
		{"star:delay=1", 0, `star: delay: invalid duration "1" (want e.g. 1us, 0.5ms, 900ns)`},
		{"star:delay=-1us", 0, `star: delay: duration "-1us" out of range (must be >= 0)`},
		{"star:hosts=0", 0, "star: hosts must be >= 1, got 0"},
		{"star:hosts=99999999", 0, "star: 99999999 hosts is more than the limit of 1048576"},
		{"", 2_000_000, "star: 2000000 hosts is more than the limit of 1048576"}, // the default star, sized to the workload
		{"star", 1_048_577, "star: 1048577 hosts is more than the limit of 1048576"},
		{"dumbbell", 3_000_000, "dumbbell: 3000000 hosts is more than the limit of 1048576"},
		{"fattree:pods=64,tors=64,hosts=257", 0, "fattree: 1052672 hosts is more than the limit of 1048576"},
		{"fattree:pods=0", 0, "fattree: pods must be >= 1, got 0"},
		{"star:hosts=4", 5, "topology star:hosts=4 has 4 hosts but the workload needs 5"},
		{"dolce-testbed", 16, "topology dolce-testbed has 8 hosts but the workload needs 16"},
		{"hpcc", 0, "hpcc: missing file name (want hpcc:PATH)"},
		{"hpcc:", 0, "hpcc: missing file name (want hpcc:PATH)"},
		{"hpcc:/nonexistent/topology.txt", 0, "hpcc: open /nonexistent/topology.txt: no such file or directory"},
	} {
		_, err := Parse(tc.spec, tc.minHosts)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q, %d):\n got %v\nwant %s", tc.spec, tc.minHosts, err, tc.want)
		}
	}
}

func TestParseHPCCFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fat.txt")
	if err := os.WriteFile(path, []byte(hpccFatTxt(HPCCFatTree)), 0o644); err != nil {
		t.Fatal(err)
	}
	topo, err := Parse("hpcc:"+path, 100)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := topo.Describe(), "hpcc "+path+" 320 hosts, 56 switches, 480 links"; got != want {
		t.Errorf("Describe() = %q, want %q", got, want)
	}
	if _, err := Parse("hpcc:"+path, 400); err == nil || err.Error() != "topology hpcc:"+path+" has 320 hosts but the workload needs 400" {
		t.Errorf("minHosts: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("3 1 1\n2\n0 2 100Gbps 1us 0.01\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("hpcc:"+bad, 0); err == nil || !strings.HasPrefix(err.Error(), bad+":3: link 0-2 has error rate 0.01: lossy links are not modelled") {
		t.Errorf("lossy file: %v", err)
	}
}

func TestParseHPCCSharedData(t *testing.T) {
	openShared(t, "hpcc_format/topology.txt") // skips when absent
	topo, err := Parse("hpcc:"+filepath.Join(sharedData, "hpcc_format/topology.txt"), 65)
	if err != nil {
		t.Fatal(err)
	}
	if topo.NumHosts != 65 {
		t.Errorf("%s", topo.Describe())
	}
}

func TestSpecHelp(t *testing.T) {
	h := SpecHelp()
	for _, want := range []string{"star:", "dumbbell:", "leafspine:", "fattree:", "dolce-testbed:", "hpcc-fattree:", "dolce-fattree:", "hpcc:PATH",
		"bottleneck", "(default 400Gbps)", "(default from the workload's host count)"} {
		if !strings.Contains(h, want) {
			t.Errorf("SpecHelp() lacks %q:\n%s", want, h)
		}
	}
}

// The --topology help is SpecHelp under its own heading, once.
func TestFlagHelp(t *testing.T) {
	h := FlagHelp()
	if !strings.HasPrefix(h, "Topologies (--topology): ") || strings.Contains(h, "topology spec: ") ||
		!strings.HasSuffix(SpecHelp(), strings.TrimPrefix(h, "Topologies (--topology): ")) {
		t.Errorf("FlagHelp() = %q", h)
	}
}
