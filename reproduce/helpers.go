package reproduce

import (
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/runconfig"
)

// ptr returns a pointer to v (for runconfig.File's optional fields).
func ptr[T any](v T) *T { return &v }

// part is an algorithm spec as a hive partition value (':' becomes '-'),
// as compare names its folders.
func part(spec string) string { return strings.ReplaceAll(spec, ":", "-") }

// runFile is a run configuration with the keys every experiment sets:
// the workload, topology and algorithm, no per-packet log, seed 1.
func runFile(workload, topology, cca string) runconfig.File {
	return runconfig.File{Workload: workload, Topology: topology, CCA: cca, Packets: "none", Seed: ptr(uint64(1))}
}

// get reads one number of a run's summary.
type get func(*metrics.Summary) float64

// quantity measures get on the run labelled label, multiplied by scale.
func quantity(label string, g get, scale float64) func(Outcomes) (float64, error) {
	return func(o Outcomes) (float64, error) {
		s, err := o.summary(label)
		if err != nil {
			return 0, err
		}
		return g(s) * scale, nil
	}
}

// change measures (g(b) - g(a)) / g(a) between the runs labelled a and b.
func change(a, b string, g get) func(Outcomes) (float64, error) {
	return func(o Outcomes) (float64, error) {
		sa, err := o.summary(a)
		if err != nil {
			return 0, err
		}
		sb, err := o.summary(b)
		if err != nil {
			return 0, err
		}
		va, vb := g(sa), g(sb)
		if va == 0 {
			return 0, fmt.Errorf("run %s: zero baseline", a)
		}
		return (vb - va) / va, nil
	}
}

func fctMeanUs(s *metrics.Summary) float64 { return s.FCTMeanNs / 1e3 }

// fromRun measures pick of what read derives from the run labelled label
// (typically a scan of its packets.parquet). read runs once per run and
// kind; every claim of that kind on the run shares its result.
func fromRun[T any](label, kind string, read func(*Outcome) (T, error), pick func(T) float64) func(Outcomes) (float64, error) {
	return func(o Outcomes) (float64, error) {
		oc, ok := o[label]
		if !ok || !oc.Done {
			return 0, fmt.Errorf("no run %q", label)
		}
		if v, ok := oc.derived[kind].(T); ok {
			return pick(v), nil
		}
		v, err := read(oc)
		if err != nil {
			return 0, err
		}
		if oc.derived == nil {
			oc.derived = map[string]any{}
		}
		oc.derived[kind] = v
		return pick(v), nil
	}
}
