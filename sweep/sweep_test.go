package sweep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
)

func mustSpec(t *testing.T, yaml string) *Spec {
	t.Helper()
	sp, err := ParseSpec("sweep.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func dirs(t *testing.T, sp *Spec) []string {
	t.Helper()
	pts, err := sp.Points()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range pts {
		out = append(out, p.Dir)
	}
	return out
}

// The grid product, first axis slowest; a zip group moves together.
func TestExpandGridAndZip(t *testing.T) {
	sp := mustSpec(t, `
workload: incast:n=4,size=1MB
axes:
  cca: [dcqcn, hpcc]
  workload.load: [0.3, 0.5]
  max_time: [1ms, 2ms]
  seed: 1..2
zip:
  - [workload.load, max_time]
`)
	want := []string{
		"cca=dcqcn/load=0.3/max_time=1ms/seed=1", "cca=dcqcn/load=0.3/max_time=1ms/seed=2",
		"cca=dcqcn/load=0.5/max_time=2ms/seed=1", "cca=dcqcn/load=0.5/max_time=2ms/seed=2",
		"cca=hpcc/load=0.3/max_time=1ms/seed=1", "cca=hpcc/load=0.3/max_time=1ms/seed=2",
		"cca=hpcc/load=0.5/max_time=2ms/seed=1", "cca=hpcc/load=0.5/max_time=2ms/seed=2",
	}
	if got := dirs(t, sp); !reflect.DeepEqual(got, want) {
		t.Fatalf("points:\n%v\nwant\n%v", got, want)
	}
	pts, _ := sp.Points()
	f := pts[6].file
	if f.CCA != "hpcc" || f.Workload != "incast:n=4,size=1MB,load=0.5" || f.MaxTime != "2ms" || *f.Seed != 1 {
		t.Errorf("point 6 configuration: %+v", f)
	}
}

// One algorithm twice with two parameter sets: a value repeats on a zipped
// axis, each tuple once.
func TestZipRepeatedValues(t *testing.T) {
	sp := mustSpec(t, "workload: incast:n=2,size=1KB\naxes:\n  cca: [dcqcn, dcqcn, hpcc]\n  cca_params.ai_rate: [5Mbps, 40Mbps, ~]\nzip: [[cca, cca_params.ai_rate]]\n")
	want := []string{"cca=dcqcn/ai_rate=5Mbps", "cca=dcqcn/ai_rate=40Mbps", "cca=hpcc/ai_rate=none"}
	if got := dirs(t, sp); !reflect.DeepEqual(got, want) {
		t.Errorf("points %v, want %v", got, want)
	}
	// The same on the command line, ~ for "not set".
	fl, err := FromFlags(Flags{Workload: "incast:n=2,size=1KB", Axes: []string{"cca=dcqcn,dcqcn,hpcc", "cca_params.ai_rate=5Mbps,40Mbps,~"}, Zip: []string{"cca,cca_params.ai_rate"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := dirs(t, fl); !reflect.DeepEqual(got, want) {
		t.Errorf("flags: points %v, want %v", got, want)
	}
	pts, _ := fl.Points()
	if _, set := pts[2].file.CCAParams["ai_rate"]; set {
		t.Errorf("~ on the command line must leave the key out: %v", pts[2].file.CCAParams)
	}
}

// Values set sections, spec parameters and cca_params; ~ leaves a key out;
// {from, to, step} prints decimals as written.
func TestApplyValues(t *testing.T) {
	sp := mustSpec(t, `
workload: incast:n=4,size=1MB
topology: star:hosts=8,rate=100Gbps
cca_params: {ai_rate: 5Mbps}
axes:
  switch.ecn.kmin: [5KB]
  cca_params.ai_rate: [~, 40Mbps]
  topology.rate: [25Gbps]
  workload.size: {from: 0.1, to: 0.3, step: 0.1, unit: MB}
`)
	pts, err := sp.Points()
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 6 {
		t.Fatalf("%d points, want 6", len(pts))
	}
	var sizes []string
	for _, p := range pts[:3] {
		sizes = append(sizes, p.file.Workload)
	}
	want := []string{"incast:n=4,size=0.1MB", "incast:n=4,size=0.2MB", "incast:n=4,size=0.3MB"}
	if !reflect.DeepEqual(sizes, want) {
		t.Errorf("sizes %v, want %v", sizes, want)
	}
	if _, ok := pts[0].file.CCAParams["ai_rate"]; ok {
		t.Errorf("~ should leave ai_rate out: %v", pts[0].file.CCAParams)
	}
	if pts[3].file.CCAParams["ai_rate"] != "40Mbps" || pts[3].file.Switch.ECN.Kmin != "5KB" || pts[3].file.Topology != "star:hosts=8,rate=25Gbps" {
		t.Errorf("point 3: %+v %+v %s", pts[3].file.CCAParams, pts[3].file.Switch.ECN, pts[3].file.Topology)
	}
	if pts[0].Dir != "kmin=5KB/ai_rate=none/rate=25Gbps/size=0.1MB" {
		t.Errorf("dir %s", pts[0].Dir)
	}
}

// Bad specifications name the file, the line and the key.
func TestSpecErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"bogus: 1\n", `sweep.yaml:1: unknown key "bogus" in the top level`},
		{"axes:\n  switch.bufer: [1MB]\n", `sweep.yaml:2: axis switch.bufer: key "switch.bufer": unknown key "bufer" in section switch`},
		{"axes:\n  cca: []\n", "axis cca has no values"},
		{"axes:\n  cca: [a, a]\n", "value a listed twice"},
		{"axes:\n  cca: [a, a]\n  seed: [1, 1]\nzip: [[cca, seed]]\n", "zip: values (a, 1) listed twice"},
		{"axes:\n  seed: 5..1\n", "want A..B with integers A <= B"},
		{"axes:\n  a.b: [1]\n", `unknown key "a"`},
		{"axes:\n  cca: [a, b]\n  seed: [1]\nzip: [[cca, seed]]\n", "different numbers of values"},
		{"axes:\n  switch: [1]\n", "is a section"},
		{"kind: train\n", `kind "train": want run, dataset or estimate`},
		{"axes:\n  out: [a]\n", "each point's folder is made by the sweep"},
	} {
		_, err := ParseSpec("sweep.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.yaml, err, c.want)
		}
	}
}

// Flags: braces in a spec's parameters and --cca-param are axes, --cca
// lists and --seeds ranges too, in the documented order.
func TestFromFlags(t *testing.T) {
	sp, err := FromFlags(Flags{
		CCA: "dcqcn,hpcc", Workload: "cdf:dist=websearch,load={0.3,0.5},n=16", Topology: "star:hosts={16,32}",
		CCAParams: []string{"ai_rate={5Mbps,40Mbps}", "g=0.0625"}, Axes: []string{"switch.buffer=16MB,32MB"}, Seeds: "1..3",
	})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, a := range sp.Axes {
		keys = append(keys, a.Key)
	}
	want := []string{"cca", "workload.load", "topology.hosts", "cca_params.ai_rate", "switch.buffer", "seed"}
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("axes %v, want %v", keys, want)
	}
	pts, err := sp.Points()
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2*2*2*2*2*3 {
		t.Fatalf("%d points", len(pts))
	}
	last := pts[len(pts)-1].file
	if last.Workload != "cdf:dist=websearch,load=0.5,n=16" || last.Topology != "star:hosts=32" || last.CCAParams["g"] != "0.0625" || last.Switch.Buffer != "32MB" {
		t.Errorf("last point %+v", last)
	}
	// A spec's text written back reads back to the same points.
	y, err := sp.YAML()
	if err != nil {
		t.Fatal(err)
	}
	sp2, err := ParseSpec("back", y)
	if err != nil {
		t.Fatalf("%v\n%s", err, y)
	}
	if !reflect.DeepEqual(dirs(t, sp), dirs(t, sp2)) {
		t.Errorf("YAML round trip changed the points:\n%s", y)
	}
	for _, bad := range []Flags{
		{Workload: "incast:n={4,8"},
		{Workload: "incast:n=4", Trace: "x.csv"},
		{CCAParams: []string{"noequals"}},
		{Axes: []string{"switch.nope=1,2"}},
		{Seeds: "3..1"},
		{Workload: "incast:n={4,8}", Zip: []string{"n,seed"}},
	} {
		if _, err := FromFlags(bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// A point's hash changes with its configuration and with the contents of
// the files it reads, and with nothing else.
func TestPlanHashes(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.csv")
	os.WriteFile(trace, []byte("a"), 0o644)
	mk := func(extra string) []Point {
		pl, err := NewPlan(mustSpec(t, "trace: "+trace+"\n"+extra+"axes:\n  cca: [dcqcn, hpcc]\n"))
		if err != nil {
			t.Fatal(err)
		}
		return pl.Points
	}
	a, b := mk(""), mk("")
	if a[0].Hash != b[0].Hash || a[0].Hash == a[1].Hash {
		t.Fatal("hashes must be stable and differ between points")
	}
	if c := mk("seed: 2\n"); c[0].Hash == a[0].Hash {
		t.Error("a changed base key must change the hash")
	}
	os.WriteFile(trace, []byte("b"), 0o644)
	if c := mk(""); c[0].Hash == a[0].Hash {
		t.Error("a changed trace file must change the hash")
	}
}

// fakeExec writes a complete run folder without replaying; it fails the
// points whose cca is "bad" and counts its calls.
func fakeExec(calls *atomic.Int64, block chan struct{}) Exec {
	return func(ctx context.Context, sp *Spec, cfg *runconfig.File, name, dir string) error {
		calls.Add(1)
		if cfg.CCA == "bad" {
			return errors.New("unknown congestion control \"bad\"")
		}
		if block != nil {
			select {
			case <-block:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return runfolder.Write(dir, &runfolder.Manifest{CCA: cfg.CCA, Seed: *cfg.Seed, Metrics: metrics.Summary{Flows: 3, SlowdownP99: 1.5}.Encode()})
	}
}

// Resume: the same plan again runs nothing; a failed point is retried; a
// new axis value runs only the new points.
func TestRunLocalResume(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sw")
	plan := func(ccas string) *Plan {
		pl, err := NewPlan(mustSpec(t, "workload: incast:n=2,size=1KB\naxes:\n  cca: ["+ccas+"]\n  seed: 1..3\n"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pl.Prepare(root); err != nil {
			t.Fatal(err)
		}
		return pl
	}
	var calls atomic.Int64
	pl := plan("dcqcn, bad")
	c, err := pl.RunLocal(context.Background(), root, 2, fakeExec(&calls, nil), nil)
	if err != nil || c.Done != 3 || c.Failed != 3 || calls.Load() != 6 {
		t.Fatalf("first run: %+v %v calls %d", c, err, calls.Load())
	}
	states, _ := States(root, pl.Points)
	if s := states[3]; s.State != Failed || !strings.Contains(s.Error, `"bad"`) {
		t.Fatalf("state of a failed point: %+v", s)
	}
	if _, err := os.Stat(filepath.Join(root, "cca=bad")); !os.IsNotExist(err) {
		t.Errorf("a failed point left its partition folder: %v", err)
	}
	calls.Store(0)
	c, _ = pl.RunLocal(context.Background(), root, 2, fakeExec(&calls, nil), nil)
	if calls.Load() != 3 || c.Skipped != 3 {
		t.Fatalf("resume ran %d points (skipped %d), want the 3 failed ones", calls.Load(), c.Skipped)
	}
	calls.Store(0)
	pl = plan("dcqcn, hpcc")
	c, _ = pl.RunLocal(context.Background(), root, 2, fakeExec(&calls, nil), nil)
	if calls.Load() != 3 || c.Done != 6 {
		t.Fatalf("changed spec ran %d points, want the 3 new ones; %+v", calls.Load(), c)
	}
	_, _, tab, err := Collect(root)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Rows != 6 || tab.Column("cca").Kind != String || tab.Column("seed").Kind != Int64 || tab.Column("slowdown_p99").Values[5] != 1.5 {
		t.Errorf("table: rows %d, cca %v, seed %v", tab.Rows, tab.Column("cca").Kind, tab.Column("seed").Kind)
	}
	if err := tab.WriteParquet(filepath.Join(root, TableFile)); err != nil {
		t.Fatal(err)
	}
}

// A cancelled sweep leaves no folder for the points that were running,
// and no running marker.
func TestRunLocalCancel(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sw")
	pl, err := NewPlan(mustSpec(t, "workload: incast:n=2,size=1KB\naxes:\n  seed: 1..4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pl.Prepare(root); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	block := make(chan struct{})
	started := make(chan struct{}, 4)
	exec := func(ctx context.Context, sp *Spec, cfg *runconfig.File, name, dir string) error {
		started <- struct{}{}
		return fakeExec(&calls, block)(ctx, sp, cfg, name, dir)
	}
	go func() { <-started; <-started; cancel() }()
	c, err := pl.RunLocal(ctx, root, 2, exec, nil)
	if !errors.Is(err, context.Canceled) || c.Done != 0 || c.Failed != 0 {
		t.Fatalf("cancelled: %+v %v", c, err)
	}
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "seed=") || strings.HasPrefix(e.Name(), ".seed") {
			t.Errorf("left %s", e.Name())
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(root, StateDir, "running")); len(ents) != 0 {
		t.Errorf("left running markers: %v", ents)
	}
}

func TestTaskPoints(t *testing.T) {
	list := filepath.Join(t.TempDir(), "l")
	os.WriteFile(list, []byte("3\n5\n8\n9\n12\n"), 0o644)
	for _, c := range []struct {
		task, chunk int
		want        []int
	}{{0, 2, []int{3, 5}}, {2, 2, []int{12}}, {4, 1, []int{12}}} {
		got, err := TaskPoints(list, c.task, c.chunk)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("task %d chunk %d: %v %v", c.task, c.chunk, got, err)
		}
	}
	if _, err := TaskPoints(list, 3, 2); err == nil {
		t.Error("a task past the list must fail")
	}
}

// Prepare refuses a folder that is not a sweep.
func TestPrepareRefuses(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("x"), 0o644)
	pl, _ := NewPlan(mustSpec(t, "workload: incast:n=2,size=1KB\n"))
	if _, err := pl.Prepare(root); !errors.Is(err, runfolder.ErrRefused) {
		t.Fatalf("got %v, want a refusal", err)
	}
}
