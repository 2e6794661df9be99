package gen_test

import (
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// TestVASPStructure checks the collectives of two SCF iterations on
// P = 4 ranks: an FFT all-to-all (P(P-1) messages), a ring all-reduce
// (2(P-1) steps of P messages of ceil(bytes/P)), a binomial broadcast
// (P-1 messages), each followed by one join per rank.
func TestVASPStructure(t *testing.T) {
	const spec = "vasp:nodes=2,ppn=2,scf=2,ffts=1,fft_bytes=1000,fft_gap=10us,allreduces=1,allreduce_bytes=1001,bcasts=1,bcast_bytes=500,compute=1ms,prio=2"
	tr := mustParse(t, spec, 1)
	const p = 4
	perSCF := p*(p-1) + p + 2*(p-1)*p + p + (p - 1) + p
	if len(tr.Messages) != 2*perSCF || tr.Hosts != 2 || tr.PPN != 2 || len(tr.Ranks) != p {
		t.Fatalf("%d messages on %d hosts (ppn %d, %d ranks), want %d on 2 (2, 4)", len(tr.Messages), tr.Hosts, tr.PPN, len(tr.Ranks), 2*perSCF)
	}
	coll := byCollective(tr)
	if len(coll) != 6 {
		t.Fatalf("%d collectives, want 3 per SCF iteration", len(coll))
	}
	for c := int64(0); c < 6; c++ {
		var want struct {
			n     int
			bytes int64
		}
		switch c % 3 {
		case 0:
			want.n, want.bytes = p*(p-1), 1000
		case 1:
			want.n, want.bytes = 2*(p-1)*p, 251 // ceil(1001/4)
		case 2:
			want.n, want.bytes = p-1, 500
		}
		if len(coll[c]) != want.n {
			t.Errorf("collective %d has %d messages, want %d", c, len(coll[c]), want.n)
		}
		pairs := map[[2]int32]int{}
		for _, i := range coll[c] {
			m := tr.Messages[i]
			pairs[[2]int32{m.SrcRank, m.DstRank}]++
			if m.Bytes != want.bytes || m.Iteration != c/3 || m.Priority != 2 || m.Src != tr.Ranks[m.SrcRank] {
				t.Fatalf("collective %d: message %+v, want %d B, iteration %d", c, m, want.bytes, c/3)
			}
		}
		switch c % 3 {
		case 1: // ring: each rank sends 2(P-1) chunks to the next
			for a := int32(0); a < p; a++ {
				if pairs[[2]int32{a, (a + 1) % p}] != 2*(p-1) {
					t.Errorf("ring: rank %d sent %d chunks to %d", a, pairs[[2]int32{a, (a + 1) % p}], (a+1)%p)
				}
			}
		case 2: // binomial tree from rank 0: 0->1, then 0->2 and 1->3
			for _, e := range [][2]int32{{0, 1}, {0, 2}, {1, 3}} {
				if pairs[e] != 1 {
					t.Errorf("broadcast lacks %v: %v", e, pairs)
				}
			}
		}
	}
	// Joins: one per rank after each collective, on the rank's host,
	// carrying the compute that follows.
	gaps := map[units.Time]int{}
	for _, m := range tr.Messages {
		if m.IsSync() {
			if m.SrcRank < 0 || m.Src != tr.Ranks[m.SrcRank] || len(m.Deps) == 0 {
				t.Fatalf("join %+v", m)
			}
			gaps[m.Gap]++
		}
	}
	if gaps[10*units.Microsecond] != 2*p || gaps[0] != 2*p || gaps[units.Millisecond] != 2*p {
		t.Errorf("join gaps %v, want fft_gap, 0 and compute, %d each", gaps, 2*p)
	}
	// The job ends with joins: the last message's finish is the JCT.
	if last := tr.Messages[len(tr.Messages)-1]; !last.IsSync() || last.Gap != units.Millisecond {
		t.Errorf("last message %+v, want the final compute join", last)
	}
}

// TestVASPRanksProgress checks the dependency rule of the job: a rank's
// messages of collective c+1 wait for every message it sent or received
// in collective c (its part done, plus compute), and a rank's first
// messages do not wait for any other rank's unrelated messages.
func TestVASPRanksProgress(t *testing.T) {
	tr := mustParse(t, "vasp:nodes=3,ppn=1,scf=2,ffts=2,allreduces=1,bcasts=1,fft_bytes=64,allreduce_bytes=96,bcast_bytes=8", 1)
	c := ancestors(t, tr)
	coll := byCollective(tr)
	for id := int64(1); id < int64(len(coll)); id++ {
		for _, i := range coll[id] {
			m := tr.Messages[i]
			for _, j := range coll[id-1] {
				prev := tr.Messages[j]
				mine := prev.SrcRank == m.SrcRank || prev.DstRank == m.SrcRank
				if mine && !c.waitsFor(i, j) {
					t.Fatalf("rank %d's message %d (collective %d) does not wait for its message %d of collective %d", m.SrcRank, m.ID, id, prev.ID, id-1)
				}
			}
		}
	}
	// In the first all-to-all nothing waits; in the second, rank 0's
	// messages do not wait for the message from rank 1 to rank 2 of the
	// first (ranks move on independently, no global barrier).
	var r0, r12 int = -1, -1
	for _, i := range coll[1] {
		if tr.Messages[i].SrcRank == 0 && r0 < 0 {
			r0 = i
		}
	}
	for _, i := range coll[0] {
		if m := tr.Messages[i]; m.SrcRank == 1 && m.DstRank == 2 {
			r12 = i
		}
		if len(tr.Messages[i].Deps) != 0 {
			t.Errorf("first collective message %d has deps", tr.Messages[i].ID)
		}
	}
	if c.waitsFor(r0, r12) {
		t.Error("rank 0 waits for a message between ranks 1 and 2: a global barrier")
	}
}

func TestVASPDefaults(t *testing.T) {
	tr := mustParse(t, "vasp:scf=1", 1)
	const p = 96 // 8 nodes x 12
	if tr.Hosts != 8 || tr.PPN != 12 || len(tr.Ranks) != p {
		t.Fatalf("hosts %d ppn %d ranks %d", tr.Hosts, tr.PPN, len(tr.Ranks))
	}
	if want := 4*(p*(p-1)+p) + 2*(2*(p-1)*p+p) + (p - 1 + p); len(tr.Messages) != want {
		t.Errorf("%d messages, want %d", len(tr.Messages), want)
	}
	for _, m := range tr.Messages {
		if m.SrcRank == trace.NoRank {
			t.Fatalf("message %+v without ranks: every message of the job is a rank's", m)
		}
	}
}
