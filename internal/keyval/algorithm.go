package keyval

import "github.com/ccreplay/ccreplay/cca"

// Algorithm is what an algorithm package registers, built on its Table:
// its cca.Builder (Build), its Schema and Register, the same for every
// algorithm, so that a package declares only its table, its validation
// and what its Spec carries besides the name and the parameters.
type Algorithm[C any] struct {
	// Table holds the parameters and presets; Table.Name is the name the
	// algorithm is registered under.
	Table *Table[C]
	// Summary is the one-line description the registry lists.
	Summary string
	// Validate checks a configuration after the overrides, and may
	// complete it; nil accepts every configuration the table parses.
	Validate func(*C) error
	// Spec returns the Spec of a valid configuration: the factory (New)
	// and the network hints. NewSpec fills in Name and Params.
	Spec func(c C) cca.Spec
}

// Build is the algorithm's cca.Builder: the preset's configuration (""
// for the default, or an alias), the key=value overrides (Table.Apply),
// then NewSpec under the name "<algorithm>:<canonical preset>" (the
// algorithm's name alone when its table has no presets).
func (a *Algorithm[C]) Build(preset string, overrides map[string]string) (cca.Spec, error) {
	c, name, err := a.Table.Build(preset, overrides, nil)
	if err != nil {
		return cca.Spec{}, err
	}
	full := a.Table.Name
	if name != "" {
		full += ":" + name
	}
	return a.NewSpec(full, c)
}

// NewSpec validates c and returns its Spec (see Spec) named name, with
// c's effective parameter values (Table.Values).
func (a *Algorithm[C]) NewSpec(name string, c C) (cca.Spec, error) {
	if a.Validate != nil {
		if err := a.Validate(&c); err != nil {
			return cca.Spec{}, err
		}
	}
	s := a.Spec(c)
	s.Name = name
	s.Params = a.Table.Values(&c)
	return s, nil
}

// Schema describes the algorithm's presets and parameters (help and
// docs), each preset's values validated as Build validates them.
func (a *Algorithm[C]) Schema() cca.Schema { return a.Table.Schema(a.Validate) }

// Register adds the algorithm to r under Table.Name.
func (a *Algorithm[C]) Register(r *cca.Registry) {
	r.Register(a.Table.Name, a.Summary, a.Build, a.Schema)
}
