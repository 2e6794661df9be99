// Package batch is ccreplay's one batch executor: a Plan of labelled,
// resolved configurations, each run into its own folder of a hive tree
// (key=value/.../key=value under a root), on a local pool (batch/pool)
// or as a Slurm job array; status and collect read the tree.
//
// compare, reproduce and sweep are plan builders over it: each turns its
// inputs into Items (a folder, labels, a configuration hash and a function
// that fills the folder) and hands them to Run. A plan is untracked (the
// caller stages the whole root and commits it at the end: compare,
// reproduce) or tracked (Plan.State names a hidden state folder under the
// root: each item is staged on its own and moved into place whole, a
// record with its hash is written into its folder, running and failed
// items leave markers, and an item whose folder holds a complete run of
// its hash is not run again: sweeps).
package batch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/ccreplay/ccreplay/batch/pool"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
)

// RecordFile is written into a tracked item's folder: the item's record
// (Item.Record), whose "hash" member says which configuration the folder
// holds.
const RecordFile = runfolder.PointFile

// Label is one partition of an item's folder: the column Key holds Value
// (Null: the item has no value there).
type Label struct {
	Key, Value string
	Null       bool
}

// Item is one configuration of a plan.
type Item struct {
	// Dir is the item's folder under the root, slash-separated, usually
	// its labels as key=value parts.
	Dir string
	// Labels are the item's values, one per column of the collected
	// table, outermost first.
	Labels []Label
	// Hash names the item's configuration: a tracked plan does not run
	// again an item whose folder's record has this hash and a complete
	// summary.json.
	Hash string
	// Record is written as RecordFile (JSON) into a tracked item's folder
	// after Run succeeds; it must have a "hash" member equal to Hash.
	Record any
	// Run fills dir with the item's outputs (summary.json last). In a
	// tracked plan dir is a staging folder moved to Dir when Run
	// succeeds; in an untracked one it is root/Dir itself.
	Run func(ctx context.Context, dir string) error
	// Marker names the item's running and failed markers in a tracked
	// plan's state folder (a file name without its extension; "": the
	// item's index). Plans whose items of one index may differ between
	// the processes sharing a root (an estimate's link folder) name
	// them after the item's folder instead.
	Marker string
}

// markerKey is the name of item i's markers.
func (it *Item) markerKey(i int) string {
	if it.Marker != "" {
		return it.Marker
	}
	return strconv.Itoa(i)
}

// Plan is a batch: its items in order (the order of folders, of the
// collected table, and the order in which they are started).
type Plan struct {
	Items []Item
	// State, when not empty, makes the plan tracked: the name of the
	// hidden folder under the root holding the running and failed items'
	// markers and the Slurm scripts (".sweep" for sweeps).
	State string
}

// Counts are a plan's items by state.
type Counts struct {
	Done, Failed, Running, Pending, Total int
	// Skipped are the items found done before this run started.
	Skipped int
}

// Options say how Run runs a plan on this machine.
type Options struct {
	// Jobs is the most items at a time (< 1 means 1).
	Jobs int
	// KeepGoing runs every item even when some fail; otherwise the first
	// failure cancels the others (their folders are not written).
	KeepGoing bool
	// Progress, when not nil, is told the counts and an estimate of the
	// time left when an item starts or ends, and every half second.
	Progress func(Counts, time.Duration)
}

// Run runs the items of pl into root on a local pool: in a tracked plan
// only those not already done. It returns the counts at the end and each
// item's error by index (nil for done and skipped items); err is the
// error of the lowest-indexed failed item when failing fast, ctx's error
// when ctx ended, else nil (keeping going, failures are in errs and
// Counts only). Whatever the jobs, each item's outputs are the same.
func Run(ctx context.Context, root string, pl *Plan, opt Options) (c Counts, errs []error, err error) {
	errs = make([]error, len(pl.Items))
	c.Total = len(pl.Items)
	var todo []int
	if pl.State != "" {
		states := States(root, pl)
		for i, s := range states {
			if s.State == Done {
				c.Done++
				c.Skipped++
			} else {
				todo = append(todo, i)
			}
		}
	} else {
		for i := range pl.Items {
			todo = append(todo, i)
		}
	}
	c.Pending = len(todo)
	start := time.Now()
	var mu sync.Mutex
	report := func() {
		if opt.Progress != nil {
			opt.Progress(c, eta(c, time.Since(start)))
		}
	}
	report()
	if opt.Progress != nil {
		// Also told every half second, so that a progress line that drops
		// updates coming too close together still ends up current.
		tick := time.NewTicker(500 * time.Millisecond)
		stop := make(chan struct{})
		go func() {
			for {
				select {
				case <-tick.C:
					mu.Lock()
					report()
					mu.Unlock()
				case <-stop:
					return
				}
			}
		}()
		defer func() { tick.Stop(); close(stop) }()
	}
	base := c
	perr := pool.RunAll(ctx, len(todo), pool.Options{Parallel: opt.Jobs, KeepGoing: opt.KeepGoing, Progress: func(pc pool.Counts) {
		mu.Lock()
		defer mu.Unlock()
		c.Done, c.Failed, c.Running, c.Pending = base.Done+pc.Done, pc.Failed, pc.Running, pc.Pending
		report()
	}}, func(ctx context.Context, k int) error {
		return runItem(ctx, root, pl, todo[k])
	})
	mu.Lock()
	c.Done, c.Failed, c.Running, c.Pending = base.Done, 0, 0, 0
	for k, i := range todo {
		errs[i] = perr[k]
		switch e := perr[k]; {
		case e == nil:
			c.Done++
		case errors.Is(e, context.Canceled) && (ctx.Err() != nil || !opt.KeepGoing):
			c.Pending++ // cancelled by ctx or by another's failure: not run
		default:
			c.Failed++
		}
	}
	mu.Unlock()
	if pl.State != "" {
		for _, i := range todo {
			removeEmptyParents(root, filepath.Dir(itemPath(root, &pl.Items[i])))
		}
	}
	if e := ctx.Err(); e != nil {
		return c, errs, e
	}
	if !opt.KeepGoing {
		for _, e := range errs {
			if e != nil && !errors.Is(e, context.Canceled) {
				return c, errs, e
			}
		}
	}
	return c, errs, nil
}

