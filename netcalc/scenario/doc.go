// Package scenario runs the network-calculus model of CC-NetCalc
// (package netcalc, Lehal 2024, paper 003) on a workload and a topology
// as `ccreplay netcalc` does, into an output folder: it maps the workload
// onto the model's single path server (Section III-A; Path), sets the
// model congestion control's parameters through keyval tables (one per
// model CC: Params), writes the curves, the events, the figures
// (Figs. 7-10) and summary.json, and with Request.Compare replays the
// same workload packet by packet (runconfig, runner) and writes the model
// and the replay side by side (compare.parquet, compare_flows.parquet).
//
// Errors a user can fix are typed as the CLI maps them to exit codes: a
// bad command-line value is a usage error (exit 2), a workload the model
// cannot describe or a bad parameter an input error (exit 3).
package scenario
