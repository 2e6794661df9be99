package topology

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/units"
)

// A topology spec, as the CLI takes it:
//
//	star:hosts=16,rate=100G,delay=1us
//	dumbbell:n=4,rate=100G,bottleneck=100G,delay=1us
//	leafspine:leaves=2,hosts=4,spines=1,uplinks=4,rate=100G,fabric=100G,delay=1us
//	fattree:pods=5,tors=4,hosts=16,aggs=4,cores=4,rate=100G,fabric=400G,delay=1us
//	dolce-testbed | hpcc-fattree | dolce-fattree   (presets; keys override them)
//	hpcc:PATH                                      (an HPCC topology.txt)
//
// Every key is optional. Rates take units.ParseRate syntax (100G, 25Gbps),
// delays units.ParseDuration syntax (1us, 500ns).

type valueKind uint8

const (
	intValue valueKind = iota
	rateValue
	delayValue
)

// param is one key of a spec kind.
type param struct {
	key  string
	kind valueKind
	def  string // default; "" means derived from the workload's host count
	doc  string
}

// specKind is a parameterised topology kind or a preset of one.
type specKind struct {
	name   string
	doc    string
	preset bool // a named configuration of another kind
	params []param
	build  func(v *specValues) (*Topology, error)
}

var rateParam = param{"rate", rateValue, "100G", "host link rate"}
var delayParam = param{"delay", delayValue, "1us", "propagation delay of every link"}

func leafSpineParams(c LeafSpineConfig) []param {
	return []param{
		{"leaves", intValue, strconv.Itoa(c.Leaves), "leaf switches"},
		{"hosts", intValue, strconv.Itoa(c.HostsPerLeaf), "hosts per leaf"},
		{"spines", intValue, strconv.Itoa(c.Spines), "spine switches"},
		{"uplinks", intValue, strconv.Itoa(c.UplinksPerPair), "parallel links per leaf-spine pair"},
		{"rate", rateValue, fmtRate(c.HostRate), "host link rate"},
		{"fabric", rateValue, fmtRate(c.FabricRate), "leaf-spine link rate"},
		{"delay", delayValue, fmtDelay(c.Delay), "propagation delay of every link"},
	}
}

func buildLeafSpine(v *specValues) (*Topology, error) {
	return LeafSpine(LeafSpineConfig{
		Leaves: v.int("leaves"), HostsPerLeaf: v.int("hosts"), Spines: v.int("spines"),
		UplinksPerPair: v.int("uplinks"), HostRate: v.rate("rate"), FabricRate: v.rate("fabric"),
		Delay: v.delay("delay"),
	})
}

func fatTreeParams(c FatTreeConfig) []param {
	return []param{
		{"pods", intValue, strconv.Itoa(c.Pods), "pods"},
		{"tors", intValue, strconv.Itoa(c.ToRsPerPod), "ToR switches per pod"},
		{"hosts", intValue, strconv.Itoa(c.HostsPerToR), "hosts per ToR"},
		{"aggs", intValue, strconv.Itoa(c.AggsPerPod), "aggregation switches per pod"},
		{"cores", intValue, strconv.Itoa(c.CoresPerAgg), "core switches per aggregation switch"},
		{"rate", rateValue, fmtRate(c.HostRate), "host link rate"},
		{"fabric", rateValue, fmtRate(c.FabricRate), "ToR-agg and agg-core link rate"},
		{"delay", delayValue, fmtDelay(c.Delay), "propagation delay of every link"},
	}
}

func buildFatTree(v *specValues) (*Topology, error) {
	return FatTree(FatTreeConfig{
		Pods: v.int("pods"), ToRsPerPod: v.int("tors"), HostsPerToR: v.int("hosts"),
		AggsPerPod: v.int("aggs"), CoresPerAgg: v.int("cores"), HostRate: v.rate("rate"),
		FabricRate: v.rate("fabric"), Delay: v.delay("delay"),
	})
}

