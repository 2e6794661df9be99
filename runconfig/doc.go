// Package runconfig turns what a user asked for into what a run needs:
// the command line's flags, a YAML run configuration (File, unknown keys
// refused with their line) and an HPCC ns-3 simulator config.txt are
// merged (flags win), the workload is loaded (trace file, packet capture,
// DUMPI MPI trace or generator), the topology and the algorithms are
// built, and each run's replay.Config is assembled and validated
// (Setup.Config). Canonical is a run's configuration fully resolved and
// serialisable, with a Hash that names the run.
//
// run, compare and dataset share it, and so will sweeps; cmd/ccreplay
// only parses flags and prints. Errors are typed: a *clierr.UsageError (internal/clierr) is a bad
// command-line value (exit 2), a *clierr.InputError a bad input (exit 3).
package runconfig
