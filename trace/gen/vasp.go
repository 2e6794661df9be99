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
	Keys: []Key{
		{"nodes", "8", "number of hosts (count; the Dolce-RC testbed has 8)"},
		{"ppn", "12", "MPI processes per node (count; Dolce-RC's VASP run used 12)"},
		{"map", "block", "rank placement: block (rank r on host r/ppn) or cyclic (host r mod nodes)"},
		{"scf", "4", "SCF iterations (count)"},
		{"ffts", "4", "FFT all-to-alls per SCF iteration (count)"},
		{"fft_bytes", "32KiB", "bytes each rank sends to each other rank in one FFT all-to-all (bytes)"},
		{"fft_gap", "100us", "compute after each FFT all-to-all (time)"},
		{"allreduces", "2", "all-reduces per SCF iteration, after the FFTs (count; ring algorithm)"},
		{"allreduce_bytes", "1MiB", "vector reduced by one all-reduce (bytes; each ring step moves 1/(nodes*ppn) of it)"},
		{"bcasts", "1", "broadcasts from rank 0 per SCF iteration, after the all-reduces (count; binomial tree)"},
		{"bcast_bytes", "256KiB", "bytes broadcast by one broadcast (bytes)"},
		{"compute", "2ms", "compute at the end of each SCF iteration, after its last collective (time)"},
		{"start", "0", "release time of the first collective (time)"},
		{"qp", "pair", "pair: one queue pair per ordered pair of ranks on different hosts, kept for the whole job; message: one per message"},
		{"prio", "0", "priority class of every message (0 = the NIC's default data class, 1..7)"},
	},
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
	oc := osuConfig{
		nodes:  p.count("nodes", 1, maxCount),
		ppn:    p.count("ppn", 1, maxCount),
		cyclic: p.choice("map", "block", "cyclic") == "cyclic",
	}
	scf := p.count("scf", 1, maxCount)
	ffts := p.count("ffts", 0, maxCount)
	fftBytes := p.size("fft_bytes")
	fftGap := p.duration("fft_gap")
	allreduces := p.count("allreduces", 0, maxCount)
	arBytes := p.size("allreduce_bytes")
	bcasts := p.count("bcasts", 0, maxCount)
	bcBytes := p.size("bcast_bytes")
	compute := p.duration("compute")
	start := p.duration("start")
	perPair := p.choice("qp", "pair", "message") == "pair"
	prio := p.priority("prio")
	if p.err == nil && ffts+allreduces+bcasts == 0 {
		p.fail("ffts", p.raw("ffts"), "an SCF iteration needs at least one collective (ffts, allreduces or bcasts > 0)")
	}
	if p.err != nil {
		return nil
	}
	n := float64(oc.nodes * oc.ppn)
	perSCF := float64(ffts)*(n*(n-1)+n) + float64(allreduces)*(2*(n-1)*n+n) + float64(bcasts)*(n-1+n)
	if p.tooMany(float64(scf) * perSCF) {
		return nil
	}

	ranks := oc.ranks()
	t := &trace.Trace{Hosts: int(oc.nodes), PPN: int(oc.ppn), Ranks: ranks}
	b := &builder{t: t}
	g := &group{hosts: ranks, mpi: true, perPair: perPair, prio: prio}
	ready := filled(len(ranks), -1)
	coll := int64(0)
	for s := range scf {
		steps := ffts + allreduces + bcasts
		for k := range steps {
			ph := phase{ready: ready, release: start, coll: coll, iter: s}
			var res result
			gap := units.Time(0)
			switch {
			case k < ffts:
				res, gap = b.alltoall(g, ph, fftBytes), fftGap
			case k < ffts+allreduces:
				res = b.ringAllreduce(g, ph, arBytes)
			default:
				res = b.binomialBcast(g, ph, bcBytes)
			}
			if k == steps-1 {
				gap = compute
			}
			ready = b.joins(g, res, ready, gap, start, s)
			coll++
		}
	}
	return t
}
