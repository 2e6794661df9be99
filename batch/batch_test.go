package batch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
)

// testPlan is n items cca=C/seed=S; an item whose cca is "bad" fails.
// Each run writes a complete run folder whose numbers depend on the item
// only, counts its calls, and records the order items started in.
type testPlan struct {
	calls   atomic.Int64
	mu      sync.Mutex
	started []int
}

func (tp *testPlan) plan(ccas []string, seeds int, state string) *Plan {
	pl := &Plan{State: state}
	for _, c := range ccas {
		for s := 1; s <= seeds; s++ {
			i := len(pl.Items)
			labels := []Label{{Key: "cca", Value: c}, {Key: "seed", Value: fmt.Sprint(s)}}
			hash := fmt.Sprintf("h-%s-%d", c, s)
			pl.Items = append(pl.Items, Item{
				Dir: fmt.Sprintf("cca=%s/seed=%d", c, s), Labels: labels, Hash: hash,
				Record: map[string]any{"index": i, "hash": hash},
				Run: func(ctx context.Context, dir string) error {
					tp.calls.Add(1)
					tp.mu.Lock()
					tp.started = append(tp.started, i)
					tp.mu.Unlock()
					if c == "bad" {
						return errors.New(`unknown congestion control "bad"`)
					}
					if err := ctx.Err(); err != nil {
						return err
					}
					if err := os.MkdirAll(dir, 0o755); err != nil {
						return err
					}
					return runfolder.Write(dir, &runfolder.Manifest{CCA: c, Seed: uint64(s),
						Metrics: metrics.Summary{Flows: int64(s), SlowdownP99: 1.5 * float64(s)}.Encode()})
				},
			})
		}
	}
	return pl
}

// tree lists every file under root with its bytes (markers aside: they
// name this process).
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	return out
}

// The folders written do not depend on the number of jobs, and with one
// job items start in plan order.
func TestRunSameOutputsForAnyJobs(t *testing.T) {
	var want map[string]string
	for _, jobs := range []int{1, 2, 3, 16} {
		for _, state := range []string{"", ".state"} {
			root := filepath.Join(t.TempDir(), "out")
			tp := &testPlan{}
			pl := tp.plan([]string{"dcqcn", "hpcc", "swift"}, 4, state)
			c, errs, err := Run(context.Background(), root, pl, Options{Jobs: jobs})
			if err != nil || c.Done != 12 || c.Failed != 0 || c.Pending != 0 {
				t.Fatalf("jobs %d state %q: %+v %v", jobs, state, c, err)
			}
			for i, e := range errs {
				if e != nil {
					t.Fatalf("item %d: %v", i, e)
				}
			}
			got := tree(t, root)
			for k := range got {
				if strings.HasPrefix(k, ".state/") {
					t.Errorf("a successful run left a marker %s", k)
				}
				if state == "" && strings.HasSuffix(k, RecordFile) {
					t.Errorf("an untracked plan wrote %s", k)
				}
			}
			if state == "" {
				if want == nil {
					want = got
				} else if !maps(got, want) {
					t.Fatalf("jobs %d: outputs differ from jobs 1", jobs)
				}
			}
			if jobs == 1 && !slices.IsSorted(tp.started) {
				t.Errorf("one job started items in order %v", tp.started)
			}
		}
	}
	if len(want) != 12 {
		t.Fatalf("%d files, want 12 summaries", len(want))
	}
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Failing fast, the first failure stops the plan and is reported; keeping
// going, every other item still runs and only the failed ones have an
// error.
func TestRunKeepGoingAndFailFast(t *testing.T) {
	tp := &testPlan{}
	pl := tp.plan([]string{"dcqcn", "bad", "hpcc"}, 3, "")
	_, errs, err := Run(context.Background(), t.TempDir(), pl, Options{Jobs: 1})
	if err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Fatalf("fail fast: err %v", err)
	}
	if n := tp.calls.Load(); n != 4 {
		t.Errorf("fail fast with one job ran %d items, want 4 (3 good, then the failure)", n)
	}
	for i := 4; i < 9; i++ {
		if !errors.Is(errs[i], context.Canceled) {
			t.Errorf("item %d after the failure: %v, want not run", i, errs[i])
		}
	}

	tp = &testPlan{}
	pl = tp.plan([]string{"dcqcn", "bad", "hpcc"}, 3, "")
	root := t.TempDir()
	c, errs, err := Run(context.Background(), root, pl, Options{Jobs: 2, KeepGoing: true})
	if err != nil || c.Done != 6 || c.Failed != 3 || tp.calls.Load() != 9 {
		t.Fatalf("keep going: %+v %v, %d calls", c, err, tp.calls.Load())
	}
	for i, e := range errs {
		if (i >= 3 && i < 6) != (e != nil) {
			t.Errorf("item %d: %v", i, e)
		}
	}
	for _, d := range []string{"cca=dcqcn/seed=1", "cca=hpcc/seed=3"} {
		if _, err := runfolder.ReadManifest(filepath.Join(root, d)); err != nil {
			t.Errorf("a failed item lost %s: %v", d, err)
		}
	}
}

