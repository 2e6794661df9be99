package dumpi

import (
	"fmt"
	"slices"
	"sort"
)

// Phase 2: communicators across ranks. Each rank's communicator handles
// were resolved to references into its own list of communicator-creating
// calls; here those calls are matched across the ranks of their parent
// communicator and every reference gets a global communicator: its
// members as world ranks, in communicator-rank order.
//
// MPI makes every member of a communicator call collective operations on
// it, communicator creation included, in the same order; so the k-th
// creating call a rank makes on parent P is the same operation on every
// member of P. MPI_Comm_dup, MPI_Comm_create, MPI_Cart_create (without
// reordering) and MPI_Graph_create are resolved by each rank alone (the
// new members follow from the parent and the group); MPI_Comm_split needs
// every member's color and key, so the ranks are advanced in turn and a
// rank waits at a split until all members of the parent have reached it.
// Communicators from MPI_Cart_sub and inter-communicators are not
// resolved: calls on them are left out and reported.

// commInfo is a global communicator.
type commInfo struct {
	members []int32 // world ranks, by rank in the communicator
	sorted  []int32 // indices into members, sorted by world rank
}

// rankOf returns the communicator rank of world rank w, or -1.
func (c *commInfo) rankOf(w int32) int32 {
	k := sort.Search(len(c.sorted), func(i int) bool { return c.members[c.sorted[i]] >= w })
	if k < len(c.sorted) && c.members[c.sorted[k]] == w {
		return c.sorted[k]
	}
	return -1
}

func newComm(members []int32) *commInfo {
	c := &commInfo{members: members, sorted: make([]int32, len(members))}
	for i := range c.sorted {
		c.sorted[i] = int32(i)
	}
	slices.SortFunc(c.sorted, func(a, b int32) int { return int(members[a]) - int(members[b]) })
	return c
}

// commKey identifies a communicator-creating call across ranks: the k-th
// such call on a parent communicator.
type commKey struct {
	parent int32
	seq    int32
}

// madeKey identifies a communicator made by MPI_Comm_dup, MPI_Comm_create,
// MPI_Cart_create or MPI_Graph_create: its creating call and its first
// member (one MPI_Comm_create may make disjoint communicators).
type madeKey struct {
	commKey
	first int32
}

// splitEntry is one rank's part in an MPI_Comm_split.
type splitEntry struct {
	world      int32
	color, key int64
	isNull     bool
}

// rankComms is one rank's side of phase 2.
type rankComms struct {
	log    *rankLog
	pc     int               // next commOp to resolve
	refs   []int32           // reference -> global communicator, or -1
	why    []string          // reference -> why it is unknown
	groups map[int64][]int32 // group handle -> world ranks; nil slice = unknown
	seq    map[int32]int32   // parent global communicator -> creating calls so far
	wait   *commKey          // the split this rank waits at
}

// resolver is phase 2's state.
type resolver struct {
	comms  []*commInfo
	ranks  []*rankComms
	made   map[madeKey]int32 // dup/create/cart/graph: key -> communicator
	splits map[commKey][]splitEntry
	done   map[commKey]map[int64]int32 // resolved splits: color -> communicator
}

