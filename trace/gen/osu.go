package gen

import (
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// The OSU micro-benchmark's MPI_Alltoall latency test (osu_alltoall, OMB
// 5.x), as run on the Dolce-RC testbed (8 servers, 16 or 40 processes per
// node, sizes 1 B..1 MiB) and in the RL-CC paper (64 hosts, one process
// per node). For each size the benchmark runs
//
//	MPI_Barrier
//	for i := 0; i < skip+iterations; i++ {
//		t_start = MPI_Wtime(); MPI_Alltoall(size); t_stop = MPI_Wtime()
//		if i >= skip { timer += t_stop - t_start }
//		MPI_Barrier
//	}
//	latency = timer / iterations   (per rank; "Avg Latency" averages ranks)
//
// with skip = 200 and iterations = 1000 for sizes up to 8 KiB and 10 and
// 100 above (OMB's defaults, options -x and -i). Those counts make
// millions of messages per size at 128 ranks, so the generator defaults to
// 1 warm-up and 5 timed iterations; set warmup and iters to reproduce OMB.
var osuAlltoallKind = Kind{
	Name: "osu-alltoall",
	Doc: "the OSU MPI_Alltoall latency test: for each size, warmup+iters iterations in which every rank sends size bytes to every other rank (same-node pairs stay on the host), " +
		"separated by barriers (one collective id per iteration; Iteration = the loop index, warm-up first)",
	Keys: append(placementKeys("16", "Dolce-RC uses 16 and 40, RL-CC 1", ", Open MPI's --map-by core", ", --map-by node"),
		Key{"sizes", "1..1MiB", "message sizes (bytes per rank pair): LO..HI doubles from LO while <= HI as OSU's loop does, or a list such as 1;64;4KiB",
			func(p *params, key string) any { return p.osuSizes(key) }},
		countKey("warmup", "1", 0, maxCount, "warm-up iterations per size, not timed (count; OSU's -x, 200 up to 8 KiB and 10 above by default)"),
		countKey("iters", "5", 1, maxCount, "timed iterations per size (count; OSU's -i, 1000 up to 8 KiB and 100 above by default)"),
		timeKey("gap", "0", "time from an iteration's last delivery to the next iteration's release (time; models MPI_Barrier and loop overhead)"),
		timeKey("start", "0", "release time of the first iteration (time)"),
		choiceKey("qp", "pair: one queue pair per ordered pair of ranks on different hosts, kept across iterations and sizes (MPI's RC connections); message: one per message", "pair", "message"),
		prioKey,
		choiceKey("algo", "all-to-all algorithm: mpich (by size, as MPICH's MPIR_Alltoall_intra_auto picks: bruck when size <= 256 B and ranks >= 8, scattered when size <= 32 KiB, pairwise exchange above, the XOR pairing when the ranks are a power of two), "+
			"or one forced for every size: bruck (ceil(log2 n) MPI_Sendrecv steps of the blocks whose index has bit d set, to r+d), scattered (isend/irecv in batches of throttle destinations, each batch waited for), "+
			"pairwise (n-1 MPI_Sendrecv steps, rank r sending to r+k and receiving from r-k in step k, Open MPI's pairwise) or linear (every rank posts all its sends at once, Open MPI's basic_linear)",
			"mpich", "bruck", "scattered", "pairwise", "linear"),
		countKey("throttle", "32", 0, maxCount, "scattered's batch: sends and receives a rank posts before waiting for them (count; MPICH's MPIR_CVAR_ALLTOALL_THROTTLE, 32; 0 = all at once)"),
	),
	build: buildOSUAlltoall,
}

// placementKeys are the keys of an MPI job's placement (osu-alltoall,
// vasp), decoded into a placement: nodes; ppn with its default and, in
// its doc, the processes per node the papers used; map with, in its doc,
// what block and cyclic placement are called elsewhere ("" or ", ...").
func placementKeys(ppnDefault, ppnUsed, blockAlias, cyclicAlias string) []Key {
	return []Key{
		countKey("nodes", "8", 1, maxCount, "number of hosts (count; the Dolce-RC testbed has 8)"),
		countKey("ppn", ppnDefault, 1, maxCount, "MPI processes per node (count; "+ppnUsed+")"),
		choiceKey("map", "rank placement: block (rank r on host r/ppn"+blockAlias+") or cyclic (host r mod nodes"+cyclicAlias+")", "block", "cyclic"),
	}
}

// placement is where an MPI job's ranks run: its nodes, ppn and map keys.
type placement struct {
	Nodes, PPN int64
	Map        string // block or cyclic
}

// osuConfig is an osu-alltoall spec.
type osuConfig struct {
	placement
	Sizes                   []int64
	Warmup, Iters, Throttle int64
	Gap, Start              units.Time
	QP                      string // pair or message
	Prio                    int32
	Algo                    string // mpich, bruck, scattered, pairwise or linear
}

// The size rules of MPICH's MPI_Alltoall (MPIR_Alltoall_intra_auto in
// src/mpi/coll/alltoall/alltoall.c of pmodels/mpich, MPICH 3.3; the
// defaults of its control variables MPIR_CVAR_ALLTOALL_SHORT_MSG_SIZE and
// MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE): Bruck for messages of at most
// mpichShort bytes per rank pair on at least mpichBruckRanks ranks, the
// scattered isend/irecv algorithm up to mpichMedium bytes, pairwise
// exchange above.
const (
	mpichShort      = 256
	mpichMedium     = 32768
	mpichBruckRanks = 8
)

// mpichAlgo is the algorithm MPICH picks for an all-to-all of size bytes
// per rank pair among ranks ranks.
func mpichAlgo(size, ranks int64) string {
	switch {
	case size <= mpichShort && ranks >= mpichBruckRanks:
		return "bruck"
	case size <= mpichMedium:
		return "scattered"
	default:
		return "pairwise"
	}
}

// readOSU reads an osu-alltoall spec's keys.
func readOSU(p *params) osuConfig {
	var c osuConfig
	if p.decode(&c) && c.Nodes*c.PPN < 2 {
		p.fail("ppn", p.raw("ppn"), "the test needs at least 2 ranks (nodes x ppn >= 2)")
	}
	return c
}

// osuSizes reads "LO..HI" (LO, 2 LO, 4 LO, ... while <= HI) or a
// ';'-separated list, every size >= 1 byte.
func (p *params) osuSizes(key string) []int64 {
	s := p.raw(key)
	lo, hi, isRange := strings.Cut(s, "..")
	if !isRange {
		return p.sizeList(key, 1)
	}
	a, errA := units.ParseSize(strings.TrimSpace(lo))
	b, errB := units.ParseSize(strings.TrimSpace(hi))
	if errA != nil || errB != nil || a < 1 || b < a {
		p.fail(key, s, "want LO..HI with 1 <= LO <= HI, such as 1..1MiB, or a list such as 1;64;4KiB")
		return []int64{1}
	}
	var out []int64
	for v := int64(a); v <= int64(b); v *= 2 {
		out = append(out, v)
		if v > int64(b)/2 {
			break // NB: the next doubling would pass HI (or overflow)
		}
	}
	return out
}

// ranks places n = nodes*ppn ranks on hosts.
func (c *placement) ranks() []int32 {
	n := c.Nodes * c.PPN
	out := make([]int32, n)
	for r := range out {
		if c.Map == "cyclic" {
			out[r] = int32(int64(r) % c.Nodes)
		} else {
			out[r] = int32(int64(r) / c.PPN)
		}
	}
	return out
}

// buildOSUAlltoall makes the benchmark's trace. Each iteration is one
// all-to-all among all ranks (collective id = the iteration's number
// counted over the whole trace) followed by a barrier: a zero-byte message
// on the host of rank 0 that depends on every message of the iteration
// and carries gap; every message of the next iteration (of this size or
// the next) depends on that barrier alone. So no message of iteration i+1
// is released before every message of iteration i has been delivered,
// with 2 dependency edges per message.
func buildOSUAlltoall(p *params) *trace.Trace {
	c := readOSU(p)
	if p.err != nil {
		return nil
	}
	n := float64(c.Nodes * c.PPN)
	per := float64(c.Warmup + c.Iters)
	if p.tooMany(float64(len(c.Sizes)) * per * (n*(n-1) + 1)) {
		return nil
	}
	ranks := c.ranks()
	t := &trace.Trace{Hosts: int(c.Nodes), PPN: int(c.PPN), Ranks: ranks}
	t.Messages = make([]trace.Message, 0, int(float64(len(c.Sizes))*per*(n*(n-1)+1)))
	b := &builder{t: t}
	g := &group{hosts: ranks, mpi: true, perPair: c.QP == "pair", prio: c.Prio}
	barrier, coll := int64(-1), int64(0)
	for _, size := range c.Sizes {
		for i := range c.Warmup + c.Iters {
			ph := phase{ready: filled(len(ranks), barrier), release: c.Start, coll: coll, iter: i}
			var res result
			algo, xor := c.Algo, false
			if algo == "mpich" {
				algo = mpichAlgo(size, int64(len(ranks)))
				xor = len(ranks)&(len(ranks)-1) == 0 // MPICH pairs by XOR on 2^k ranks
			}
			switch algo {
			case "bruck":
				res = b.bruckAlltoall(g, ph, size)
			case "scattered":
				res = b.scatteredAlltoall(g, ph, size, int(min(c.Throttle, int64(len(ranks)))))
			case "pairwise":
				if xor {
					res = b.xorPairwiseAlltoall(g, ph, size)
				} else {
					res = b.pairwiseAlltoall(g, ph, size)
				}
			default:
				res = b.alltoall(g, ph, size)
			}
			barrier = b.sync(ranks[0], res.msgs, c.Gap, c.Start, i, trace.NoRank)
			coll++
		}
	}
	return t
}

// OSUCollective is one iteration of an osu-alltoall trace.
type OSUCollective struct {
	// CollectiveID is the collective id of the iteration's messages.
	CollectiveID int64
	// Bytes is the message size of the iteration, bytes per rank pair.
	Bytes int64
	// Iteration is the loop index within the size, warm-up first.
	Iteration int64
	// Warmup is true for the iterations the benchmark does not time.
	Warmup bool
}

// OSUPlan lists the iterations an osu-alltoall spec generates, in trace
// order, without generating the trace: what OSULatency needs to turn a
// replay of that trace into the benchmark's report.
func OSUPlan(spec string) ([]OSUCollective, error) {
	name, args, _ := strings.Cut(strings.TrimSpace(spec), ":")
	if strings.TrimSpace(name) != osuAlltoallKind.Name {
		return nil, fmt.Errorf("OSUPlan wants an %s spec, got %q", osuAlltoallKind.Name, spec)
	}
	p, err := parseArgs(&osuAlltoallKind, args, 0)
	if err != nil {
		return nil, err
	}
	c := readOSU(p)
	if p.err != nil {
		return nil, p.err
	}
	var plan []OSUCollective
	for _, size := range c.Sizes {
		for i := range c.Warmup + c.Iters {
			plan = append(plan, OSUCollective{CollectiveID: int64(len(plan)), Bytes: size, Iteration: i, Warmup: i < c.Warmup})
		}
	}
	return plan, nil
}