// Resume: a tracked plan run again skips the items done (same hash), runs
// the failed ones again, and runs an item whose hash changed.
func TestRunResumesByHash(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sw")
	tp := &testPlan{}
	pl := tp.plan([]string{"dcqcn", "bad"}, 3, ".state")
	c, _, err := Run(context.Background(), root, pl, Options{Jobs: 2, KeepGoing: true})
	if err != nil || c.Done != 3 || c.Failed != 3 {
		t.Fatalf("first run: %+v %v", c, err)
	}
	states := States(root, pl)
	if s := states[3]; s.State != Failed || !strings.Contains(s.Error, `"bad"`) {
		t.Fatalf("a failed item's state: %+v", s)
	}
	if _, err := os.Stat(filepath.Join(root, "cca=bad")); !os.IsNotExist(err) {
		t.Errorf("a failed item left its partition folder: %v", err)
	}
	var rec struct{ Hash string }
	b, _ := os.ReadFile(filepath.Join(root, "cca=dcqcn/seed=2", RecordFile))
	if json.Unmarshal(b, &rec) != nil || rec.Hash != "h-dcqcn-2" {
		t.Errorf("record %s", b)
	}

	tp.calls.Store(0)
	c, _, _ = Run(context.Background(), root, pl, Options{Jobs: 2, KeepGoing: true})
	if tp.calls.Load() != 3 || c.Skipped != 3 || c.Done != 3 || c.Failed != 3 {
		t.Fatalf("resume ran %d items (%+v), want the 3 failed ones", tp.calls.Load(), c)
	}

	tp.calls.Store(0)
	pl.Items[1].Hash = "changed"
	pl.Items[1].Record = map[string]any{"hash": "changed"}
	c, _, _ = Run(context.Background(), root, pl, Options{Jobs: 1, KeepGoing: true})
	if tp.calls.Load() != 4 || c.Skipped != 2 {
		t.Fatalf("after a hash changed: ran %d (%+v), want it and the 3 failed", tp.calls.Load(), c)
	}

	// A Slurm task's share: done items are skipped, the others run.
	tp.calls.Store(0)
	pl.Items[3].Run = pl.Items[0].Run // now succeeds, writing cca=dcqcn's numbers
	if err := RunIndexes(context.Background(), root, pl, []int{0, 3, 4}); err == nil || !strings.Contains(err.Error(), "point 4 (cca=bad/seed=2)") {
		t.Fatalf("RunIndexes: %v", err)
	}
	if tp.calls.Load() != 2 || States(root, pl)[3].State != Done {
		t.Fatalf("RunIndexes ran %d items, state of 3: %v", tp.calls.Load(), States(root, pl)[3])
	}
}

