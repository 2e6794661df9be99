package fidelity

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/ccreplay/ccreplay/hpccfmt"
)

// Side is one set of flow completions: an fct.txt, or rows built from a
// ccreplay run folder (Load).
type Side struct {
	// Label names the side in tables ("ns-3", a path).
	Label string `json:"label"`
	// Path is the file or folder it was read from ("" when built in Go).
	Path string `json:"path"`
	// Source says which file the rows come from and how, in one sentence.
	Source string `json:"source"`
	// Rows are the finished flows, in the file's order.
	Rows []hpccfmt.FCTRow `json:"-"`
}

// Defaults of Options.
const (
	// DefaultMinMatch is the smallest fraction of each side's flows that
	// must be matched.
	DefaultMinMatch = 0.9
	// DefaultHPCCStepPct is fct_analysis.py's default step: buckets of
	// 5 % of the flows.
	DefaultHPCCStepPct = 5
	// DefaultBuckets is the number of ccreplay's equal-count buckets
	// (metrics.DefaultBuckets).
	DefaultBuckets = 10
	// DefaultTop is the number of flows listed in each direction.
	DefaultTop = 10
)

// Options tunes Compare. Zero values take the defaults.
type Options struct {
	Match MatchOptions
	// MinMatch is the smallest fraction (0..1] of each side's rows that
	// must be matched, else Compare returns a *MatchError;
	// DefaultMinMatch when 0, negative to accept any.
	MinMatch float64
	// HPCCStepPct is the HPCC buckets' width in percent of the flows
	// (1..100; DefaultHPCCStepPct when 0).
	HPCCStepPct int
	// Buckets is the number of ccreplay's equal-count buckets
	// (DefaultBuckets when 0).
	Buckets int
	// Top is the number of flows listed in each direction (DefaultTop
	// when 0, negative for none).
	Top int
}

func (o Options) withDefaults() Options {
	o.MinMatch = cmp.Or(o.MinMatch, DefaultMinMatch)
	if o.HPCCStepPct <= 0 {
		o.HPCCStepPct = DefaultHPCCStepPct
	}
	o.HPCCStepPct = min(o.HPCCStepPct, 100)
	if o.Buckets <= 0 {
		o.Buckets = DefaultBuckets
	}
	o.Top = cmp.Or(o.Top, DefaultTop)
	return o
}

// MatchError is Compare's error when too few flows match: the two sides
// are probably not runs of the same scenario.
type MatchError struct {
	Matched, RefRows, OtherRows int
	MinMatch                    float64
}

