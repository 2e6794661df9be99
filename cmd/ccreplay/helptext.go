package main

import (
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// The lists in help texts come from the registries themselves (the
// generators, the algorithms, the topology kinds), so a new generator or
// algorithm shows in --help without anyone editing it.

// workloadHelp lists every generator with its one-line description.
func workloadHelp() string {
	var b strings.Builder
	b.WriteString("Workloads (--workload KIND:key=value,...; `ccreplay gen --help` lists every key):\n")
	for _, k := range gen.Kinds() {
		doc, _, _ := strings.Cut(k.Doc, " (")
		fmt.Fprintf(&b, "  %-13s %s\n", k.Name, doc)
	}
	return b.String()
}

// algorithmHelp lists every algorithm with its presets.
func algorithmHelp() string {
	var b strings.Builder
	b.WriteString("Algorithms (--cca NAME[:PRESET], --cca-param KEY=VALUE):\n")
	reg := registry()
	for _, n := range reg.Names() {
		fmt.Fprintf(&b, "  %-10s %s\n", n, reg.Doc(n))
	}
	return b.String()
}

// algorithmNames is the comma-separated list for flag descriptions.
func algorithmNames() string { return strings.Join(registry().Names(), ", ") }

// topologyHelp is the topology spec syntax with every kind and preset.
func topologyHelp() string {
	return "Topologies (--topology): " + strings.TrimPrefix(topology.SpecHelp(), "topology spec: ")
}
