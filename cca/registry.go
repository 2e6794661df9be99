package cca

import (
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/units"
)

// Factory makes one Algorithm per flow from validated parameters.
type Factory func() Algorithm

// ECNHint is the switch RED marking an algorithm's preset expects.
type ECNHint struct {
	// KminBytes and KmaxBytes are the RED thresholds on the egress queue, bytes.
	KminBytes, KmaxBytes units.Bytes
	// Pmax is the marking probability at Kmax, in [0, 1].
	Pmax float64
	// RefRate, when positive, is the link rate these thresholds are given
	// for; other link rates scale them linearly (the HPCC simulator's
	// KMIN_MAP/KMAX_MAP). Zero means the same thresholds at every rate.
	RefRate units.BitsPerSec
}

// Spec is a resolved algorithm: a factory plus what the network must do
// for it (preset-dependent ECN marking, CNP spacing at the receiver, INT).
type Spec struct {
	// Name is "name:preset" as resolved.
	Name string
	// New makes the algorithm of one flow.
	New Factory
	// ECN is the RED marking the preset expects; nil leaves the switch's own.
	ECN *ECNHint
	// CNPInterval is the receiver's minimum gap between CNPs per QP,
	// picoseconds; 0 leaves the NIC's default (50 us).
	CNPInterval units.Time
	// NeedsINT asks switches to stamp INT on data packets.
	NeedsINT bool
	// NeedsFlowCounter asks switches to count flows per egress port, FDCC
	// (Zhang 2023) Algorithm 2, and stamp the count in INT
	// (telemetry.Hop.Flows); implies NeedsINT.
	NeedsFlowCounter bool
	// Params is every parameter's effective value, for summary.json.
	Params map[string]string
}

// Builder parses a preset name ("" for the default) and key=value
// overrides into a Spec. It must reject unknown presets and keys with an
// error naming them.
type Builder func(preset string, params map[string]string) (Spec, error)

// Param describes one `--cca-param key=value` parameter of an algorithm as
// its table declares it (see internal/keyval): what help texts and
// docs/PARAMETERS.md show.
type Param struct {
	// Key is the parameter's key.
	Key string
	// Unit is the kind of value: rate, time, size, number, integer, bool,
	// enum, or a description of a value with its own grammar.
	Unit string
	// Bounds are the values accepted, e.g. "(0, 1]", ">= 1", "> 0, or
	// path", "zhu, mlx".
	Bounds string
	// Doc is a one-line description.
	Doc string
	// Values is the effective value in each preset, keyed by the preset's
	// canonical name ("" for an algorithm without presets), as Spec.Params
	// shows it.
	Values map[string]string
}

// Preset describes one named set of parameter values.
type Preset struct {
	// Name is the canonical name, the one Spec.Name carries.
	Name string
	// Aliases are other names Build accepts for it.
	Aliases []string
	// Doc is a one-line description with its source: the file, table or
	// section its values come from.
	Doc string
	// Reproduces names the published experiment whose setup the preset
	// carries ("HPCC (Li 2019), Section 5 simulations"), or says that it
	// reproduces none (a vendor default, a sample file).
	Reproduces string
}

// Schema is what an algorithm declares about its parameters.
type Schema struct {
	// Doc is the algorithm's one-line description, as registered
	// (Registry.Schema sets it).
	Doc string
	// Default is the preset used when none is named; "" when there are
	// no presets.
	Default string
	// Presets are the named presets, in declaration order.
	Presets []Preset
	// Params are the parameters, sorted by key.
	Params []Param
	// Refused are keys the algorithm rejects on purpose, with the reason
	// (a key its base algorithm takes that does not apply).
	Refused map[string]string
}

// PresetNames lists the canonical preset names, sorted.
func (s Schema) PresetNames() []string {
	out := make([]string, len(s.Presets))
	for i, p := range s.Presets {
		out[i] = p.Name
	}
	sort.Strings(out)
	return out
}

// entry is one registered algorithm.
type entry struct {
	doc    string
	build  Builder
	schema func() Schema
}

// Registry maps algorithm names to builders. It is a value, not package
// state: the CLI builds one with every algorithm registered.
type Registry struct {
	entries map[string]entry
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{entries: map[string]entry{}}
}

// Register adds an algorithm: doc is a one-line description for help
// output, schema (which may be nil) describes its presets and parameters.
// Doc appends the preset names from the schema.
func (r *Registry) Register(name, doc string, b Builder, schema func() Schema) {
	r.entries[name] = entry{doc, b, schema}
}

