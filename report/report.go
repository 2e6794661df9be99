// Package report writes one self-contained HTML page about ccreplay
// outputs (`ccreplay report`, docs/REPORT.md): a run folder, a compare
// tree, a sweep, a reproduce folder or an estimate, or several of them.
//
// The page says what was run (the command, the version, seed, topology and
// every effective parameter; for several runs the settings that differ),
// the headline metrics as `ccreplay metrics` prints them (same numbers,
// same units), the per-size-bucket table, the warnings, and plot's figures
// drawn as inline SVG (FCT CDF, slowdown per bucket, queue and rate over
// time from packets.parquet, the OSU MPI_Alltoall curve); for a sweep each
// headline metric against each axis, one line per algorithm, and the table
// of points; for a reproduction the paper's numbers beside ours with the
// verdicts; for an estimate the links simulated and its warnings.
//
// The page needs nothing but itself: no script, no font, no style sheet or
// image is fetched (a content security policy forbids it), figures are SVG
// in the page, tables are real tables. It summarises: no packet row is
// ever written into it, long curves are thinned to what their pixels show.
// The same inputs and options give the same bytes (no time stamp, no map
// order).
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/plot"
	"github.com/ccreplay/ccreplay/reproduce"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/sweep"
)

// Kind is what a folder given to the report is.
type Kind string

// The kinds of folders a report reads.
const (
	// KindRun is a run folder (summary.json, ccreplay run).
	KindRun Kind = "run"
	// KindEstimate is a run folder of ccreplay estimate ("mode":
	// "estimate" in summary.json, links.parquet).
	KindEstimate Kind = "estimate"
	// KindComparison is a compare tree (comparison.json).
	KindComparison Kind = "comparison"
	// KindRuns is any other folder with run folders below it.
	KindRuns Kind = "runs"
	// KindSweep is a sweep folder (sweep.json).
	KindSweep Kind = "sweep"
	// KindReproduce is a reproduce folder (reproduction.json).
	KindReproduce Kind = "reproduce"
)

// Options tune the report. The zero value is usable.
type Options struct {
	// Generator names the program in the page ("ccreplay 0.1.0 (commit)");
	// the command passes version.String(). Empty: "ccreplay".
	Generator string
	// Command is the report's own command line, shown in the page; empty:
	// not shown.
	Command string
	// Buckets is the number of flow-size buckets of the slowdown figure,
	// count (metrics.DefaultBuckets when <= 0). The bucket tables are
	// summary.json's.
	Buckets int
	// Time tunes the queue and rate figures (plot's defaults when zero).
	Time plot.TimeOptions
}

// Input is one folder given to the report and its kind.
type Input struct {
	Dir  string `json:"dir"`
	Kind Kind   `json:"kind"`
}

// Result is what a report holds: the --json output of the command.
type Result struct {
	// Path is the file written ("" from Build).
	Path      string  `json:"path,omitempty"`
	Bytes     int     `json:"bytes"`
	Generator string  `json:"generator"`
	Inputs    []Input `json:"inputs"`
	// Runs is the number of run folders read.
	Runs int `json:"runs"`
	// Sections, Figures and Tables are the ids of the page's sections,
	// figures and tables, in order.
	Sections []string `json:"sections"`
	Figures  []string `json:"figures"`
	Tables   []string `json:"tables"`
	// Skipped are the figures that do not apply (no packets.parquet, no
	// MPI_Alltoall), with why.
	Skipped []*plot.Skipped `json:"skipped"`
	// Warnings are the warnings shown on the page.
	Warnings []string `json:"warnings"`
}

// ErrWrite marks a failure to write the report (not a fault of its
// inputs).
var ErrWrite = errors.New("cannot write")

// ErrNotAnOutput marks a folder that is none of the kinds.
var ErrNotAnOutput = errors.New("not a ccreplay output folder")

// Detect says what dir is: a reproduce folder, a sweep, a comparison, an
// estimate, a run folder or a folder with run folders below it, in that
// order of precedence (a reproduce folder also has comparison.json). A
// folder that is none of these is an error naming it.
func Detect(dir string) (Kind, error) {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s: no such folder", dir)
	case err != nil:
		return "", err
	case !st.IsDir():
		return "", fmt.Errorf("%s: %w: a file, give a folder (a run, compare, sweep, reproduce or estimate output)", dir, ErrNotAnOutput)
	}
	has := func(name string) bool {
		st, err := os.Stat(filepath.Join(dir, name))
		return err == nil && st.Mode().IsRegular()
	}
	switch {
	case has(reproduce.ReportFile):
		return KindReproduce, nil
	case has(sweep.ManifestFile):
		return KindSweep, nil
	case has(runfolder.CollectionFile):
		return KindComparison, nil
	case has(runfolder.SummaryFile):
		m, err := runfolder.ReadManifest(dir)
		if err != nil {
			return "", err
		}
		if m.Mode == runfolder.ModeEstimate {
			return KindEstimate, nil
		}
		return KindRun, nil
	}
	if _, err := runfolder.Find(dir); err != nil {
		if errors.Is(err, runfolder.ErrIncomplete) {
			return "", err
		}
		return "", fmt.Errorf("%s: %w: no %s, %s, %s or %s in it and no run folder below it",
			dir, ErrNotAnOutput, runfolder.SummaryFile, runfolder.CollectionFile, sweep.ManifestFile, reproduce.ReportFile)
	}
	return KindRuns, nil
}

