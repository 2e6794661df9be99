package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/reproduce"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// isOSU tells whether a workload spec is the OSU MPI_Alltoall benchmark.
func isOSU(workload string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(workload), ":")
	return strings.TrimSpace(name) == "osu-alltoall"
}

// osuLatency is the benchmark's report (mean latency per message size)
// computed from a replay of an osu-alltoall workload.
func osuLatency(workload string, res *replay.Result) ([]gen.OSUPoint, error) {
	return reproduce.OSULatency(workload, res.Messages)
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
