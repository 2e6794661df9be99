package sweep

import (
	"context"
	"errors"
	"strings"

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
