package sweep

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/runconfig"
)

// Flags are a sweep written on the command line. A workload or topology
// spec parameter, and a --cca-param value, may list its values in braces
// (load={0.3,0.5,0.7}, hosts={1..4}): each becomes an axis.
type Flags struct {
	// Spec is a sweep specification file; the other flags add to it (a
	// flag's key replaces the file's).
	Spec string
	// Config is a run configuration file every point starts from.
	Config string
	// Kind is run, dataset or estimate.
	Kind Kind
	// Trace, Workload and Topology are as `ccreplay run`'s, with braces.
	Trace, Workload, Topology string
	// CCA is one algorithm or a comma list (an axis).
	CCA string
	// CCAParams are KEY=VALUE or KEY={V1,V2}.
	CCAParams []string
	// Seeds is N, A..B or a comma list (an axis when more than one).
	Seeds string
	// Packets and MaxTime are as run's.
	Packets, MaxTime string
	// Axes are KEY=V1,V2,... or KEY=A..B, any configuration key.
	Axes []string
	// Zip are KEY,KEY,... groups of axes that move together.
	Zip []string
	// Dataset are a dataset sweep's options; each one set replaces the
	// specification file's.
	Dataset DatasetOptions
}

// FromFlags builds the sweep the flags describe. Axes come in this order,
// outermost first: the specification file's, cca, the workload's, the
// topology's, the --cca-param ones, --axis ones, then seed.
func FromFlags(f Flags) (*Spec, error) {
	var sp *Spec
	var err error
	switch {
	case f.Spec != "":
		if sp, err = LoadSpec(f.Spec); err != nil {
			return nil, err
		}
	default:
		sp = &Spec{Name: "the command line", Kind: KindRun, Base: &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}}
	}
	if f.Config != "" {
		if err := sp.mergeConfig(f.Config); err != nil {
			return nil, err
		}
	}
	if f.Kind != "" {
		sp.Kind = f.Kind
	}
	d := f.Dataset
	if d.Reward != "" {
		sp.Dataset.Reward = d.Reward
	}
	if d.Gamma != nil {
		sp.Dataset.Gamma = d.Gamma
	}
	if d.NStep != nil {
		sp.Dataset.NStep = d.NStep
	}
	if d.DecisionIntervalNs != nil {
		sp.Dataset.DecisionIntervalNs = d.DecisionIntervalNs
	}
	if d.RLCCTarget != nil {
		sp.Dataset.RLCCTarget = d.RLCCTarget
	}
	if d.RLCCBeta != nil {
		sp.Dataset.RLCCBeta = d.RLCCBeta
	}
	bad := func(flag string, err error) error { return flagErrorf("--%s: %v", flag, err) }
	set := func(key, val string) { setKey(sp.Base, strings.Split(key, "."), Value{Text: val}) }
	if f.Trace != "" && f.Workload != "" {
		return nil, flagErrorf("give either --trace or --workload, not both")
	}
	// A trace replaces the file's workload and a workload its trace.
	if f.Trace != "" {
		deleteKey(sp.Base, "workload")
	}
	if f.Workload != "" {
		deleteKey(sp.Base, "trace")
	}
	for _, fl := range []struct {
		key, val string
		apply    func(key, val string, set func(key, val string)) error
	}{
		{"trace", f.Trace, sp.specFlag},
		{"cca", f.CCA, sp.listFlag},
		{"workload", f.Workload, sp.specFlag},
		{"topology", f.Topology, sp.specFlag},
	} {
		if fl.val == "" {
			continue
		}
		if err := fl.apply(fl.key, fl.val, set); err != nil {
			return nil, bad(fl.key, err)
		}
	}
	for _, kv := range f.CCAParams {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, flagErrorf("--cca-param %q: want KEY=VALUE or KEY={V1,V2,...}", kv)
		}
		vals, braced, err := braceValues(v)
		if err != nil {
			return nil, bad("cca-param", fmt.Errorf("%s: %v", k, err))
		}
		if braced {
			err = sp.AddAxis("cca_params."+k, vals)
		} else {
			set("cca_params."+k, v)
		}
		if err != nil {
			return nil, bad("cca-param", err)
		}
	}
	for _, kv := range f.Axes {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, flagErrorf("--axis %q: want KEY=V1,V2,... or KEY=A..B", kv)
		}
		vals, braced, err := braceValues(v)
		if !braced && err == nil {
			vals, err = ParseValues(v)
		}
		if err == nil {
			err = sp.AddAxis(k, vals)
		}
		if err != nil {
			return nil, bad("axis", err)
		}
	}
	if f.Packets != "" {
		set("packets", f.Packets)
	}
	if f.MaxTime != "" {
		set("max_time", f.MaxTime)
	}
	if f.Seeds != "" {
		if err := sp.listFlag("seed", f.Seeds, set); err != nil {
			return nil, bad("seeds", err)
		}
	}
	for _, z := range f.Zip {
		keys := strings.Split(z, ",")
		for i := range keys {
			keys[i] = strings.TrimSpace(keys[i])
		}
		if err := sp.AddZip(keys); err != nil {
			return nil, bad("zip", err)
		}
	}
	if _, err := runconfig.DecodeNode(sp.Name, sp.Base); err != nil {
		return nil, err
	}
	if err := sp.check(); err != nil {
		return nil, flagErrorf("%v", err)
	}
	return sp, nil
}