func (e *MatchError) Error() string {
	return fmt.Sprintf("only %d flows match: %.1f %% of the reference's %d and %.1f %% of the other's %d, want at least %.0f %% of each (same scenario? see --min-match and --start-tolerance)",
		e.Matched, pct(e.Matched, e.RefRows), e.RefRows, pct(e.Matched, e.OtherRows), e.OtherRows, 100*e.MinMatch)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// Report is the comparison of two sides: the reference (A, e.g. ns-3) and
// the other (B, e.g. ccreplay). Every ratio is other / reference. JSON
// field names are stable (docs/VALIDATE.md).
type Report struct {
	Reference Side `json:"reference"`
	Other     Side `json:"other"`
	// Match says how the flows were paired.
	Match MatchSummary `json:"match"`
	// Percentiles is the rule of Overall and Buckets (NearestRank).
	Percentiles string `json:"percentiles"`
	// Overall is over every matched flow.
	Overall Overall `json:"overall"`
	// HPCCBuckets are the HPCC analysis script's buckets, Buckets
	// ccreplay's (metrics) equal-count buckets, both over the matched
	// flows sorted by the reference's size.
	HPCCBuckets BucketSet `json:"hpcc_buckets"`
	Buckets     BucketSet `json:"buckets"`
	// TopSlower are the flows whose FCT ratio is largest (> 1, the
	// other side slower), TopFaster those whose ratio is smallest (< 1).
	TopSlower []FlowDiff `json:"top_slower"`
	TopFaster []FlowDiff `json:"top_faster"`
	// Flows are every matched flow in the reference's row order (for
	// plots; not in the JSON, which would grow with the workload).
	Flows []FlowDiff `json:"-"`
}

// MatchSummary counts the pairing.
type MatchSummary struct {
	Matched        int `json:"matched"`
	ByPorts        int `json:"by_ports"`
	ByStart        int `json:"by_start"`
	UnmatchedRef   int `json:"unmatched_reference"`
	UnmatchedOther int `json:"unmatched_other"`
	// RefRows and OtherRows are each side's rows.
	RefRows   int `json:"reference_rows"`
	OtherRows int `json:"other_rows"`
	// StartToleranceNs is the start-time tolerance of ByStart matches.
	StartToleranceNs int64 `json:"start_tolerance_ns"`
	// StandaloneDiffer counts matched flows whose standalone FCTs differ;
	// StandaloneMaxRelDiff is the largest |other - ref| / ref among them.
	StandaloneDiffer     int     `json:"standalone_differ"`
	StandaloneMaxRelDiff float64 `json:"standalone_max_rel_diff"`
	// ClampedRef and ClampedOther count flows whose FCT is below their
	// own standalone FCT (slowdown clamped to 1).
	ClampedRef   int `json:"clamped_reference"`
	ClampedOther int `json:"clamped_other"`
}

// Overall compares every matched flow.
type Overall struct {
	Flows int `json:"flows"`
	SlowdownStats
	FCTMeanRefNs          float64 `json:"fct_mean_reference_ns"`
	FCTMeanOtherNs        float64 `json:"fct_mean_other_ns"`
	FCTMeanRatio          float64 `json:"fct_mean_ratio"`
	LastCompletionRefNs   int64   `json:"last_completion_reference_ns"`
	LastCompletionOtherNs int64   `json:"last_completion_other_ns"`
	LastCompletionRatio   float64 `json:"last_completion_ratio"`
}

// SlowdownStats are the slowdowns of a set of matched flows, Overall's and
// each Bucket's (their JSON holds these fields in place): of each side (its
// FCT / its standalone FCT), SlowdownOtherRefStandalone the other's FCT
// over the reference's standalone FCT; the ratios are other / reference.
type SlowdownStats struct {
	SlowdownRef                Stats `json:"slowdown_reference"`
	SlowdownOther              Stats `json:"slowdown_other"`
	SlowdownOtherRefStandalone Stats `json:"slowdown_other_ref_standalone"`
	SlowdownRatio              Stats `json:"slowdown_ratio"`
	SlowdownRatioRefStandalone Stats `json:"slowdown_ratio_ref_standalone"`
}

// BucketSet is one bucketing of the matched flows.
type BucketSet struct {
	// Rule describes the bucketing in one sentence.
	Rule string `json:"rule"`
	// Percentiles is the rule of the buckets' percentiles.
	Percentiles string   `json:"percentiles"`
	Buckets     []Bucket `json:"buckets"`
}

// Bucket is the matched flows of one size range.
type Bucket struct {
	SizeMinBytes int64 `json:"size_min_bytes"`
	SizeMaxBytes int64 `json:"size_max_bytes"`
	Flows        int   `json:"flows"`
	SlowdownStats
}

// FlowDiff is one matched flow on both sides. Src, Dst and the ports are
// the reference's (node ids as in fct.txt).
type FlowDiff struct {
	Src        int   `json:"src"`
	Dst        int   `json:"dst"`
	SPort      int   `json:"sport"`
	DPort      int   `json:"dport"`
	OtherSPort int   `json:"other_sport"`
	OtherDPort int   `json:"other_dport"`
	SizeBytes  int64 `json:"size_bytes"`
	StartNs    int64 `json:"start_ns"`
	// OtherStartNs is the other side's start (equal within the match
	// tolerance).
	OtherStartNs      int64   `json:"other_start_ns"`
	FCTRefNs          int64   `json:"fct_reference_ns"`
	FCTOtherNs        int64   `json:"fct_other_ns"`
	FCTRatio          float64 `json:"fct_ratio"`
	StandaloneRefNs   int64   `json:"standalone_reference_ns"`
	StandaloneOtherNs int64   `json:"standalone_other_ns"`
	SlowdownRef       float64 `json:"slowdown_reference"`
	SlowdownOther     float64 `json:"slowdown_other"`
	// By is how the flow was matched (ByPorts or ByStart).
	By string `json:"matched_by"`
}

// Compare matches ref and other and computes the Report. It fails with a
// *MatchError when fewer than opt.MinMatch of either side's rows match,
// and when no flow matches at all.
func Compare(ref, other Side, opt Options) (*Report, error) {
	opt = opt.withDefaults()
	m := Match(ref.Rows, other.Rows, opt.Match)
	r := &Report{Reference: ref, Other: other, Percentiles: NearestRank}
	r.Match = MatchSummary{
		Matched: len(m.Pairs), UnmatchedRef: len(m.UnmatchedRef), UnmatchedOther: len(m.UnmatchedOther),
		RefRows: len(ref.Rows), OtherRows: len(other.Rows), StartToleranceNs: m.StartToleranceNs,
	}
	n := len(m.Pairs)
	if n == 0 || (opt.MinMatch > 0 && (float64(n) < opt.MinMatch*float64(len(ref.Rows)) || float64(n) < opt.MinMatch*float64(len(other.Rows)))) {
		return nil, &MatchError{Matched: n, RefRows: len(ref.Rows), OtherRows: len(other.Rows), MinMatch: max(opt.MinMatch, 0)}
	}
	r.Flows = make([]FlowDiff, n)
	for i, p := range m.Pairs {
		a, b := ref.Rows[p.Ref], other.Rows[p.Other]
		if p.By == ByPorts {
			r.Match.ByPorts++
		} else {
			r.Match.ByStart++
		}
		if a.StandaloneNs != b.StandaloneNs {
			r.Match.StandaloneDiffer++
			d := math.Abs(float64(b.StandaloneNs-a.StandaloneNs)) / math.Max(float64(a.StandaloneNs), 1)
			r.Match.StandaloneMaxRelDiff = max(r.Match.StandaloneMaxRelDiff, d)
		}
		if a.FCTNs < a.StandaloneNs {
			r.Match.ClampedRef++
		}
		if b.FCTNs < b.StandaloneNs {
			r.Match.ClampedOther++
		}
		r.Flows[i] = FlowDiff{
			Src: a.Src, Dst: a.Dst, SPort: a.SPort, DPort: a.DPort, OtherSPort: b.SPort, OtherDPort: b.DPort,
			SizeBytes: a.Size, StartNs: a.StartNs, OtherStartNs: b.StartNs,
			FCTRefNs: a.FCTNs, FCTOtherNs: b.FCTNs, FCTRatio: ratio(float64(b.FCTNs), float64(a.FCTNs)),
			StandaloneRefNs: a.StandaloneNs, StandaloneOtherNs: b.StandaloneNs,
			SlowdownRef: slowdown(a.FCTNs, a.StandaloneNs), SlowdownOther: slowdown(b.FCTNs, b.StandaloneNs),
			By: p.By,
		}
	}
	r.Overall = overall(r.Flows)
	order := sizeOrder(r.Flows)
	r.HPCCBuckets = BucketSet{
		Rule:        fmt.Sprintf("fct_analysis.py: sorted by size, cut at i*n/100 for i = 0, %d, ... < 100", opt.HPCCStepPct),
		Percentiles: HPCCIndex,
		Buckets:     bucketStats(r.Flows, hpccGroups(order, opt.HPCCStepPct), HPCCIndex),
	}
	r.Buckets = BucketSet{
		Rule:        fmt.Sprintf("ccreplay metrics: sorted by size, %d groups of equal count, groups of one same size merged", opt.Buckets),
		Percentiles: NearestRank,
		Buckets:     bucketStats(r.Flows, ccreplayGroups(r.Flows, order, opt.Buckets), NearestRank),
	}
	r.TopSlower, r.TopFaster = top(r.Flows, opt.Top)
	return r, nil
}

// overall computes Overall over the matched flows.
func overall(fs []FlowDiff) Overall {
	o := Overall{Flows: len(fs), SlowdownStats: slowdownStats(fs, allOf(len(fs)), NearestRank)}
	var sumA, sumB int64
	firstA, firstB := int64(math.MaxInt64), int64(math.MaxInt64)
	var lastA, lastB int64
	for _, f := range fs {
		sumA += f.FCTRefNs
		sumB += f.FCTOtherNs
		firstA, firstB = min(firstA, f.StartNs), min(firstB, f.OtherStartNs)
		lastA, lastB = max(lastA, f.StartNs+f.FCTRefNs), max(lastB, f.OtherStartNs+f.FCTOtherNs)
	}
	o.FCTMeanRefNs, o.FCTMeanOtherNs = float64(sumA)/float64(len(fs)), float64(sumB)/float64(len(fs))
	o.FCTMeanRatio = ratio(o.FCTMeanOtherNs, o.FCTMeanRefNs)
	o.LastCompletionRefNs, o.LastCompletionOtherNs = lastA-firstA, lastB-firstB
	o.LastCompletionRatio = ratio(float64(o.LastCompletionOtherNs), float64(o.LastCompletionRefNs))
	return o
}

func allOf(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// slowdowns are the three slowdowns of the flows at idx: the reference's,
// the other's, and the other's FCT over the reference's standalone FCT.
func slowdowns(fs []FlowDiff, idx []int) (ref, other, otherRefSA []float64) {
	for _, i := range idx {
		f := &fs[i]
		ref = append(ref, f.SlowdownRef)
		other = append(other, f.SlowdownOther)
		otherRefSA = append(otherRefSA, slowdown(f.FCTOtherNs, f.StandaloneRefNs))
	}
	return ref, other, otherRefSA
}

// slowdownStats summarizes, by rule, the slowdowns of the flows at idx
// and their ratios.
func slowdownStats(fs []FlowDiff, idx []int, rule string) SlowdownStats {
	sa, sb, sbr := slowdowns(fs, idx)
	s := SlowdownStats{SlowdownRef: summarize(sa, rule), SlowdownOther: summarize(sb, rule), SlowdownOtherRefStandalone: summarize(sbr, rule)}
	s.SlowdownRatio = ratioStats(s.SlowdownOther, s.SlowdownRef)
	s.SlowdownRatioRefStandalone = ratioStats(s.SlowdownOtherRefStandalone, s.SlowdownRef)
	return s
}

// sizeOrder is the flows' indices sorted by (size, start, row): the
// reference's values, so both sides fall into the same buckets.
// NB: fct_analysis.py sorts with `sort -n -k 2`, which breaks ties of
// size by the text of the whole line (slowdown first), so its buckets can
// cut a run of equal sizes elsewhere; here one order serves both sides.
func sizeOrder(fs []FlowDiff) []int {
	order := allOf(len(fs))
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(fs[a].SizeBytes, fs[b].SizeBytes), cmp.Compare(fs[a].StartNs, fs[b].StartNs), cmp.Compare(a, b))
	})
	return order
}

