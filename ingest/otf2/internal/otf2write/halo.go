package otf2write

import "fmt"

// HaloSpec describes a synthetic MPI job in the shape Score-P records
// one: ranks on nodes, each iteration a compute phase, a nonblocking halo
// exchange with both ring neighbours (MPI_Irecv, MPI_Isend, MPI_Waitall)
// and an MPI_Allreduce.
type HaloSpec struct {
	Ranks, PPN, Iters int
	// HaloBytes is the size of each halo message, AllreduceBytes the
	// reduced buffer.
	HaloBytes, AllreduceBytes uint64
	// ComputeNs is the compute time of an iteration, ns.
	ComputeNs uint64
	// Offsets gives every location two clock offsets (at its start and
	// end), of r and 2r ticks for rank r.
	Offsets bool
}

// Region ids of Halo archives.
const (
	RegionMain = iota
	RegionCompute
	RegionIrecv
	RegionIsend
	RegionWaitall
	RegionAllreduce
)

// Halo returns the archive of a HaloSpec job: system-tree nodes "node<k>"
// under a machine, a process "MPI Rank r" per rank with one thread, and
// MPI_COMM_WORLD; timer resolution 1 GHz, global offset 1e6 ticks.
func Halo(s HaloSpec) *Writer {
	w := New()
	const t0 = 1_000_000
	w.SystemTreeNode(0, "machine", "machine", Undefined32)
	nodes := (s.Ranks + s.PPN - 1) / s.PPN
	for k := 0; k < nodes; k++ {
		w.SystemTreeNode(uint32(1+k), fmt.Sprintf("node%d", k), "node", 0)
	}
	w.Region(RegionMain, "main", RoleFunction, ParadigmNone)
	w.Region(RegionCompute, "compute", RoleFunction, ParadigmNone)
	w.Region(RegionIrecv, "MPI_Irecv", RolePoint2Point, ParadigmMPI)
	w.Region(RegionIsend, "MPI_Isend", RolePoint2Point, ParadigmMPI)
	w.Region(RegionWaitall, "MPI_Waitall", RolePoint2Point, ParadigmMPI)
	w.Region(RegionAllreduce, "MPI_Allreduce", RoleCollective, ParadigmMPI)
	locs := make([]*Loc, s.Ranks)
	members := make([]uint64, s.Ranks)
	for r := range s.Ranks {
		w.LocationGroup(uint32(r), fmt.Sprintf("MPI Rank %d", r), uint32(1+r/s.PPN))
		locs[r] = w.Location(uint64(r), "Master thread", uint32(r))
		members[r] = uint64(r)
	}
	w.Group(0, "MPI_COMM_WORLD", GroupCommLocations, ParadigmMPI, members)
	w.Group(1, "", GroupCommGroup, ParadigmMPI, members)
	w.Comm(0, "MPI_COMM_WORLD", 1, Undefined32)
	end := uint64(0)
	for r, l := range locs {
		t := uint64(t0 + 100*r) // staggered start
		if s.Offsets {
			l.ClockOffset(t0, int64(r), 0)
		}
		l.Enter(t, RegionMain)
		left, right := uint32((r+s.Ranks-1)%s.Ranks), uint32((r+1)%s.Ranks)
		for it := range s.Iters {
			t += 10
			l.Enter(t, RegionCompute)
			t += s.ComputeNs + uint64(50*r)
			l.Leave(t, RegionCompute)
			req := uint64(4 * it)
			for k := range 2 {
				t += 100
				l.Enter(t, RegionIrecv)
				t += 200
				l.MpiIrecvRequest(t, req+uint64(k))
				t += 100
				l.Leave(t, RegionIrecv)
			}
			for k, nb := range []uint32{right, left} {
				t += 100
				l.Enter(t, RegionIsend)
				t += 200
				l.MpiIsend(t, nb, 0, uint32(k), s.HaloBytes, req+2+uint64(k))
				t += 100
				l.Leave(t, RegionIsend)
			}
			t += 100
			l.Enter(t, RegionWaitall)
			t += 2000
			// The message from the left neighbour was sent to its right
			// (tag 0); the one from the right neighbour, tag 1.
			l.MpiIrecv(t, left, 0, 0, s.HaloBytes, req)
			l.MpiIrecv(t, right, 0, 1, s.HaloBytes, req+1)
			l.MpiIsendComplete(t, req+2)
			l.MpiIsendComplete(t, req+3)
			t += 100
			l.Leave(t, RegionWaitall)
			t += 100
			l.Enter(t, RegionAllreduce)
			t += 100
			l.MpiCollectiveBegin(t)
			t += 5000
			n := uint64(s.Ranks)
			l.MpiCollectiveEnd(t, OpAllreduce, 0, Undefined32, n*s.AllreduceBytes, n*s.AllreduceBytes)
			t += 100
			l.Leave(t, RegionAllreduce)
		}
		t += 10
		l.Leave(t, RegionMain)
		if s.Offsets {
			l.ClockOffset(t+1000, int64(2*r), 0)
		}
		end = max(end, t)
	}
	w.ClockProperties(1_000_000_000, t0, end-t0)
	return w
}
