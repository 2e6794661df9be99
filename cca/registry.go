package cca

import (
	"fmt"

	"github.com/ccreplay/ccreplay/units"
	"sort"
	"strings"
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
	// Params is every parameter's effective value, for summary.json.
	Params map[string]string
}

// Builder parses a preset name ("" for the default) and key=value
// overrides into a Spec. It must reject unknown presets and keys with an
// error naming them.
type Builder func(preset string, params map[string]string) (Spec, error)

// Registry maps algorithm names to builders. It is a value, not package
// state: the CLI builds one with every algorithm registered.
type Registry struct {
	builders map[string]Builder
	docs     map[string]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{builders: map[string]Builder{}, docs: map[string]string{}}
}

// Register adds an algorithm; doc is a one-line description for help output.
func (r *Registry) Register(name, doc string, b Builder) {
	r.builders[name] = b
	r.docs[name] = doc
}

// Names lists the registered algorithms in sorted order.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.builders))
	for n := range r.builders {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Doc is the one-line description of name.
func (r *Registry) Doc(name string) string { return r.docs[name] }

// Build resolves a spec "name" or "name:preset" with parameter overrides.
func (r *Registry) Build(spec string, params map[string]string) (Spec, error) {
	name, preset, _ := strings.Cut(spec, ":")
	b, ok := r.builders[name]
	if !ok {
		return Spec{}, fmt.Errorf("unknown congestion control %q (known: %s)", name, strings.Join(r.Names(), ", "))
	}
	s, err := b(preset, params)
	if err != nil {
		return Spec{}, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}
