package sweep

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

	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
)

// Exec runs one point of the sweep sp: the run configuration cfg (name
// names it in messages) into the folder dir, which it fills as `ccreplay
// run` (or `dataset`, by sp.Kind, with sp.Dataset) fills its --out,
// summary.json last. The sweep stages dir and moves it into place when
// Exec succeeds.
type Exec func(ctx context.Context, sp *Spec, cfg *runconfig.File, name, dir string) error

// pointRecord is point.json.
type pointRecord struct {
	Index  int               `json:"index"`
	Hash   string            `json:"hash"`
	Values map[string]string `json:"values"`
	// Config is the point's run configuration as a run.yaml.
	Config string `json:"config"`
}

// marker is a running or failed point's file in .sweep/.
type marker struct {
	Index int    `json:"index"`
	Hash  string `json:"hash"`
	Dir   string `json:"dir"`
	Host  string `json:"host,omitempty"`
	PID   int    `json:"pid,omitempty"`
	// Error is why the point failed (failed markers only).
	Error string `json:"error,omitempty"`
}

func markerPath(root, state string, index int) string {
	return filepath.Join(root, StateDir, state, strconv.Itoa(index)+".json")
}

func writeMarker(root, state string, m marker) error {
	p := markerPath(root, state, m.Index)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return output.WriteJSONAtomic(p, m)
}

// RunPoint runs point p of the plan into root/p.Dir: staged, then moved
// into place whole. While it runs, .sweep/running/INDEX.json says so; when
// it fails, .sweep/failed/INDEX.json keeps the error (removed when the
// point later succeeds). A cancelled context leaves no marker and no
// folder.
func (pl *Plan) RunPoint(ctx context.Context, root string, p *Point, exec Exec) (err error) {
	host, _ := os.Hostname()
	mk := marker{Index: p.Index, Hash: p.Hash, Dir: p.Dir, Host: host, PID: os.Getpid()}
	if err := writeMarker(root, "running", mk); err != nil {
		return err
	}
	defer func() {
		os.Remove(markerPath(root, "running", p.Index))
		switch {
		case err == nil:
			os.Remove(markerPath(root, "failed", p.Index))
		case errors.Is(err, context.Canceled):
		default:
			mk.Error = err.Error()
			if werr := writeMarker(root, "failed", mk); werr != nil {
				err = fmt.Errorf("%w (and recording the failure: %v)", err, werr)
			}
		}
	}()
	target := filepath.Join(root, filepath.FromSlash(p.Dir))
	st, err := runfolder.Stage(target, runfolder.StageOptions{Force: true, Flag: "point folder"})
	if err != nil {
		return err
	}
	defer st.Abort()
	name := fmt.Sprintf("%s point %d (%s)", pl.Spec.Name, p.Index, p.Dir)
	if err := exec(ctx, pl.Spec, p.file, name, st.Dir); err != nil {
		return err
	}
	rec := pointRecord{Index: p.Index, Hash: p.Hash, Values: map[string]string{}, Config: string(p.yaml)}
	for i, a := range pl.Spec.Axes {
		rec.Values[a.Column] = p.Values[i].String()
	}
	if err := output.WriteJSONAtomic(filepath.Join(st.Dir, PointFile), rec); err != nil {
		return err
	}
	return st.Commit()
}

// removeEmptyParents removes dir and its parents up to root while they
// are empty (the partition folders a failed point's staging created). Only
// when no other point is being staged: a folder removed between another
// point's creating it and staging in it would fail that point.
func removeEmptyParents(root, dir string) {
	root = filepath.Clean(root)
	for dir = filepath.Clean(dir); dir != root && len(dir) > len(root); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			return
		}
	}
}

// Counts are a sweep's points by state.
type Counts struct {
	Done, Failed, Running, Pending, Total int
	// Skipped are the points found done before this command started.
	Skipped int
}

// RunLocal runs the points of the plan not already done in root, jobs at
// a time (a failed point does not stop the others), and tells progress
// after each. It returns the counts at the end; on a cancelled context it
// stops the running points (their folders are not written) and returns
// ctx's error.
func (pl *Plan) RunLocal(ctx context.Context, root string, jobs int, exec Exec, progress func(Counts, time.Duration)) (Counts, error) {
	if jobs < 1 {
		jobs = 1
	}
	states, err := pl.states(root)
	if err != nil {
		return Counts{}, err
	}
	var todo []int
	c := Counts{Total: len(pl.Points)}
	for i, s := range states {
		if s.State == Done {
			c.Done++
			c.Skipped++
		} else {
			todo = append(todo, i)
		}
	}
	c.Pending = len(todo)
	start := time.Now()
	var mu sync.Mutex
	report := func() {
		if progress != nil {
			progress(c, eta(c, time.Since(start)))
		}
	}
	report()
	// Progress is also told every half second, so that a line that
	// drops updates coming too close together still ends up current.
	tick := time.NewTicker(500 * time.Millisecond)
	stopTick := make(chan struct{})
	go func() {
		for {
			select {
			case <-tick.C:
				mu.Lock()
				report()
				mu.Unlock()
			case <-stopTick:
				return
			}
		}
	}()
	defer func() { tick.Stop(); close(stopTick) }()
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(jobs, max(len(todo), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				mu.Lock()
				c.Pending--
				c.Running++
				report()
				mu.Unlock()
				err := pl.RunPoint(ctx, root, &pl.Points[i], exec)
				mu.Lock()
				c.Running--
				switch {
				case err == nil:
					c.Done++
				case errors.Is(err, context.Canceled) && ctx.Err() != nil:
					c.Pending++
				default:
					c.Failed++
				}
				report()
				mu.Unlock()
			}
		}()
	}
	for _, i := range todo {
		if ctx.Err() != nil {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	for _, i := range todo {
		removeEmptyParents(root, filepath.Dir(filepath.Join(root, filepath.FromSlash(pl.Points[i].Dir))))
	}
	mu.Lock()
	defer mu.Unlock()
	return c, ctx.Err()
}

// eta estimates the time left from the points run so far in elapsed.
func eta(c Counts, elapsed time.Duration) time.Duration {
	ran := c.Done - c.Skipped + c.Failed
	if ran == 0 {
		return 0
	}
	return time.Duration(float64(elapsed) / float64(ran) * float64(c.Pending+c.Running))
}

// RunIndexes runs the listed points one after the other (a Slurm task's
// share); it returns the first error after trying them all.
func (pl *Plan) RunIndexes(ctx context.Context, root string, idx []int, manifest *Manifest, exec Exec) error {
	var first error
	for _, i := range idx {
		if i < 0 || i >= len(pl.Points) {
			return inputErrorf("%s: no point %d (the sweep has %d)", root, i, len(pl.Points))
		}
		p := &pl.Points[i]
		var err error
		if p.Hash != manifest.Points[i].Hash {
			err = inputErrorf("point %d (%s): its configuration changed since the sweep was planned (another ccreplay version, or a changed input file); run the sweep command again to plan it anew", i, p.Dir)
			mk := marker{Index: i, Hash: manifest.Points[i].Hash, Dir: p.Dir, Error: err.Error()}
			writeMarker(root, "failed", mk)
		} else if s, _ := pointState(root, p); s.State != Done {
			err = pl.RunPoint(ctx, root, p, exec)
		}
		if err != nil && first == nil {
			first = fmt.Errorf("point %d (%s): %w", i, p.Dir, err)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return first
}

// readJSON reads a JSON file into v.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
