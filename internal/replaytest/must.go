package replaytest

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// Topology parses the topology spec (as topology.Parse takes it) for
// hosts hosts, failing t on an error.
func Topology(t testing.TB, spec string, hosts int) *topology.Topology {
	t.Helper()
	topo, err := topology.Parse(spec, hosts)
	return testfiles.Must(t, topo, err)
}

// Workload generates the trace/gen workload spec with seed, failing t on
// a bad spec.
func Workload(t testing.TB, spec string, seed int64) *trace.Trace {
	t.Helper()
	tr, err := gen.Parse(spec, seed)
	return testfiles.Must(t, tr, err)
}
