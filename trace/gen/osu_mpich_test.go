package gen_test

import (
	"reflect"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// collectives splits an osu-alltoall trace into its iterations: the data
// messages of each (by collective id) and the synchronization points
// between its batches (same-host zero-byte messages with no collective id
// before the iteration's barrier).
func collectives(tr *trace.Trace) (data [][]trace.Message, syncs []int) {
	cur := -1
	for _, m := range tr.Messages {
		if m.CollectiveID >= 0 {
			for int(m.CollectiveID) > cur {
				data, syncs, cur = append(data, nil), append(syncs, 0), cur+1
			}
			data[cur] = append(data[cur], m)
		} else if cur >= 0 && m.IsSync() && m.SrcRank >= 0 {
			syncs[cur]++ // a rank's wait between batches (the barrier has no rank)
		}
	}
	return data, syncs
}

// TestOSUAlltoallMPICHRules: by default each size takes the algorithm
// MPICH's MPIR_Alltoall_intra_auto picks (src/mpi/coll/alltoall/
// alltoall.c, MPICH 3.3; MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE 256,
// MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE 32768, MPIR_CVAR_ALLTOALL_THROTTLE
// 32). On 8 ranks: 256 B is Bruck (log2 8 = 3 steps, each rank sending
// the 4 blocks whose index has the step's bit set, 1024 B, to r+d), 512 B
// and 32 KiB the scattered isend/irecv (one batch: 8 <= 32), 64 KiB
// pairwise exchange with MPICH's XOR pairing (8 is a power of two). On 4
// ranks 256 B is not Bruck (fewer than 8 ranks) but scattered.
func TestOSUAlltoallMPICHRules(t *testing.T) {
	tr := mustParse(t, "osu-alltoall:nodes=4,ppn=2,sizes=256;512;32KiB;64KiB,warmup=0,iters=1", 1)
	data, syncs := collectives(tr)
	if len(data) != 4 {
		t.Fatalf("%d collectives, want 4", len(data))
	}
	const p = 8
	// 256 B: Bruck.
	if len(data[0]) != 3*p {
		t.Fatalf("256 B: %d messages, want 3 steps x 8", len(data[0]))
	}
	for i, m := range data[0] {
		d := int32(1) << (i / p)
		if m.Bytes != 4*256 || m.DstRank != (m.SrcRank+d)%p {
			t.Errorf("256 B message %d: %d -> %d, %d B; want to r+%d, 1024 B", i, m.SrcRank, m.DstRank, m.Bytes, d)
		}
		if i >= p { // MPI_Sendrecv: the previous step's own send and the receive from r-d/2
			prevStep := data[0][(i/p-1)*p : (i/p)*p]
			want := []int64{prevStep[(int(m.SrcRank)-int(d)/2+p)%p].ID, prevStep[m.SrcRank].ID}
			if !reflect.DeepEqual(m.Deps, want) {
				t.Errorf("256 B message %d deps %v, want %v", i, m.Deps, want)
			}
		}
	}
	// 512 B and 32 KiB: scattered, every ordered pair once, no wait inside.
	for _, c := range []int{1, 2} {
		pairs := map[[2]int32]bool{}
		for _, m := range data[c] {
			pairs[[2]int32{m.SrcRank, m.DstRank}] = true
		}
		if len(data[c]) != p*(p-1) || len(pairs) != p*(p-1) || syncs[c] != 0 {
			t.Errorf("collective %d: %d messages over %d pairs, %d waits; want 56, 56, 0", c, len(data[c]), len(pairs), syncs[c])
		}
	}
	// 64 KiB: pairwise by XOR.
	if len(data[3]) != (p-1)*p {
		t.Fatalf("64 KiB: %d messages", len(data[3]))
	}
	for i, m := range data[3] {
		k := int32(i/p + 1)
		if m.DstRank != m.SrcRank^k || m.Bytes != 64<<10 {
			t.Errorf("64 KiB message %d: %d -> %d, want %d", i, m.SrcRank, m.DstRank, m.SrcRank^k)
		}
	}

	tr = mustParse(t, "osu-alltoall:nodes=4,ppn=1,sizes=256,warmup=0,iters=1", 1)
	data, _ = collectives(tr)
	if len(data[0]) != 4*3 || data[0][0].Bytes != 256 {
		t.Errorf("4 ranks, 256 B: %d messages of %d B, want scattered's 12 of 256 B", len(data[0]), data[0][0].Bytes)
	}
}

// TestOSUAlltoallForced: algo= forces one algorithm for every size. Bruck
// on 5 ranks takes ceil(log2 5) = 3 steps carrying 2, 2 and 1 blocks (the
// indices 0..4 with bit 1, 2 and 4 set); scattered with throttle=2 on 4
// ranks posts two batches (to r-1, then r-2 and r-3; the copy to itself
// is no message), each rank waiting for its first batch's sends and
// receives before the second.
func TestOSUAlltoallForced(t *testing.T) {
	tr := mustParse(t, "osu-alltoall:nodes=5,ppn=1,sizes=64KiB,warmup=0,iters=1,algo=bruck", 1)
	data, _ := collectives(tr)
	want := []int64{2, 2, 1}
	if len(data[0]) != 3*5 {
		t.Fatalf("bruck on 5 ranks: %d messages, want 15", len(data[0]))
	}
	for i, m := range data[0] {
		if m.Bytes != want[i/5]*64<<10 {
			t.Errorf("bruck step %d message %d: %d B, want %d blocks", i/5, i, m.Bytes, want[i/5])
		}
	}

	tr = mustParse(t, "osu-alltoall:nodes=4,ppn=1,sizes=1KiB,warmup=0,iters=1,algo=scattered,throttle=2", 1)
	data, syncs := collectives(tr)
	if len(data[0]) != 12 || syncs[0] != 4 {
		t.Fatalf("scattered, throttle 2: %d messages, %d waits; want 12, 4", len(data[0]), syncs[0])
	}
	for i, m := range data[0][:4] { // first batch: r -> r-1, released at the start
		if m.DstRank != (m.SrcRank+3)%4 || len(m.Deps) != 0 {
			t.Errorf("first batch message %d: %d -> %d deps %v", i, m.SrcRank, m.DstRank, m.Deps)
		}
	}
	for i, m := range data[0][4:] { // second batch: after the rank's wait
		if len(m.Deps) != 1 || !tr.Messages[m.Deps[0]].IsSync() || tr.Messages[m.Deps[0]].SrcRank != m.SrcRank {
			t.Errorf("second batch message %d (rank %d) deps %v, want the rank's wait", i, m.SrcRank, m.Deps)
		}
	}
	// linear and pairwise as before; a bad throttle is refused.
	if _, err := gen.Parse("osu-alltoall:throttle=-1", 1); err == nil {
		t.Error("throttle=-1 accepted")
	}
}
