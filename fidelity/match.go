package fidelity

import (
	"cmp"
	"slices"

	"github.com/ccreplay/ccreplay/hpccfmt"
)

// DefaultStartToleranceNs is the default MatchOptions.StartToleranceNs:
// the simulator's start times are the flow file's seconds truncated to
// whole nanoseconds (1 ns below the exact value at times: a float seconds
// value truncated) and ccreplay's are exact or
// rounded to the nanosecond, so two sides of one flow are at most 2 ns
// apart; 10 ns leaves room and is far below the gap between two flows of
// one host pair and one size in any workload seen.
const DefaultStartToleranceNs = 10

// MatchOptions tunes Match.
type MatchOptions struct {
	// StartToleranceNs is the largest |start_a - start_b| of two flows
	// matched by (src, dst, size, start), ns; 0 means
	// DefaultStartToleranceNs, negative exact starts only.
	StartToleranceNs int64
}

// How a pair was matched (Pair.By).
const (
	ByPorts = "ports" // (src, dst, sport, dport) unique on both sides, same size
	ByStart = "start" // (src, dst, size) and start within the tolerance
)

// Pair is one flow matched on both sides: indices into the reference's
// and the other side's rows.
type Pair struct {
	Ref, Other int
	By         string
}

// Matching is the result of Match.
type Matching struct {
	// Pairs are the matched flows in the reference's row order.
	Pairs []Pair
	// UnmatchedRef and UnmatchedOther are the indices of the rows left
	// without a partner, ascending.
	UnmatchedRef, UnmatchedOther []int
	// StartToleranceNs is the tolerance used.
	StartToleranceNs int64
}

type portKey struct{ src, dst, sport, dport int }

type startKey struct {
	src, dst int
	size     int64
}

// Match pairs the flows of ref and other one to one (see the package
// comment): first by (src, dst, sport, dport) where that key occurs once
// on each side and both rows have the same size, then the rest grouped by
// (src, dst, size), each group's rows of both sides sorted by start time
// (then row index) and paired greedily: the earliest unpaired rows are
// paired when their starts are within the tolerance, else the earlier one
// is left unmatched. For sorted points and a fixed tolerance this greedy
// pairing matches as many flows as any pairing can.
func Match(ref, other []hpccfmt.FCTRow, opt MatchOptions) Matching {
	tol := opt.StartToleranceNs
	switch {
	case tol == 0:
		tol = DefaultStartToleranceNs
	case tol < 0:
		tol = 0
	}
	m := Matching{StartToleranceNs: tol}
	refTaken := make([]bool, len(ref))
	otherTaken := make([]bool, len(other))
	var pairs []Pair

	// Stage 1: unique port keys.
	count := func(rows []hpccfmt.FCTRow) map[portKey]int {
		c := make(map[portKey]int, len(rows))
		for i, r := range rows {
			k := portKey{r.Src, r.Dst, r.SPort, r.DPort}
			if _, dup := c[k]; dup {
				c[k] = -1
			} else {
				c[k] = i
			}
		}
		return c
	}
	refKeys, otherKeys := count(ref), count(other)
	for i, r := range ref {
		k := portKey{r.Src, r.Dst, r.SPort, r.DPort}
		if refKeys[k] != i {
			continue // duplicated on the reference side
		}
		j, ok := otherKeys[k]
		if !ok || j < 0 || other[j].Size != r.Size {
			continue
		}
		pairs = append(pairs, Pair{Ref: i, Other: j, By: ByPorts})
		refTaken[i], otherTaken[j] = true, true
	}

	// Stage 2: (src, dst, size) groups in start order.
	group := func(rows []hpccfmt.FCTRow, taken []bool) map[startKey][]int {
		g := map[startKey][]int{}
		for i, r := range rows {
			if !taken[i] {
				k := startKey{r.Src, r.Dst, r.Size}
				g[k] = append(g[k], i)
			}
		}
		return g
	}
	byStart := func(rows []hpccfmt.FCTRow) func(a, b int) int {
		return func(a, b int) int { return cmp.Or(cmp.Compare(rows[a].StartNs, rows[b].StartNs), cmp.Compare(a, b)) }
	}
	refGroups, otherGroups := group(ref, refTaken), group(other, otherTaken)
	for k, ri := range refGroups {
		oi := otherGroups[k]
		if len(oi) == 0 {
			continue
		}
		slices.SortFunc(ri, byStart(ref))
		slices.SortFunc(oi, byStart(other))
		for a, b := 0, 0; a < len(ri) && b < len(oi); {
			sa, sb := ref[ri[a]].StartNs, other[oi[b]].StartNs
			switch {
			case sa-sb <= tol && sb-sa <= tol:
				pairs = append(pairs, Pair{Ref: ri[a], Other: oi[b], By: ByStart})
				refTaken[ri[a]], otherTaken[oi[b]] = true, true
				a++
				b++
			case sa < sb:
				a++
			default:
				b++
			}
		}
	}
	// NB: the map iteration above decides nothing but the order pairs
	// were appended in; sorting by the reference row fixes it.
	slices.SortFunc(pairs, func(x, y Pair) int { return cmp.Compare(x.Ref, y.Ref) })
	m.Pairs = pairs
	for i, t := range refTaken {
		if !t {
			m.UnmatchedRef = append(m.UnmatchedRef, i)
		}
	}
	for i, t := range otherTaken {
		if !t {
			m.UnmatchedOther = append(m.UnmatchedOther, i)
		}
	}
	return m
}