// resolveComms runs phase 2 and returns, per rank, the global
// communicator of each reference (-1 if unknown) with the reason.
func resolveComms(logs []*rankLog) *resolver {
	n := len(logs)
	world := make([]int32, n)
	for i := range world {
		world[i] = int32(i)
	}
	res := &resolver{made: map[madeKey]int32{}, splits: map[commKey][]splitEntry{}, done: map[commKey]map[int64]int32{}}
	res.comms = append(res.comms, newComm(world))
	for i, l := range logs {
		self := int32(len(res.comms))
		res.comms = append(res.comms, newComm([]int32{int32(i)}))
		rc := &rankComms{log: l, groups: map[int64][]int32{1: nil, 2: {}}, seq: map[int32]int32{}}
		rc.refs = make([]int32, int(refFirstOp)+len(l.commOps))
		rc.why = make([]string, len(rc.refs))
		for k := range rc.refs {
			rc.refs[k] = -1
			rc.why[k] = "unresolved communicator"
		}
		rc.refs[refWorld], rc.refs[refSelf] = 0, self
		res.ranks = append(res.ranks, rc)
	}
	for progress := true; progress; {
		progress = false
		for _, rc := range res.ranks {
			for rc.pc < len(rc.log.commOps) && res.step(rc) {
				rc.pc++
				progress = true
			}
		}
	}
	for _, rc := range res.ranks {
		if rc.pc < len(rc.log.commOps) {
			for k := rc.pc; k < len(rc.log.commOps); k++ {
				rc.why[int(refFirstOp)+k] = fmt.Sprintf("%v could not be matched across the ranks of its parent communicator", rc.log.commOps[rc.pc].fn)
			}
		}
	}
	return res
}

// global returns rank r's global communicator for reference ref, or nil
// with the reason.
func (res *resolver) global(r int, ref int32) (*commInfo, int32, string) {
	rc := res.ranks[r]
	if ref < 0 || int(ref) >= len(rc.refs) {
		return nil, -1, "unknown communicator handle"
	}
	if g := rc.refs[ref]; g >= 0 {
		return res.comms[g], g, ""
	}
	return nil, -1, rc.why[ref]
}

// step resolves rank rc's next commOp; false if it must wait for others.
func (res *resolver) step(rc *rankComms) bool {
	op := &rc.log.commOps[rc.pc]
	ref := int(refFirstOp) + rc.pc
	me := int32(rc.log.rank)
	var parent *commInfo
	pid := int32(-1)
	if op.parent >= 0 && int(op.parent) < len(rc.refs) {
		if pid = rc.refs[op.parent]; pid >= 0 {
			parent = res.comms[pid]
		}
	}
	unknown := func(why string) bool {
		rc.why[ref] = why
		return true
	}
	switch op.fn {
	case fnCommGroup:
		if parent == nil {
			rc.groups[op.newGroup] = nil
		} else {
			rc.groups[op.newGroup] = parent.members
		}
		return true
	case fnGroupIncl, fnGroupExcl, fnGroupRangeIncl, fnGroupRangeExcl, fnGroupUnion, fnGroupIntersection, fnGroupDifference:
		rc.groups[op.newGroup] = groupOp(op, rc.groups[op.g1], rc.groups[op.g2])
		return true
	case fnGroupFree:
		delete(rc.groups, op.g1)
		return true
	case fnCommRemoteGroup, fnWinGetGroup, fnFileGetGroup:
		rc.groups[op.newGroup] = nil
		return true
	}
	if !op.newRef {
		return true
	}
	if parent == nil {
		return unknown(fmt.Sprintf("made by %v on an unknown communicator", op.fn))
	}
	key := commKey{pid, rc.seq[pid]}
	switch op.fn {
	case fnCommDup, fnCommCreate, fnCartCreate, fnGraphCreate:
		rc.seq[pid]++
		if op.isNull {
			return true
		}
		var members []int32
		switch op.fn {
		case fnCommDup:
			members = parent.members
		case fnCommCreate:
			g, ok := rc.groups[op.g1]
			if !ok || g == nil {
				return unknown("made by MPI_Comm_create from an unknown group")
			}
			members = g
		default: // the first size ranks of the parent, as without reordering
			if op.size < 1 || op.size > int64(len(parent.members)) {
				return unknown(fmt.Sprintf("made by %v with %d ranks out of %d", op.fn, op.size, len(parent.members)))
			}
			members = parent.members[:op.size]
		}
		if !slices.Contains(members, me) {
			return unknown(fmt.Sprintf("made by %v but rank %d is not a member", op.fn, me))
		}
		k := madeKey{key, members[0]}
		id, ok := res.made[k]
		if !ok {
			id = int32(len(res.comms))
			res.comms = append(res.comms, newComm(slices.Clone(members)))
			res.made[k] = id
		}
		rc.refs[ref] = id
		return true
	case fnCommSplit:
		if rc.wait == nil {
			rc.seq[pid]++
			rc.wait = &key
			res.splits[key] = append(res.splits[key], splitEntry{world: me, color: op.color, key: op.key, isNull: op.isNull})
			if len(res.splits[key]) == len(parent.members) {
				res.resolveSplit(key, parent)
			}
		}
		colors, ok := res.done[*rc.wait]
		if !ok {
			return false
		}
		rc.wait = nil
		if !op.isNull {
			rc.refs[ref] = colors[op.color]
		}
		return true
	default:
		return unknown(fmt.Sprintf("made by %v, which is not modelled", op.fn))
	}
}

