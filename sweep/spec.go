package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
)

// Kind is what each point of a sweep runs.
type Kind string

const (
	// KindRun runs `ccreplay run` at each point (the default).
	KindRun Kind = "run"
	// KindDataset runs `ccreplay dataset` at each point: a reward dataset
	// (decisions.parquet) per scenario.
	KindDataset Kind = "dataset"
	// KindEstimate runs `ccreplay estimate` at each point (its default
	// settings): flows estimated by per-link simulations, links.parquet.
	KindEstimate Kind = "estimate"
)

// Axis is one dimension of a sweep: a configuration key and the values it
// takes.
type Axis struct {
	// Key is the dotted configuration key the axis sets: a key of a run
	// configuration file ("cca", "seed", "switch.buffer",
	// "cca_params.ai_rate") or a parameter of the workload or topology
	// spec ("workload.load", "topology.hosts").
	Key string `json:"key"`
	// Column names the axis in folder names (COLUMN=VALUE) and in
	// sweep.parquet: the key's last part, or the whole key with '.' as '_'
	// when two axes share a last part.
	Column string `json:"column"`
	// Values are the values in order, as YAML scalars would write them;
	// Null marks the value "not set" (the key is left out of the point).
	Values []Value `json:"values"`
}

// Value is one value of an axis.
type Value struct {
	Text string `json:"text"`
	Null bool   `json:"null,omitempty"`
}

func (v Value) String() string {
	if v.Null {
		return "none"
	}
	return v.Text
}

// Spec is a sweep: a base run configuration and the axes that vary it.
// Points are the grid product of the axes, except that the axes of one Zip
// group move together (the i-th point of the group takes the i-th value of
// each of its axes).
type Spec struct {
	// Name names the specification in messages (its file, or "the command
	// line").
	Name string `json:"-"`
	// Kind is what each point runs.
	Kind Kind `json:"kind"`
	// Base is the run configuration every point starts from, as a YAML
	// mapping node with the keys of a run configuration file.
	Base *yaml.Node `json:"-"`
	// Axes in order: the first varies slowest and is the outermost folder.
	Axes []Axis `json:"axes"`
	// Zip lists groups of axis keys that move together.
	Zip [][]string `json:"zip,omitempty"`
	// Dataset are the options of a dataset sweep's points (kind dataset):
	// `ccreplay dataset`'s, the same at every point.
	Dataset DatasetOptions `json:"dataset,omitempty"`
}

// DatasetOptions are `ccreplay dataset`'s options beyond the run's; a nil
// or empty value takes the dataset command's default.
type DatasetOptions struct {
	// Reward is the comma-separated rewards ("" = all).
	Reward string `yaml:"reward" json:"reward,omitempty"`
	// Gamma is the discount factor of return_fdcc_nstep, in [0, 1].
	Gamma *float64 `yaml:"gamma" json:"gamma,omitempty"`
	// NStep is the steps of return_fdcc_nstep (<= 0: to the flow's end).
	NStep *int `yaml:"nstep" json:"nstep,omitempty"`
	// DecisionIntervalNs is the minimum time between two rows of a flow,
	// ns (-1: the flow's base RTT, 0: every change).
	DecisionIntervalNs *int64 `yaml:"decision_interval_ns" json:"decision_interval_ns,omitempty"`
	// RLCCTarget and RLCCBeta are RL-CC's reward parameters (an RTT
	// inflation target and tolerance, dimensionless).
	RLCCTarget *float64 `yaml:"rlcc_target" json:"rlcc_target,omitempty"`
	RLCCBeta   *float64 `yaml:"rlcc_beta" json:"rlcc_beta,omitempty"`
}

// MaxPoints bounds the points of one sweep. Planning a point takes about
// PointPlanBytes of memory and its entry of sweep.json about 270 bytes
// (one-axis sweep; docs/LIMITS.md, "Memory"), so the largest sweep plans
// in about 300 MB and writes a sweep.json of about 30 MB that `sweep
// status` reads in about 110 MB.
const MaxPoints = 100_000

// PointPlanBytes is the memory one point takes while a sweep is planned
// (expanded, hashed, written to sweep.json): 2.95 KB measured
// (/usr/bin/time -v, `sweep --seeds 1..20000` against 1..2000 on an
// incast, submitted with --slurm).
const PointPlanBytes = 3000

// tooManyPoints is the error of a sweep of n points, more than MaxPoints:
// what has them, and what planning them would take.
func tooManyPoints(what string, n float64) error {
	return fmt.Errorf("%s %.0f points, more than the limit of %d a sweep may have (planning them would take about %s, %d bytes a point, and a %s of about %s; split the sweep; docs/LIMITS.md)",
		what, n, MaxPoints, decimalSize(n*PointPlanBytes), PointPlanBytes, runfolder.SweepManifestFile, decimalSize(n*270))
}

