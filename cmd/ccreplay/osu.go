package main

import (
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/reproduce"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// The OSU report's helpers under the names metrics.go uses (run and
// compare call trace/gen and reproduce directly).
var (
	isOSU         = gen.IsOSU
	writeOSUTable = gen.WriteOSUTable
)

// osuLatency is the benchmark's report (mean latency per message size)
// computed from a replay of an osu-alltoall workload.
func osuLatency(workload string, res *replay.Result) ([]gen.OSUPoint, error) {
	return reproduce.OSULatency(workload, res.Messages)
}

// osuSpans folds a streamed run's message rows (runner.Scenario's
// OnMessage) into the collective spans the benchmark's report is made of.
type osuSpans map[int64]gen.Span

func (s osuSpans) add(m *v2.MessageRow) {
	fin := units.Nanos(m.FinishNs)
	if m.FinishNs < 0 {
		fin = -1
	}
	gen.AddSpan(s, m.CollectiveID, units.Nanos(m.ReleaseNs), fin)
}

// osuLatencyOf is osuLatency from spans when the run was streamed (spans
// not nil), else from res's message rows.
func osuLatencyOf(workload string, res *replay.Result, spans osuSpans) ([]gen.OSUPoint, error) {
	if spans == nil {
		return osuLatency(workload, res)
	}
	plan, err := gen.OSUPlan(workload)
	if err != nil {
		return nil, err
	}
	return gen.OSULatency(plan, spans)
}
