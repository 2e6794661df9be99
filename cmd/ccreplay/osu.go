package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// isOSU tells whether a workload spec is the OSU MPI_Alltoall benchmark.
func isOSU(workload string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(workload), ":")
	return strings.TrimSpace(name) == "osu-alltoall"
}

// osuLatency is the benchmark's report (mean latency per message size)
// computed from a replay of an osu-alltoall workload.
func osuLatency(workload string, res *replay.Result) ([]gen.OSUPoint, error) {
	plan, err := gen.OSUPlan(workload)
	if err != nil {
		return nil, err
	}
	n := len(res.Messages)
	ids, rel, fin := make([]int64, n), make([]units.Time, n), make([]units.Time, n)
	for i, m := range res.Messages {
		ids[i], rel[i], fin[i] = m.CollectiveID, units.Nanos(m.ReleaseNs), units.Nanos(m.FinishNs)
		if m.FinishNs < 0 {
			fin[i] = -1
		}
	}
	return gen.OSULatency(plan, gen.CollectiveSpans(ids, rel, fin))
}

// writeOSUTable prints MPI_Alltoall latency per size, one column per
// algorithm (mean over its runs), like osu_alltoall's "Avg Latency(us)".
func writeOSUTable(w io.Writer, names []string, points [][][]gen.OSUPoint) {
	fmt.Fprintln(w, "\nMPI_Alltoall average latency (us) per message size, as osu_alltoall reports it")
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "size (B)\t")
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t", n)
	}
	fmt.Fprintln(tw)
	if len(points) == 0 || len(points[0]) == 0 {
		tw.Flush()
		return
	}
	for k, pt := range points[0][0] {
		fmt.Fprintf(tw, "%d\t", pt.Bytes)
		for i := range names {
			var sum float64
			for _, runPts := range points[i] {
				sum += float64(runPts[k].AvgLatency) / 1e6
			}
			fmt.Fprintf(tw, "%.2f\t", sum/float64(len(points[i])))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