// mergeConfig adds a run configuration file's keys to the base (keys the
// specification already has keep their value).
func (sp *Spec) mergeConfig(path string) error {
	b, err := limits.ReadFile(path, "a YAML configuration", limits.MaxConfigBytes, false)
	if err != nil {
		return inputErrorf("config: %v", err)
	}
	if _, err := runconfig.Load(path); err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(b)).Decode(&doc); err != nil || len(doc.Content) == 0 {
		return nil // an empty file
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if lookup(sp.Base, m.Content[i].Value) == nil {
			sp.Base.Content = append(sp.Base.Content, m.Content[i], m.Content[i+1])
		}
	}
	return nil
}

// listFlag sets key from a flag's comma-separated list (ParseValues): to
// its value when it has one, else as an axis of its values.
func (sp *Spec) listFlag(key, list string, set func(key, val string)) error {
	vals, err := ParseValues(list)
	if err != nil {
		return err
	}
	if len(vals) == 1 {
		set(key, vals[0].Text)
		return nil
	}
	return sp.AddAxis(key, vals)
}

// specFlag sets a workload, trace or topology spec whose parameters may
// list values in braces: each braced parameter becomes an axis
// (KEY.PARAM) and the base keeps the spec with the first value.
func (sp *Spec) specFlag(key, spec string, set func(key, val string)) error {
	name, params, _ := strings.Cut(spec, ":")
	if strings.ContainsAny(name, "{}") {
		vals, _, err := braceValues(spec)
		if err != nil {
			return err
		}
		set(key, vals[0].Text)
		return sp.AddAxis(key, vals)
	}
	parts, err := splitParams(params)
	if err != nil {
		return err
	}
	var axes []Axis
	for i, p := range parts {
		k, v, _ := strings.Cut(p, "=")
		vals, braced, err := braceValues(v)
		if err != nil {
			return fmt.Errorf("%s: %v", k, err)
		}
		if braced {
			parts[i] = k + "=" + vals[0].Text
			axes = append(axes, Axis{Key: key + "." + k, Values: vals})
		}
	}
	s := name
	if len(parts) > 0 {
		s += ":" + strings.Join(parts, ",")
	}
	set(key, s)
	for _, a := range axes {
		if err := sp.AddAxis(a.Key, a.Values); err != nil {
			return err
		}
	}
	return nil
}

// splitParams splits "a=1,b={2,3},c=x" at the commas outside braces.
func splitParams(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("%q: unbalanced braces", s)
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("%q: unbalanced braces", s)
	}
	return append(out, s[start:]), nil
}

// braceValues reads "{a,b,c}" or "{A..B}"; braced is false (and vals
// nil) for a plain value.
func braceValues(v string) (vals []Value, braced bool, err error) {
	if !strings.HasPrefix(v, "{") && !strings.HasSuffix(v, "}") {
		if strings.ContainsAny(v, "{}") {
			return nil, false, fmt.Errorf("%q: braces list a whole value's alternatives, e.g. {0.3,0.5}", v)
		}
		return nil, false, nil
	}
	if !strings.HasPrefix(v, "{") || !strings.HasSuffix(v, "}") || len(v) < 3 {
		return nil, true, fmt.Errorf("%q: want {V1,V2,...} or {A..B}", v)
	}
	vals, err = ParseValues(v[1 : len(v)-1])
	return vals, true, err
}

// Point is one configuration of a sweep.
type Point struct {
	// Index is the point's position in the sweep, from 0.
	Index int `json:"index"`
	// Dir is the point's run folder relative to the sweep's folder,
	// slash-separated: COLUMN=VALUE parts in axis order.
	Dir string `json:"dir"`
	// Values are the point's value on each axis, in axis order.
	Values []Value `json:"values"`
	// Hash names the point's configuration (see Plan).
	Hash string `json:"hash"`

	file *runconfig.File
	yaml []byte
}

// Config is the point's run configuration (nil for a point read from a
// manifest rather than expanded from a specification).
func (p *Point) Config() *runconfig.File { return p.file }

