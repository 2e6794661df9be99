package chakra

import (
	"testing"

	"github.com/ccreplay/ccreplay/ingest/chakra/etpb"
	"github.com/ccreplay/ccreplay/ingest/chakra/internal/etgen"
	"github.com/ccreplay/ccreplay/trace"
)

const mib = 1 << 20

// oneCollective is n ranks that each run one collective of kind ct over
// size bytes, as Chakra's generator does (src/generator/generator.py,
// generate_comm_coll_node).
func oneCollective(n int, ct etpb.CollectiveCommType, size int64) [][]*etpb.Node {
	return etgen.Same(n, func(int) []*etpb.Node { return []*etpb.Node{etgen.Coll(0, ct, size, "")} })
}

// TestAllReduceRing8 checks an 8-rank ring all-reduce of 1 MiB against
// the algorithm (collective.go): 2(n-1) = 14 steps in which every rank
// sends one block of S/n = 128 KiB to the next rank, each step after
// the rank's previous one (it sent, and it received from its
// predecessor).
func TestAllReduceRing8(t *testing.T) {
	const n = 8
	tr, rep := load(t, oneCollective(n, etpb.CollectiveCommType_ALL_REDUCE, mib), Options{})
	msgs := data(tr)
	if len(msgs) != n*2*(n-1) {
		t.Fatalf("%d messages, want %d", len(msgs), n*2*(n-1))
	}
	coll := msgs[0].CollectiveID
	for _, m := range msgs {
		if m.Bytes != mib/n || m.DstRank != (m.SrcRank+1)%n || m.CollectiveID != coll || coll == trace.NoCollective {
			t.Fatalf("message %+v: want %d bytes to the next rank in collective %d", m, mib/n, coll)
		}
	}
	if rep.Collectives["ALL_REDUCE"] != 1 || rep.CollectiveBytes["ALL_REDUCE"] != 2*(n-1)*mib || rep.CollectiveMessages != int64(len(msgs)) {
		t.Errorf("report: %v %v %d", rep.Collectives, rep.CollectiveBytes, rep.CollectiveMessages)
	}
	for r := range int32(n) {
		out := byPair(tr, r, (r+1)%n)
		in := byPair(tr, (r+n-1)%n, r)
		if len(out) != 2*(n-1) || len(in) != 2*(n-1) {
			t.Fatalf("rank %d sends %d and receives %d messages", r, len(out), len(in))
		}
		// Step 0 depends on the rank entering the collective: a
		// synchronization point of its own that carries the collective id.
		x := msg(tr, out[0].Deps[0])
		if len(out[0].Deps) != 1 || !x.IsSync() || x.SrcRank != r || x.CollectiveID != coll {
			t.Errorf("rank %d step 0 depends on %v", r, out[0].Deps)
		}
		for s := 1; s < len(out); s++ {
			if !dependsOn(out[s], out[s-1].ID) || !dependsOn(out[s], in[s-1].ID) || len(out[s].Deps) != 2 {
				t.Errorf("rank %d step %d depends on %v, want its step %d send %d and receive %d",
					r, s, out[s].Deps, s-1, out[s-1].ID, in[s-1].ID)
			}
		}
	}
	// The last point of each rank joins its last step.
	joins := 0
	for _, m := range tr.Messages {
		if m.IsSync() && len(m.Deps) == 2 && !tr.Messages[m.Deps[0]].IsSync() {
			joins++
		}
	}
	if joins != n {
		t.Errorf("%d ranks end the collective with a join, want %d", joins, n)
	}
}

// TestAllToAllPairwise8 checks an 8-rank all-to-all of 1 MiB: pairwise
// exchange, n-1 = 7 steps; in step s rank r sends its block for
// (r+s) mod n, S/n = 128 KiB, after its step s-1 (what it sent to
// r+s-1 and received from r-s+1).
func TestAllToAllPairwise8(t *testing.T) {
	const n = 8
	tr, rep := load(t, oneCollective(n, etpb.CollectiveCommType_ALL_TO_ALL, mib), Options{})
	msgs := data(tr)
	if len(msgs) != n*(n-1) {
		t.Fatalf("%d messages, want %d", len(msgs), n*(n-1))
	}
	if rep.CollectiveBytes["ALL_TO_ALL"] != n*(n-1)*mib/n {
		t.Errorf("bytes %d", rep.CollectiveBytes["ALL_TO_ALL"])
	}
	for r := range int32(n) {
		for s := int32(1); s < n; s++ {
			out := byPair(tr, r, (r+s)%n)
			if len(out) != 1 || out[0].Bytes != mib/n {
				t.Fatalf("rank %d sends %v to rank %d", r, out, (r+s)%n)
			}
			if s == 1 {
				continue
			}
			prevOut := byPair(tr, r, (r+s-1)%n)[0]
			prevIn := byPair(tr, (r+n-s+1)%n, r)[0]
			if !dependsOn(out[0], prevOut.ID) || !dependsOn(out[0], prevIn.ID) {
				t.Errorf("rank %d step %d depends on %v, want %d and %d", r, s, out[0].Deps, prevOut.ID, prevIn.ID)
			}
		}
	}
}

