package sweep

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccreplay/ccreplay/batch"
)

// The table sweep.parquet is: batch's collected table.
type (
	Table      = batch.Table
	Column     = batch.Column
	ColumnKind = batch.ColumnKind
)

// The types of a column.
const (
	Int64   = batch.Int64
	Float64 = batch.Float64
	String  = batch.String
)

// Collect reads every point of the sweep in root into one table (see
// batch.Collect): the point's index, folder, state, error and hash, its
// value on every axis (a column named after the axis), then every number
// of the point's summary.json, null for points not done.
func Collect(root string) (*Manifest, []PointState, *Table, error) {
	m, err := ReadManifest(root)
	if err != nil {
		return nil, nil, nil, err
	}
	states, err := States(root, m.Points)
	if err != nil {
		return nil, nil, nil, err
	}
	t, err := batch.Collect(root, items(m.Axes, m.Points), itemStates(states))
	if err != nil {
		return nil, nil, nil, err
	}
	t.Tool = "ccreplay sweep"
	return m, states, t, nil
}

// SlurmOptions say how a sweep is submitted to Slurm.
type SlurmOptions = batch.SlurmOptions

// Submission is a job array submitted for a sweep.
type Submission = batch.Submission

// SubmitSlurm submits the given points of the sweep in root as one job
// array, each task running `ccreplay sweep point` on its share
// (batch.SubmitSlurm).
func SubmitSlurm(ctx context.Context, root string, points []int, opt SlurmOptions) (*Submission, error) {
	opt.Command = []string{"sweep", "point"}
	return batch.SubmitSlurm(ctx, root, &batch.Plan{State: StateDir}, points, opt)
}

// TaskPoints reads a submission's list and returns the points of one
// array task: entries task*chunk .. task*chunk+chunk-1.
func TaskPoints(list string, task, chunk int) ([]int, error) {
	idx, err := batch.TaskPoints(list, task, chunk)
	switch {
	case errors.Is(err, batch.ErrList):
		return nil, inputErrorf("%s", strings.TrimPrefix(err.Error(), batch.ErrList.Error()+": "))
	case errors.Is(err, batch.ErrTask):
		return nil, flagErrorf("%s", strings.TrimPrefix(err.Error(), batch.ErrTask.Error()+": "))
	}
	return idx, err
}

// Outcome is a sweep's state as `ccreplay sweep --json`, `sweep status
// --json` and `sweep collect --json` print it.
type Outcome struct {
	Dir     string `json:"dir"`
	Table   string `json:"table"`
	Total   int    `json:"total"`
	Done    int    `json:"done"`
	Failed  int    `json:"failed"`
	Running int    `json:"running"`
	Pending int    `json:"pending"`
	// Columns are the table's (none when no table was collected).
	Columns []string     `json:"columns"`
	NotDone []PointState `json:"not_done,omitempty"`
	// WallTimeS is the command's wall time, seconds (0: not timed).
	WallTimeS float64 `json:"wall_time_s,omitempty"`
}

// NewOutcome counts the states of the sweep in dir and lists the points
// not done, in point order; t (nil when not collected) gives the columns.
func NewOutcome(dir string, states []PointState, t *Table, wall time.Duration) Outcome {
	c := Tally(states)
	o := Outcome{Dir: dir, Table: filepath.Join(dir, TableFile), Total: c.Total, Done: c.Done, Failed: c.Failed,
		Running: c.Running, Pending: c.Pending, WallTimeS: wall.Seconds()}
	if t != nil {
		for _, col := range t.Columns {
			o.Columns = append(o.Columns, col.Name)
		}
	}
	for _, s := range states {
		if s.State != Done {
			o.NotDone = append(o.NotDone, s)
		}
	}
	return o
}

// Todo lists the points a submission sends: pending or failed (not done,
// nor running), in point order.
func Todo(states []PointState) []int {
	var todo []int
	for _, s := range states {
		if s.State == Pending || s.State == Failed {
			todo = append(todo, s.Index)
		}
	}
	return todo
}