// Points expands the specification into its points, the first axis
// varying slowest, and builds each one's configuration. A value a key
// does not take is an error naming the axis and the value.
func (sp *Spec) Points() ([]Point, error) {
	groups := sp.groups()
	n := 1
	for _, g := range groups {
		n *= len(sp.Axes[g[0]].Values)
	}
	pts := make([]Point, 0, n)
	dirs := make(map[string]int, n)
	pick := make([]int, len(sp.Axes)) // value index per axis
	for i := 0; i < n; i++ {
		rest := i
		for gi := len(groups) - 1; gi >= 0; gi-- {
			g := groups[gi]
			k := len(sp.Axes[g[0]].Values)
			for _, a := range g {
				pick[a] = rest % k
			}
			rest /= k
		}
		p := Point{Index: i, Values: make([]Value, len(sp.Axes))}
		var parts []string
		base := cloneNode(sp.Base)
		for a, ax := range sp.Axes {
			v := ax.Values[pick[a]]
			p.Values[a] = v
			parts = append(parts, ax.Column+"="+dirValue(v))
			if err := applyValue(base, ax.Key, v); err != nil {
				return nil, fmt.Errorf("axis %s value %s: %v", ax.Key, v, err)
			}
		}
		p.Dir = strings.Join(parts, "/")
		if len(parts) == 0 {
			p.Dir = "point=0"
		}
		if j, dup := dirs[p.Dir]; dup {
			return nil, fmt.Errorf("points %d and %d share the folder %s: axis values that differ only in characters a folder name cannot hold", j, i, p.Dir)
		}
		dirs[p.Dir] = i
		fc, err := runconfig.DecodeNode(sp.Name, base)
		if err != nil {
			return nil, fmt.Errorf("point %s: %v", p.Dir, err)
		}
		p.file = fc
		if p.yaml, err = yaml.Marshal(base); err != nil {
			return nil, err
		}
		pts = append(pts, p)
	}
	return pts, nil
}

// dirValue is a value as a folder name holds it: characters other than
// letters, digits and ._+- become '-'; "not set" is "none".
func dirValue(v Value) string {
	if v.Null {
		return "none"
	}
	b := []byte(v.Text)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '+' || c == '-'
		if !ok {
			b[i] = '-'
		}
	}
	s := string(b)
	if s == "" || s == "." || s == ".." {
		s = "empty"
	}
	return s
}

// applyValue sets key to v in the configuration node m: a key of the
// file (created as needed, removed for a null value), or a parameter of
// the workload or topology spec.
func applyValue(m *yaml.Node, key string, v Value) error {
	kind, err := runconfig.KeyPath(key)
	if err != nil {
		return err
	}
	parts := strings.Split(key, ".")
	if kind == runconfig.KeySpecParam {
		n := lookup(m, parts[0])
		if n == nil || n.Value == "" {
			return fmt.Errorf("%s has no spec to set %s in; give --%s", parts[0], parts[1], parts[0])
		}
		if v.Null {
			n.Value = setParam(n.Value, parts[1], "", true)
		} else {
			n.Value = setParam(n.Value, parts[1], v.Text, false)
		}
		return nil
	}
	if v.Null {
		deleteKey(m, parts...)
		return nil
	}
	setKey(m, parts, v)
	return nil
}

// setParam sets (or with remove, deletes) param k in a spec
// "name:k=v,k2=v2".
func setParam(spec, k, v string, remove bool) string {
	name, params, _ := strings.Cut(spec, ":")
	var out []string
	found := false
	if params != "" {
		for _, p := range strings.Split(params, ",") {
			pk, _, _ := strings.Cut(p, "=")
			if pk == k {
				found = true
				if remove {
					continue
				}
				p = k + "=" + v
			}
			out = append(out, p)
		}
	}
	if !found && !remove {
		out = append(out, k+"="+v)
	}
	if len(out) == 0 {
		return name
	}
	return name + ":" + strings.Join(out, ",")
}

// lookup returns the value node of key in mapping m, or nil.
func lookup(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// setKey sets the dotted path in mapping m to a scalar, creating sections.
func setKey(m *yaml.Node, path []string, v Value) {
	for i, p := range path {
		n := lookup(m, p)
		if i == len(path)-1 {
			if n == nil {
				n = &yaml.Node{}
				m.Content = append(m.Content, scalar(p), n)
			}
			*n = yaml.Node{Kind: yaml.ScalarNode, Value: v.Text}
			return
		}
		if n == nil || n.Kind != yaml.MappingNode {
			if n == nil {
				n = &yaml.Node{}
				m.Content = append(m.Content, scalar(p), n)
			}
			*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		}
		m = n
	}
}

// deleteKey removes the dotted path from mapping m, if there.
func deleteKey(m *yaml.Node, path ...string) {
	for i, p := range path {
		if m == nil || m.Kind != yaml.MappingNode {
			return
		}
		j := -1
		for k := 0; k+1 < len(m.Content); k += 2 {
			if m.Content[k].Value == p {
				j = k
				break
			}
		}
		if j < 0 {
			return
		}
		if i == len(path)-1 {
			m.Content = append(m.Content[:j:j], m.Content[j+2:]...)
			return
		}
		m = m.Content[j+1]
	}
}

// cloneNode deep-copies a YAML node.
func cloneNode(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = cloneNode(k)
	}
	return &c
}