// TestDecompose checks every algorithm's message count and bytes,
// including sizes not divisible by n and groups not a power of two.
func TestDecompose(t *testing.T) {
	sum := func(ms []collMsg) (b int64) {
		for _, m := range ms {
			b += m.bytes
		}
		return b
	}
	steps := func(ms []collMsg) int32 {
		if len(ms) == 0 {
			return 0
		}
		return ms[len(ms)-1].step + 1
	}
	eq := func(n int, s int64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	for _, tc := range []struct {
		ct          etpb.CollectiveCommType
		n           int
		s           int64
		msgs, steps int
		bytes       int64
		firstDst    int32 // of group rank 0's first message
		firstBytes  int64 // of group rank 0's first message
	}{
		// ring: 2(n-1) steps, n per step, 2(n-1)S bytes in all.
		{etpb.CollectiveCommType_ALL_REDUCE, 5, 1003, 40, 8, 2 * 4 * 1003, 1, 201},
		{etpb.CollectiveCommType_ALL_REDUCE, 1, 1003, 0, 0, 0, 0, 0},
		{etpb.CollectiveCommType_REDUCE_SCATTER, 5, 1003, 20, 4, 4 * 1003, 1, 201},
		{etpb.CollectiveCommType_REDUCE_SCATTER_BLOCK, 4, 4096, 12, 3, 3 * 4096, 1, 1024},
		// ring all-gather: each rank forwards n-1 contributions of S.
		{etpb.CollectiveCommType_ALL_GATHER, 6, 100, 30, 5, 6 * 5 * 100, 1, 100},
		// pairwise: n(n-1) blocks, every buffer but the own block.
		{etpb.CollectiveCommType_ALL_TO_ALL, 3, 10, 6, 2, (3 + 3) + (4 + 3) + (4 + 3), 1, 3}, // blocks 4, 3, 3
		// binomial broadcast: n-1 messages of S in ceil(log2 n) steps.
		{etpb.CollectiveCommType_BROADCAST, 6, 7, 5, 3, 5 * 7, 1, 7},
		// dissemination barrier: ceil(log2 n) steps of n 0-byte messages.
		{etpb.CollectiveCommType_BARRIER, 5, 0, 15, 3, 0, 1, 0},
	} {
		ms := decompose(tc.ct, eq(tc.n, tc.s))
		if len(ms) != tc.msgs || int(steps(ms)) != tc.steps || sum(ms) != tc.bytes {
			t.Errorf("%v n=%d S=%d: %d messages in %d steps, %d bytes; want %d, %d, %d",
				tc.ct, tc.n, tc.s, len(ms), steps(ms), sum(ms), tc.msgs, tc.steps, tc.bytes)
			continue
		}
		if len(ms) > 0 && (ms[0].src != 0 || ms[0].dst != tc.firstDst || ms[0].bytes != tc.firstBytes) {
			t.Errorf("%v: first message %+v", tc.ct, ms[0])
		}
	}
	// Ring all-reduce: every rank ends with every block reduced, i.e.
	// in the all-gather half each block travels n-1 hops from the rank
	// that completed it.
	ms := decompose(etpb.CollectiveCommType_ALL_REDUCE, eq(4, 400))
	for _, m := range ms {
		if m.dst != (m.src+1)%4 || m.bytes != 100 {
			t.Errorf("ring message %+v", m)
		}
	}
}

// TestCollectiveGroups checks process groups: two groups of four ranks
// inferred from pg_name, and one given by Options.Groups in another
// order.
func TestCollectiveGroups(t *testing.T) {
	ranks := etgen.Same(8, func(r int) []*etpb.Node {
		pg := "even"
		if r%2 == 1 {
			pg = "odd"
		}
		return []*etpb.Node{etgen.Coll(0, etpb.CollectiveCommType_ALL_GATHER, 10, pg)}
	})
	tr, rep := load(t, ranks, Options{})
	if len(rep.Groups) != 2 || len(rep.Groups["odd"]) != 4 || rep.Collectives["ALL_GATHER"] != 2 {
		t.Fatalf("groups %v, collectives %v", rep.Groups, rep.Collectives)
	}
	for _, m := range data(tr) {
		if m.SrcRank%2 != m.DstRank%2 || m.Bytes != 10 {
			t.Errorf("message %+v crosses groups", m)
		}
	}
	// Ring in the given order 6, 4, 2, 0 for "even".
	tr, _ = load(t, ranks, Options{Groups: map[string][]int{"even": {6, 4, 2, 0}}})
	if len(byPair(tr, 6, 4)) != 3 || len(byPair(tr, 0, 6)) != 3 || len(byPair(tr, 0, 2)) != 0 {
		t.Errorf("the given group order is not the ring's")
	}
}

// TestCollectiveSkips checks that collectives without a root and those
// some member lacks are reported and take no time.
func TestCollectiveSkips(t *testing.T) {
	ranks := etgen.Same(4, func(r int) []*etpb.Node {
		nodes := []*etpb.Node{etgen.Coll(0, etpb.CollectiveCommType_GATHER, 100, "")}
		if r != 3 {
			nodes = append(nodes, etgen.Coll(1, etpb.CollectiveCommType_BROADCAST, 100, ""))
		}
		return nodes
	})
	tr, rep := load(t, ranks, Options{})
	if len(data(tr)) != 0 {
		t.Errorf("%d messages, want none", len(data(tr)))
	}
	want := map[string]int64{"COMM_COLL_NODE GATHER": 4, "COMM_COLL_NODE BROADCAST": 3}
	for _, s := range rep.Skipped {
		if want[s.Kind] != s.Count {
			t.Errorf("skipped %+v", s)
		}
		delete(want, s.Kind)
	}
	if len(want) != 0 || len(rep.Warnings()) != 2 {
		t.Errorf("missing skips %v; warnings %q", want, rep.Warnings())
	}
}
