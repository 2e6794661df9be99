package estimate

import (
	"context"
	"path/filepath"
	"slices"

	"github.com/ccreplay/ccreplay/batch/pool"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Method names the estimation method in summary.json.
const Method = "link-decomposition"

// Manifest is the summary.json of an estimate of tr (named traceName)
// under cfg with opt: the run's manifest (configuration, metrics of the
// estimated flows) with "mode": "estimate", the method's settings and
// the estimate's warnings; Files lists what Write writes.
func Manifest(cfg *replay.Config, traceName string, opt Options, res *Result) runfolder.Manifest {
	c := *cfg
	c.Packets = replay.PacketsNone
	m := runner.NewManifest(&c, traceName, &replay.Result{SimEnd: res.SimEnd, Events: res.Events}, res.Summary)
	m.Files = []string{runfolder.FlowsFile, runfolder.MessagesFile, runfolder.PortsFile, runfolder.LinksFile, runfolder.SummaryFile}
	m.Warnings = append([]string(nil), res.Warnings...)
	m.Mode = runfolder.ModeEstimate
	// NB: Run has refused settings that are none of their choices.
	o, _ := opt.withDefaults()
	// A negative PoolFlows (one link per cluster) is echoed as 1.
	pool := max(o.PoolFlows, 1)
	tol := opt.Tolerance
	if tol < 0 {
		tol = -1
	}
	m.Estimate = &runfolder.EstimateEcho{
		Method: Method, Tolerance: tol, PoolFlows: pool, Aggregate: o.Aggregate, Combine: o.Combine, DrawSeed: cfg.Seed, ReverseAcks: o.ReverseAcks, SenderNICs: o.SenderNICs, FastFactor: FastFactor,
		BucketMinFlows: BucketMin, BucketSpread: BucketSpread, Links: len(res.Links), LinksSimulated: res.Simulated,
	}
	if o.DrawSeed != nil {
		m.Estimate.DrawSeed = *o.DrawSeed
	}
	for _, k := range o.SimulateEvery {
		m.Estimate.SimulateEvery = append(m.Estimate.SimulateEvery, k.String())
	}
	return m
}

// WriteFiles writes the estimate's Parquet files into dir (a staged run
// folder): flows.parquet, messages.parquet, an empty ports.parquet (an
// estimate has no switch ports of its own; links.parquet says what each
// link's simulation saw) and links.parquet, up to jobs of them at once
// (each file is the same whatever jobs is). Write the manifest last.
func WriteFiles(dir string, res *Result, jobs int) error {
	write := []func() error{
		func() error { return output.WriteRows(filepath.Join(dir, runfolder.FlowsFile), res.Flows) },
		func() error { return output.WriteRows(filepath.Join(dir, runfolder.MessagesFile), res.Messages) },
		func() error { return output.WriteRows(filepath.Join(dir, runfolder.PortsFile), []v2.PortRow{}) },
		func() error { return output.WriteRows(filepath.Join(dir, runfolder.LinksFile), res.Links) },
	}
	// NB: pool.Run returns the error of the first file in this order
	// that failed, whatever the order they ran in.
	return pool.Run(context.Background(), len(write), pool.Options{Parallel: jobs}, func(_ context.Context, i int) error { return write[i]() })
}

// WriteFolder writes an estimate's files (opt.Jobs at once) and then its
// summary.json (the folder's completeness marker) into dir and returns
// the manifest; warnings are the inputs', listed before the estimate's
// own.
func WriteFolder(dir string, cfg *replay.Config, traceName string, warnings []string, opt Options, res *Result) (runfolder.Manifest, error) {
	if err := WriteFiles(dir, res, opt.Jobs); err != nil {
		return runfolder.Manifest{}, err
	}
	man := Manifest(cfg, traceName, opt, res)
	man.Warnings = append(slices.Clone(warnings), man.Warnings...)
	return man, runfolder.Write(dir, &man)
}
