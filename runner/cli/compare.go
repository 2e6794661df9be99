package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/compare"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// CompareOptions are the flags that are `ccreplay compare`'s own; the
// others are the run flags (runconfig.Flags), CCA set to CCAs.
type CompareOptions struct {
	// CCAs are the algorithms, comma-separated (--cca).
	CCAs string
	// Seeds are N, A..B or a comma list (compare.ParseSeeds).
	Seeds string
	// Parallel is the number of runs at once.
	Parallel int
	// SameNetwork is --same-network's ALGO ("" or " " given bare: the
	// first algorithm); the run flags' Set["same-network"] says whether it
	// was given.
	SameNetwork string
}

// setup checks the comparison's flags, resolves the setup and plans the
// runs.
func (o *CompareOptions) setup(f *runconfig.Flags, env Env) (*compare.Comparison, error) {
	seeds, err := compare.ParseSeeds(o.Seeds)
	if err != nil {
		return nil, clierr.Usagef("--seeds: %v", err)
	}
	if o.Parallel < 1 {
		return nil, clierr.Usagef("--parallel must be >= 1, got %d", o.Parallel)
	}
	f.CCA = o.CCAs
	st, err := f.Resolve(true, env.Registry, env.Streams.Err)
	if err != nil {
		return nil, err
	}
	if err := env.CheckMemory(f.MaxMemory, st.Topology, st.Trace, min(o.Parallel, len(st.Specs)*len(seeds))); err != nil {
		return nil, err
	}
	var held *string
	if f.Set["same-network"] {
		held = &o.SameNetwork
	}
	return compare.New(st, seeds, held)
}

// Compare runs every (algorithm, seed) pair of the run flags f and the
// comparison's o into f.Out, whole or not at all, and prints the
// comparison (JSON with --json).
func Compare(ctx context.Context, f *runconfig.Flags, o *CompareOptions, env Env) error {
	cmp, err := o.setup(f, env)
	if err != nil {
		return err
	}
	stage, err := f.Stage()
	if err != nil {
		return err
	}
	defer stage.Abort()
	n, err := cmp.Execute(ctx, stage.Dir, o.Parallel, func(c batch.Counts) {
		env.Progress.Set(fmt.Sprintf("compare: %d/%d runs done", c.Done, c.Total))
	})
	env.Progress.Clear()
	if errors.Is(err, context.Canceled) {
		kept := "nothing written"
		if stage.Replaces {
			kept += ", " + f.Out + " still holds the previous comparison"
		}
		return clierr.Interruptedf("interrupted after %d of %d runs; %s", n.Done, len(cmp.Runs), kept)
	}
	if err != nil {
		return err
	}
	if err := stage.Commit(); err != nil {
		return err
	}
	for _, r := range cmp.Runs {
		if r.Collapse != "" {
			fmt.Fprintf(env.Streams.Err, "warning: %s seed %d: %s\n", r.Spec.Name, r.Seed, r.Collapse)
		}
	}
	if f.JSON {
		return cmp.WriteJSON(env.Streams.Out, f.Out)
	}
	return printComparison(env, cmp, f.Out)
}

// print prints the comparison's header, network differences, tables and,
// for the OSU benchmark, its latency table.
func printComparison(env Env, cmp *compare.Comparison, out string) error {
	st, w := cmp.Setup, env.Streams.Out
	fmt.Fprintf(w, "ccreplay compare: %s on %s, %d algorithms x %d seeds; outputs in %s\n\n", st.TraceName, st.Topology.Describe(), len(cmp.Specs), len(cmp.Seeds), out)
	cmp.WriteNetwork(w)
	cmp.WriteTable(w)
	cmp.WriteSizeTable(w)
	wl := st.Req.Workload // the flag's or the configuration file's
	if !gen.IsOSU(wl) {
		return nil
	}
	pts := make([][][]gen.OSUPoint, len(cmp.Specs))
	var labels []string
	for i, sp := range cmp.Specs {
		labels = append(labels, sp.Name)
		for j, seed := range cmp.Seeds {
			d := &cmp.Runs[i*len(cmp.Seeds)+j].Digest
			if d.OSUErr != nil {
				return fmt.Errorf("%s seed %d: %w", sp.Name, seed, d.OSUErr)
			}
			pts[i] = append(pts[i], d.OSU)
		}
	}
	gen.WriteOSUTable(w, labels, pts)
	return nil
}
