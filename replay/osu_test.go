package replay

import (
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"

	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// An OSU MPI_Alltoall replay (issue 3): under one algorithm the mean
// latency grows with the message size, and the dependency rule holds in
// the replay itself: no message of iteration i+1 of a size is released
// before every message of iteration i has been delivered (the barrier
// between them). The algorithm is forced (linear): by default the sizes
// take MPICH's choices, and Bruck's three dependent steps at 256 B take
// longer than the scattered algorithm's one round at 512 B (measured
// under linerate: 13.1 us against 4.9 us), since the replay has no
// per-message software cost for Bruck to save.
func TestOSUAlltoallLatencyGrowsAndIterationsDoNotOverlap(t *testing.T) {
	const spec = "osu-alltoall:nodes=4,ppn=2,sizes=1..64KiB,warmup=1,iters=2,algo=linear"
	tr := replaytest.Workload(t, spec, 1)
	for _, cc := range []string{"dcqcn", "linerate"} {
		res := mustRun(t, baseConfig(t, replaytest.Topology(t, "leafspine:leaves=2,hosts=2,spines=1,uplinks=1,rate=100G,fabric=100G,delay=1us", tr.Hosts), cc), tr, "")
		allFinished(t, res)
		n := len(res.Messages)
		ids, rel, fin := make([]int64, n), make([]units.Time, n), make([]units.Time, n)
		for i, m := range res.Messages {
			ids[i], rel[i], fin[i] = m.CollectiveID, units.Nanos(m.ReleaseNs), units.Nanos(m.FinishNs)
		}
		spans := gen.CollectiveSpans(ids, rel, fin)
		plan, err := gen.OSUPlan(spec)
		if err != nil {
			t.Fatal(err)
		}
		pts, err := gen.OSULatency(plan, spans)
		if err != nil {
			t.Fatal(err)
		}
		// Small messages sit on the flat, propagation-bound part of the
		// curve, where the previous iteration's ACKs still on the wire can
		// move a size by a few ns (measured: 4.1055 us at 1 B, 4.1 us at
		// 2 B): each size must be within 2 % of the previous or above it.
		for k := 1; k < len(pts); k++ {
			if float64(pts[k].AvgLatency) < 0.98*float64(pts[k-1].AvgLatency) {
				t.Errorf("%s: latency %v at %d B is below %v at %d B", cc, pts[k].AvgLatency, pts[k].Bytes, pts[k-1].AvgLatency, pts[k-1].Bytes)
			}
		}
		if last, first := pts[len(pts)-1], pts[0]; last.AvgLatency < 10*first.AvgLatency {
			t.Errorf("%s: 64 KiB latency %v is not well above 1 B's %v", cc, last.AvgLatency, first.AvgLatency)
		}
		// Consecutive collectives in plan order never overlap.
		for k := 1; k < len(plan); k++ {
			prev, cur := spans[plan[k-1].CollectiveID], spans[plan[k].CollectiveID]
			if cur.Start < prev.End {
				t.Errorf("%s: collective %d started at %v before collective %d ended at %v", cc, plan[k].CollectiveID, cur.Start, plan[k-1].CollectiveID, prev.End)
			}
		}
		t.Logf("%s: 1 B %v, 1 KiB %v, 64 KiB %v", cc, pts[0].AvgLatency, pts[10].AvgLatency, pts[len(pts)-1].AvgLatency)
	}
}
