package plot

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// DecisionsFile is the per-decision log of a run's congestion control
// (columns t_ns, flow_id, new_rate_bps), when the run wrote one.
const DecisionsFile = runfolder.DecisionsFile

// Run is one run folder (as `ccreplay run` or one cell of `ccreplay
// compare` writes it) loaded for plotting.
type Run struct {
	// Dir is the folder.
	Dir string
	// Manifest is its summary.json.
	Manifest runfolder.Manifest
	// Summary is the manifest's metrics, decoded.
	Summary metrics.Summary
	// Label names the run in legends: the algorithm (summary.json cca),
	// plus "seed=N" when the same algorithm appears with several seeds.
	Label string
	// Group is the index of the run's algorithm among the distinct
	// algorithms in colour order (see labelRuns): its colour.
	Group int
	// Variant counts the earlier runs of the same algorithm: its dash.
	Variant int
	// Flows, Messages and Ports are the rows of its Parquet files.
	Flows    []v2.FlowRow
	Messages []v2.MessageRow
	Ports    []v2.PortRow
	// Packets and Decisions are the paths of packets.parquet and
	// decisions.parquet, "" when the run has none.
	Packets, Decisions string

	bins *packetBins // cached pass over packets.parquet
}

// EndNs is the run's simulated length, ns: summary.json's sim_end_ns, or
// the ports' sim_duration_ns when that is 0.
func (r *Run) EndNs() int64 {
	end := r.Manifest.SimEndNs
	for _, p := range r.Ports {
		end = max(end, p.SimDurationNs)
	}
	return end
}

// LoadRuns reads each folder's summary.json, flows, messages and ports
// (with metrics/arrowread) and notes whether packets.parquet and
// decisions.parquet are there, then sets labels, groups and variants.
func LoadRuns(dirs []string) ([]*Run, error) {
	if len(dirs) == 0 {
		return nil, errors.New("no run folder")
	}
	runs := make([]*Run, 0, len(dirs))
	for _, d := range dirs {
		r, err := loadRun(d)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	labelRuns(runs)
	return runs, nil
}

func loadRun(dir string) (*Run, error) {
	rf, err := runfolder.Open(dir)
	if err != nil {
		return nil, err
	}
	if rf.Manifest.CCA == "" {
		return nil, fmt.Errorf("%s: no cca", rf.Path(runfolder.SummaryFile))
	}
	sum, err := metrics.DecodeSummary(rf.Manifest.Metrics)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rf.Path(runfolder.SummaryFile), err)
	}
	rows, err := arrowread.ReadRun(rf)
	if err != nil {
		return nil, err
	}
	r := &Run{Dir: dir, Manifest: *rf.Manifest, Summary: sum, Flows: rows.Flows, Messages: rows.Messages, Ports: rows.Ports}
	if r.Packets, err = rf.Optional(runfolder.PacketsFile); err != nil {
		return nil, err
	}
	if r.Decisions, err = rf.Optional(runfolder.DecisionsFile); err != nil {
		return nil, err
	}
	return r, nil
}

// algorithmOrder fixes the colour of each algorithm family across
// figures and invocations: a family's runs take the first free colour at
// or after its place here (others follow in name order).
var algorithmOrder = []string{"dcqcn", "hpcc", "dolce", "dctcp", "timely", "swift", "rlcc", "dolceplus", "linerate", "fdcc"}

// algorithmRank is name's place in algorithmOrder, or len for others.
func algorithmRank(spec string) int {
	base, _, _ := strings.Cut(spec, ":")
	if i := slices.Index(algorithmOrder, base); i >= 0 {
		return i
	}
	return len(algorithmOrder)
}

// labelRuns names the runs and gives each algorithm a colour (Group) and
// each run of an algorithm a dash (Variant). Colours come from the
// algorithms present sorted by (algorithmOrder, name), so a figure of the
// same algorithms has the same colours whatever order the folders were
// given in.
func labelRuns(runs []*Run) {
	var names []string
	count := map[string]int{}
	for _, r := range runs {
		if count[r.Manifest.CCA] == 0 {
			names = append(names, r.Manifest.CCA)
		}
		count[r.Manifest.CCA]++
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(algorithmRank(a), algorithmRank(b)), strings.Compare(a, b))
	})
	group := map[string]int{}
	for i, n := range names {
		group[n] = i
	}
	variant := map[string]int{}
	for _, r := range runs {
		r.Group = group[r.Manifest.CCA]
		r.Variant = variant[r.Manifest.CCA]
		variant[r.Manifest.CCA]++
	}
	seen := map[string]int{}
	for _, r := range runs {
		r.Label = r.Manifest.CCA
		if count[r.Manifest.CCA] > 1 {
			r.Label += fmt.Sprintf(" seed=%d", r.Manifest.Seed)
		}
		seen[r.Label]++
	}
	for _, r := range runs {
		if seen[r.Label] > 1 {
			r.Label += " (" + filepath.ToSlash(r.Dir) + ")"
		}
	}
}

// PoolSeeds groups the runs by algorithm: each algorithm with several runs
// (seeds) becomes one run whose flows and messages are all of theirs,
// labelled "NAME (N runs)", so that distribution views (FCT CDF,
// slowdown per bucket) draw one curve per algorithm; the first run of
// each algorithm is kept for the views that draw one run's time series.
// Runs of one algorithm alone are returned as they are. Order: the
// algorithms' colour order.
func PoolSeeds(runs []*Run) (pooled, firsts []*Run) {
	by := map[string][]*Run{}
	var names []string
	for _, r := range runs {
		if by[r.Manifest.CCA] == nil {
			names = append(names, r.Manifest.CCA)
		}
		by[r.Manifest.CCA] = append(by[r.Manifest.CCA], r)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(by[a][0].Group, by[b][0].Group) })
	for _, n := range names {
		rs := by[n]
		firsts = append(firsts, rs[0])
		if len(rs) == 1 {
			pooled = append(pooled, rs[0])
			continue
		}
		p := &Run{Dir: rs[0].Dir, Manifest: rs[0].Manifest, Group: rs[0].Group,
			Label: fmt.Sprintf("%s (%d runs)", n, len(rs))}
		for _, r := range rs {
			p.Flows = append(p.Flows, r.Flows...)
			p.Messages = append(p.Messages, r.Messages...)
			p.Ports = append(p.Ports, r.Ports...)
		}
		pooled = append(pooled, p)
	}
	return pooled, firsts
}