// decimalSize formats bytes as "450 MB" or "3 GB" (three digits at most).
func decimalSize(b float64) string {
	if b >= 1e9 {
		return fmt.Sprintf("%.3g GB", b/1e9)
	}
	return fmt.Sprintf("%.3g MB", b/1e6)
}

// LoadSpec reads a sweep specification: a YAML run configuration (the
// keys of `run --config`, unknown keys refused) with the sweep's keys:
//
//	kind: run            # or dataset
//	axes:                # in order, outermost first
//	  cca: [dcqcn, hpcc]
//	  workload.load: [0.3, 0.5, 0.7]
//	  cca_params.ai_rate: [5Mbps, ~]      # ~ = not set
//	  seed: 1..5                          # an integer range
//	  switch.buffer: {from: 8, to: 32, step: 8, unit: MB}
//	zip:
//	  - [workload.load, max_time]          # these move together
//	dataset:             # kind dataset: `ccreplay dataset`'s options
//	  reward: rlcc,fdcc
//	  gamma: 0.9
func LoadSpec(path string) (*Spec, error) {
	b, err := limits.ReadFile(path, "a sweep specification", limits.MaxConfigBytes, false)
	if err != nil {
		return nil, inputErrorf("sweep spec: %v", err)
	}
	return ParseSpec(path, b)
}

// ParseSpec is LoadSpec on the file's bytes; name names it in errors.
func ParseSpec(name string, b []byte) (*Spec, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, inputErrorf("%s: empty sweep specification", name)
		}
		return nil, inputErrorf("%s: %v", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if err := runconfig.OneDocument(name, dec); err != nil {
		return nil, err
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, inputErrorf("%s:%d: a sweep specification is a section of key: value lines", name, root.Line)
	}
	sp := &Spec{Name: name, Kind: KindRun, Base: &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}}
	var axes, zip, ds *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch {
		case k.Value == "axes":
			axes = v
		case k.Value == "zip":
			zip = v
		case k.Value == "dataset":
			ds = v
		case k.Value == "kind":
			switch Kind(v.Value) {
			case KindRun, KindDataset, KindEstimate:
				sp.Kind = Kind(v.Value)
			default:
				return nil, inputErrorf("%s:%d: kind %q: want run, dataset or estimate", name, v.Line, v.Value)
			}
		default:
			sp.Base.Content = append(sp.Base.Content, k, v)
		}
	}
	if _, err := runconfig.DecodeNode(name, sp.Base); err != nil {
		return nil, err
	}
	if ds != nil {
		if ds.Kind != yaml.MappingNode {
			return nil, inputErrorf("%s:%d: dataset: want key: value lines (reward, gamma, nstep, decision_interval_ns, rlcc_target, rlcc_beta)", name, ds.Line)
		}
		for i := 0; i+1 < len(ds.Content); i += 2 {
			switch ds.Content[i].Value {
			case "reward", "gamma", "nstep", "decision_interval_ns", "rlcc_target", "rlcc_beta":
			default:
				return nil, inputErrorf("%s:%d: unknown key %q in section dataset", name, ds.Content[i].Line, ds.Content[i].Value)
			}
		}
		if err := ds.Decode(&sp.Dataset); err != nil {
			return nil, inputErrorf("%s:%d: dataset: %v", name, ds.Line, strings.TrimPrefix(err.Error(), "yaml: "))
		}
	}
	if axes != nil {
		if axes.Kind != yaml.MappingNode {
			return nil, inputErrorf("%s:%d: axes: want key: values lines", name, axes.Line)
		}
		for i := 0; i+1 < len(axes.Content); i += 2 {
			k, v := axes.Content[i], axes.Content[i+1]
			vals, err := nodeValues(v)
			if err != nil {
				return nil, inputErrorf("%s:%d: axis %s: %v", name, v.Line, k.Value, err)
			}
			if err := sp.AddAxis(k.Value, vals); err != nil {
				return nil, inputErrorf("%s:%d: %v", name, k.Line, err)
			}
		}
	}
	if zip != nil {
		var groups [][]string
		if err := zip.Decode(&groups); err != nil {
			return nil, inputErrorf("%s:%d: zip: want a list of lists of axis keys, e.g. [[workload.load, max_time]]", name, zip.Line)
		}
		for _, g := range groups {
			if err := sp.AddZip(g); err != nil {
				return nil, inputErrorf("%s:%d: %v", name, zip.Line, err)
			}
		}
	}
	if err := sp.check(); err != nil {
		return nil, inputErrorf("%s: %v", name, err)
	}
	return sp, nil
}

