package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/plot"
)

func init() { registerCommand(newPlotCmd) }

// plotViews are the views of `ccreplay plot`, in the order they are drawn.
var plotViews = []string{"fct", "slowdown", "queue", "rate", "alltoall"}

// plotOptions are the flags of `ccreplay plot`.
type plotOptions struct {
	s        *streams
	Out      string
	Formats  []string
	Views    []string
	Bins     int
	TopPorts int
	TopFlows int
	Buckets  int
	JSON     bool
	Pool     string // auto, yes or no
}

const plotExamples = `  # two algorithms on an incast with the per-packet log, then every figure
  ccreplay compare --workload incast:n=16,size=1MB --cca dcqcn,hpcc --packets data --out cmp
  ccreplay plot cmp -o figs

  # MPI_Alltoall latency per message size (log-log), SVG only
  ccreplay compare --workload 'osu-alltoall:nodes=4,ppn=2,sizes=1..64KiB' --cca dcqcn,hpcc --out osu
  ccreplay plot osu -o figs-osu --views alltoall --format svg

  # single runs side by side, list the files as JSON
  ccreplay run --workload incast:n=8,size=1MB --cca dcqcn --packets data --out runA
  ccreplay run --workload incast:n=8,size=1MB --cca hpcc --packets data --out runB
  ccreplay plot runA runB -o figs-ab --json`

func newPlotCmd(s *streams) *cobra.Command {
	o := &plotOptions{s: s}
	c := &cobra.Command{
		Use:   "plot RUN_DIR... [-o DIR] [flags]",
		Short: "Draw PNG/SVG figures of runs: FCT CDF, slowdown, queues, rates, MPI_Alltoall latency",
		Long: `Reads run folders (written by ccreplay run, or a ccreplay compare output folder,
whose cca=NAME/seed=N/ runs are all taken) and writes one file per view and format
into DIR:
  fct_cdf            CDF of flow completion time, one curve per run
  slowdown_buckets   p50/p95/p99 slowdown per flow-size bucket (equal counts)
  queue_time         queue length over time of the most congested switch ports
                     (needs packets.parquet: run with --packets data)
  rate_time          sending rate over time of the largest flows (decisions.parquet,
                     else first-hop bytes from packets.parquet)
  alltoall_latency   MPI_Alltoall latency per message size, log-log (osu-alltoall)
A view that does not apply (no packets.parquet, no all-to-all) is skipped with a
note; that is not an error. See docs/PLOTS.md.`,
		Example: plotExamples,
		Args:    usageArgs(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("give at least one run folder: ccreplay plot RUN_DIR... -o DIR")
			}
			if err := o.validate(); err != nil {
				return err
			}
			return o.run(args)
		},
	}
	f := c.Flags()
	f.StringVarP(&o.Out, "out", "o", "plots", "output folder for the figures")
	f.StringSliceVar(&o.Formats, "format", []string{"png", "svg"}, "image formats: png, svg")
	f.StringSliceVar(&o.Views, "views", plotViews, "views to draw: "+strings.Join(plotViews, ", "))
	f.IntVar(&o.Bins, "bins", plot.DefaultBins, "time bins over the longest run (count), queue and rate views")
	f.IntVar(&o.TopPorts, "top-ports", plot.DefaultTopPorts, "switch ports in the queue view, by max queue (count)")
	f.IntVar(&o.TopFlows, "top-flows", plot.DefaultTopFlows, "flows per run in the rate view, by size (count)")
	f.IntVar(&o.Buckets, "buckets", metrics.DefaultBuckets, "flow-size buckets of equal count in the slowdown view")
	f.BoolVar(&o.JSON, "json", false, "print the files written and the views skipped as JSON")
	f.StringVar(&o.Pool, "pool", "auto", "one curve per algorithm with its seeds' flows pooled (yes), one per run (no), or yes when an algorithm has more than 2 runs (auto); time views then draw each algorithm's first run")
	return c
}

func (o *plotOptions) validate() error {
	for _, f := range o.Formats {
		if !slices.Contains(plot.Formats, f) {
			return usageErrorf("--format %q: want png or svg", f)
		}
	}
	if len(o.Formats) == 0 {
		return usageErrorf("--format: give png, svg or both")
	}
	for _, v := range o.Views {
		if !slices.Contains(plotViews, v) {
			return usageErrorf("--views %q: want some of %s", v, strings.Join(plotViews, ", "))
		}
	}
	if len(o.Views) == 0 {
		return usageErrorf("--views: give at least one of %s", strings.Join(plotViews, ", "))
	}
	if !slices.Contains([]string{"auto", "yes", "no"}, o.Pool) {
		return usageErrorf("--pool %q: want auto, yes or no", o.Pool)
	}
	for _, n := range []struct {
		name string
		v    int
	}{{"bins", o.Bins}, {"top-ports", o.TopPorts}, {"top-flows", o.TopFlows}, {"buckets", o.Buckets}} {
		if n.v < 1 || n.v > 100000 {
			return usageErrorf("--%s must be between 1 and 100000, got %d", n.name, n.v)
		}
	}
	return nil
}

