package gen_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

func mustParse(t *testing.T, spec string, seed int64) *trace.Trace {
	t.Helper()
	tr, err := gen.Parse(spec, seed)
	if err != nil {
		t.Fatalf("Parse(%q): %v", spec, err)
	}
	return tr
}

// checkEach parses spec, checks that the trace has hosts hosts and n
// messages (or stops the test) and that ok holds for every message, and
// returns the trace.
func checkEach(t *testing.T, spec string, hosts, n int, ok func(i int, m trace.Message) bool) *trace.Trace {
	t.Helper()
	tr := mustParse(t, spec, 1)
	if tr.Hosts != hosts || len(tr.Messages) != n {
		t.Fatalf("%q: %d hosts, %d messages; want %d, %d", spec, tr.Hosts, len(tr.Messages), hosts, n)
	}
	for i, m := range tr.Messages {
		if !ok(i, m) {
			t.Errorf("%q: message %d = %+v", spec, i, m)
		}
	}
	return tr
}

// isFlow reports whether m is message i of a trace of single-message
// flows released at 0: from host i to dst, bytes long, on flow i, in no
// collective, iteration or MPI job.
func isFlow(m trace.Message, i int, dst int32, bytes int64) bool {
	return reflect.DeepEqual(m, trace.Message{ID: int64(i), Src: int32(i), Dst: dst, Bytes: bytes, FlowID: int64(i), CollectiveID: -1,
		Iteration: -1, SrcRank: -1, DstRank: -1})
}

func TestIncastDefaults(t *testing.T) {
	for _, spec := range []string{"incast", "incast:", "incast:n=16,size=1MB", " incast : n = 16 "} {
		checkEach(t, spec, 17, 16, func(i int, m trace.Message) bool { return isFlow(m, i, 16, 1_000_000) })
	}
}

func TestIncastDst(t *testing.T) {
	tr := mustParse(t, "incast:n=3,dst=1", 1)
	var srcs []int32
	for _, m := range tr.Messages {
		srcs = append(srcs, m.Src)
		if m.Dst != 1 {
			t.Errorf("dst %d, want 1", m.Dst)
		}
	}
	if tr.Hosts != 4 || !reflect.DeepEqual(srcs, []int32{0, 2, 3}) {
		t.Errorf("hosts %d, senders %v; want 4, [0 2 3]", tr.Hosts, srcs)
	}
	if tr := mustParse(t, "incast:n=2,dst=9", 1); tr.Hosts != 10 || tr.Messages[1].Src != 1 {
		t.Errorf("dst=9: hosts %d, want 10", tr.Hosts)
	}
}

// releases returns the release times, checking they lie in [lo, hi) on
// whole nanoseconds.
func releases(t *testing.T, tr *trace.Trace, lo, hi units.Time) []float64 {
	t.Helper()
	var out []float64
	for _, m := range tr.Messages {
		if m.Release < lo || m.Release >= hi || m.Release%units.Nanosecond != 0 {
			t.Fatalf("message %d released at %v, outside [%v, %v) or not whole ns", m.ID, m.Release, lo, hi)
		}
		out = append(out, float64(m.Release))
	}
	return out
}

func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

func TestIncastUniform(t *testing.T) {
	tr := mustParse(t, "incast:n=4000,start=20us,jitter=1ms", 7)
	start, jitter := 20*units.Microsecond, units.Millisecond
	mean, sd := meanSD(releases(t, tr, start, start+jitter))
	// U[0, J): mean J/2, sd J/sqrt(12); the mean's standard error is
	// about 4.6us here, so 20us is over 4 standard errors.
	if want := float64(start + jitter/2); math.Abs(mean-want) > float64(20*units.Microsecond) {
		t.Errorf("mean release %v, want about %v", units.Time(mean), units.Time(want))
	}
	if want := float64(jitter) / math.Sqrt(12); math.Abs(sd-want)/want > 0.05 {
		t.Errorf("sd %v, want about %v", units.Time(sd), units.Time(want))
	}
}