// hpccGroups cuts order as fct_analysis.py does: for i = 0, step, ...,
// < 100 the slice [i*n/100, (i+step)*n/100) in integer division; empty
// groups (fewer flows than buckets) are left out.
func hpccGroups(order []int, step int) [][]int {
	n := len(order)
	var out [][]int
	for i := 0; i < 100; i += step {
		l, r := i*n/100, min((i+step)*n/100, n)
		if r > l {
			out = append(out, order[l:r])
		}
	}
	return out
}

// bucketStats summarizes each group of flow indices (sorted by size).
func bucketStats(fs []FlowDiff, groups [][]int, rule string) []Bucket {
	out := make([]Bucket, 0, len(groups))
	for _, g := range groups {
		out = append(out, Bucket{
			SizeMinBytes: fs[g[0]].SizeBytes, SizeMaxBytes: fs[g[len(g)-1]].SizeBytes, Flows: len(g),
			SlowdownStats: slowdownStats(fs, g, rule),
		})
	}
	return out
}

// top returns the n flows with the largest FCT ratio above 1 (largest
// first) and the n with the smallest below 1 (smallest first); ties by
// the reference's row order.
func top(fs []FlowDiff, n int) (slower, faster []FlowDiff) {
	if n <= 0 {
		return []FlowDiff{}, []FlowDiff{}
	}
	idx := allOf(len(fs))
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(fs[b].FCTRatio, fs[a].FCTRatio) })
	slower, faster = []FlowDiff{}, []FlowDiff{}
	for _, i := range idx {
		if len(slower) == n || fs[i].FCTRatio <= 1 {
			break
		}
		slower = append(slower, fs[i])
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Or(cmp.Compare(fs[a].FCTRatio, fs[b].FCTRatio), cmp.Compare(a, b)) })
	for _, i := range idx {
		if len(faster) == n || fs[i].FCTRatio >= 1 {
			break
		}
		faster = append(faster, fs[i])
	}
	return slower, faster
}