// Names lists the registered algorithms in sorted order.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.entries))
	for n := range r.entries {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Presets lists every registered algorithm under every one of its
// presets as Build takes them, "name:preset" (the name alone for an
// algorithm without presets or schema), sorted by algorithm, then preset.
func (r *Registry) Presets() []string {
	var out []string
	for _, name := range r.Names() {
		s, _ := r.Schema(name)
		if len(s.Presets) == 0 {
			out = append(out, name)
			continue
		}
		for _, p := range s.PresetNames() {
			out = append(out, name+":"+p)
		}
	}
	return out
}

// Doc is the one-line description of name, with its presets: "DCQCN (Zhu
// et al. 2015), presets dolce, hpcc, zhu2015".
func (r *Registry) Doc(name string) string {
	e, ok := r.entries[name]
	if !ok || e.schema == nil {
		return e.doc
	}
	switch names := e.schema().PresetNames(); len(names) {
	case 0:
		return e.doc
	case 1:
		return e.doc + ", preset " + names[0]
	default:
		return e.doc + ", presets " + strings.Join(names, ", ")
	}
}

// Schema describes the presets and parameters of name; false for an
// unknown algorithm or one registered without a schema.
func (r *Registry) Schema(name string) (Schema, bool) {
	e, ok := r.entries[name]
	if !ok || e.schema == nil {
		return Schema{}, false
	}
	s := e.schema()
	s.Doc = e.doc
	return s, true
}

// ParamHelp is the help text of name's presets and parameters, generated
// from its table: one line per preset, then one line per parameter with
// its unit, default value, accepted values, description and the values
// presets give it where they differ. It is "" for an unknown algorithm.
func (r *Registry) ParamHelp(name string) string {
	s, ok := r.Schema(name)
	if !ok {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", name, s.Doc)
	if len(s.Presets) > 0 {
		fmt.Fprintf(&b, "Presets (--cca %s:PRESET):\n", name)
		w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, p := range s.Presets {
			n := p.Name
			if p.Name == s.Default {
				n += " (default)"
			}
			if len(p.Aliases) > 0 {
				n += " = " + strings.Join(p.Aliases, " = ")
			}
			fmt.Fprintf(w, "  %s\t%s\n", n, p.Doc)
		}
		w.Flush()
	}
	fmt.Fprintf(&b, "Parameters (--cca-param KEY=VALUE):\n")
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "  KEY\tUNIT\tDEFAULT\tACCEPTS\tDESCRIPTION\n")
	for _, p := range s.Params {
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%s%s\n", p.Key, p.Unit, p.Values[s.Default], p.Bounds, p.Doc, s.Others(p))
	}
	w.Flush()
	return b.String()
}

// Schemas is the schema of every algorithm registered with one, by name
// (`ccreplay algorithms --json`).
func (r *Registry) Schemas() map[string]Schema {
	all := map[string]Schema{}
	for _, n := range r.Names() {
		if sc, ok := r.Schema(n); ok {
			all[n] = sc
		}
	}
	return all
}

// PresetNote says which preset a spec "name:preset" runs and what it is,
// from the algorithm's table: "preset hpcc: the HPCC simulator's ...",
// with a pointer to the other presets when it is the default; "" for an
// unknown algorithm or preset, or a spec that names none.
func (r *Registry) PresetNote(spec string) string {
	name, preset, _ := strings.Cut(spec, ":")
	sc, ok := r.Schema(name)
	if !ok {
		return ""
	}
	for _, p := range sc.Presets {
		if p.Name == preset {
			note := "preset " + preset + ": " + p.Doc
			if preset == sc.Default {
				note += " (the default; `ccreplay algorithms " + name + "` lists the others)"
			}
			return note
		}
	}
	return ""
}

// Others lists the values presets other than the default give p where
// they differ from the default's, in declaration order: " (hpcc: 50Mbps;
// dolce: 7KB)", or "" when they agree.
func (s Schema) Others(p Param) string {
	var o []string
	for _, q := range s.Presets {
		if v := p.Values[q.Name]; q.Name != s.Default && v != p.Values[s.Default] {
			o = append(o, q.Name+": "+v)
		}
	}
	if len(o) == 0 {
		return ""
	}
	return " (" + strings.Join(o, "; ") + ")"
}

// Build resolves a spec "name" or "name:preset" with parameter overrides.
func (r *Registry) Build(spec string, params map[string]string) (Spec, error) {
	name, preset, _ := strings.Cut(spec, ":")
	e, ok := r.entries[name]
	if !ok {
		return Spec{}, fmt.Errorf("unknown congestion control %q (known: %s)", name, strings.Join(r.Names(), ", "))
	}
	s, err := e.build(preset, params)
	if err != nil {
		return Spec{}, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}
