package trace

import (
	"fmt"
	"strings"
)

// TopoOrder validates the trace and returns the indices of its messages in
// an order where every message comes after its dependencies and after the
// earlier messages of its flow: an order in which the replay can release
// them. The order is a deterministic function of the trace (Kahn's
// algorithm with a FIFO queue seeded in trace order).
func (t *Trace) TopoOrder() ([]int, error) {
	order, err := t.check(whereIndex)
	if err != nil {
		return nil, err
	}
	return order, nil
}

// topoSort orders the messages with Kahn's algorithm over the edges
// dependency -> dependent and previous-on-flow -> next, and reports a cycle
// if one is left.
func topoSort(msgs []Message, depStart, deps, flowPrev []int) ([]int, *ValidationError) {
	n := len(msgs)
	// Successor lists, CSR again: succ[succStart[j]:succStart[j+1]] are
	// the messages waiting for j.
	indeg := make([]int, n)
	succStart := make([]int, n+1)
	for i := range n {
		for _, j := range deps[depStart[i]:depStart[i+1]] {
			succStart[j+1]++
		}
		if p := flowPrev[i]; p >= 0 {
			succStart[p+1]++
		}
		indeg[i] = depStart[i+1] - depStart[i]
		if flowPrev[i] >= 0 {
			indeg[i]++
		}
	}
	for j := range n {
		succStart[j+1] += succStart[j]
	}
	succ := make([]int, succStart[n])
	fill := append([]int(nil), succStart[:n]...)
	for i := range n {
		for _, j := range deps[depStart[i]:depStart[i+1]] {
			succ[fill[j]] = i
			fill[j]++
		}
		if p := flowPrev[i]; p >= 0 {
			succ[fill[p]] = i
			fill[p]++
		}
	}

	order := make([]int, 0, n)
	for i := range n {
		if indeg[i] == 0 {
			order = append(order, i)
		}
	}
	for head := 0; head < len(order); head++ {
		for _, s := range succ[succStart[order[head]]:succStart[order[head]+1]] {
			if indeg[s]--; indeg[s] == 0 {
				order = append(order, s)
			}
		}
	}
	if len(order) == n {
		return order, nil
	}
	return nil, findCycle(msgs, depStart, deps, flowPrev, indeg)
}

// findCycle returns the error for a cycle among the messages Kahn's
// algorithm left behind (indeg > 0). Each of them waits for at least one
// other left-behind message, so walking "waits for" edges from any of them
// must come back to a message already visited.
//
// NB: a cycle may run through flow order as well as through Deps: if a
// message depends on a later message of its own flow, neither can ever be
// sent, and the error says so.
func findCycle(msgs []Message, depStart, deps, flowPrev, indeg []int) *ValidationError {
	const maxShown = 16
	start := 0
	for indeg[start] == 0 {
		start++
	}
	pos := make(map[int]int) // message index -> position in path
	var path []int
	viaFlow := make(map[int]bool) // path[k] waits for path[k+1] through flow order
	cur := start
	for {
		if _, ok := pos[cur]; ok {
			break
		}
		pos[cur] = len(path)
		path = append(path, cur)
		next := -1
		for _, j := range deps[depStart[cur]:depStart[cur+1]] {
			if indeg[j] > 0 {
				next = j
				break
			}
		}
		if next < 0 {
			// NB: cur is left behind, so if no dependency is, the flow
			// predecessor must be.
			next = flowPrev[cur]
			viaFlow[cur] = true
		}
		cur = next
	}
	cycle := path[pos[cur]:]
	// Start the report at the cycle's earliest message, for a stable text.
	first := 0
	for k, i := range cycle {
		if i < cycle[first] {
			first = k
		}
	}
	cycle = append(cycle[first:len(cycle):len(cycle)], cycle[:first]...)
	var b strings.Builder
	b.WriteString("dependency cycle: ")
	for k, i := range cycle {
		if k == maxShown {
			fmt.Fprintf(&b, ", ... (%d messages in the cycle)", len(cycle))
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		j := cycle[(k+1)%len(cycle)]
		if viaFlow[i] {
			fmt.Fprintf(&b, "%d is sent after %d on flow %d", msgs[i].ID, msgs[j].ID, msgs[i].FlowID)
		} else {
			fmt.Fprintf(&b, "%d depends on %d", msgs[i].ID, msgs[j].ID)
		}
	}
	i := cycle[0]
	return &ValidationError{Index: i, ID: msgs[i].ID, Msg: b.String()}
}