// Status and collect read the tree: counts, the items not done with their
// errors, and one row per item with its labels and summary numbers.
func TestStatusAndCollect(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sw")
	tp := &testPlan{}
	pl := tp.plan([]string{"dcqcn", "bad"}, 2, ".state")
	Run(context.Background(), root, pl, Options{Jobs: 2, KeepGoing: true})
	pl.Items = append(pl.Items, Item{Dir: "cca=x/seed=1", Hash: "never", Labels: []Label{{Key: "cca", Value: "x"}, {Key: "seed", Null: true}}})
	states := States(root, pl)
	if c := Tally(states); c != (Counts{Done: 2, Failed: 2, Pending: 1, Total: 5}) {
		t.Fatalf("tally %+v", c)
	}
	var sb strings.Builder
	WriteStatus(&sb, "sweep", root, pl, states, 0)
	out := sb.String()
	if !strings.Contains(out, "5 points: 2 done, 2 failed, 0 running, 1 pending") || strings.Index(out, "failed") > strings.Index(out, "pending  cca=x") ||
		!strings.Contains(out, `2  failed   cca=bad/seed=1  unknown congestion control "bad"`) {
		t.Errorf("status:\n%s", out)
	}
	tab, err := Collect(root, pl, states)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range tab.Columns {
		names = append(names, c.Name)
	}
	if got := strings.Join(names[:7], ","); got != "point,dir,status,error,hash,cca,seed" || tab.Rows != 5 {
		t.Fatalf("columns %v rows %d", names, tab.Rows)
	}
	if tab.Column("seed").Kind != Int64 || tab.Column("seed").Values[4] != nil || tab.Column("cca").Kind != String {
		t.Errorf("label columns: seed %v %v, cca %v", tab.Column("seed").Kind, tab.Column("seed").Values, tab.Column("cca").Kind)
	}
	if v := tab.Column("slowdown_p99").Values; v[1] != 3.0 || v[2] != nil {
		t.Errorf("slowdown_p99 %v", v)
	}
	// Number: an int64 or float64 value as a float64, not a null or text.
	for _, c := range []struct {
		col  string
		row  int
		want float64
		ok   bool
	}{{"slowdown_p99", 1, 3, true}, {"slowdown_p99", 2, 0, false}, {"point", 4, 4, true}, {"seed", 4, 0, false}, {"cca", 0, 0, false}} {
		if v, ok := tab.Column(c.col).Number(c.row); v != c.want || ok != c.ok {
			t.Errorf("%s row %d: Number = %v, %v; want %v, %v", c.col, c.row, v, ok, c.want, c.ok)
		}
	}
	if tab.Column("status").Values[2] != "failed" || tab.Column("error").Values[0] != nil {
		t.Errorf("status %v error %v", tab.Column("status").Values, tab.Column("error").Values)
	}
	p := filepath.Join(root, "t.parquet")
	if err := tab.WriteParquet(p); err != nil {
		t.Fatal(err)
	}
	b1, _ := os.ReadFile(p)
	tab.WriteParquet(p)
	if b2, _ := os.ReadFile(p); string(b1) != string(b2) || len(b1) == 0 {
		t.Error("the same table gave different bytes")
	}
}

// A running marker counts while its process lives (this test's own), and
// not once it is gone on this host; a marker from another host is trusted.
func TestRunningMarker(t *testing.T) {
	root := t.TempDir()
	pl := (&testPlan{}).plan([]string{"dcqcn"}, 3, ".state")
	host, _ := os.Hostname()
	for i, mk := range []marker{{Host: host, PID: os.Getpid()}, {Host: host, PID: 1 << 30}, {Host: "elsewhere", PID: 1 << 30}} {
		mk.Index, mk.Hash, mk.Dir = i, pl.Items[i].Hash, pl.Items[i].Dir
		p := markerPath(root, ".state", "running", strconv.Itoa(i))
		if err := output.WriteJSONAtomic(p, mk); err != nil {
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := output.WriteJSONAtomic(p, mk); err != nil {
				t.Fatal(err)
			}
		}
	}
	s := States(root, pl)
	if s[0].State != Running || s[1].State != Pending || s[2].State != Running {
		t.Errorf("states %s %s %s, want running, pending (its process is gone), running (another host)", s[0].State, s[1].State, s[2].State)
	}
}

// A cancelled tracked run leaves no folder and no marker for the items
// that were running, and counts them pending.
func TestRunCancelLeavesNothing(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sw")
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{}, 4)
	pl := &Plan{State: ".state"}
	for i := range 4 {
		pl.Items = append(pl.Items, Item{Dir: fmt.Sprintf("seed=%d", i), Hash: "h", Record: map[string]string{"hash": "h"},
			Run: func(ctx context.Context, dir string) error {
				started <- struct{}{}
				<-ctx.Done()
				return ctx.Err()
			}})
	}
	go func() { <-started; <-started; cancel() }()
	c, _, err := Run(ctx, root, pl, Options{Jobs: 2, KeepGoing: true})
	if !errors.Is(err, context.Canceled) || c.Done != 0 || c.Failed != 0 || c.Pending != 4 {
		t.Fatalf("cancelled: %+v %v", c, err)
	}
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if e.Name() != ".state" {
			t.Errorf("left %s", e.Name())
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(root, ".state", "running")); len(ents) != 0 {
		t.Errorf("left running markers: %v", ents)
	}
}