// nodeValues reads an axis's values: a list of scalars (~ for "not set"),
// an integer range "A..B", or {from, to, step[, unit]}.
func nodeValues(v *yaml.Node) ([]Value, error) {
	switch v.Kind {
	case yaml.SequenceNode:
		var out []Value
		for _, c := range v.Content {
			if c.Kind != yaml.ScalarNode {
				return nil, errors.New("values are scalars (numbers, words, sizes such as 32MB)")
			}
			out = append(out, Value{Text: c.Value, Null: c.Tag == "!!null"})
		}
		return out, nil
	case yaml.ScalarNode:
		return ParseValues(v.Value)
	case yaml.MappingNode:
		var r struct {
			From *float64 `yaml:"from"`
			To   *float64 `yaml:"to"`
			Step *float64 `yaml:"step"`
			Unit string   `yaml:"unit"`
		}
		if err := v.Decode(&r); err != nil || r.From == nil || r.To == nil || r.Step == nil {
			return nil, errors.New("a range is {from: A, to: B, step: S} with numbers, and an optional unit")
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			switch v.Content[i].Value {
			case "from", "to", "step", "unit":
			default:
				return nil, fmt.Errorf("unknown key %q in a range (from, to, step, unit)", v.Content[i].Value)
			}
		}
		return rangeValues(*r.From, *r.To, *r.Step, r.Unit, decimals(v))
	}
	return nil, errors.New("want a list of values, A..B or {from, to, step}")
}

// decimals is the most decimal places written in a range's numbers, so
// that 0.1 + 2×0.1 prints as 0.3.
func decimals(v *yaml.Node) int {
	d := 0
	for i := 1; i < len(v.Content); i += 2 {
		if _, frac, ok := strings.Cut(v.Content[i].Value, "."); ok {
			d = max(d, len(frac))
		}
	}
	return d
}

func rangeValues(from, to, step float64, unit string, dec int) ([]Value, error) {
	if step <= 0 || math.IsNaN(step) || math.IsInf(step, 0) || math.IsNaN(from) || math.IsNaN(to) || to < from {
		return nil, fmt.Errorf("range from %g to %g step %g: want from <= to and step > 0", from, to, step)
	}
	n := int(math.Floor((to-from)/step+1e-9)) + 1
	if n > MaxPoints {
		return nil, tooManyPoints(fmt.Sprintf("range from %g to %g step %g has", from, to, step), float64(n))
	}
	out := make([]Value, n)
	for i := range out {
		out[i] = Value{Text: strconv.FormatFloat(from+float64(i)*step, 'f', dec, 64) + unit}
	}
	return out, nil
}

// ParseValues reads the values of an axis written on one line: "A..B"
// (integers, inclusive), a comma list "a,b,c", or one value; "~" is "not
// set", as in YAML.
func ParseValues(s string) ([]Value, error) {
	s = strings.TrimSpace(s)
	if a, b, ok := strings.Cut(s, ".."); ok {
		lo, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
		hi, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
		if err1 != nil || err2 != nil || hi < lo {
			return nil, fmt.Errorf("range %q: want A..B with integers A <= B", s)
		}
		if hi-lo >= MaxPoints {
			return nil, tooManyPoints(fmt.Sprintf("range %q has", s), float64(hi)-float64(lo)+1)
		}
		var out []Value
		for x := lo; x <= hi; x++ {
			out = append(out, Value{Text: strconv.FormatInt(x, 10)})
		}
		return out, nil
	}
	var out []Value
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, fmt.Errorf("%q: empty value", s)
		}
		out = append(out, Value{Text: f, Null: f == "~"})
	}
	return out, nil
}

// AddAxis adds an axis over key (see Axis.Key). Its column is set by
// check, once every axis is known.
func (sp *Spec) AddAxis(key string, vals []Value) error {
	if _, err := runconfig.KeyPath(key); err != nil {
		return fmt.Errorf("axis %s: %v", key, err)
	}
	switch key {
	case "out":
		return errors.New("axis out: each point's folder is made by the sweep; give the sweep's --out")
	case "axes", "zip", "kind":
		return fmt.Errorf("axis %s: not a run configuration key", key)
	}
	for _, a := range sp.Axes {
		if a.Key == key {
			return fmt.Errorf("axis %s given twice", key)
		}
	}
	if len(vals) == 0 {
		return fmt.Errorf("axis %s has no values", key)
	}
	sp.Axes = append(sp.Axes, Axis{Key: key, Values: vals})
	return nil
}

// AddZip makes the axes keys move together; each must exist and have the
// same number of values, and belong to no other group.
func (sp *Spec) AddZip(keys []string) error {
	if len(keys) < 2 {
		return fmt.Errorf("zip %v: give at least two axes", keys)
	}
	n := -1
	for _, k := range keys {
		i := sp.axis(k)
		if i < 0 {
			return fmt.Errorf("zip: %s is not an axis", k)
		}
		for _, g := range sp.Zip {
			for _, o := range g {
				if o == k {
					return fmt.Errorf("zip: axis %s is in two groups", k)
				}
			}
		}
		if n >= 0 && len(sp.Axes[i].Values) != n {
			return fmt.Errorf("zip %v: the axes have different numbers of values (%d and %d)", keys, n, len(sp.Axes[i].Values))
		}
		n = len(sp.Axes[i].Values)
	}
	sp.Zip = append(sp.Zip, keys)
	return nil
}