// specKinds lists the kinds in the order help and errors show them.
var specKinds = []specKind{
	{
		name: "star", doc: "one switch with every host on it",
		params: []param{{"hosts", intValue, "", "hosts"}, rateParam, delayParam},
		build: func(v *specValues) (*Topology, error) {
			return Star(v.intOr("hosts", max(v.minHosts, 2)), v.rate("rate"), v.delay("delay"))
		},
	},
	{
		name: "dumbbell", doc: "n hosts on each of two switches joined by one bottleneck link",
		params: []param{{"n", intValue, "", "hosts per side"}, rateParam,
			{"bottleneck", rateValue, "100G", "rate of the link between the switches"}, delayParam},
		build: func(v *specValues) (*Topology, error) {
			return Dumbbell(v.intOr("n", max((v.minHosts+1)/2, 1)), v.rate("rate"), v.rate("bottleneck"), v.delay("delay"))
		},
	},
	{name: "leafspine", doc: "two-tier Clos", params: leafSpineParams(DolceTestbed), build: buildLeafSpine},
	{name: "fattree", doc: "three-tier fat-tree", params: fatTreeParams(HPCCFatTree), build: buildFatTree},
	{name: "dolce-testbed", preset: true, doc: "Dolce-RC testbed: 2 leaves x 4 hosts, 1 spine, 4 x 100G uplinks, 1us (a leafspine)",
		params: leafSpineParams(DolceTestbed), build: buildLeafSpine},
	{name: "hpcc-fattree", preset: true, doc: "HPCC paper fat-tree: 320 hosts, 100G hosts, 400G fabric, 1us (a fattree)",
		params: fatTreeParams(HPCCFatTree), build: buildFatTree},
	{name: "dolce-fattree", preset: true, doc: "Dolce-RC simulation fat-tree: 1024 hosts, all 200G, 1us (a fattree)",
		params: fatTreeParams(DolceFatTree), build: buildFatTree},
}

func knownKinds() string {
	var s []string
	for _, k := range specKinds {
		if !k.preset {
			s = append(s, k.name)
		}
	}
	s = append(s, "hpcc:PATH")
	for _, k := range specKinds {
		if k.preset {
			s = append(s, k.name)
		}
	}
	return strings.Join(s, ", ")
}

func (k *specKind) knownKeys() string {
	s := make([]string, len(k.params))
	for i, p := range k.params {
		s[i] = p.key
	}
	return strings.Join(s, ", ")
}

// SpecHelp returns a multi-line description of the spec syntax: every kind
// and preset with its keys and their defaults, for the CLI's help text.
func SpecHelp() string {
	var b strings.Builder
	b.WriteString("topology spec: KIND[:key=value,...] or hpcc:PATH; empty = star with the workload's hosts\n")
	for _, k := range specKinds {
		fmt.Fprintf(&b, "  %s: %s\n", k.name, k.doc)
		for _, p := range k.params {
			def := p.def
			if def == "" {
				def = "from the workload's host count"
			}
			fmt.Fprintf(&b, "    %-10s %s (default %s)\n", p.key, p.doc, def)
		}
	}
	b.WriteString("  hpcc:PATH: an HPCC simulator topology.txt (hosts renumbered first)\n")
	return b.String()
}

// specValues holds the parsed (or default) value of every key of a kind.
type specValues struct {
	minHosts int
	kind     *specKind
	set      []bool // per param: given in the spec
	ints     []int
	rates    []units.BitsPerSec
	delays   []units.Time
}

func (v *specValues) index(key string) int {
	for i, p := range v.kind.params {
		if p.key == key {
			return i
		}
	}
	panic("topology: unknown spec key " + key) // a bug in specKinds
}

func (v *specValues) int(key string) int { return v.ints[v.index(key)] }

func (v *specValues) intOr(key string, def int) int {
	if i := v.index(key); v.set[i] {
		return v.ints[i]
	}
	return def
}

func (v *specValues) rate(key string) units.BitsPerSec { return v.rates[v.index(key)] }