// TestSubmitSlurmOutputPattern: the script's #SBATCH --output names the
// state folder with every % doubled (sbatch's file-name patterns read %b,
// %a, ... as replacements and %% as a literal %), and keeps %a, the array
// index, as the one replacement.
func TestSubmitSlurmOutputPattern(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sweep%b@x")
	fake := filepath.Join(t.TempDir(), "sbatch")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 4242\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub, err := SubmitSlurm(context.Background(), root, &Plan{State: ".state"}, []int{0, 1, 2}, SlurmOptions{
		Exe: "/usr/bin/true", Command: []string{"sweep", "point"}, Chunk: 2, Sbatch: fake,
	})
	if err != nil {
		t.Fatal(err)
	}
	if sub.JobID != "4242" || sub.Tasks != 2 {
		t.Fatalf("submission %+v", sub)
	}
	b, err := os.ReadFile(sub.Script)
	if err != nil {
		t.Fatal(err)
	}
	want := "#SBATCH --output=" + strings.ReplaceAll(filepath.Join(root, ".state", "slurm"), "%", "%%") + "/submit-001_%a.out\n"
	if !strings.Contains(string(b), want) {
		t.Fatalf("script lacks %q:\n%s", want, b)
	}
	if slurmPattern("a%b%%c") != "a%%b%%%%c" || slurmPattern("plain") != "plain" {
		t.Fatalf("slurmPattern: %q %q", slurmPattern("a%b%%c"), slurmPattern("plain"))
	}
}

// Items naming their markers (Item.Marker) keep them apart even where
// two plans sharing a root put different configurations at one index: a
// failure of one plan's item 0 is not the other's.
func TestItemMarker(t *testing.T) {
	root := t.TempDir()
	a := (&testPlan{}).plan([]string{"bad"}, 1, ".state")
	b := (&testPlan{}).plan([]string{"dcqcn"}, 1, ".state")
	a.Items[0].Marker, b.Items[0].Marker = "a0", "b0"
	b.Items[0].Dir = "other"
	if _, _, err := Run(context.Background(), root, a, Options{}); err == nil {
		t.Fatal("the bad item ran")
	}
	if _, err := os.Stat(markerPath(root, ".state", "failed", "a0")); err != nil {
		t.Fatalf("the failed marker is not under the item's name: %v", err)
	}
	if _, err := os.Stat(markerPath(root, ".state", "failed", "0")); !os.IsNotExist(err) {
		t.Fatalf("a failed marker under the index: %v", err)
	}
	if _, _, err := Run(context.Background(), root, b, Options{}); err != nil {
		t.Fatal(err)
	}
	if sa, sb := States(root, a), States(root, b); sa[0].State != Failed || sb[0].State != Done {
		t.Fatalf("states %s and %s, want failed and done", sa[0].State, sb[0].State)
	}
}

// Two processes sharing a root that run the same configuration at once
// (both staged it before either moved its folder into place) both end
// with the item done: the second finds the first's folder of the same
// hash and drops its own instead of failing.
func TestRunSameItemAtOnce(t *testing.T) {
	root := t.TempDir()
	var ready sync.WaitGroup
	ready.Add(2)
	plan := func() *Plan {
		pl := (&testPlan{}).plan([]string{"dcqcn"}, 1, ".state")
		run := pl.Items[0].Run
		pl.Items[0].Run = func(ctx context.Context, dir string) error {
			ready.Done()
			ready.Wait() // both staged before either commits
			return run(ctx, dir)
		}
		return pl
	}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for k := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, errs[k] = Run(context.Background(), root, plan(), Options{})
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("errors %v, %v", errs[0], errs[1])
	}
	if s := States(root, plan()); s[0].State != Done {
		t.Fatalf("state %s", s[0].State)
	}
}
