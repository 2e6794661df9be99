// Package compare runs one scenario under several algorithms and seeds
// side by side: a plan of (algorithm, seed) runs over the batch executor
// into a hive tree (cca=NAME/seed=N/), comparison.parquet (one row per
// run and flow-size bucket) and comparison.json, and the tables
// `ccreplay compare` prints. The network settings each preset brings are
// listed where they differ, or held at one algorithm's (SameNetwork).
package compare

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/version"
)

// Run is one (algorithm, seed) run of a comparison.
type Run struct {
	Spec cca.Spec
	// Part is the algorithm as its folder names it: cca=PART.
	Part string
	Seed uint64
	// Rel is the run's folder inside the comparison (cca=PART/seed=N).
	Rel string
	// Sum is the run's metrics (its summary.json's) and Digest what the
	// tables read of its message rows, once it has run.
	Sum    metrics.Summary
	Digest Digest
	// Collapse is the run's collapse warning, "" when none
	// (runner.CheckCollapse).
	Collapse string
}

// Digest is all a finished run keeps of its message rows for the tables
// printed once every run is done: the rows themselves (about 100 bytes a
// message) are dropped as soon as the run is written, so that a
// comparison's memory does not grow with the rows of its finished runs
// (issue 33, finding 4). Its size depends on the workload's message sizes
// and collectives, not on its messages.
type Digest struct {
	// Messages is the number of the run's message rows.
	Messages int
	// BySize is metrics.BySize of the rows (empty without messages).
	BySize metrics.SizeTable
	// OSU is the osu-alltoall benchmark's report (mean latency per
	// message size) when the workload is that benchmark, or OSUErr why
	// it could not be made (a collective that did not finish).
	OSU    []gen.OSUPoint
	OSUErr error
}

// NewDigest digests a run's message rows of the workload spec wl (the
// --workload flag's or the configuration file's).
func NewDigest(wl string, msgs []v2.MessageRow) Digest {
	d := Digest{Messages: len(msgs), BySize: metrics.BySize(msgs)}
	if !gen.IsOSU(wl) {
		return d
	}
	d.OSU, d.OSUErr = runner.OSULatency(wl, msgs)
	return d
}

// Comparison is a planned comparison: every algorithm of a resolved setup
// under every seed.
type Comparison struct {
	Setup *runconfig.Setup
	// Specs are the algorithms as run (with the held network settings
	// under SameNetwork); Parts their partition names.
	Specs []cca.Spec
	Parts []string
	Seeds []uint64
	// Held names the algorithm whose network settings every run uses
	// ("" when each runs its own).
	Held string
	// Diffs are the network settings that differ between the algorithms.
	Diffs []runfolder.SettingDiff
	// Runs are algorithm-major: Runs[i*len(Seeds)+j] is algorithm i
	// under seed j.
	Runs []*Run

	configs []replay.Config
}

// New plans st's algorithms (st.Specs, as --cca typed them in st.Names)
// under seeds. sameNetwork, when not nil, names the algorithm whose
// network settings every run takes ("" is the first; see SameNetwork).
func New(st *runconfig.Setup, seeds []uint64, sameNetwork *string) (*Comparison, error) {
	c := &Comparison{Setup: st, Specs: st.Specs, Seeds: seeds}
	if sameNetwork != nil {
		k, err := SameNetwork(strings.TrimSpace(*sameNetwork), st.Names, st.Specs)
		if err != nil {
			return nil, err
		}
		c.Held = st.Names[k]
		c.Specs = slices.Clone(st.Specs)
		for i := range c.Specs {
			c.Specs[i] = HoldNetwork(c.Specs[i], st.Specs[k], st.Specs)
		}
	}
	for i, spec := range c.Specs {
		c.Parts = append(c.Parts, PartName(st.Names[i]))
		for _, seed := range seeds {
			rel := filepath.Join("cca="+c.Parts[i], fmt.Sprintf("seed=%d", seed))
			c.Runs = append(c.Runs, &Run{Spec: spec, Part: c.Parts[i], Seed: seed, Rel: rel})
		}
	}
	c.configs = make([]replay.Config, len(c.Runs))
	for i, r := range c.Runs {
		var err error
		if c.configs[i], err = st.Config(r.Spec, r.Seed); err != nil {
			return nil, err
		}
	}
	first := make([]replay.Config, len(c.Specs)) // one per algorithm: seeds share the network
	for i := range c.Specs {
		first[i] = c.configs[i*len(seeds)]
	}
	c.Diffs = NetworkDiffs(c.Parts, first)
	return c, nil
}

