// Package reproduce runs the headline experiments of the papers ccreplay
// implements (docs/REFERENCES.md lists them) and sets each paper's number beside ccreplay's, with a verdict.
//
// An Experiment is data: the paper's setup written as run configurations
// (runconfig.File, the same keys as `ccreplay run --config`), at two scales
// (Small, runnable on a laptop in minutes, and Full, the paper's own
// sizes), and Claims: the paper's numbers with the rule that decides
// whether ccreplay reproduces each. Execute runs every configuration into
// one output folder (a run folder per configuration, the configurations as
// YAML files a user can rerun with `ccreplay run --config`, a report and a
// figure), written whole or not at all.
//
// A verdict never comes from tuning: presets are the ones the algorithms'
// packages document, each experiment uses the paper's setup as far as the
// paper states it, and what the paper leaves open is said in the
// experiment's Setup text. docs/REPRODUCTION.md is generated from these
// experiments at the small scale and records, per claim, the verdict and
// the cause of any difference.
package reproduce
