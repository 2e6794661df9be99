package main

import (
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/reproduce"
	"github.com/ccreplay/ccreplay/trace/gen"
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