// eta estimates the time left from the items run so far in elapsed.
func eta(c Counts, elapsed time.Duration) time.Duration {
	ran := c.Done - c.Skipped + c.Failed
	if ran == 0 {
		return 0
	}
	return time.Duration(float64(elapsed) / float64(ran) * float64(c.Pending+c.Running))
}

func itemPath(root string, it *Item) string {
	return filepath.Join(root, filepath.FromSlash(it.Dir))
}

// runItem runs item i into its folder. Tracked: staged, then moved into
// place whole; while it runs a running marker says so; when it fails a
// failed marker keeps the error (removed when the item later succeeds); a
// cancelled item leaves no marker and no folder.
func runItem(ctx context.Context, root string, pl *Plan, i int) (err error) {
	it := &pl.Items[i]
	if pl.State == "" {
		return it.Run(ctx, itemPath(root, it))
	}
	host, _ := os.Hostname()
	mk := marker{Index: i, Hash: it.Hash, Dir: it.Dir, Host: host, PID: os.Getpid()}
	key := it.markerKey(i)
	if err := writeMarker(root, pl.State, "running", key, mk); err != nil {
		return err
	}
	defer func() {
		os.Remove(markerPath(root, pl.State, "running", key))
		switch {
		case err == nil:
			os.Remove(markerPath(root, pl.State, "failed", key))
		case errors.Is(err, context.Canceled):
		default:
			mk.Error = err.Error()
			if werr := writeMarker(root, pl.State, "failed", key, mk); werr != nil {
				err = fmt.Errorf("%w (and recording the failure: %v)", err, werr)
			}
		}
	}()
	st, err := runfolder.Stage(itemPath(root, it), runfolder.StageOptions{Force: true, Flag: "point folder"})
	if err != nil {
		return err
	}
	defer st.Abort()
	if err := it.Run(ctx, st.Dir); err != nil {
		return err
	}
	if err := output.WriteJSONAtomic(filepath.Join(st.Dir, RecordFile), it.Record); err != nil {
		return err
	}
	if err := st.Commit(); err != nil {
		// Another process sharing the root (a second estimate on the
		// same link folder) ran the same configuration and moved its
		// folder into place first: the item is done all the same.
		if itemState(root, pl, i).State == Done {
			return nil
		}
		return err
	}
	return nil
}

// RunIndexes runs the listed items of a tracked plan one after the other,
// skipping those done (a Slurm task's share); it returns the first error
// after trying them all, naming the item.
func RunIndexes(ctx context.Context, root string, pl *Plan, idx []int) error {
	var first error
	for _, i := range idx {
		it := &pl.Items[i]
		var err error
		if s := itemState(root, pl, i); s.State != Done {
			err = runItem(ctx, root, pl, i)
		}
		if err != nil && first == nil {
			first = fmt.Errorf("point %d (%s): %w", i, it.Dir, err)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return first
}

// Fail records item i of a tracked plan as failed with err without
// running it (for example: its configuration changed since it was
// planned).
func Fail(root string, pl *Plan, i int, hash string, err error) error {
	it := &pl.Items[i]
	return writeMarker(root, pl.State, "failed", it.markerKey(i), marker{Index: i, Hash: hash, Dir: it.Dir, Error: err.Error()})
}

// removeEmptyParents removes dir and its parents up to root while they
// are empty (the partition folders a failed item's staging created).
func removeEmptyParents(root, dir string) {
	root = filepath.Clean(root)
	for dir = filepath.Clean(dir); dir != root && len(dir) > len(root); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			return
		}
	}
}

// marker is a running or failed item's file in the state folder.
type marker struct {
	Index int    `json:"index"`
	Hash  string `json:"hash"`
	Dir   string `json:"dir"`
	Host  string `json:"host,omitempty"`
	PID   int    `json:"pid,omitempty"`
	// Error is why the item failed (failed markers only).
	Error string `json:"error,omitempty"`
}

func markerPath(root, stateDir, state, key string) string {
	return filepath.Join(root, stateDir, state, key+".json")
}

func writeMarker(root, stateDir, state, key string, m marker) error {
	p := markerPath(root, stateDir, state, key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return output.WriteJSONAtomic(p, m)
}

// readJSON reads a JSON file into v.
func readJSON(path string, v any) error {
	b, err := limits.ReadFile(path, "a JSON file of a run", limits.MaxRunJSONBytes, true)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %s", path, limits.JSONError(err))
	}
	return nil
}
