// Package cli is `ccreplay estimate` as a Go call: the method's flags
// checked, the scenario resolved, the link simulations run here or
// through a link folder (resumable, or submitted to Slurm), the run
// folder written and its table printed; and the `estimate link` and
// `estimate status` subcommands on a link folder.
package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/estimate"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/internal/procstat"
	"github.com/ccreplay/ccreplay/internal/progress"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
)

// Env is what the estimate commands take from the command line: its
// streams, the command's context, status lines, the clock and the
// algorithms.
type Env struct {
	iostreams.Streams
	Ctx context.Context
	// NewProgress returns a status line on a terminal, nil otherwise
	// (nil NewProgress: never).
	NewProgress func() *progress.Line
	// Now is the wall clock of --stats (nil: time.Now).
	Now func() time.Time
	// Registry resolves --cca.
	Registry *cca.Registry
}

func (e Env) progress() *progress.Line {
	if e.NewProgress == nil {
		return nil
	}
	return e.NewProgress()
}

func (e Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

// CommandOptions are the flags of `ccreplay estimate`: the scenario's
// and the clustering's (Inputs), the outputs' and the method's.
type CommandOptions struct {
	Inputs
	// Out is the run folder to write.
	Out string
	// JSON prints the summary (or a Slurm submission) as JSON.
	JSON bool
	// Stats prints wall time, link simulations and peak memory on stderr.
	Stats bool
	// Force replaces a previous ccreplay output folder at Out.
	Force bool
	// Strict refuses damaged inputs and estimates with warnings.
	Strict bool
	// Jobs is how many link simulations run at once here (estimate.Options.Jobs).
	Jobs int
	// Aggregate and Combine are estimate.Options' (own or sample; max or
	// sum).
	Aggregate string
	Combine   string
	// DrawSeed seeds the draws at links not simulated when Set names
	// "draw-seed" (estimate.Options.DrawSeed); else the scenario's seed.
	DrawSeed uint64
	// Timings records each link simulation's wall time.
	Timings bool
	// LinksDir keeps the link simulations (resumable); Slurm submits
	// them as a job array (default folder: Out.links).
	LinksDir string
	Slurm    bool
	// SlurmOptions are the submission's (partition, time, chunk, ...).
	SlurmOptions batch.SlurmOptions
}

// MethodOptions checks the method's flags and converts them to
// estimate.Options (usage errors).
func (o *CommandOptions) MethodOptions() (estimate.Options, error) {
	if o.Tolerance < 0 {
		return estimate.Options{}, clierr.Usagef("--tolerance must not be negative, got %v (use --no-cluster to simulate every link)", o.Tolerance)
	}
	if o.PoolFlows < 1 {
		return estimate.Options{}, clierr.Usagef("--pool-flows must be at least 1, got %d", o.PoolFlows)
	}
	if o.Jobs < 1 {
		return estimate.Options{}, clierr.Usagef("--jobs must be at least 1, got %d", o.Jobs)
	}
	if o.Aggregate != estimate.AggregateOwn && o.Aggregate != estimate.AggregateSample {
		return estimate.Options{}, clierr.Usagef("--aggregate %q: want %s or %s", o.Aggregate, estimate.AggregateOwn, estimate.AggregateSample)
	}
	if o.Combine != estimate.CombineMax && o.Combine != estimate.CombineSum {
		return estimate.Options{}, clierr.Usagef("--combine %q: want %s or %s", o.Combine, estimate.CombineMax, estimate.CombineSum)
	}
	if o.ReverseAcks != estimate.ReverseAcksRate && o.ReverseAcks != estimate.ReverseAcksPackets {
		return estimate.Options{}, clierr.Usagef("--reverse-acks %q: want %s or %s", o.ReverseAcks, estimate.ReverseAcksRate, estimate.ReverseAcksPackets)
	}
	if o.SenderNICs != estimate.SenderNICsShares && o.SenderNICs != estimate.SenderNICsAlone && o.SenderNICs != estimate.SenderNICsShared {
		return estimate.Options{}, clierr.Usagef("--sender-nics %q: want %s, %s or %s", o.SenderNICs, estimate.SenderNICsShares, estimate.SenderNICsAlone, estimate.SenderNICsShared)
	}
	if o.SenderNICs == estimate.SenderNICsShared && !o.NoCluster {
		return estimate.Options{}, clierr.Usagef("--sender-nics shared needs --no-cluster: with clustering a flow would take several other flows' NIC delays from the pooled links (docs/ESTIMATE.md)")
	}
	opt := estimate.Options{Tolerance: o.Tolerance, PoolFlows: o.PoolFlows, Jobs: o.Jobs, Aggregate: o.Aggregate, Timings: o.Timings, Combine: o.Combine,
		ReverseAcks: o.ReverseAcks, SenderNICs: o.SenderNICs}
	if o.NoCluster {
		opt.Tolerance = -1
	}
	for _, name := range o.SimulateEvery {
		k, err := estimate.ParseLinkKind(name)
		if err != nil {
			return estimate.Options{}, clierr.Usagef("--simulate-every: %v", err)
		}
		if !slices.Contains(opt.SimulateEvery, k) {
			opt.SimulateEvery = append(opt.SimulateEvery, k)
		}
	}
	if slices.Contains(o.Set, "draw-seed") {
		opt.DrawSeed = &o.DrawSeed
	}
	return opt, nil
}

// resolve resolves the scenario's flags and the configuration file into
// a Setup, prints the input's warnings on stderr, and takes the merged
// Out and Seed (the file may give them).
func (o *CommandOptions) resolve(env Env) (*runconfig.Setup, error) {
	set := map[string]bool{}
	for _, k := range o.Set {
		set[k] = true
	}
	req := runconfig.Request{Config: o.Config, Trace: o.Trace, Workload: o.Workload, HPCCConfig: o.HPCC,
		CCA: o.CCA, CCAParams: o.CCAParams, Topology: o.Topology, Seed: o.Seed, Out: o.Out,
		Packets: string(replay.PacketsNone), MaxTime: o.MaxTime, Strict: o.Strict, Set: set}
	st, err := runconfig.Resolve(req, env.Registry)
	if err != nil {
		return nil, err
	}
	o.Out, o.Seed = st.Req.Out, st.Req.Seed
	for _, w := range st.Warnings {
		fmt.Fprintf(env.Err, "warning: %s: %s\n", st.TraceName, w)
	}
	return st, nil
}

// plan resolves the inputs into the setup, the configuration and the
// method's options.
func (o *CommandOptions) plan(env Env) (*runconfig.Setup, replay.Config, estimate.Options, error) {
	opt, err := o.MethodOptions()
	if err != nil {
		return nil, replay.Config{}, opt, err
	}
	st, err := o.resolve(env)
	if err != nil {
		return nil, replay.Config{}, opt, err
	}
	cfg, err := st.Config(st.Specs[0], o.Seed)
	return st, cfg, opt, err
}

// Run estimates the scenario and writes its run folder, or runs or
// submits its link simulations through the link folder (LinksDir,
// Slurm) and writes the folder once they are all done.
func (o *CommandOptions) Run(env Env) error {
	if o.SlurmOptions.Chunk < 1 || o.SlurmOptions.ArrayMax < 0 {
		return clierr.Usagef("--chunk must be at least 1 and --array-max not negative")
	}
	st, cfg, opt, err := o.plan(env)
	if err != nil {
		return err
	}
	stage, err := runfolder.Stage(o.Out, runfolder.StageOptions{Force: o.Force, Flag: "--out"})
	if errors.Is(err, runfolder.ErrRefused) {
		return clierr.Usage(err)
	} else if err != nil {
		return err
	}
	defer stage.Abort()
	prog := env.progress()
	if prog != nil {
		opt.Progress = func(done, total int) { prog.Set(fmt.Sprintf("link simulations %d/%d", done, total)) }
	}
	start := env.now()
	p, err := estimate.Prepare(cfg, st.Trace, opt)
	if err != nil {
		return err
	}
	res, err := o.estimate(env, st, p, prog)
	if err != nil || res == nil {
		return o.failed(err, stage)
	}
	for _, w := range res.Warnings {
		env.Warn(w)
	}
	if o.Strict && len(res.Warnings) > 0 {
		return fmt.Errorf("--strict: the estimate has %d warnings (above); nothing written", len(res.Warnings))
	}
	if o.Stats {
		fmt.Fprintf(env.Err, "wall %.3f s, %d of %d links simulated, %d events, peak RSS %s\n",
			env.now().Sub(start).Seconds(), res.Simulated, len(res.Links), res.Events, procstat.PeakRSS())
	}
	man, err := estimate.WriteFolder(stage.Dir, &cfg, filepath.ToSlash(st.TraceName), st.Warnings, opt, res)
	if err != nil {
		return err
	}
	if err := stage.Commit(); err != nil {
		return err
	}
	if o.JSON {
		return env.PrintJSON(man)
	}
	o.print(env, st, &cfg, res)
	return nil
}

// estimate runs the plan's link simulations, here or through the link
// folder, and assembles the estimate; nil (and no error) when a job array
// was submitted or is still running.
func (o *CommandOptions) estimate(env Env, st *runconfig.Setup, p *estimate.Plan, prog *progress.Line) (*estimate.Result, error) {
	if o.linksDir() == "" {
		res, err := p.Run(env.Ctx)
		prog.Clear()
		return res, err
	}
	prog.Clear()
	sims, err := o.viaLinks(env, st, p)
	if err != nil || sims == nil {
		return nil, err
	}
	return p.Assemble(sims), nil
}

// failed explains an estimate that did not finish. An interrupted one
// says what was kept: nothing new, and Out as it was.
func (o *CommandOptions) failed(err error, stage *runfolder.Staged) error {
	return runconfig.Unfinished(err, o.Out, stage)
}

// print writes the estimate's table on stdout.
func (o *CommandOptions) print(env Env, st *runconfig.Setup, cfg *replay.Config, res *estimate.Result) {
	fmt.Fprintf(env.Out, "ccreplay estimate: %s under %s on %s, seed %d\n", st.TraceName, cfg.CC.Name, cfg.Topology.Describe(), o.Seed)
	fmt.Fprintf(env.Out, "%d links carry traffic, %d simulated (%d events); outputs in %s\n\n", len(res.Links), res.Simulated, res.Events, o.Out)
	fmt.Fprintln(env.Out, "(estimated: FCT, slowdown and goodput; packet, ECN, queue and PFC counters are not, see "+runfolder.LinksFile+")")
	metrics.WriteTable(env.Out, res.Summary)
}

// WriteEstimate estimates one resolved configuration into dir (a sweep
// point of kind estimate).
func WriteEstimate(ctx context.Context, st *runconfig.Setup, cfg replay.Config, opt estimate.Options, dir string) error {
	res, err := estimate.Run(ctx, cfg, st.Trace, opt)
	if err != nil {
		return err
	}
	_, err = estimate.WriteFolder(dir, &cfg, filepath.ToSlash(st.TraceName), st.Warnings, opt, res)
	return err
}
