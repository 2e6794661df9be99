package main

import (
	"strings"

	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// The lists in help texts come from the registries themselves (the
// generators, the algorithms, the topology kinds), so a new generator or
// algorithm shows in --help without anyone editing it.

// workloadHelp lists every generator with its one-line description.
func workloadHelp() string { return gen.KindsHelp() }

// algorithmHelp lists every algorithm with its presets.
func algorithmHelp() string { return registry().Help() }

// algorithmNames is the comma-separated list for flag descriptions.
func algorithmNames() string { return strings.Join(registry().Names(), ", ") }

// topologyHelp is the topology spec syntax with every kind and preset.
func topologyHelp() string { return topology.FlagHelp() }
