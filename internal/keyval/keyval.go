// Package keyval is the one parameter mechanism of every algorithm: each
// algorithm declares a Table of its `--cca-param key=value` parameters
// next to its Config, one Param per key with its unit, default, bounds,
// one-line doc and the values its presets give it. Everything else is
// generated from the table: the preset configurations, parsing overrides
// (unknown keys are rejected with the list of known ones, bad values with
// an error naming key, value and bounds), the checks of a configuration a
// Go program built (Fill, Check), the effective values written back to
// summary.json in a form that parses to the same configuration (Values),
// and the help texts and docs (Schema, see cca.Registry.ParamHelp and
// docs/PARAMETERS.md). Numbers, rates, times and sizes are read and
// written by package units.
package keyval

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/ccreplay/ccreplay/cca"
)

// Table is an algorithm's parameters and presets. Use it through a
// pointer (it caches the default configuration).
type Table[C any] struct {
	// Name is the algorithm's registry name.
	Name string
	// Default is the preset used when none is named; "" when Presets is
	// empty.
	Default string
	// Presets are the named presets. A preset's configuration is the zero
	// C with every parameter set, in Params order, to its value in that
	// preset (Param.In, else Param.Default).
	Presets []cca.Preset
	// Params are the parameters, in the order presets set them.
	Params []*Param[C]
	// Refused are keys that do not apply to this algorithm although a
	// related one takes them, with the reason.
	Refused map[string]string
	// Exclusive are groups of keys of which overrides may give at most
	// one a value other than zero.
	Exclusive []Exclusive
	// Base is the preset whose values Fill gives the zero fields of a
	// configuration built in Go; "" is Default.
	Base string

	once     sync.Once
	defaults C

	schemaOnce sync.Once
	schema     cca.Schema
}

// Exclusive is a group of keys that give the same thing (What) in
// different ways.
type Exclusive struct {
	What string
	Keys []string
}

// Keys lists the table's keys in sorted order.
func (t *Table[C]) Keys() []string {
	return sortedNames(t.Params, func(p *Param[C]) string { return p.key })
}

// Param is the parameter of key, or nil.
func (t *Table[C]) Param(key string) *Param[C] {
	for _, p := range t.Params {
		if p.key == key {
			return p
		}
	}
	return nil
}

// PresetNames lists the canonical preset names in sorted order.
func (t *Table[C]) PresetNames() []string {
	return sortedNames(t.Presets, func(p cca.Preset) string { return p.Name })
}

// sortedNames lists the names of xs in sorted order.
func sortedNames[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	sort.Strings(out)
	return out
}

// canonical resolves "" to the default preset and an alias to its preset.
func (t *Table[C]) canonical(name string) (string, error) {
	if name == "" {
		return t.Default, nil
	}
	for _, p := range t.Presets {
		if name == p.Name {
			return name, nil
		}
		for _, a := range p.Aliases {
			if name == a {
				return p.Name, nil
			}
		}
	}
	if len(t.Presets) == 0 {
		return "", fmt.Errorf("unknown preset %q (%s has none)", name, t.Name)
	}
	return "", fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(t.PresetNames(), ", "))
}

// Preset returns a fresh configuration of the named preset ("" for the
// default, or an alias) and the preset's canonical name: `unknown preset
// "x" (known: a, b)` otherwise.
func (t *Table[C]) Preset(name string) (C, string, error) {
	var c C
	name, err := t.canonical(name)
	if err != nil {
		return c, "", err
	}
	for _, p := range t.Params {
		if err := p.set(&c, p.value(name)); err != nil {
			panic(fmt.Sprintf("keyval: %s preset %q: parameter %s: %v", t.Name, name, p.key, err))
		}
	}
	return c, name, nil
}

// Set applies one key=value override to c. Errors are lowercase and name
// the key: `unknown parameter "x" (known: a, b)`, `parameter a: ...`.
func (t *Table[C]) Set(c *C, key, value string) error {
	p := t.Param(key)
	if p == nil {
		if why, ok := t.Refused[key]; ok {
			return fmt.Errorf("parameter %q does not apply: %s", key, why)
		}
		return fmt.Errorf("unknown parameter %q (known: %s)", key, strings.Join(t.Keys(), ", "))
	}
	if err := p.set(c, value); err != nil {
		return fmt.Errorf("parameter %s: %w", key, err)
	}
	return nil
}

