package gen_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// TestOSUAlltoallStructure checks every message of a small benchmark: P =
// nodes x ppn ranks placed block-wise, P(P-1) messages per iteration (one
// per ordered pair of ranks, same-node pairs on one host), then a barrier.
func TestOSUAlltoallStructure(t *testing.T) {
	const spec = "osu-alltoall:nodes=3,ppn=2,sizes=1..4,warmup=1,iters=2,gap=2us,start=5us,prio=3,algo=linear"
	tr := mustParse(t, spec, 1)
	if tr.Hosts != 3 || tr.PPN != 2 || !reflect.DeepEqual(tr.Ranks, []int32{0, 0, 1, 1, 2, 2}) {
		t.Fatalf("hosts %d, ppn %d, ranks %v; want 3, 2, [0 0 1 1 2 2]", tr.Hosts, tr.PPN, tr.Ranks)
	}
	const p, iters = 6, 3 // ranks; warm-up + timed per size
	sizes := []int64{1, 2, 4}
	if want := len(sizes) * iters * (p*(p-1) + 1); len(tr.Messages) != want {
		t.Fatalf("%d messages, want %d", len(tr.Messages), want)
	}
	flowOf := map[[2]int32]int64{}
	k := 0
	for c := range len(sizes) * iters {
		size, iter := sizes[c/iters], int64(c%iters)
		pairs := map[[2]int32]bool{}
		local := 0
		var ids []int64
		for range p * (p - 1) {
			m := tr.Messages[k]
			k++
			ids = append(ids, m.ID)
			pair := [2]int32{m.SrcRank, m.DstRank}
			if pairs[pair] || m.SrcRank == m.DstRank {
				t.Fatalf("collective %d: rank pair %v twice or to itself", c, pair)
			}
			pairs[pair] = true
			if m.Bytes != size || m.CollectiveID != int64(c) || m.Iteration != iter || m.Priority != 3 ||
				m.Src != tr.Ranks[m.SrcRank] || m.Dst != tr.Ranks[m.DstRank] {
				t.Fatalf("message %+v: want %d B, collective %d, iteration %d, priority 3, hosts of its ranks", m, size, c, iter)
			}
			if m.Src == m.Dst {
				local++
				if m.FlowID != trace.NoFlow {
					t.Errorf("same-host message %d has flow %d", m.ID, m.FlowID)
				}
			} else if f, seen := flowOf[pair]; seen && f != m.FlowID || m.FlowID < 0 {
				t.Errorf("pair %v on flow %d, earlier %d (qp=pair keeps one queue pair per pair)", pair, m.FlowID, f)
			} else {
				flowOf[pair] = m.FlowID
			}
			// The first iteration starts at start; every later one waits
			// for the previous barrier alone.
			switch {
			case c == 0 && (len(m.Deps) != 0 || m.Release != 5*units.Microsecond):
				t.Fatalf("first iteration message %+v: want no deps, release 5us", m)
			case c > 0 && (len(m.Deps) != 1 || !tr.Messages[m.Deps[0]].IsSync() || m.Gap != 0):
				t.Fatalf("message %+v: want one dep, the previous barrier", m)
			}
		}
		if local != 3*2*1 {
			t.Errorf("collective %d: %d same-host messages, want nodes x ppn x (ppn-1) = 6", c, local)
		}
		b := tr.Messages[k]
		k++
		if !b.IsSync() || b.Src != 0 || b.SrcRank != -1 || b.CollectiveID != -1 || b.Iteration != iter ||
			b.Gap != 2*units.Microsecond || !reflect.DeepEqual(b.Deps, ids) {
			t.Fatalf("barrier after collective %d = %+v; want a sync on host 0 with gap 2us depending on the iteration's %d messages", c, b, len(ids))
		}
	}
	// 2 edges per data message (its barrier, its dependence on the last
	// one) minus the first iteration's.
	if got, want := countDeps(tr), 2*len(sizes)*iters*p*(p-1)-p*(p-1); got != want {
		t.Errorf("%d dependency edges, want %d", got, want)
	}
}