// Write builds the report of dirs and writes it to path atomically (a
// temporary file renamed into place).
func Write(path string, dirs []string, opt Options) (*Result, error) {
	b, res, err := Build(dirs, opt)
	if err != nil {
		return nil, err
	}
	if err := output.WriteFileAtomic(path, b); err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrWrite, path, err)
	}
	res.Path = filepath.ToSlash(path)
	return res, nil
}

// Build returns the page of dirs and what it holds. The run folders of
// every run, comparison, estimate and tree argument form one set of runs
// (their figures overlay each other, their tables have a column per run);
// each sweep and reproduce folder has its own section.
func Build(dirs []string, opt Options) ([]byte, *Result, error) {
	if len(dirs) == 0 {
		return nil, nil, errors.New("no folder to report on")
	}
	if opt.Generator == "" {
		opt.Generator = "ccreplay"
	}
	if opt.Buckets <= 0 {
		opt.Buckets = metrics.DefaultBuckets
	}
	res := &Result{Generator: opt.Generator, Sections: []string{}, Figures: []string{}, Tables: []string{},
		Skipped: []*plot.Skipped{}, Warnings: []string{}}
	var runArgs []Input
	var others []Input
	seen := map[string]bool{}
	for _, d := range dirs {
		c := filepath.Clean(d)
		if seen[c] {
			continue
		}
		seen[c] = true
		k, err := Detect(d)
		if err != nil {
			return nil, nil, err
		}
		in := Input{Dir: filepath.ToSlash(d), Kind: k}
		res.Inputs = append(res.Inputs, in)
		switch k {
		case KindSweep, KindReproduce:
			others = append(others, in)
		default:
			runArgs = append(runArgs, in)
		}
	}
	p := &page{res: res}
	colours, err := algorithmColours(runArgs, others)
	if err != nil {
		return nil, nil, err
	}
	if len(runArgs) > 0 {
		if err := p.runs(runArgs, colours, opt); err != nil {
			return nil, nil, err
		}
	}
	for i, in := range others {
		var err error
		switch in.Kind {
		case KindSweep:
			err = p.sweep(fmt.Sprintf("sweep-%d", i+1), in.Dir, colours)
		case KindReproduce:
			err = p.reproduction(fmt.Sprintf("reproduce-%d", i+1), in.Dir)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	title, intro := p.heading(opt)
	b := p.html(title, intro)
	res.Bytes = len(b)
	return b, res, nil
}

// heading is the page's title and its first lines: what it is about and
// what wrote it.
func (p *page) heading(opt Options) (string, string) {
	var kinds []string
	for _, in := range p.res.Inputs {
		kinds = append(kinds, string(in.Kind))
	}
	title := "ccreplay report: " + strings.Join(uniq(kinds), ", ")
	var b strings.Builder
	b.WriteString("<p>Written by <code>" + esc(opt.Generator) + "</code> from ")
	for i, in := range p.res.Inputs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "<code>%s</code> (%s)", esc(in.Dir), esc(string(in.Kind)))
	}
	b.WriteString(". Durations in ns, us or ms, sizes in bytes with binary prefixes, rates in bit/s, as <code>ccreplay metrics</code> prints them.</p>\n")
	if opt.Command != "" {
		fmt.Fprintf(&b, "<p>Report command: <code>%s</code></p>\n", esc(opt.Command))
	}
	return title, b.String()
}

// algorithmColours numbers every algorithm of the page's runs, sweeps and
// reproductions (plot's colour order), so that an algorithm has one colour
// in every figure.
func algorithmColours(runArgs, others []Input) (map[string]int, error) {
	var names []string
	var args []string
	for _, in := range runArgs {
		args = append(args, in.Dir)
	}
	if len(args) > 0 {
		found, err := runfolder.Expand(args)
		if err != nil {
			return nil, err
		}
		for _, d := range found {
			m, err := runfolder.ReadManifest(d.Dir)
			if err != nil {
				return nil, err
			}
			names = append(names, m.CCA)
		}
	}
	for _, in := range others {
		if in.Kind != KindSweep {
			continue
		}
		m, err := sweep.ReadManifest(in.Dir)
		if err != nil {
			return nil, err
		}
		for _, a := range m.Axes {
			if a.Key == "cca" {
				for _, v := range a.Values {
					names = append(names, v.String())
				}
			}
		}
	}
	return plot.AlgorithmColours(names), nil
}

// readJSON reads a JSON file of an output folder (bounded like a run's
// JSON files), naming the file in errors.
func readJSON(path, what string, v any) error {
	b, err := limits.ReadFile(path, what, limits.MaxRunJSONBytes, true)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %s", path, limits.JSONError(err))
	}
	return nil
}

func uniq(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