// resolveSplit makes the communicators of a split once every member of the
// parent took part: one per color, ranked by (key, parent rank).
func (res *resolver) resolveSplit(key commKey, parent *commInfo) {
	entries := res.splits[key]
	byColor := map[int64][]splitEntry{}
	var colors []int64
	for _, e := range entries {
		if e.isNull {
			continue
		}
		if _, ok := byColor[e.color]; !ok {
			colors = append(colors, e.color)
		}
		byColor[e.color] = append(byColor[e.color], e)
	}
	slices.Sort(colors)
	out := map[int64]int32{}
	for _, c := range colors {
		es := byColor[c]
		slices.SortStableFunc(es, func(a, b splitEntry) int {
			if a.key != b.key {
				if a.key < b.key {
					return -1
				}
				return 1
			}
			return int(parent.rankOf(a.world) - parent.rankOf(b.world))
		})
		members := make([]int32, len(es))
		for i, e := range es {
			members[i] = e.world
		}
		out[c] = int32(len(res.comms))
		res.comms = append(res.comms, newComm(members))
	}
	res.done[key] = out
	delete(res.splits, key)
}

// groupOp computes a group from MPI_Group_incl and friends; nil when an
// input is unknown or a rank is out of range.
func groupOp(op *commOp, g1, g2 []int32) []int32 {
	if g1 == nil {
		return nil
	}
	out := []int32{}
	switch op.fn {
	case fnGroupIncl:
		for _, r := range op.ranks {
			if r < 0 || r >= int64(len(g1)) {
				return nil
			}
			out = append(out, g1[r])
		}
	case fnGroupExcl:
		drop := map[int64]bool{}
		for _, r := range op.ranks {
			drop[r] = true
		}
		for i, w := range g1 {
			if !drop[int64(i)] {
				out = append(out, w)
			}
		}
	case fnGroupRangeIncl, fnGroupRangeExcl:
		var sel []int64
		for k := 0; k+2 < len(op.ranks); k += 3 {
			first, last, stride := op.ranks[k], op.ranks[k+1], op.ranks[k+2]
			if stride == 0 {
				return nil
			}
			for r := first; (stride > 0 && r <= last) || (stride < 0 && r >= last); r += stride {
				if r < 0 || r >= int64(len(g1)) {
					return nil
				}
				sel = append(sel, r)
			}
		}
		if op.fn == fnGroupRangeIncl {
			for _, r := range sel {
				out = append(out, g1[r])
			}
			return out
		}
		return groupOp(&commOp{fn: fnGroupExcl, ranks: sel}, g1, nil)
	case fnGroupUnion, fnGroupIntersection, fnGroupDifference:
		if g2 == nil {
			return nil
		}
		switch op.fn {
		case fnGroupUnion:
			out = append(out, g1...)
			for _, w := range g2 {
				if !slices.Contains(g1, w) {
					out = append(out, w)
				}
			}
		case fnGroupIntersection:
			for _, w := range g1 {
				if slices.Contains(g2, w) {
					out = append(out, w)
				}
			}
		default:
			for _, w := range g1 {
				if !slices.Contains(g2, w) {
					out = append(out, w)
				}
			}
		}
	}
	return out
}
