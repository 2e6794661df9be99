package plot

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/ccreplay/ccreplay/internal/clierr"
)

// Views are the views `ccreplay plot` draws, in the order it draws them.
var Views = []string{"fct", "slowdown", "queue", "rate", "alltoall"}

// DrawOptions say what Draw draws and how.
type DrawOptions struct {
	// Views to draw (a subset of Views) and the Formats to write.
	Views, Formats []string
	// Buckets are the slowdown view's flow-size buckets (equal counts).
	Buckets int
	// Time sets the queue and rate views.
	Time TimeOptions
	// Pool is "yes" (one curve per algorithm, its seeds' flows pooled),
	// "no" (one curve per run) or "auto" (yes when an algorithm has more
	// than two runs); pooled time views draw each algorithm's first run.
	Pool string
	// Log, when not nil, is told each view as it starts.
	Log func(view string)
}

// DrawReport is what Draw wrote (`ccreplay plot --json`).
type DrawReport struct {
	Runs    []string   `json:"runs"`
	Files   []string   `json:"files"`
	Skipped []*Skipped `json:"skipped"`
	Notes   []string   `json:"notes"`
}

// pooling decides DrawOptions.Pool for runs.
func pooling(pool string, runs []*Run) bool {
	switch pool {
	case "yes":
		return true
	case "no":
		return false
	}
	n := map[string]int{}
	for _, r := range runs {
		if n[r.Manifest.CCA]++; n[r.Manifest.CCA] > 2 {
			return true
		}
	}
	return false
}

// Draw writes the figures of runs (read from dirs, slash-separated in the
// report) into out, one file per view and format. A view that does not
// apply is skipped (and a figure of it left by an earlier invocation
// removed, with a note); an error drawing a view is an error of the
// inputs (a *clierr.InputError); an error writing a file is returned with the
// report of what was written.
func Draw(runs []*Run, dirs []string, out string, opt DrawOptions) (DrawReport, error) {
	dist, single := runs, runs // the runs of the distribution and the time views
	if pooling(opt.Pool, runs) {
		dist, single = PoolSeeds(runs)
	}
	rep := DrawReport{Files: []string{}, Skipped: []*Skipped{}, Notes: []string{}}
	for _, d := range dirs {
		rep.Runs = append(rep.Runs, filepath.ToSlash(d))
	}
	for _, v := range Views {
		if !slices.Contains(opt.Views, v) {
			continue
		}
		if opt.Log != nil {
			opt.Log(v)
		}
		fig, err := drawView(v, dist, single, opt)
		if len(single) < len(runs) && err == nil {
			fig.Notes = append(fig.Notes, pooledNote(v))
		}
		var sk *Skipped
		if errors.As(err, &sk) {
			rep.Skipped = append(rep.Skipped, sk)
			rep.Notes = append(rep.Notes, removeStale(out, sk.View, opt.Formats)...)
			continue
		}
		if err != nil {
			return rep, clierr.Input(err)
		}
		for _, n := range fig.Notes {
			rep.Notes = append(rep.Notes, fig.Name+": "+n)
		}
		paths, err := WriteFigure(out, fig, opt.Formats)
		for _, p := range paths {
			rep.Files = append(rep.Files, filepath.ToSlash(p))
		}
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// drawView draws one view: the distribution views from dist, the time
// views from single.
func drawView(v string, dist, single []*Run, opt DrawOptions) (Figure, error) {
	switch v {
	case "fct":
		return FCTCDF(dist)
	case "slowdown":
		return Slowdown(dist, opt.Buckets)
	case "queue":
		return QueueOverTime(single, opt.Time)
	case "rate":
		return RateOverTime(single, opt.Time)
	case "alltoall":
		return AlltoallLatency(single)
	}
	return Figure{}, fmt.Errorf("unknown view %q", v)
}

// pooledNote says how a view treats pooled runs.
func pooledNote(view string) string {
	if view == "fct" || view == "slowdown" {
		return "each algorithm's runs pooled into one curve (--pool)"
	}
	return "each algorithm's first run only (--pool)"
}

// removeStale removes a skipped view's figures left in out by an earlier
// invocation (they would pass for this one's) and says so.
func removeStale(out, view string, formats []string) []string {
	var notes []string
	for _, f := range formats {
		p := filepath.Join(out, view+"."+f)
		if err := os.Remove(p); err == nil {
			notes = append(notes, fmt.Sprintf("%s: removed %s from an earlier plot", view, filepath.ToSlash(p)))
		}
	}
	return notes
}