// TestOSUAlltoallDependencyRule is the rule, checked on the
// generated trace: every message of iteration i+1 transitively depends on
// every message of iteration i (across sizes too), so none can be
// released before iteration i has completed everywhere.
func TestOSUAlltoallDependencyRule(t *testing.T) {
	for _, spec := range []string{
		"osu-alltoall:nodes=2,ppn=3,sizes=8;64,warmup=2,iters=2",
		"osu-alltoall:nodes=4,ppn=1,sizes=1..2,map=cyclic,qp=message",
	} {
		tr := mustParse(t, spec, 1)
		c := ancestors(t, tr)
		coll := byCollective(tr)
		for id := int64(1); id < int64(len(coll)); id++ {
			for _, i := range coll[id] {
				for _, j := range coll[id-1] {
					if !c.waitsFor(i, j) {
						t.Fatalf("%s: message %d (collective %d) does not wait for message %d (collective %d)",
							spec, tr.Messages[i].ID, id, tr.Messages[j].ID, id-1)
					}
				}
			}
		}
		// ... and nothing within an iteration waits for anything.
		for _, i := range coll[0] {
			if len(tr.Messages[i].Deps) != 0 {
				t.Errorf("%s: first iteration message %d has deps", spec, tr.Messages[i].ID)
			}
		}
	}
}

func TestOSUAlltoallPlacementAndQP(t *testing.T) {
	tr := mustParse(t, "osu-alltoall:nodes=2,ppn=3,map=cyclic,sizes=1,iters=1,warmup=0,qp=message", 1)
	if !reflect.DeepEqual(tr.Ranks, []int32{0, 1, 0, 1, 0, 1}) {
		t.Errorf("cyclic ranks %v", tr.Ranks)
	}
	for _, m := range tr.Messages {
		if m.FlowID != trace.NoFlow {
			t.Fatalf("qp=message: message %d on flow %d", m.ID, m.FlowID)
		}
	}
	// The default is the Dolce-RC testbed with 16 processes per node.
	plan, err := gen.OSUPlan("osu-alltoall")
	if err != nil {
		t.Fatal(err)
	}
	if len(plan) != 21*6 || plan[0].Bytes != 1 || plan[len(plan)-1].Bytes != 1<<20 || !plan[0].Warmup || plan[1].Warmup {
		t.Errorf("default plan: %d iterations, first %+v, last %+v", len(plan), plan[0], plan[len(plan)-1])
	}
}

func TestOSUPlanMatchesTrace(t *testing.T) {
	const spec = "osu-alltoall:nodes=2,ppn=2,sizes=3..24,warmup=1,iters=2"
	tr := mustParse(t, spec, 1)
	plan, err := gen.OSUPlan(spec)
	if err != nil {
		t.Fatal(err)
	}
	coll := byCollective(tr)
	if len(plan) != len(coll) || len(plan) != 4*3 {
		t.Fatalf("plan has %d iterations, trace %d collectives, want 12 (sizes 3, 6, 12, 24 as OSU doubles)", len(plan), len(coll))
	}
	for _, c := range plan {
		for _, i := range coll[c.CollectiveID] {
			if m := tr.Messages[i]; m.Bytes != c.Bytes || m.Iteration != c.Iteration {
				t.Fatalf("plan %+v, but message %+v", c, m)
			}
		}
		if c.Warmup != (c.Iteration < 1) {
			t.Errorf("plan %+v: warm-up is the first iteration only", c)
		}
	}
	for _, bad := range []string{"incast:n=2", "osu-alltoall:nodes=x"} {
		if _, err := gen.OSUPlan(bad); err == nil {
			t.Errorf("OSUPlan(%q) accepted", bad)
		}
	}
}

