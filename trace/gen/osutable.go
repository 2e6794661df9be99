package gen

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// IsOSU tells whether a workload spec is the OSU MPI_Alltoall benchmark
// (osu-alltoall).
func IsOSU(spec string) bool {
	name, _, _ := strings.Cut(strings.TrimSpace(spec), ":")
	return strings.TrimSpace(name) == "osu-alltoall"
}

// WriteOSUTable prints MPI_Alltoall latency per message size as
// osu_alltoall's "Avg Latency(us)" column, one column per name:
// points[i] holds that name's runs (seeds), each a report over the same
// sizes, and a cell is the mean over them, microseconds with two
// decimals.
func WriteOSUTable(w io.Writer, names []string, points [][][]OSUPoint) {
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