// Apply sets every override on c in sorted key order, so that the first
// error reported never depends on map iteration order, then checks the
// Exclusive groups.
func (t *Table[C]) Apply(c *C, overrides map[string]string) error {
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := t.Set(c, k, overrides[k]); err != nil {
			return err
		}
	}
	for _, g := range t.Exclusive {
		var given []string
		for _, k := range keys {
			if p := t.Param(k); p != nil && slices.Contains(g.Keys, k) && !slices.Contains(p.zero, strings.ToLower(strings.TrimSpace(overrides[k]))) {
				given = append(given, k)
			}
		}
		if len(given) > 1 {
			return fmt.Errorf("parameters %s each set %s: give only one", strings.Join(given, " and "), g.What)
		}
	}
	return nil
}

// Build is what every algorithm's cca.Builder does first: the preset's
// configuration, the overrides (Apply), then validate (which may be nil).
// It returns the configuration and the preset's canonical name.
func (t *Table[C]) Build(preset string, overrides map[string]string, validate func(*C) error) (C, string, error) {
	c, name, err := t.Preset(preset)
	if err == nil {
		err = t.Apply(&c, overrides)
	}
	if err == nil && validate != nil {
		err = validate(&c)
	}
	return c, name, err
}

// Values returns every parameter's effective value in c, keyed as Set
// takes them: feeding them back through Set reproduces c.
func (t *Table[C]) Values(c *C) map[string]string {
	out := make(map[string]string, len(t.Params))
	for _, p := range t.Params {
		out[p.key] = p.get(c)
	}
	return out
}

// Defaults is the Base preset's configuration (cached): the values a
// configuration built in Go takes for its zero fields.
func (t *Table[C]) Defaults() C {
	t.once.Do(func() { t.defaults, _, _ = t.Preset(t.Base) })
	return t.defaults
}

// Fill gives every zero field of c whose parameter is DefaultIfZero the
// Base preset's value: a Config built in Go may leave them out.
func (t *Table[C]) Fill(c *C) {
	d := t.Defaults()
	for _, p := range t.Params {
		if p.fill && p.unset(c) {
			p.fillFrom(c, &d)
		}
	}
}

// Check checks every field of c against its parameter's bounds, in Params
// order, and returns the first problem: "g must be in (0, 1], got 2",
// "increase_timer must be positive, got -1ps". Values a parser produced
// always pass; the check is for configurations built in Go.
func (t *Table[C]) Check(c *C) error {
	for _, p := range t.Params {
		if err := p.validate(c); err != nil {
			return err
		}
	}
	return nil
}

// Schema describes the presets and parameters, with each parameter's
// effective value in every preset (built and validated as Build does,
// with validate, which must be the same at every call: the schema is
// computed once). Callers must not modify it.
func (t *Table[C]) Schema(validate func(*C) error) cca.Schema {
	t.schemaOnce.Do(func() { t.schema = t.makeSchema(validate) })
	return t.schema
}

func (t *Table[C]) makeSchema(validate func(*C) error) cca.Schema {
	s := cca.Schema{Default: t.Default, Presets: t.Presets, Refused: t.Refused}
	names := []string{""}
	if len(t.Presets) > 0 {
		names = names[:0]
		for _, p := range t.Presets {
			names = append(names, p.Name)
		}
	}
	values := map[string]map[string]string{}
	for _, n := range names {
		c, _, err := t.Build(n, nil, validate)
		if err != nil {
			panic(fmt.Sprintf("keyval: %s preset %q: %v", t.Name, n, err))
		}
		values[n] = t.Values(&c)
	}
	for _, k := range t.Keys() {
		p := t.Param(k)
		cp := cca.Param{Key: k, Unit: p.unit, Bounds: p.boundsDoc(), Doc: p.doc, Values: map[string]string{}}
		for _, n := range names {
			cp.Values[n] = values[n][k]
		}
		s.Params = append(s.Params, cp)
	}
	return s
}