// pooling decides --pool: auto pools when an algorithm has more than two
// runs (a figure of 3 algorithms x 5 seeds is 15 curves otherwise).
func (o *plotOptions) pooling(runs []*plot.Run) bool {
	switch o.Pool {
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

// plotReport is the --json output.
type plotReport struct {
	Runs    []string        `json:"runs"`
	Files   []string        `json:"files"`
	Skipped []*plot.Skipped `json:"skipped"`
	Notes   []string        `json:"notes"`
}

func (o *plotOptions) run(args []string) error {
	dirs, err := plot.ExpandRunDirs(args)
	if err != nil {
		return clierr.Input(err)
	}
	if o.s.ErrIsTerminal {
		fmt.Fprintf(o.s.Err, "plot: reading %d runs\n", len(dirs))
	}
	runs, err := plot.LoadRuns(dirs)
	if err != nil {
		return clierr.Input(err)
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	topt := plot.TimeOptions{Bins: o.Bins, TopPorts: o.TopPorts, TopFlows: o.TopFlows}
	dist, single := runs, runs // the runs of the distribution and the time views
	if o.pooling(runs) {
		dist, single = plot.PoolSeeds(runs)
	}
	rep := plotReport{Files: []string{}, Skipped: []*plot.Skipped{}, Notes: []string{}}
	for _, d := range dirs {
		rep.Runs = append(rep.Runs, filepath.ToSlash(d))
	}
	for _, v := range plotViews {
		if !slices.Contains(o.Views, v) {
			continue
		}
		if o.s.ErrIsTerminal {
			fmt.Fprintf(o.s.Err, "plot: %s\n", v)
		}
		var fig plot.Figure
		switch v {
		case "fct":
			fig, err = plot.FCTCDF(dist)
		case "slowdown":
			fig, err = plot.Slowdown(dist, o.Buckets)
		case "queue":
			fig, err = plot.QueueOverTime(single, topt)
		case "rate":
			fig, err = plot.RateOverTime(single, topt)
		case "alltoall":
			fig, err = plot.AlltoallLatency(single)
		}
		if len(single) < len(runs) && err == nil {
			switch v {
			case "fct", "slowdown":
				fig.Notes = append(fig.Notes, "each algorithm's runs pooled into one curve (--pool)")
			default:
				fig.Notes = append(fig.Notes, "each algorithm's first run only (--pool)")
			}
		}
		var sk *plot.Skipped
		if errors.As(err, &sk) {
			rep.Skipped = append(rep.Skipped, sk)
			// A figure left from an earlier invocation would pass for
			// this one's: remove it.
			for _, f := range o.Formats {
				p := filepath.Join(o.Out, sk.View+"."+f)
				if rmErr := os.Remove(p); rmErr == nil {
					rep.Notes = append(rep.Notes, fmt.Sprintf("%s: removed %s from an earlier plot", sk.View, filepath.ToSlash(p)))
				}
			}
			continue
		}
		if err != nil {
			return clierr.Input(err)
		}
		for _, n := range fig.Notes {
			rep.Notes = append(rep.Notes, fig.Name+": "+n)
		}
		paths, err := plot.WriteFigure(o.Out, fig, o.Formats)
		for _, p := range paths {
			rep.Files = append(rep.Files, filepath.ToSlash(p))
		}
		if err != nil {
			return err
		}
	}
	if o.JSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintln(o.s.Out, string(b))
	} else {
		fmt.Fprintf(o.s.Out, "ccreplay plot: %d runs, %d files in %s\n", len(runs), len(rep.Files), o.Out)
		for _, f := range rep.Files {
			fmt.Fprintf(o.s.Out, "  wrote %s\n", f)
		}
		for _, n := range rep.Notes {
			fmt.Fprintf(o.s.Out, "  note: %s\n", n)
		}
		for _, sk := range rep.Skipped {
			fmt.Fprintf(o.s.Out, "  skipped %s: %s\n", sk.View, sk.Reason)
		}
	}
	if len(rep.Files) == 0 {
		return inputErrorf("nothing to plot: every view was skipped")
	}
	return nil
}
