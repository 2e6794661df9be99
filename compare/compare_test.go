package compare

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

func TestParseSeeds(t *testing.T) {
	good := map[string][]uint64{
		"7":     {7},
		"1..3":  {1, 2, 3},
		" 2..2": {2},
		"1,4,9": {1, 4, 9},
		"0":     {0},
	}
	for in, want := range good {
		got, err := ParseSeeds(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseSeeds(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"5..1":     "invalid seed range",
		"1..10001": "at most 10000 seeds",
		"x":        `invalid seed "x"`,
		"1,2,1":    "seed 1 listed twice",
		"-1":       "invalid seed",
	} {
		if _, err := ParseSeeds(in); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseSeeds(%q): error %v, want it to say %q", in, err, msg)
		}
	}
	if got, err := ParseSeeds("1..10000"); err != nil || len(got) != 10000 {
		t.Errorf("10000 seeds: %d, %v", len(got), err)
	}
}

func TestPartName(t *testing.T) {
	if got := PartName("dcqcn:hpcc-run"); got != "dcqcn-hpcc-run" {
		t.Errorf("PartName = %q", got)
	}
}

// TestSameNetwork resolves --same-network's ALGO as typed, as resolved or
// by an algorithm name only one compared spec has; the others are usage
// errors (exit 2).
func TestSameNetwork(t *testing.T) {
	typed := []string{"dcqcn", "dcqcn:hpcc", "dolce"}
	specs := []cca.Spec{{Name: "dcqcn:default"}, {Name: "dcqcn:hpcc"}, {Name: "dolce:default"}}
	for algo, want := range map[string]int{"": 0, "dcqcn": 0, "dcqcn:hpcc": 1, "dolce:default": 2, "dolce": 2} {
		if got, err := SameNetwork(algo, typed, specs); err != nil || got != want {
			t.Errorf("SameNetwork(%q) = %d, %v; want %d", algo, got, err, want)
		}
	}
	for algo, msg := range map[string]string{"hpcc": "not among the compared", "swift": "not among"} {
		_, err := SameNetwork(algo, typed, specs)
		var ue *clierr.UsageError
		if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), msg) {
			t.Errorf("SameNetwork(%q): %v, want a usage error saying %q", algo, err, msg)
		}
	}
	two := []cca.Spec{{Name: "dcqcn:a"}, {Name: "dcqcn:b"}}
	if _, err := SameNetwork("dcqcn", []string{"dcqcn:a", "dcqcn:b"}, two); err == nil || !strings.Contains(err.Error(), "more than one algorithm is dcqcn") {
		t.Errorf("ambiguous name: %v", err)
	}
}

// TestHoldNetwork: ECN and CNP interval come from the reference; INT is on
// when any compared algorithm needs it (or the flow counter, which
// implies INT).
func TestHoldNetwork(t *testing.T) {
	ref := cca.Spec{Name: "ref", ECN: &cca.ECNHint{}, CNPInterval: 50 * units.Microsecond}
	fd := cca.Spec{Name: "fdcc", NeedsFlowCounter: true}
	got := HoldNetwork(cca.Spec{Name: "dcqcn", CNPInterval: 4 * units.Microsecond}, ref, []cca.Spec{ref, fd})
	if got.Name != "dcqcn" || got.ECN != ref.ECN || got.CNPInterval != ref.CNPInterval || !got.NeedsINT || !got.NeedsFlowCounter {
		t.Errorf("held %+v", got)
	}
	if got := HoldNetwork(cca.Spec{Name: "a"}, ref, []cca.Spec{ref}); got.NeedsINT || got.NeedsFlowCounter {
		t.Errorf("INT on with no algorithm needing it: %+v", got)
	}
}

// TestNetworkDiffs lists a setting only when the algorithms' values
// differ, "-" for one a run does not have.
func TestNetworkDiffs(t *testing.T) {
	var a replay.Config
	b := a
	b.Switch.ECN.Enabled = true
	if d := NetworkDiffs([]string{"x", "y"}, []replay.Config{a, a}); len(d) != 0 {
		t.Errorf("same configurations differ in %+v", d)
	}
	d := NetworkDiffs([]string{"x", "y"}, []replay.Config{a, b})
	got := map[string][2]string{}
	for _, s := range d {
		got[s.Setting] = [2]string{s.Values["x"], s.Values["y"]}
	}
	if got["switch.ecn.enabled"] != [2]string{"false", "true"} || got["switch.ecn.kmin"][0] != "-" || got["switch.ecn.kmin"][1] == "-" {
		t.Fatalf("ECN on in one run: diffs %v", got)
	}
	if _, ok := got["nic.cnp_interval"]; ok {
		t.Errorf("an equal setting is listed: %v", got)
	}
	var buf bytes.Buffer
	WriteNetworkDiffs(&buf, []string{"x", "y"}, []string{"X", "Y"}, d, "")
	if !strings.Contains(buf.String(), d[0].Setting) || !strings.Contains(buf.String(), "X") {
		t.Errorf("table:\n%s", buf.String())
	}
	buf.Reset()
	WriteNetworkDiffs(&buf, nil, nil, nil, "x")
	if buf.String() != "network: the same for every algorithm, x's (--same-network)\n\n" {
		t.Errorf("held, no differences: %q", buf.String())
	}
}

