package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/internal/progress"
	"github.com/ccreplay/ccreplay/plot"
	"github.com/ccreplay/ccreplay/runfolder"
)

// Options are what `ccreplay sweep` is asked to do: the points (Flags,
// Kind) and where and how to run them.
type Options struct {
	Flags Flags
	// Kind is what each point runs: empty or "run", "dataset" or
	// "estimate" (checked by Plan).
	Kind string
	// Dir is the sweep's folder (--out).
	Dir string
	// Jobs is the number of points run at once here (-j).
	Jobs int
	// JSON prints the outcome as JSON.
	JSON bool
	// Slurm submits the points not done as one job array instead of
	// running them here.
	Slurm bool
	// SlurmOptions are the job array's (--partition, --time, --chunk, ...).
	SlurmOptions SlurmOptions
}

// Env is what running a sweep takes from the command around it.
type Env struct {
	// Out receives the outcome.
	Out io.Writer
	// Now is the wall clock of the outcome's wall time.
	Now func() time.Time
	// Progress is the terminal's status line (nil: none).
	Progress *progress.Line
	// Exec runs one point.
	Exec Exec
	// CheckDataset checks a dataset sweep's options (the dataset
	// command's own check); its error is a usage error.
	CheckDataset func(DatasetOptions) error
}

// Plan checks the options and plans the sweep into o.Dir; checkDataset
// checks a dataset sweep's options.
func (o *Options) Plan(checkDataset func(DatasetOptions) error) (*Plan, error) {
	if o.Dir == "" {
		return nil, flagErrorf("give the sweep's folder: --out DIR")
	}
	if o.Jobs < 1 {
		return nil, flagErrorf("-j/--jobs must be >= 1, got %d", o.Jobs)
	}
	switch o.Kind {
	case "", string(KindRun), string(KindDataset), string(KindEstimate):
		o.Flags.Kind = Kind(o.Kind)
	default:
		return nil, flagErrorf("--kind %q: want run, dataset or estimate", o.Kind)
	}
	if o.SlurmOptions.Chunk < 1 || o.SlurmOptions.ArrayMax < 0 {
		return nil, flagErrorf("--chunk must be >= 1 and --array-max >= 0")
	}
	sp, err := FromFlags(o.Flags)
	if err != nil {
		return nil, err
	}
	if sp.Kind == KindDataset {
		if err := checkDataset(sp.Dataset); err != nil {
			return nil, flagErrorf("%v", err)
		}
	} else if sp.Dataset != (DatasetOptions{}) {
		return nil, flagErrorf("dataset options (--reward, --gamma, --nstep, a dataset: section) need --kind dataset")
	}
	pl, err := NewPlan(sp)
	if err != nil {
		return nil, err
	}
	if _, err := pl.Prepare(o.Dir); errors.Is(err, runfolder.ErrRefused) {
		return nil, clierr.Usage(err)
	} else if err != nil {
		return nil, err
	}
	return pl, nil
}

// Run plans the sweep, runs (or submits to Slurm) the points not done
// and, after a local run, writes sweep.parquet and reports the outcome.
func Run(ctx context.Context, o Options, env Env) error {
	pl, err := o.Plan(env.CheckDataset)
	if err != nil {
		return err
	}
	if o.Slurm {
		return o.submit(ctx, pl, env.Out)
	}
	start := env.Now()
	c, err := pl.RunLocal(ctx, o.Dir, o.Jobs, env.Exec, func(c Counts, eta time.Duration) {
		line := fmt.Sprintf("sweep: %d/%d done, %d failed, %d running, %d pending", c.Done, c.Total, c.Failed, c.Running, c.Pending)
		if eta > 0 {
			line += fmt.Sprintf(", ETA %s", eta.Round(time.Second))
		}
		env.Progress.Set(line)
	})
	env.Progress.Clear()
	if errors.Is(err, context.Canceled) {
		return clierr.Interruptedf("interrupted: %d of %d points done (%d before this command); the points that were running left nothing; run the same command to go on", c.Done, c.Total, c.Skipped)
	}
	if err != nil {
		return err
	}
	return o.collect(c, start, env)
}

// collect writes sweep.parquet after a local run and reports.
func (o *Options) collect(c Counts, start time.Time, env Env) error {
	_, states, t, err := Collect(o.Dir)
	if err != nil {
		return err
	}
	if err := t.WriteParquet(filepath.Join(o.Dir, TableFile)); err != nil {
		return err
	}
	wall := env.Now().Sub(start)
	if o.JSON {
		if err := (iostreams.Streams{Out: env.Out}).PrintJSON(NewOutcome(o.Dir, states, t, wall)); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(env.Out, "ccreplay sweep: %d points (%d run now, %d already done, %d failed) in %s; table %s\n",
			c.Total, c.Done-c.Skipped+c.Failed, c.Skipped, c.Failed, wall.Round(time.Millisecond), filepath.Join(o.Dir, TableFile))
		if c.Failed > 0 {
			WriteStatus(env.Out, o.Dir, states, 20)
		}
	}
	if c.Failed > 0 {
		return fmt.Errorf("%d of %d points failed (listed by 'ccreplay sweep status %s'); run the same command again to retry them", c.Failed, c.Total, o.Dir)
	}
	return nil
}