func (v *specValues) delay(key string) units.Time { return v.delays[v.index(key)] }

// parseValue stores text as the value of param i.
func (v *specValues) parseValue(i int, text string) error {
	p := v.kind.params[i]
	switch p.kind {
	case intValue:
		n, err := strconv.Atoi(text)
		if err != nil {
			return fmt.Errorf("%s: %s: invalid integer %q", v.kind.name, p.key, text)
		}
		v.ints[i] = n
	case rateValue:
		r, err := units.ParseRate(text)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", v.kind.name, p.key, err)
		}
		v.rates[i] = r
	case delayValue:
		d, err := units.ParseDuration(text)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", v.kind.name, p.key, err)
		}
		v.delays[i] = d
	}
	return nil
}

// Parse builds the topology a spec describes (see SpecHelp for the syntax)
// and checks that it has at least minHosts hosts. The empty spec is a star
// of max(minHosts, 2) hosts at 100 Gb/s with 1 us links; star and dumbbell
// also size themselves from minHosts when hosts / n is not given. The
// result's Name is the preset name for a preset without overrides,
// "hpcc:PATH" for a file, and otherwise a complete spec that Parse turns
// back into the same topology.
func Parse(spec string, minHosts int) (*Topology, error) {
	spec = strings.TrimSpace(spec)
	t, err := parseSpec(spec, minHosts)
	if err != nil {
		return nil, err
	}
	if t.NumHosts < minHosts {
		label := spec
		if label == "" {
			label = t.Name
		}
		return nil, fmt.Errorf("topology %s has %d hosts but the workload needs %d", label, t.NumHosts, minHosts)
	}
	return t, nil
}

func parseSpec(spec string, minHosts int) (*Topology, error) {
	if spec == "" {
		return Star(max(minHosts, 2), 100*units.Gbps, units.Microsecond)
	}
	if path, ok := strings.CutPrefix(spec, "hpcc:"); ok {
		if path == "" {
			return nil, fmt.Errorf("hpcc: missing file name (want hpcc:PATH)")
		}
		f, err := limits.Open(path, "an HPCC topology file", limits.MaxTableBytes, false)
		if err != nil {
			return nil, fmt.Errorf("hpcc: %w", err)
		}
		defer f.Close()
		return ReadHPCC(f.Reader, path)
	}
	name, args, _ := strings.Cut(spec, ":")
	name = strings.TrimSpace(name)
	if name == "hpcc" {
		return nil, fmt.Errorf("hpcc: missing file name (want hpcc:PATH)")
	}
	var kind *specKind
	for i := range specKinds {
		if specKinds[i].name == name {
			kind = &specKinds[i]
		}
	}
	if kind == nil {
		return nil, fmt.Errorf("unknown topology kind %q (known: %s)", name, knownKinds())
	}
	n := len(kind.params)
	v := &specValues{minHosts: minHosts, kind: kind, set: make([]bool, n),
		ints: make([]int, n), rates: make([]units.BitsPerSec, n), delays: make([]units.Time, n)}
	for i, p := range kind.params {
		if p.def != "" {
			if err := v.parseValue(i, p.def); err != nil {
				panic(err) // a bug in specKinds
			}
		}
	}
	overridden := false
	for _, kv := range strings.Split(args, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		key, val, ok := strings.Cut(kv, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok || key == "" {
			return nil, fmt.Errorf("%s: %q is not key=value", kind.name, kv)
		}
		i := -1
		for j, p := range kind.params {
			if p.key == key {
				i = j
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("%s: unknown key %q (known: %s)", kind.name, key, kind.knownKeys())
		}
		if v.set[i] {
			return nil, fmt.Errorf("%s: key %q given twice", kind.name, key)
		}
		if err := v.parseValue(i, val); err != nil {
			return nil, err
		}
		v.set[i] = true
		overridden = true
	}
	t, err := kind.build(v)
	if err != nil {
		return nil, err
	}
	if kind.preset && !overridden {
		t.Name = kind.name
	}
	return t, nil
}
