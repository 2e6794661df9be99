package dumpi

import "fmt"

// Collectives as point-to-point messages. Each collective call becomes
// the messages of one textbook algorithm, in numbered steps; ranks are
// ranks of the communicator, and n is its size. Messages of 0 bytes are
// left out, except for MPI_Barrier, whose messages are all 0 bytes (one
// packet each).
//
//	MPI_Barrier         dissemination: ceil(log2 n) steps; in step k every rank r
//	                    sends 0 B to (r + 2^k) mod n.
//	MPI_Bcast           binomial tree from the root: in step k every rank v < 2^k
//	                    (v counted from the root) sends the whole buffer to v + 2^k.
//	MPI_Reduce          binomial tree to the root, the reverse of MPI_Bcast: in step
//	                    k every rank v = 2^k (mod 2^(k+1)) sends its buffer to v - 2^k.
//	MPI_Allreduce       recursive doubling (MPICH's algorithm): with p the largest
//	                    power of two <= n and m = n - p, first every even rank
//	                    r < 2m sends its buffer to r + 1; then log2 p steps in which
//	                    the p remaining ranks exchange the buffer with the partner
//	                    whose index differs in bit k; last every odd rank r < 2m
//	                    sends the result to r - 1.
//	MPI_Scan, Exscan    recursive doubling (Hillis-Steele): in step k every rank
//	                    r < n - 2^k sends its buffer to r + 2^k.
//	MPI_Alltoall(v,w)   pairwise exchange: n - 1 steps; in step s every rank r sends
//	                    its block for (r + s) mod n there.
//	MPI_Reduce_scatter  pairwise exchange: in step s every rank r sends the
//	                    recvcounts[(r + s) mod n] elements destined there.
//	MPI_Allgather(v)    ring: n - 1 steps; in step s every rank r sends block
//	                    (r - s) mod n to r + 1.
//	MPI_Gather(v)       linear: every rank but the root sends its block to the root.
//	MPI_Scatter(v)      linear: the root sends every other rank its block.

// collMsg is one message of a decomposed collective.
type collMsg struct {
	step     int32
	src, dst int32 // communicator ranks
	bytes    int64
}

// decompose returns the messages of one collective over the calls of its
// n members (ops[k] is communicator rank k's call), ordered by step.
func decompose(fn FuncID, ops []*collOp) ([]collMsg, error) {
	n := len(ops)
	var out []collMsg
	add := func(step, src, dst int, b int64) {
		if b > 0 || fn == fnBarrier {
			out = append(out, collMsg{step: int32(step), src: int32(src), dst: int32(dst), bytes: b})
		}
	}
	root := int(ops[0].root)
	for _, o := range ops {
		if int(o.root) != root {
			return nil, fmt.Errorf("the ranks disagree on the root (%d and %d)", root, o.root)
		}
	}
	rooted := fn == fnBcast || fn == fnReduce || fn == fnGather || fn == fnGatherv || fn == fnScatter || fn == fnScatterv
	if rooted && (root < 0 || root >= n) {
		return nil, fmt.Errorf("root %d is outside a communicator of %d ranks", root, n)
	}
	counts := func(r int) ([]int64, error) {
		c := ops[r].counts
		if len(c) != n {
			return nil, fmt.Errorf("rank %d gives %d counts for a communicator of %d ranks", r, len(c), n)
		}
		return c, nil
	}
	abs := func(v int) int { return (v + root) % n }
	switch fn {
	case fnBarrier:
		for k, step := 1, 0; k < n; k, step = k<<1, step+1 {
			for r := range n {
				add(step, r, (r+k)%n, 0)
			}
		}
	case fnBcast:
		for k, step := 1, 0; k < n; k, step = k<<1, step+1 {
			for v := 0; v < k && v+k < n; v++ {
				add(step, abs(v), abs(v+k), ops[root].bytes)
			}
		}
	case fnReduce:
		for k, step := 1, 0; k < n; k, step = k<<1, step+1 {
			for v := k; v < n; v += 2 * k {
				add(step, abs(v), abs(v-k), ops[abs(v)].bytes)
			}
		}
	case fnAllreduce:
		p := 1
		for p*2 <= n {
			p *= 2
		}
		m, step := n-p, 0
		if m > 0 {
			for r := 0; r < 2*m; r += 2 {
				add(0, r, r+1, ops[r].bytes)
			}
			step = 1
		}
		old := func(nr int) int {
			if nr < m {
				return 2*nr + 1
			}
			return nr + m
		}
		for mask := 1; mask < p; mask, step = mask<<1, step+1 {
			for nr := range p {
				add(step, old(nr), old(nr^mask), ops[old(nr)].bytes)
			}
		}
		for r := 1; r < 2*m; r += 2 {
			add(step, r, r-1, ops[r].bytes)
		}
	case fnScan, fnExscan:
		for k, step := 1, 0; k < n; k, step = k<<1, step+1 {
			for r := 0; r+k < n; r++ {
				add(step, r, r+k, ops[r].bytes)
			}
		}
	case fnAlltoall, fnAlltoallv, fnAlltoallw, fnReduceScatter:
		for s := 1; s < n; s++ {
			for r := range n {
				d := (r + s) % n
				b := ops[r].bytes
				if fn != fnAlltoall {
					c, err := counts(r)
					if err != nil {
						return nil, err
					}
					b = c[d]
				}
				add(s-1, r, d, b)
			}
		}
	case fnAllgather, fnAllgatherv:
		for s := 0; s < n-1; s++ {
			for r := range n {
				blk := ((r-s)%n + n) % n
				b := ops[r].bytes
				if fn == fnAllgatherv {
					c, err := counts(r)
					if err != nil {
						return nil, err
					}
					b = c[blk]
				}
				add(s, r, (r+1)%n, b)
			}
		}
	case fnGather, fnGatherv:
		for r := range n {
			if r != root {
				add(0, r, root, ops[r].bytes)
			}
		}
	case fnScatter, fnScatterv:
		for r := range n {
			if r != root {
				add(0, root, r, ops[r].bytes)
			}
		}
	default:
		return nil, fmt.Errorf("%v is not a collective the builder knows", fn)
	}
	return out, nil
}