// submit sends the points not done (nor running) to Slurm.
func (o *Options) submit(ctx context.Context, pl *Plan, out io.Writer) error {
	states, err := States(o.Dir, pl.Points)
	if err != nil {
		return err
	}
	todo := Todo(states)
	c := Tally(states)
	if len(todo) == 0 {
		if o.JSON {
			return iostreams.Streams{Out: out}.PrintJSON(map[string]any{"submitted": nil, "done": c.Done, "running": c.Running, "total": c.Total})
		}
		fmt.Fprintf(out, "ccreplay sweep: nothing to submit: %d points done, %d running, of %d\n", c.Done, c.Running, c.Total)
		return nil
	}
	opt := o.SlurmOptions
	if opt.Exe == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("finding this ccreplay binary for the tasks: %v; give --ccreplay PATH", err)
		}
		if strings.Contains(exe, "go-build") {
			return flagErrorf("this ccreplay runs from a temporary build (go run), which the tasks cannot reach; build it (make build) or give --ccreplay PATH")
		}
		opt.Exe = exe
	}
	sub, err := SubmitSlurm(ctx, o.Dir, todo, opt)
	if err != nil {
		return err
	}
	if o.JSON {
		return iostreams.Streams{Out: out}.PrintJSON(sub)
	}
	fmt.Fprintf(out, "ccreplay sweep: submitted Slurm job %s: %d points in %d tasks (%d done, %d running before); script %s\n",
		sub.JobID, sub.Points, sub.Tasks, c.Done, c.Running, sub.Script)
	fmt.Fprintf(out, "follow with 'ccreplay sweep status %s'; when it is done, 'ccreplay sweep collect %s'\n", o.Dir, o.Dir)
	return nil
}

// RunPoints runs points of the sweep planned in root (`ccreplay sweep
// point`): point index when it is >= 0, else the entries task*chunk ..
// task*chunk+chunk-1 of the submission list list.
func RunPoints(ctx context.Context, root string, index int, list string, task, chunk int, exec Exec) error {
	m, err := ReadManifest(root)
	if err != nil {
		return err
	}
	var idx []int
	switch {
	case list != "" && index >= 0:
		return flagErrorf("give --index or --list, not both")
	case list != "":
		if idx, err = TaskPoints(list, task, chunk); err != nil {
			return err
		}
	case index >= 0:
		idx = []int{index}
	default:
		return flagErrorf("give --index I or --list FILE --task T")
	}
	pl, err := PlanOf(root, m)
	if err != nil {
		return err
	}
	return pl.RunIndexes(ctx, root, idx, m, exec)
}

// PrintStatus writes the states of the sweep in root to w (`ccreplay
// sweep status`): the table of WriteStatus with at most limit points not
// done, or the outcome as JSON.
func PrintStatus(w io.Writer, root string, asJSON bool, limit int) error {
	m, err := ReadManifest(root)
	if err != nil {
		return err
	}
	states, err := States(root, m.Points)
	if err != nil {
		return err
	}
	if asJSON {
		return iostreams.Streams{Out: w}.PrintJSON(NewOutcome(root, states, nil, 0))
	}
	WriteStatus(w, root, states, limit)
	return nil
}

// WriteTable writes root's sweep.parquet (`ccreplay sweep collect`) and
// says so on w, or prints the outcome as JSON.
func WriteTable(w io.Writer, root string, asJSON bool) error {
	start := time.Now()
	_, states, t, err := Collect(root)
	if err != nil {
		return err
	}
	if err := t.WriteParquet(filepath.Join(root, TableFile)); err != nil {
		return err
	}
	if asJSON {
		return iostreams.Streams{Out: w}.PrintJSON(NewOutcome(root, states, t, time.Since(start)))
	}
	c := Tally(states)
	fmt.Fprintf(w, "wrote %s: %d rows (%d done, %d failed, %d running, %d pending), %d columns\n",
		filepath.Join(root, TableFile), t.Rows, c.Done, c.Failed, c.Running, c.Pending, len(t.Columns))
	return nil
}

// PlotOptions are `ccreplay sweep plot`'s.
type PlotOptions struct {
	// Metric is the column drawn, X the axis on the x axis, Line the
	// axis with one line per value.
	Metric, X, Line string
	// LineGiven is whether Line was given; without it Line is cca when
	// cca is a column and not X.
	LineGiven bool
	// Dir is the figure's folder, Format png or svg.
	Dir, Format string
}

// Plot draws a metric of the sweep in root against an axis (Figure) into
// o.Dir and names the files written on w.
func Plot(w io.Writer, root string, o PlotOptions) error {
	_, _, t, err := Collect(root)
	if err != nil {
		return err
	}
	if !o.LineGiven && t.Column("cca") != nil && o.X != "cca" {
		o.Line = "cca"
	}
	fig, err := Figure(t, o.Metric, o.X, o.Line)
	if err != nil {
		return clierr.Usage(err)
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return err
	}
	paths, err := plot.WriteFigure(o.Dir, fig, []string{o.Format})
	if err != nil {
		return err
	}
	for _, p := range paths {
		fmt.Fprintln(w, "wrote "+p)
	}
	return nil
}
