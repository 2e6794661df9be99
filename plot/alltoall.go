package plot

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// AlltoallName is the file name of the MPI_Alltoall latency view.
const AlltoallName = "alltoall_latency"

// osuKind is the generator name of the OSU MPI_Alltoall benchmark.
const osuKind = "osu-alltoall"

// AlltoallLatency is MPI_Alltoall latency versus message size, log-log, as
// Dolce-RC (Ye 2023) Fig. 5 draws it: one curve per run, one point per message
// size, x = message size (bytes per rank pair), y = mean latency of the
// timed iterations in us. The latency is the one `ccreplay run` and
// `ccreplay compare` print: gen.OSULatency over gen.CollectiveSpans of the
// run's messages (an iteration lasts from its first release to its last
// delivery).
//
// When summary.json's trace is an osu-alltoall generator spec, gen.OSUPlan
// says which collective is which size and iteration, and warm-up
// iterations are left out. Otherwise (a trace file) a run qualifies when
// it has collectives and every collective's messages of more than 0 bytes
// have one size: each collective is then one timed iteration of that
// size (warm-ups cannot be told apart and are averaged in, said in a
// note). Runs that do not qualify are left out with a note; with none left
// the view is skipped. Count holds the timed iterations per size.
func AlltoallLatency(runs []*Run) (Figure, error) {
	fig := Figure{
		Name:   AlltoallName,
		Title:  "MPI_Alltoall latency per message size",
		XLabel: "message size (bytes per rank pair)",
		YLabel: "mean latency (us)",
		LogX:   true,
		LogY:   true,
	}
	var p Panel
	var sizes []int64
	for _, r := range runs {
		plan, how, err := osuPlan(r)
		if err != nil {
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: left out: %v", r.Label, err))
			continue
		}
		n := len(r.Messages)
		ids, rel, fin := make([]int64, n), make([]units.Time, n), make([]units.Time, n)
		for i, m := range r.Messages {
			ids[i], rel[i], fin[i] = m.CollectiveID, units.Nanos(m.ReleaseNs), units.Nanos(m.FinishNs)
			if m.FinishNs < 0 {
				fin[i] = -1
			}
		}
		pts, err := gen.OSULatency(plan, gen.CollectiveSpans(ids, rel, fin))
		if err != nil {
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: left out: %v", r.Label, err))
			continue
		}
		if how != "" {
			fig.Notes = append(fig.Notes, r.Label+": "+how)
		}
		s := Series{Label: r.Label, Colour: r.Group, Dash: r.Variant, Points: true}
		for _, pt := range pts {
			if pt.Bytes <= 0 || pt.AvgLatency <= 0 {
				continue // not drawable on log axes
			}
			s.X = append(s.X, float64(pt.Bytes))
			s.Y = append(s.Y, float64(pt.AvgLatency)/1e6) // ps -> us
			s.Count = append(s.Count, int64(pt.Iterations))
			sizes = append(sizes, pt.Bytes)
		}
		if len(s.X) == 0 {
			continue
		}
		p.Series = append(p.Series, s)
		p.Legend = append(p.Legend, Key{Label: r.Label, Colour: r.Group, Dash: r.Variant, Points: true})
	}
	if len(p.Series) == 0 {
		return Figure{}, skipf(AlltoallName, "no run is an MPI_Alltoall workload (osu-alltoall spec, or collectives of one message size each)")
	}
	slices.Sort(sizes)
	fig.XTicks = sizeTicks(slices.Compact(sizes))
	fig.Panels = []Panel{p}
	return fig, nil
}

// osuPlan is the run's benchmark plan: from its osu-alltoall spec, or
// inferred from its collectives (then how says so).
func osuPlan(r *Run) (plan []gen.OSUCollective, how string, err error) {
	name, _, _ := strings.Cut(strings.TrimSpace(r.Manifest.Trace), ":")
	if strings.TrimSpace(name) == osuKind {
		plan, err = gen.OSUPlan(r.Manifest.Trace)
		return plan, "", err
	}
	type pair struct{ src, dst int32 }
	size := map[int64]int64{}
	pairs := map[int64]map[pair]bool{}
	hosts := map[int64]map[int32]bool{}
	var order []int64
	for _, m := range r.Messages {
		if m.CollectiveID < 0 || m.SizeBytes == 0 {
			continue
		}
		id := m.CollectiveID
		s, ok := size[id]
		switch {
		case !ok:
			size[id] = m.SizeBytes
			pairs[id], hosts[id] = map[pair]bool{}, map[int32]bool{}
			order = append(order, id)
		case s != m.SizeBytes:
			return nil, "", fmt.Errorf("trace %q: collective %d mixes message sizes %d and %d B, not an all-to-all benchmark", r.Manifest.Trace, id, s, m.SizeBytes)
		}
		pairs[id][pair{m.Src, m.Dst}] = true
		hosts[id][m.Src], hosts[id][m.Dst] = true, true
	}
	if len(order) == 0 {
		return nil, "", fmt.Errorf("trace %q is not an %s spec and has no collective", r.Manifest.Trace, osuKind)
	}
	// An all-to-all sends between every ordered pair of its hosts.
	for _, id := range order {
		hs := slices.Sorted(maps.Keys(hosts[id]))
		for _, a := range hs {
			for _, b := range hs {
				if a != b && !pairs[id][pair{a, b}] {
					return nil, "", fmt.Errorf("trace %q: collective %d has no message from host %d to host %d, not an all-to-all", r.Manifest.Trace, id, a, b)
				}
			}
		}
	}
	// Group by size (then collective id) so that each size is one run of
	// iterations, as OSULatency expects.
	slices.SortFunc(order, func(a, b int64) int { return cmp.Or(cmp.Compare(size[a], size[b]), cmp.Compare(a, b)) })
	var it int64
	for i, id := range order {
		if i > 0 && size[id] != size[order[i-1]] {
			it = 0
		}
		plan = append(plan, gen.OSUCollective{CollectiveID: id, Bytes: size[id], Iteration: it})
		it++
	}
	return plan, "collectives inferred from the trace, every iteration timed (warm-ups cannot be told apart)", nil
}

// sizeTicks ticks every message size, labelling at most about 8 of them
// evenly (the first always).
func sizeTicks(sizes []int64) []Tick {
	every := (len(sizes) + 7) / 8
	ticks := make([]Tick, len(sizes))
	for i, s := range sizes {
		ticks[i] = Tick{Value: float64(s)}
		if i%every == 0 {
			ticks[i].Label = formatBytes(s)
		}
	}
	return ticks
}