// Execute runs every run into dir (the comparison's staged folder), jobs
// at a time, then writes comparison.parquet and comparison.json there.
// Independent deterministic runs: the order they finish in does not
// matter, and the outputs are the same for any jobs. The first failure
// (or a cancelled ctx) cancels the runs still going; the counts say how
// many were done.
func (c *Comparison) Execute(ctx context.Context, dir string, jobs int, progress func(batch.Counts)) (batch.Counts, error) {
	st := c.Setup
	pl := &batch.Plan{}
	for i, r := range c.Runs {
		pl.Items = append(pl.Items, batch.Item{
			Dir:    filepath.ToSlash(r.Rel),
			Labels: []batch.Label{{Key: "cca", Value: r.Part}, {Key: "seed", Value: strconv.FormatUint(r.Seed, 10)}},
			Run: func(ctx context.Context, dir string) error {
				sc := &runner.Scenario{Config: &c.configs[i], Trace: st.Trace, TraceName: filepath.ToSlash(st.TraceName), Warnings: st.Warnings}
				res, man, err := runner.Run(ctx, sc, dir, func(_ string, res *replay.Result, man *runner.Manifest) error {
					r.Collapse = runner.CheckCollapse(&c.configs[i], st.Trace, res, man)
					return nil
				})
				if err != nil && !errors.Is(err, context.Canceled) {
					return fmt.Errorf("%s seed %d: %w", r.Spec.Name, r.Seed, err)
				}
				if err == nil {
					// Of the rows, only the digest outlives the run.
					r.Digest, r.Sum = NewDigest(st.Req.Workload, res.Messages), man.Summary
				}
				return err
			},
		})
	}
	n, _, err := batch.Run(ctx, dir, pl, batch.Options{Jobs: jobs, Progress: func(n batch.Counts, _ time.Duration) {
		if progress != nil {
			progress(n)
		}
	}})
	if err != nil {
		return n, err
	}
	if err := output.WriteRows(filepath.Join(dir, runfolder.ComparisonFile), Rows(c.Runs)); err != nil {
		return n, err
	}
	coll := runfolder.Collection{Tool: "ccreplay " + version.Version, Trace: filepath.ToSlash(st.TraceName), Topology: st.Topology.Name,
		NetworkDifferences: c.Diffs, SameNetwork: c.Held}
	for _, r := range c.Runs {
		coll.Runs = append(coll.Runs, filepath.ToSlash(r.Rel))
	}
	return n, runfolder.WriteCollection(dir, &coll)
}

// ParseSeeds reads a seed list: "7", "1..5" (at most 10000 seeds) or
// "1,4,9" (no seed twice).
func ParseSeeds(s string) ([]uint64, error) {
	var out []uint64
	if a, b, ok := strings.Cut(s, ".."); ok {
		lo, err1 := strconv.ParseUint(strings.TrimSpace(a), 10, 64)
		hi, err2 := strconv.ParseUint(strings.TrimSpace(b), 10, 64)
		if err1 != nil || err2 != nil || hi < lo || hi-lo >= 10000 {
			return nil, fmt.Errorf("invalid seed range %q (want A..B with A <= B, at most 10000 seeds)", s)
		}
		for x := lo; x <= hi; x++ {
			out = append(out, x)
		}
		return out, nil
	}
	seen := map[uint64]bool{}
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("invalid seed %q in %q", f, s)
		}
		if seen[x] {
			return nil, fmt.Errorf("seed %d listed twice in %q", x, s)
		}
		seen[x] = true
		out = append(out, x)
	}
	return out, nil
}

// PartName is an algorithm's hive partition value: ':' becomes '-'
// (dcqcn:hpcc is cca=dcqcn-hpcc).
func PartName(spec string) string { return strings.ReplaceAll(spec, ":", "-") }
