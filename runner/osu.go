package runner

import (
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// OSUSpans folds a run's message rows into the collective spans the
// osu_alltoall benchmark's report is made of (gen.AddSpan), by collective
// id: for rows given one at a time, as a streamed run passes them or as a
// finished run is digested.
type OSUSpans map[int64]gen.Span

// Add folds message row m in; an unfinished message (FinishNs < 0) leaves
// its collective unfinished.
func (s OSUSpans) Add(m *v2.MessageRow) {
	fin := units.Nanos(m.FinishNs)
	if m.FinishNs < 0 {
		fin = -1
	}
	gen.AddSpan(s, m.CollectiveID, units.Nanos(m.ReleaseNs), fin)
}

// OSUReport is osu_alltoall's report (mean latency per message size) of a
// replay of the osu-alltoall workload spec, from its folded spans.
func OSUReport(workload string, s OSUSpans) ([]gen.OSUPoint, error) {
	plan, err := gen.OSUPlan(workload)
	if err != nil {
		return nil, err
	}
	return gen.OSULatency(plan, s)
}

// OSULatency is OSUReport of a replay's message rows, as `ccreplay run`,
// `metrics` and `compare` print it.
func OSULatency(workload string, msgs []v2.MessageRow) ([]gen.OSUPoint, error) {
	s := OSUSpans{}
	for i := range msgs {
		s.Add(&msgs[i])
	}
	return OSUReport(workload, s)
}