func TestOSULatency(t *testing.T) {
	plan, err := gen.OSUPlan("osu-alltoall:sizes=1;8,warmup=1,iters=2")
	if err != nil {
		t.Fatal(err)
	}
	us := units.Microsecond
	// Rows: collective, release, finish (ns); message 9 is outside.
	ids := []int64{0, 0, 1, 1, 2, 3, -1, 4, 5, 5}
	rel := []units.Time{0, 0, 100 * us, 101 * us, 200 * us, 300 * us, 0, 400 * us, 500 * us, 500 * us}
	fin := []units.Time{90 * us, 95 * us, 110 * us, 120 * us, 230 * us, 340 * us, -1, 450 * us, 560 * us, 570 * us}
	spans := gen.CollectiveSpans(ids, rel, fin)
	if s := spans[1]; s.Start != 100*us || s.End != 120*us {
		t.Errorf("span of collective 1 = %+v", s)
	}
	got, err := gen.OSULatency(plan, spans)
	if err != nil {
		t.Fatal(err)
	}
	// Size 1: iterations 1 and 2 (collectives 1, 2) took 20us and 30us;
	// size 8: collectives 4, 5 took 50us and 70us. Warm-ups are skipped.
	want := []gen.OSUPoint{{Bytes: 1, AvgLatency: 25 * us, Iterations: 2}, {Bytes: 8, AvgLatency: 60 * us, Iterations: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OSULatency = %+v, want %+v", got, want)
	}
	// An unfinished message in a timed iteration is an error.
	fin[9] = -1
	if _, err := gen.OSULatency(plan, gen.CollectiveSpans(ids, rel, fin)); err == nil ||
		err.Error() != "collective 5 (size 8 B, iteration 2) did not finish" {
		t.Errorf("unfinished: %v", err)
	}
	delete(spans, 2)
	if _, err := gen.OSULatency(plan, spans); err == nil {
		t.Error("a missing span was accepted")
	}
}

func TestReadOSUReport(t *testing.T) {
	in := `
# OSU MPI All-to-All Personalized Exchange Latency Test v5.8
# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations
1                       1.50              1.20              1.90        1000
16384                 250.25            240.00            260.00         100
`
	rep, err := gen.ReadOSUReport(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &gen.OSUReport{Title: "OSU MPI All-to-All Personalized Exchange Latency Test v5.8", Points: []gen.OSUPoint{
		{Bytes: 1, AvgLatency: 1500 * units.Nanosecond, Iterations: 1000},
		{Bytes: 16384, AvgLatency: 250250 * units.Nanosecond, Iterations: 100},
	}}
	if !reflect.DeepEqual(rep, want) {
		t.Errorf("got %+v\nwant %+v", rep, want)
	}
	for _, tc := range []struct{ in, want string }{
		{"# t\n1 2.0\n", `line 2: data before the column line "# Size  Avg Latency(us)"`},
		{"# Size  Bandwidth(MB/s)\n", `line 1: columns "Size  Bandwidth(MB/s)", want Size then Avg Latency(us)`},
		{"# Size  Avg Latency(us)\nx 2.0\n", `line 2: size "x" is not a byte count`},
		{"# Size  Avg Latency(us)\n1 -2\n", `line 2: latency "-2" is not a time in microseconds`},
		{"# Size  Avg Latency(us)\n1\n", `line 2: "1": want a size and an average latency`},
		{"# Size  Avg Latency(us)  Iterations\n1 2.0\n", `line 2: "1 2.0": want a size and an average latency`},
		{"# Size  Avg Latency(us)\n", "no data lines (want lines of size and average latency)"},
	} {
		if _, err := gen.ReadOSUReport(strings.NewReader(tc.in)); err == nil || err.Error() != tc.want {
			t.Errorf("ReadOSUReport(%q) = %v\nwant %s", tc.in, err, tc.want)
		}
	}
}

// sharedData is ../shared/data beside the project checkout, seen from this
// package's directory.
const sharedData = "../../../shared/data"

// TestReadOSUReportSharedData reads the measured osu_alltoall outputs (OMB
// 5.6.2, 64 ranks = 2 nodes x 32, InfiniBand) that a replay is compared
// with.
func TestReadOSUReportSharedData(t *testing.T) {
	dir := filepath.Join(sharedData, "mpi", "osu")
	files, _ := filepath.Glob(filepath.Join(dir, "*_osu_alltoall.out"))
	if len(files) == 0 {
		t.Skipf("shared data %s not present (it lives in ../shared/data beside the checkout); skipping", dir)
	}
	first := map[string]units.Time{
		"alaska_ib-gcc9-impi-verbs_osu_alltoall.out":   43840 * units.Nanosecond,
		"alaska_ib-gcc9-openmpi4-ucx_osu_alltoall.out": 32590 * units.Nanosecond,
	}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := gen.ReadOSUReport(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !strings.HasPrefix(rep.Title, "OSU MPI All-to-All Personalized Exchange Latency Test") || len(rep.Points) != 21 {
			t.Fatalf("%s: title %q, %d points; want the all-to-all test, 1 B..1 MiB", path, rep.Title, len(rep.Points))
		}
		for i, pt := range rep.Points {
			if pt.Bytes != 1<<i || pt.AvgLatency <= 0 {
				t.Errorf("%s: point %d = %+v, want size %d", path, i, pt, 1<<i)
			}
		}
		if want := first[filepath.Base(path)]; want != 0 && rep.Points[0].AvgLatency != want {
			t.Errorf("%s: latency at 1 B = %v, want %v", path, rep.Points[0].AvgLatency, want)
		}
		// The shape a replay should show: latency grows with size, by
		// three orders of magnitude from 1 B to 1 MiB.
		if r := float64(rep.Points[20].AvgLatency) / float64(rep.Points[0].AvgLatency); r < 1000 {
			t.Errorf("%s: 1 MiB is only %.0fx the latency of 1 B", path, r)
		}
	}
}

// TestOSUAlltoallPairwise checks algo=pairwise against pairwise exchange
// (Open MPI coll/tuned's pairwise algorithm): P-1 steps; in step k rank r
// sends to (r+k) mod P and, as MPI_Sendrecv, waits for its own step k-1
// send and its step k-1 receive (from (r-(k-1)) mod P). The OSU plan and
// the barriers are those of algo=linear.
func TestOSUAlltoallPairwise(t *testing.T) {
	const spec = "osu-alltoall:nodes=2,ppn=2,sizes=64,warmup=1,iters=1,start=3us,algo=pairwise"
	tr := mustParse(t, spec, 1)
	const p = 4
	if want := 2 * (p*(p-1) + 1); len(tr.Messages) != want {
		t.Fatalf("%d messages, want %d", len(tr.Messages), want)
	}
	for it := range 2 {
		base := it * (p*(p-1) + 1)
		send := map[[2]int]int64{} // (step, rank) -> message id
		for k := 1; k < p; k++ {
			for r := range p {
				m := tr.Messages[base+(k-1)*p+r]
				if int(m.SrcRank) != r || int(m.DstRank) != (r+k)%p || m.Bytes != 64 || m.CollectiveID != int64(it) {
					t.Fatalf("iteration %d step %d rank %d: message %+v, want %d -> %d", it, k, r, m, r, (r+k)%p)
				}
				send[[2]int{k, r}] = m.ID
				var want []int64
				switch {
				case k > 1:
					want = []int64{send[[2]int{k - 1, (r - (k - 1) + p) % p}], send[[2]int{k - 1, r}]}
				case it > 0:
					want = []int64{tr.Messages[base-1].ID} // the previous barrier
				}
				if !reflect.DeepEqual(m.Deps, want) && !(len(want) == 0 && len(m.Deps) == 0) {
					t.Fatalf("iteration %d step %d rank %d: deps %v, want %v", it, k, r, m.Deps, want)
				}
				if it == 0 && k == 1 && m.Release != 3*units.Microsecond {
					t.Errorf("first step released at %v, want 3us", m.Release)
				}
			}
		}
		if b := tr.Messages[base+p*(p-1)]; !b.IsSync() {
			t.Fatalf("iteration %d does not end with a barrier: %+v", it, b)
		}
	}
	plan, err := gen.OSUPlan(spec)
	if err != nil || len(plan) != 2 || !plan[0].Warmup || plan[1].Warmup {
		t.Fatalf("OSUPlan = %+v, %v", plan, err)
	}
	if _, err := gen.Parse("osu-alltoall:algo=ring", 1); err == nil || !strings.Contains(err.Error(), "algo") {
		t.Errorf("algo=ring: %v, want an error naming algo", err)
	}
}