// TestIncastGaussian is the FDCC thesis incast (Sec. 6.2): flows start
// within 1 ms following a Gaussian distribution.
func TestIncastGaussian(t *testing.T) {
	tr := mustParse(t, "incast:n=4000,size=20MB,start=1ms,jitter=1ms,dist=gaussian", 3)
	start, jitter := units.Millisecond, units.Millisecond
	mean, sd := meanSD(releases(t, tr, start, start+jitter))
	// Mean start+J/2 with a standard error of about 2.6us; sd J/6 (a bit
	// less once truncated at +-3 sd).
	if want := float64(start + jitter/2); math.Abs(mean-want) > float64(10*units.Microsecond) {
		t.Errorf("mean release %v, want about %v", units.Time(mean), units.Time(want))
	}
	if want := float64(jitter) / 6; math.Abs(sd-want)/want > 0.06 {
		t.Errorf("sd %v, want about %v", units.Time(sd), units.Time(want))
	}
	if tr.Messages[0].Bytes != 20_000_000 {
		t.Errorf("size %d, want 20MB", tr.Messages[0].Bytes)
	}
	// A tiny window still keeps every draw inside it.
	releases(t, mustParse(t, "incast:n=500,jitter=3ns,dist=gaussian", 3), 0, 3*units.Nanosecond)
	releases(t, mustParse(t, "incast:n=50,jitter=1ns,dist=gaussian", 3), 0, units.Nanosecond)
}

func TestDeterminism(t *testing.T) {
	for _, spec := range []string{
		"incast:n=64,jitter=1ms", "incast:n=64,jitter=1ms,dist=gaussian",
		"incast:n=8,per_host=4,size_dist=uniform,size=1KB,size_max=1MB",
		"long-short:short=16,jitter=1ms,rounds=3,period=5ms", "long-short:short=16,jitter=1ms,dist=gaussian",
		"all-to-all:hosts=4,jitter=100us",
	} {
		a, b := mustParse(t, spec, 42), mustParse(t, spec, 42)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%q: same seed gave different traces", spec)
		}
		if c := mustParse(t, spec, 43); reflect.DeepEqual(a, c) {
			t.Errorf("%q: seeds 42 and 43 gave the same trace", spec)
		}
	}
}

func TestLongflows(t *testing.T) {
	checkEach(t, "longflows", 5, 4, func(i int, m trace.Message) bool { return isFlow(m, i, 4, 100_000_000) })
	// The FDCC fair-share run: 4 flows join one every 35 ms.
	tr := mustParse(t, "longflows:n=4,size=1GB,start=5us,stagger=35ms,mode=pairs", 1)
	if tr.Hosts != 8 {
		t.Errorf("pairs: %d hosts, want 8", tr.Hosts)
	}
	for i, m := range tr.Messages {
		if m.Src != int32(i) || m.Dst != int32(4+i) || m.Bytes != 1e9 ||
			m.Release != 5*units.Microsecond+units.Time(i)*35*units.Millisecond {
			t.Errorf("pairs: message %d = %+v", i, m)
		}
	}
}

