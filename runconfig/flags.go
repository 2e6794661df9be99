package runconfig

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/runfolder"
)

// Flags are the command-line values of the commands that replay one
// workload into a run folder (run, compare, dataset, estimate), as given:
// Resolve turns them and the configuration file into a Setup, Stage opens
// the output folder.
type Flags struct {
	// Trace, Workload, CCA (NAME[:PRESET], or a comma-separated list),
	// CCAParams (KEY=VALUE), Topology, Seed, Out, Packets, Config,
	// MaxTime, Check, HPCC (a config.txt), PPN, Scale (compute-gap
	// factor) and Strict are the Request's.
	Trace     string
	Workload  string
	CCA       string
	CCAParams []string
	Topology  string
	Seed      uint64
	Out       string
	Packets   string
	Config    string
	// JSON prints the command's JSON instead of its table.
	JSON    bool
	MaxTime string
	Check   string
	// Stats prints the run's speed figures on stderr.
	Stats bool
	// Threads is the number of partitions of the network (replay.Config).
	Threads int
	HPCC    string
	// FCTTxt is a file to write the HPCC simulator's fct.txt layout into.
	FCTTxt string
	PPN    int
	Scale  float64
	// Force replaces a previous run at Out.
	Force  bool
	Strict bool
	// MaxMemory is --max-memory as given.
	MaxMemory string

	// Set names the flags given on the command line.
	Set map[string]bool
}

// Request turns the flags into what Resolve takes; list says that CCA is
// a comma-separated list (compare).
func (o *Flags) Request(list bool) Request {
	return Request{
		Config: o.Config, Trace: o.Trace, Workload: o.Workload, HPCCConfig: o.HPCC,
		CCA: o.CCA, CCAList: list, CCAParams: o.CCAParams, Topology: o.Topology, Seed: o.Seed,
		Out: o.Out, Packets: o.Packets, MaxTime: o.MaxTime, Check: o.Check, PPN: o.PPN, ComputeScale: o.Scale,
		Strict: o.Strict, Set: o.Set,
	}
}

// Resolve resolves the flags and the configuration file into a Setup
// (workload, topology, algorithms) against reg, writes the input's
// warnings to warn, and takes the merged Out and Seed (the file may give
// them).
func (o *Flags) Resolve(list bool, reg *cca.Registry, warn io.Writer) (*Setup, error) {
	st, err := Resolve(o.Request(list), reg)
	if err != nil {
		return nil, err
	}
	o.Out, o.Seed = st.Req.Out, st.Req.Seed
	for _, w := range st.Warnings {
		fmt.Fprintf(warn, "warning: %s: %s\n", st.TraceName, w)
	}
	return st, nil
}

// Stage checks Out and creates the hidden folder the run is written into;
// Commit moves it to Out as the last step. A folder that may not be
// replaced is a usage error.
func (o *Flags) Stage() (*runfolder.Staged, error) {
	st, err := runfolder.Stage(o.Out, runfolder.StageOptions{Force: o.Force, Flag: "--out"})
	if errors.Is(err, runfolder.ErrRefused) {
		return nil, clierr.Usage(err)
	}
	return st, err
}

// Failed explains a run that did not finish (see Unfinished).
func (o *Flags) Failed(err error, stage *runfolder.Staged) error {
	return Unfinished(err, o.Out, stage)
}

// Unfinished explains a command that did not finish writing the folder out
// through stage. An interrupted one says what was kept: nothing new, and out
// as it was; any other error is returned as it is.
func Unfinished(err error, out string, stage *runfolder.Staged) error {
	if !errors.Is(err, context.Canceled) {
		return err
	}
	kept := "nothing written"
	if stage.Replaces {
		kept += ", " + out + " still holds the previous run"
	}
	return clierr.Interruptedf("%v; %s", err, kept)
}