// TestTableMeanMinMax: a cell is the mean over seeds with [min, max] when
// there is more than one seed; the bucket table is the mean of each
// bucket's slowdown p99.
func TestTableMeanMinMax(t *testing.T) {
	run := func(p99 int64, bucket float64) *Run {
		return &Run{Sum: metrics.Summary{FCTP99Ns: p99, Buckets: []metrics.Bucket{{SizeMinBytes: 1, SizeMaxBytes: 100, SlowdownP99: bucket}}}}
	}
	c := &Comparison{Specs: []cca.Spec{{Name: "a"}, {Name: "b"}}, Seeds: []uint64{1, 2},
		Runs: []*Run{run(1000, 2), run(3000, 4), run(5000, 1), run(5000, 1)}}
	var buf bytes.Buffer
	c.WriteTable(&buf)
	out := buf.String()
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "FCT p99") {
			line = l
		}
	}
	wantA := metrics.Format(2000, metrics.UnitNs) + " [" + metrics.Format(1000, metrics.UnitNs) + ", " + metrics.Format(3000, metrics.UnitNs) + "]"
	if !strings.Contains(line, wantA) {
		t.Errorf("FCT p99 row %q lacks %q", line, wantA)
	}
	if !strings.Contains(out, "1-100") || !strings.Contains(out, metrics.Format(3, metrics.UnitX)) {
		t.Errorf("bucket table lacks 1-100 with mean 3:\n%s", out)
	}
	rows := Rows(c.Runs)
	if len(rows) != 8 || rows[0].Bucket != -1 || rows[1].Bucket != 0 || rows[1].SlowdownP99 != 2 || rows[0].FCTP99Ns != 1000 {
		t.Errorf("rows: %d, first %+v", len(rows), rows[:2])
	}
}