func TestParseErrors(t *testing.T) {
	const (
		known      = "all-to-all, cdf, dnn-burst, fairshare, incast, long-short, longflows, osu-alltoall, vasp"
		incastKeys = "n, per_host, flows, size, size_dist, size_max, sizes, start, jitter, dist, dst"
	)
	for _, tc := range []struct{ spec, want string }{
		{"", "empty generator spec (known generators: " + known + ")"},
		{"permutation:n=4", `unknown generator "permutation" (known: ` + known + `)`},
		{"incast:sz=1MB", `incast: unknown key "sz" (known: ` + incastKeys + `)`},
		{"longflows:dist=uniform", `longflows: unknown key "dist" (known: n, size, start, stagger, mode)`},
		{"incast:n", `incast: "n" is not key=value (keys: ` + incastKeys + `)`},
		{"incast:n=4,", `incast: "" is not key=value (keys: ` + incastKeys + `)`},
		{"incast:n=4,n=5", `incast: key "n" given twice`},
		{"incast:n=0", `incast: n="0": want an integer in 1..1000000`},
		{"incast:n=abc", `incast: n="abc": want an integer in 1..1000000`},
		{"incast:size=big", `incast: size="big": want a size such as 1MB (10^6 bytes), 64KiB or 1000 (bytes)`},
		{"incast:size=-1MB", `incast: size="-1MB": want a size such as 1MB (10^6 bytes), 64KiB or 1000 (bytes)`},
		{"incast:jitter=5", `incast: jitter="5": want a time such as 10us, 1.5ms or 0`},
		{"incast:start=1.5ns", `incast: start="1.5ns": want a whole number of nanoseconds (trace files store integer ns)`},
		{"incast:dist=pareto", `incast: dist="pareto": want one of uniform, gaussian`},
		{"incast:dst=-1", `incast: dst="-1": want an integer in 0..1000000`},
		{"incast:start=600000s,jitter=600000s", `incast: jitter="600000s": the last release time would be beyond the limit of 1e+06 s (11.6 days)`},
		{"longflows:mode=ring", `longflows: mode="ring": want one of incast, pairs`},
		{"longflows:n=10000,stagger=1000000s", `longflows: stagger="1000000s": the last release time would be beyond the limit of 1e+06 s (11.6 days)`},
		{"longflows:stagger=10000000s", `longflows: stagger="10000000s": out of range`},
		// incast extensions
		{"incast:flows=8", `incast: flows="8": not a row of PCC-RL Table 6 (2, 4, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192); give n or per_host too`},
		{"incast:flows=10,n=4", `incast: flows="10": want a multiple of n = 4`},
		{"incast:flows=10,per_host=4", `incast: flows="10": want a multiple of per_host = 4`},
		{"incast:flows=10,n=2,per_host=4", `incast: flows="10": want n x per_host = 8, or leave one of them out`},
		{"incast:size_dist=uniform,size=2MB,size_max=1MB", `incast: size_max="1MB": want at least size = 2000000 bytes`},
		{"incast:size_dist=list,sizes=1KB;;2KB", `incast: sizes="1KB;;2KB": want sizes >= 0 bytes separated by ';', such as 1KB;64KiB;1MB`},
		{"incast:size_dist=zipf", `incast: size_dist="zipf": want one of fixed, uniform, list`},
		{"incast:n=100000,per_host=1000", `incast: the spec makes 100000000 messages, more than the limit of 20000000`},
		// the other kinds
		{"osu-alltoall:nodes=1,ppn=1", `osu-alltoall: ppn="1": the test needs at least 2 ranks (nodes x ppn >= 2)`},
		{"osu-alltoall:sizes=1MiB..1", `osu-alltoall: sizes="1MiB..1": want LO..HI with 1 <= LO <= HI, such as 1..1MiB, or a list such as 1;64;4KiB`},
		{"osu-alltoall:sizes=0;4", `osu-alltoall: sizes="0;4": want sizes >= 1 bytes separated by ';', such as 1KB;64KiB;1MB`},
		{"osu-alltoall:iters=0", `osu-alltoall: iters="0": want an integer in 1..1000000`},
		{"osu-alltoall:map=scatter", `osu-alltoall: map="scatter": want one of block, cyclic`},
		{"osu-alltoall:qp=shared", `osu-alltoall: qp="shared": want one of pair, message`},
		{"osu-alltoall:prio=8", `osu-alltoall: prio="8": want an integer in 0..7`},
		{"osu-alltoall:ppn=40,nodes=64", `osu-alltoall: the spec makes 825431166 messages, more than the limit of 20000000`},
		{"vasp:ffts=0,allreduces=0,bcasts=0", `vasp: ffts="0": an SCF iteration needs at least one collective (ffts, allreduces or bcasts > 0)`},
		{"vasp:fft_gap=1", `vasp: fft_gap="1": want a time such as 10us, 1.5ms or 0`},
		{"dnn-burst:mode=ring,pull=true", `dnn-burst: pull="true": pull applies to mode=ps only`},
		{"dnn-burst:mode=ring,workers=1", `dnn-burst: workers="1": a ring needs at least 2 workers`},
		{"dnn-burst:pull=yes", `dnn-burst: pull="yes": want one of false, true`},
		{"dnn-burst:layers=", `dnn-burst: layers="": want sizes >= 0 bytes separated by ';', such as 1KB;64KiB;1MB`},
		{"all-to-all:self=drop", `all-to-all: self="drop": want one of local, skip`},
		{"long-short:long=0,short=0", `long-short: long="0": want at least one flow (long + short > 0)`},
		{"long-short:rounds=0", `long-short: rounds="0": want an integer in 1..1000000`},
		{"fairshare:mode=ring", `fairshare: mode="ring": want one of incast, pairs`},
	} {
		if _, err := gen.Parse(tc.spec, 1); err == nil || err.Error() != tc.want {
			t.Errorf("Parse(%q) = %v\nwant %s", tc.spec, err, tc.want)
		}
	}
}

