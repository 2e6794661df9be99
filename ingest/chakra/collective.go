package chakra

import "github.com/ccreplay/ccreplay/ingest/chakra/etpb"

// Collectives as point-to-point messages. Each collective becomes the
// messages of one textbook algorithm, in numbered steps, over the n
// members of its process group (ranks of the group, 0..n-1). S is
// comm_size, the bytes of each member's input buffer, as Chakra's
// PyTorch converter computes it (the sum of the collective's input
// tensors; src/converter/pytorch_node.py, comm_size); a message's size
// comes from its sender's S. A buffer of S bytes split into n blocks has
// blocks of S/n bytes, the first S mod n of them one byte more. Messages
// of 0 bytes are left out, except for BARRIER, whose messages are all
// 0 bytes (one packet each).
//
//	ALL_REDUCE            ring (reduce-scatter, then all-gather): 2(n-1) steps; in step
//	                      s < n-1 every rank r sends block (r-s) mod n to r+1, and in
//	                      step n-1+s the reduced block (r+1-s) mod n to r+1; each rank
//	                      sends 2(n-1) blocks, 2(n-1)/n x S bytes in all.
//	REDUCE_SCATTER(_BLOCK) ring, the first half of ALL_REDUCE: n-1 steps, block
//	                      (r-s) mod n to r+1.
//	ALL_GATHER            ring: n-1 steps; in step s every rank r sends the block it
//	                      holds of rank o = (r-s) mod n, o's S bytes (S is each
//	                      member's contribution), to r+1.
//	ALL_TO_ALL            pairwise exchange: n-1 steps; in step s (1..n-1) every rank r
//	                      sends its block for d = (r+s) mod n, block d of its buffer,
//	                      to d.
//	BROADCAST             binomial tree from group rank 0 (the schema has no root): in
//	                      step k every rank v < 2^k sends the whole buffer to v + 2^k.
//	BARRIER               dissemination: ceil(log2 n) steps; in step k every rank r
//	                      sends 0 bytes to (r + 2^k) mod n.
//
// REDUCE, GATHER and SCATTER are skipped (reported): the schema carries
// no root for them.

// collMsg is one message of a decomposed collective.
type collMsg struct {
	step     int32
	src, dst int32 // group ranks
	bytes    int64
}

// block is the size of block i of a buffer of s bytes split into n.
func block(s int64, n, i int) int64 {
	b := s / int64(n)
	if int64(i) < s%int64(n) {
		b++
	}
	return b
}

// decompose returns the messages of one collective of kind ct over n
// members whose buffers are sizes[k] bytes (k: group rank), by step.
func decompose(ct etpb.CollectiveCommType, sizes []int64) []collMsg {
	n := len(sizes)
	var out []collMsg
	add := func(step, src, dst int, b int64) {
		if b > 0 || ct == etpb.CollectiveCommType_BARRIER {
			out = append(out, collMsg{step: int32(step), src: int32(src), dst: int32(dst), bytes: b})
		}
	}
	mod := func(x int) int { return ((x % n) + n) % n }
	switch ct {
	case etpb.CollectiveCommType_ALL_REDUCE:
		for s := 0; s < n-1; s++ {
			for r := range n {
				add(s, r, mod(r+1), block(sizes[r], n, mod(r-s)))
			}
		}
		for s := 0; s < n-1; s++ {
			for r := range n {
				add(n-1+s, r, mod(r+1), block(sizes[r], n, mod(r+1-s)))
			}
		}
	case etpb.CollectiveCommType_REDUCE_SCATTER, etpb.CollectiveCommType_REDUCE_SCATTER_BLOCK:
		for s := 0; s < n-1; s++ {
			for r := range n {
				add(s, r, mod(r+1), block(sizes[r], n, mod(r-s)))
			}
		}
	case etpb.CollectiveCommType_ALL_GATHER:
		for s := 0; s < n-1; s++ {
			for r := range n {
				add(s, r, mod(r+1), sizes[mod(r-s)])
			}
		}
	case etpb.CollectiveCommType_ALL_TO_ALL:
		for s := 1; s < n; s++ {
			for r := range n {
				d := mod(r + s)
				add(s-1, r, d, block(sizes[r], n, d))
			}
		}
	case etpb.CollectiveCommType_BROADCAST:
		for k, step := 1, 0; k < n; k, step = k<<1, step+1 {
			for v := 0; v < k && v+k < n; v++ {
				add(step, v, v+k, sizes[0])
			}
		}
	case etpb.CollectiveCommType_BARRIER:
		for k, step := 1, 0; k < n; k, step = k<<1, step+1 {
			for r := range n {
				add(step, r, mod(r+k), 0)
			}
		}
	}
	return out
}