// Execute keeps, of each finished run, only its metrics and the digest of
// its message rows the tables read (the size table, the OSU report), and
// the tables are those of all the rows (issue 33, finding 4).
func TestExecuteKeepsDigest(t *testing.T) {
	st, err := runconfig.Resolve(runconfig.Request{Workload: "incast:n=4,size=20KB", CCA: "dcqcn,hpcc", CCAList: true, Packets: "none"}, all.Registry())
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(st, []uint64{1, 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := c.Execute(context.Background(), dir, 2, nil); err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Runs {
		msgs, err := arrowread.ReadMessages(filepath.Join(dir, r.Rel, runfolder.MessagesFile))
		if err != nil {
			t.Fatal(err)
		}
		if want := metrics.BySize(msgs); r.Digest.Messages != 4 || !reflect.DeepEqual(r.Digest.BySize, want) {
			t.Errorf("%s seed %d: digest of %d messages, size table %+v; want 4 and %+v (%s's)", r.Part, r.Seed, r.Digest.Messages, r.Digest.BySize, want, runfolder.MessagesFile)
		}
		if r.Digest.OSU != nil || r.Digest.OSUErr != nil {
			t.Errorf("%s seed %d: OSU report %v, %v of an incast", r.Part, r.Seed, r.Digest.OSU, r.Digest.OSUErr)
		}
		if r.Sum.Flows != 4 {
			t.Errorf("%s seed %d: summary of %d flows", r.Part, r.Seed, r.Sum.Flows)
		}
	}
	var b bytes.Buffer
	c.WriteSizeTable(&b)
	if !strings.Contains(b.String(), "20000") {
		t.Errorf("size table:\n%s", b.String())
	}
}

// A Run holds no row slice and no replay result (issue 33, finding 4: a
// comparison kept every finished run's message rows, about 100 bytes a
// message, until the last run finished): nothing reachable from its type
// can hold rows.
func TestRunHoldsNoRows(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(typ reflect.Type, path string)
	walk = func(typ reflect.Type, path string) {
		if seen[typ] {
			return
		}
		seen[typ] = true
		if typ == reflect.TypeOf(replay.Result{}) {
			t.Errorf("%s is a replay.Result", path)
		}
		switch typ.Kind() {
		case reflect.Slice, reflect.Array:
			if e := typ.Elem(); e.Kind() == reflect.Struct && strings.Contains(e.PkgPath(), "/schema/") && strings.HasSuffix(e.Name(), "Row") {
				t.Errorf("%s holds %s rows", path, e)
			}
			walk(typ.Elem(), path+"[]")
		case reflect.Pointer:
			walk(typ.Elem(), path)
		case reflect.Map:
			walk(typ.Key(), path+"[key]")
			walk(typ.Elem(), path+"[]")
		case reflect.Struct:
			for i := 0; i < typ.NumField(); i++ {
				walk(typ.Field(i).Type, path+"."+typ.Field(i).Name)
			}
		}
	}
	walk(reflect.TypeOf(Run{}), "Run")
}

// The heap a comparison's runs hold once they are done does not grow with
// their messages (issue 33, finding 4): 8 times the messages, and the
// runs' retained heap grows by far less than the 100-odd bytes a message
// row takes (under 16 bytes a message).
func TestFinishedRunsHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 2 x 4,608 flows")
	}
	retained := func(flows int) (int64, int) {
		st, err := runconfig.Resolve(runconfig.Request{Workload: fmt.Sprintf("incast:n=8,per_host=%d,size=1KB", flows/8), CCA: "dcqcn,hpcc",
			CCAList: true, Packets: "none"}, all.Registry())
		if err != nil {
			t.Fatal(err)
		}
		c, err := New(st, []uint64{1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Execute(context.Background(), t.TempDir(), 1, nil); err != nil {
			t.Fatal(err)
		}
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		with := m.HeapAlloc
		n := len(c.Runs)
		for _, r := range c.Runs {
			if r.Digest.Messages != flows {
				t.Fatalf("%s: %d messages, want %d", r.Part, r.Digest.Messages, flows)
			}
		}
		c.Runs = nil
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		runtime.KeepAlive(c)
		return int64(with) - int64(m.HeapAlloc), n
	}
	small, _ := retained(512)
	large, runs := retained(4096)
	t.Logf("finished runs retain %d bytes at 512 messages each, %d at 4,096", small, large)
	if limit := int64(16 * (4096 - 512) * runs); large-small > limit {
		t.Errorf("finished runs hold %d bytes at 512 messages each, %d at 4,096: grew %d, want under %d (16 bytes a message)", small, large, large-small, limit)
	}
}

// The digest of an osu-alltoall run carries the benchmark's report, the
// same as one computed from the run's messages.parquet read back (Arrow)
// through gen.CollectiveSpans; a run stopped before its collectives end
// carries why there is no report instead.
func TestDigestOSUReport(t *testing.T) {
	const wl = "osu-alltoall:nodes=4,ppn=1,sizes=256;4KiB,warmup=1,iters=2"
	for _, maxTime := range []string{"", "1us"} {
		st, err := runconfig.Resolve(runconfig.Request{Workload: wl, CCA: "dcqcn,hpcc", CCAList: true, Packets: "none", MaxTime: maxTime}, all.Registry())
		if err != nil {
			t.Fatal(err)
		}
		c, err := New(st, []uint64{1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if _, err := c.Execute(context.Background(), dir, 1, nil); err != nil {
			t.Fatal(err)
		}
		plan, err := gen.OSUPlan(wl)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range c.Runs {
			msgs, err := arrowread.ReadMessages(filepath.Join(dir, r.Rel, runfolder.MessagesFile))
			if err != nil {
				t.Fatal(err)
			}
			ids, rel, fin := make([]int64, len(msgs)), make([]units.Time, len(msgs)), make([]units.Time, len(msgs))
			for i, m := range msgs {
				ids[i], rel[i], fin[i] = m.CollectiveID, units.Nanos(m.ReleaseNs), units.Nanos(m.FinishNs)
				if m.FinishNs < 0 {
					fin[i] = -1
				}
			}
			want, wantErr := gen.OSULatency(plan, gen.CollectiveSpans(ids, rel, fin))
			d := r.Digest
			if maxTime == "" && (wantErr != nil || len(want) != 2 || !reflect.DeepEqual(d.OSU, want) || d.OSUErr != nil) {
				t.Errorf("%s: digest's report %v, %v; want %v, %v (of %s)", r.Part, d.OSU, d.OSUErr, want, wantErr, runfolder.MessagesFile)
			}
			if maxTime != "" && (wantErr == nil || d.OSUErr == nil || d.OSUErr.Error() != wantErr.Error() || !strings.Contains(d.OSUErr.Error(), "did not finish")) {
				t.Errorf("%s stopped at %s: digest's error %v, want %v", r.Part, maxTime, d.OSUErr, wantErr)
			}
		}
	}
}
