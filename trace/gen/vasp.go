package gen

import (
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// A VASP-like MPI job. Dolce-RC (Sec. V-B) runs VASP 5.4.4 on NVIDIA's GPU
// benchmark silicaIFPEN with PPN 12 and reports the job completion time
// (139.1 s under DCQCN); neither the paper nor any public source we have
// gives that run's communication volumes or counts. What is documented is
// the structure of a plane-wave DFT code: each self-consistent-field (SCF)
// step computes, transposes its distributed 3-D FFTs with all-to-alls,
// reduces dot products and subspace matrices with all-reduces and
// broadcasts results from one rank. So every count, size and compute time
// below is a key, and the defaults are illustrative placeholders (chosen
// so that communication and computation are of the same order at 100
// Gb/s), not measurements: set them from a profile of the job you model
// (e.g. mpiP or IPM output).
var vaspKind = Kind{
	Name: "vasp",
	Doc: "a VASP-like MPI job: scf iterations, each of ffts all-to-alls (fft_gap of compute after each), allreduces ring all-reduces, bcasts binomial broadcasts from rank 0, then compute; " +
		"each rank moves on when its own part of a collective is done; job completion time = the last message's finish (sizes and times are placeholders, not measured)",
	Keys: append(placementKeys("12", "Dolce-RC's VASP run used 12", "", ""),
		countKey("scf", "4", 1, maxCount, "SCF iterations (count)"),
		countKey("ffts", "4", 0, maxCount, "FFT all-to-alls per SCF iteration (count)"),
		sizeKey("fft_bytes", "32KiB", "bytes each rank sends to each other rank in one FFT all-to-all (bytes)"),
		timeKey("fft_gap", "100us", "compute after each FFT all-to-all (time)"),
		countKey("allreduces", "2", 0, maxCount, "all-reduces per SCF iteration, after the FFTs (count; ring algorithm)"),
		sizeKey("allreduce_bytes", "1MiB", "vector reduced by one all-reduce (bytes; each ring step moves 1/(nodes*ppn) of it)"),
		countKey("bcasts", "1", 0, maxCount, "broadcasts from rank 0 per SCF iteration, after the all-reduces (count; binomial tree)"),
		sizeKey("bcast_bytes", "256KiB", "bytes broadcast by one broadcast (bytes)"),
		timeKey("compute", "2ms", "compute at the end of each SCF iteration, after its last collective (time)"),
		timeKey("start", "0", "release time of the first collective (time)"),
		choiceKey("qp", "pair: one queue pair per ordered pair of ranks on different hosts, kept for the whole job; message: one per message", "pair", "message"),
		prioKey,
	),
	build: buildVASP,
}

// buildVASP makes the job. Between two collectives each rank has a join: a
// zero-byte message on its host that depends on the rank's last messages
// of the collective (its part is done) and carries the compute time that
// follows (fft_gap, or compute after the last collective of an SCF
// iteration); the rank's messages of the next collective depend on it.
// Ranks therefore proceed independently, as in MPI without barriers; the
// job ends with the last join. Collective ids count the collectives of the
// job; Iteration is the SCF iteration.
func buildVASP(p *params) *trace.Trace {
	var s struct {
		placement
		SCF, FFTs, FFTBytes, Allreduces, AllreduceBytes, Bcasts, BcastBytes int64
		FFTGap, Compute, Start                                              units.Time
		QP                                                                  string
		Prio                                                                int32
	}
	p.decode(&s)
	ffts, allreduces, bcasts := s.FFTs, s.Allreduces, s.Bcasts
	if p.err == nil && ffts+allreduces+bcasts == 0 {
		p.fail("ffts", p.raw("ffts"), "an SCF iteration needs at least one collective (ffts, allreduces or bcasts > 0)")
	}
	if p.err != nil {
		return nil
	}
	scf := s.SCF
	n := float64(s.Nodes * s.PPN)
	perSCF := float64(ffts)*(n*(n-1)+n) + float64(allreduces)*(2*(n-1)*n+n) + float64(bcasts)*(n-1+n)
	if p.tooMany(float64(scf) * perSCF) {
		return nil
	}

	ranks := s.ranks()
	t := &trace.Trace{Hosts: int(s.Nodes), PPN: int(s.PPN), Ranks: ranks}
	b := &builder{t: t}
	g := &group{hosts: ranks, mpi: true, perPair: s.QP == "pair", prio: s.Prio}
	ready := filled(len(ranks), -1)
	coll := int64(0)
	for it := range scf {
		steps := ffts + allreduces + bcasts
		for k := range steps {
			ph := phase{ready: ready, release: s.Start, coll: coll, iter: it}
			var res result
			gap := units.Time(0)
			switch {
			case k < ffts:
				res, gap = b.alltoall(g, ph, s.FFTBytes), s.FFTGap
			case k < ffts+allreduces:
				res = b.ringAllreduce(g, ph, s.AllreduceBytes)
			default:
				res = b.binomialBcast(g, ph, s.BcastBytes)
			}
			if k == steps-1 {
				gap = s.Compute
			}
			ready = b.joins(g, res, ready, gap, s.Start, it)
			coll++
		}
	}
	return t
}