func TestUsageListsEveryKey(t *testing.T) {
	// small keeps the defaults of the MPI kinds quick to generate: every
	// key but the one under test is set to a small value.
	small := map[string]string{
		"osu-alltoall": "nodes=2,ppn=2,sizes=1..4",
		"vasp":         "nodes=2,ppn=2,scf=1",
	}
	u := gen.Usage()
	for _, k := range gen.Kinds() {
		if !strings.Contains(u, k.Name+": ") {
			t.Errorf("Usage lacks %s", k.Name)
		}
		for _, key := range k.Keys {
			if !strings.Contains(u, "  "+key.Name+" ") || key.Doc == "" || key.Default == "" {
				t.Errorf("%s: key %s undocumented", k.Name, key.Name)
			}
			// Every default must parse (cdf needs a distribution file,
			// which TestCDFKindThroughParse covers).
			if k.Name == "cdf" {
				continue
			}
			spec := k.Name + ":" + key.Name + "=" + key.Default
			for kv := range strings.SplitSeq(small[k.Name], ",") {
				if kv != "" && !strings.HasPrefix(kv, key.Name+"=") {
					spec += "," + kv
				}
			}
			if _, err := gen.Parse(spec, 1); err != nil && key.Default != "n" {
				t.Errorf("default %s=%s: %v", key.Name, key.Default, err)
			}
		}
	}
	if names := fmt.Sprint(kindNames()); names != "[all-to-all cdf dnn-burst fairshare incast long-short longflows osu-alltoall vasp]" {
		t.Errorf("Kinds() = %s, want them sorted by name", names)
	}
}

func kindNames() []string {
	var out []string
	for _, k := range gen.Kinds() {
		out = append(out, k.Name)
	}
	return out
}

// TestGeneratedTracesWrite writes a trace of every kind in every format
// and reads it back unchanged: ranks, ppn, priorities, iterations,
// same-host messages and sync points included.
func TestGeneratedTracesWrite(t *testing.T) {
	specs := []string{
		"incast:n=8,jitter=1ms,dist=gaussian", "incast:flows=16,size_dist=uniform,size=1,size_max=9",
		"long-short:short=3,jitter=1us", "fairshare", "longflows:mode=pairs", "all-to-all:hosts=3",
		"dnn-burst:workers=3,layers=1;2,iters=2,pull=true,prio=1", "dnn-burst:mode=ring,workers=3,iters=2",
		"osu-alltoall:nodes=2,ppn=2,sizes=1..4,prio=5,gap=1us", "vasp:nodes=2,ppn=2,scf=1,map=cyclic",
	}
	cdfFile := filepath.Join(t.TempDir(), "cdf.txt")
	if err := os.WriteFile(cdfFile, []byte("100 0\n5000 100\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	specs = append(specs, "cdf:dist="+cdfFile+",hosts=4,flows=20")
	for _, k := range gen.Kinds() {
		covered := false
		for _, s := range specs {
			covered = covered || s == k.Name || strings.HasPrefix(s, k.Name+":")
		}
		if !covered {
			t.Errorf("no spec of kind %s", k.Name)
		}
	}
	dir := t.TempDir()
	for _, spec := range specs {
		tr := mustParse(t, spec, 5)
		for _, ext := range []string{".csv", ".jsonl", ".parquet"} {
			path := filepath.Join(dir, "t"+ext)
			if err := trace.WriteFile(path, tr); err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			back, err := trace.ReadFile(path)
			if err != nil || !reflect.DeepEqual(back, tr) {
				t.Errorf("%s: %s round trip: %v", spec, ext, err)
			}
		}
	}
}

func ExampleParse() {
	tr, err := gen.Parse("incast:n=4,size=64KB,jitter=10us,dist=uniform", 1)
	if err != nil {
		panic(err)
	}
	fmt.Println(tr.Hosts, len(tr.Messages), tr.Messages[0].Src, "->", tr.Messages[0].Dst, tr.Messages[0].Bytes)
	// Output: 5 4 0 -> 4 64000
}