func (sp *Spec) axis(key string) int {
	for i, a := range sp.Axes {
		if a.Key == key {
			return i
		}
	}
	return -1
}

// reservedColumns are sweep.parquet's own columns, which no axis may take.
var reservedColumns = map[string]bool{"point": true, "dir": true, "status": true, "error": true, "hash": true}

// check names the axes' columns and bounds the number of points.
func (sp *Spec) check() error {
	last := map[string]int{}
	for _, a := range sp.Axes {
		last[lastPart(a.Key)]++
	}
	cols := map[string]bool{}
	for i := range sp.Axes {
		a := &sp.Axes[i]
		a.Column = lastPart(a.Key)
		if last[a.Column] > 1 {
			a.Column = strings.ReplaceAll(a.Key, ".", "_")
		}
		if reservedColumns[a.Column] || cols[a.Column] {
			a.Column = "axis_" + strings.ReplaceAll(a.Key, ".", "_")
		}
		cols[a.Column] = true
	}
	n, total := 1, 1.0
	for _, g := range sp.groups() {
		total *= float64(len(sp.Axes[g[0]].Values))
	}
	if total > MaxPoints {
		return tooManyPoints("the axes give", total)
	}
	for _, g := range sp.groups() {
		// A value may repeat on a zipped axis (dcqcn twice, with two
		// parameter sets), not a whole tuple of the group.
		seen := map[string]bool{}
		for i := range sp.Axes[g[0]].Values {
			var tuple []string
			for _, a := range g {
				tuple = append(tuple, sp.Axes[a].Values[i].String())
			}
			k := strings.Join(tuple, "\x00")
			if seen[k] {
				what := "value " + strings.Join(tuple, ", ")
				if len(g) == 1 {
					return fmt.Errorf("axis %s: %s listed twice", sp.Axes[g[0]].Key, what)
				}
				return fmt.Errorf("zip: values (%s) listed twice", strings.Join(tuple, ", "))
			}
			seen[k] = true
		}
		n *= len(sp.Axes[g[0]].Values)
		if n > MaxPoints {
			return fmt.Errorf("more than %d points", MaxPoints)
		}
	}
	return nil
}

func lastPart(key string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[i+1:]
	}
	return key
}

// groups are the axes (by index) that move together, in the order of
// their first axis: a zip group, or one axis alone.
func (sp *Spec) groups() [][]int {
	var out [][]int
	inGroup := map[int]bool{}
	for i, a := range sp.Axes {
		if inGroup[i] {
			continue
		}
		g := []int{i}
		for _, z := range sp.Zip {
			if slices.Contains(z, a.Key) {
				g = g[:0]
				for j := range sp.Axes {
					if slices.Contains(z, sp.Axes[j].Key) {
						g = append(g, j)
						inGroup[j] = true
					}
				}
			}
		}
		out = append(out, g)
	}
	return out
}

// YAML writes the specification back as a sweep specification file: the
// base configuration, kind, axes and zip groups. LoadSpec reads it back to
// the same points.
func (sp *Spec) YAML() ([]byte, error) {
	doc := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	doc.Content = append(doc.Content, scalar("kind"), scalar(string(sp.Kind)))
	doc.Content = append(doc.Content, sp.Base.Content...)
	if sp.Dataset != (DatasetOptions{}) {
		var ds yaml.Node
		if err := ds.Encode(sp.Dataset); err != nil {
			return nil, err
		}
		doc.Content = append(doc.Content, scalar("dataset"), &ds)
	}
	if len(sp.Axes) > 0 {
		axes := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, a := range sp.Axes {
			seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
			for _, v := range a.Values {
				n := scalar(v.Text)
				if v.Null {
					n = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "~"}
				}
				seq.Content = append(seq.Content, n)
			}
			axes.Content = append(axes.Content, scalar(a.Key), seq)
		}
		doc.Content = append(doc.Content, scalar("axes"), axes)
	}
	if len(sp.Zip) > 0 {
		z := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, g := range sp.Zip {
			seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
			for _, k := range g {
				seq.Content = append(seq.Content, scalar(k))
			}
			z.Content = append(z.Content, seq)
		}
		doc.Content = append(doc.Content, scalar("zip"), z)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	enc.Close()
	return buf.Bytes(), nil
}

// scalar is a plain scalar node: YAML resolves its type when it is
// decoded (32MB stays text, 0.5 becomes a number where a number is
// wanted), and the encoder quotes what would not read back as written.
func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s} }
