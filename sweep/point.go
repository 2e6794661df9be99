package sweep

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/runconfig"
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

// Counts are a sweep's points by state.
type Counts = batch.Counts

// items are the points as the batch executor's items (without a Run).
func items(axes []Axis, pts []Point) *batch.Plan {
	bp := &batch.Plan{Items: make([]batch.Item, len(pts)), State: StateDir}
	for i := range pts {
		p := &pts[i]
		it := batch.Item{Dir: p.Dir, Hash: p.Hash}
		for a, ax := range axes {
			l := batch.Label{Key: ax.Column, Null: true}
			if a < len(p.Values) && !p.Values[a].Null {
				l.Value, l.Null = p.Values[a].Text, false
			}
			it.Labels = append(it.Labels, l)
		}
		bp.Items[i] = it
	}
	return bp
}

// batchPlan is the sweep as a tracked batch plan whose items run exec.
func (pl *Plan) batchPlan(exec Exec) *batch.Plan {
	bp := items(pl.Spec.Axes, pl.Points)
	for i := range pl.Points {
		p := &pl.Points[i]
		rec := pointRecord{Index: p.Index, Hash: p.Hash, Values: map[string]string{}, Config: string(p.yaml)}
		for a, ax := range pl.Spec.Axes {
			rec.Values[ax.Column] = p.Values[a].String()
		}
		name := fmt.Sprintf("%s point %d (%s)", pl.Spec.Name, p.Index, p.Dir)
		bp.Items[i].Record = rec
		bp.Items[i].Run = func(ctx context.Context, dir string) error {
			return exec(ctx, pl.Spec, p.file, name, dir)
		}
	}
	return bp
}

// RunLocal runs the points of the plan not already done in root, jobs at
// a time (a failed point does not stop the others), and tells progress.
// It returns the counts at the end; on a cancelled context it stops the
// running points (their folders are not written) and returns ctx's error.
func (pl *Plan) RunLocal(ctx context.Context, root string, jobs int, exec Exec, progress func(Counts, time.Duration)) (Counts, error) {
	c, _, err := batch.Run(ctx, root, pl.batchPlan(exec), batch.Options{Jobs: jobs, KeepGoing: true, Progress: progress})
	return c, err
}

// RunIndexes runs the listed points one after the other (a Slurm task's
// share), skipping those done; a point whose hash differs from the
// manifest's is recorded as failed. It returns the first error after
// trying them all.
func (pl *Plan) RunIndexes(ctx context.Context, root string, idx []int, manifest *Manifest, exec Exec) error {
	bp := pl.batchPlan(exec)
	var first error
	for _, i := range idx {
		if i < 0 || i >= len(pl.Points) {
			return inputErrorf("%s: no point %d (the sweep has %d)", root, i, len(pl.Points))
		}
		var err error
		if p := &pl.Points[i]; p.Hash != manifest.Points[i].Hash {
			err = inputErrorf("point %d (%s): its configuration changed since the sweep was planned (another ccreplay version, or a changed input file); run the sweep command again to plan it anew", i, p.Dir)
			batch.Fail(root, bp, i, manifest.Points[i].Hash, err)
			err = fmt.Errorf("point %d (%s): %w", i, p.Dir, err)
		} else {
			err = batch.RunIndexes(ctx, root, bp, []int{i})
		}
		if err != nil && first == nil {
			first = err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return first
}

// State is where a point stands, read from the sweep's folder alone
// (batch.State: done, failed, running or pending).
type State = batch.State

// The states of a point.
const (
	Done    = batch.Done
	Failed  = batch.Failed
	Running = batch.Running
	Pending = batch.Pending
)

// PointState is one point's state.
type PointState struct {
	Point
	State State `json:"state"`
	// Error is a failed point's error.
	Error string `json:"error,omitempty"`
	// Where is the host and process of a running point.
	Where string `json:"where,omitempty"`
}

// States reads the state of each of pts in root.
func States(root string, pts []Point) ([]PointState, error) {
	st := batch.States(root, items(nil, pts))
	out := make([]PointState, len(pts))
	for i, s := range st {
		out[i] = PointState{Point: pts[i], State: s.State, Error: s.Error, Where: s.Where}
	}
	return out, nil
}

func itemStates(states []PointState) []batch.ItemState {
	out := make([]batch.ItemState, len(states))
	for i, s := range states {
		out[i] = batch.ItemState{State: s.State, Error: s.Error, Where: s.Where}
	}
	return out
}

// Tally counts states.
func Tally(states []PointState) Counts { return batch.Tally(itemStates(states)) }

// WriteStatus prints the counts and, below them, the points not done
// (failed first, with their error), at most limit of them (0 = all).
func WriteStatus(w io.Writer, root string, states []PointState, limit int) {
	pts := make([]Point, len(states))
	for i, s := range states {
		pts[i] = s.Point
	}
	batch.WriteStatus(w, "sweep", root, items(nil, pts), itemStates(states), limit)
}
