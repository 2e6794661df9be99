package fidelity

import (
	"fmt"
	"strings"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/runfolder"
)

// CommandOptions are the arguments and flags of `ccreplay validate`.
type CommandOptions struct {
	// Args are RUN_DIR (with NS3FCT) or the two sides A B.
	Args []string
	// NS3FCT is --ns3-fct, the simulator's fct.txt (Request.NS3FCT).
	NS3FCT string
	// JSON prints the whole Validation instead of the tables.
	JSON bool
	// Plots is the folder the figures go into ("": none).
	Plots string
	// Top, MinMatch, StartTolNs (ns), HPCCStep (percent of the flows) and
	// Buckets (count) are the Request's.
	Top        int
	MinMatch   float64
	StartTolNs int64
	HPCCStep   int
	Buckets    int
	// Bands checks the ratios against MaxOverallErr and MaxBucketErr
	// (fractions) in buckets of at least MinBucketFlows flows.
	Bands          bool
	MaxOverallErr  float64
	MaxBucketErr   float64
	MinBucketFlows int
	// WritePlots writes the figures of a report into a folder and returns
	// the files written (plot.WriteFidelityFigures; fidelity draws nothing).
	WritePlots func(dir string, rep *Report) ([]string, error)
}

// BandError is a validate --bands failure: N ratios outside their bands
// (exit 1, a result rather than a bad input).
type BandError struct{ N int }

func (e BandError) Error() string {
	return fmt.Sprintf("validate: %d ratios outside their bands", e.N)
}

// Validate checks the command line (usage errors) and keeps args; given
// says whether a flag was given, since setting a band implies --bands.
func (o *CommandOptions) Validate(args []string, given func(flag string) bool) error {
	switch {
	case o.NS3FCT != "" && len(args) != 1:
		return clierr.Usagef("--ns3-fct compares one RUN_DIR with the simulator's "+runfolder.FCTFile+", got %d arguments", len(args))
	case o.NS3FCT == "" && len(args) != 2:
		return clierr.Usagef("give RUN_DIR --ns3-fct ns3/" + runfolder.FCTFile + ", or two run folders or " + runfolder.FCTFile + " files to compare")
	case o.Top < 0:
		return clierr.Usagef("--top must be >= 0, got %d", o.Top)
	case !(o.MinMatch >= 0 && o.MinMatch <= 1):
		return clierr.Usagef("--min-match must be in 0..1, got %g", o.MinMatch)
	case o.StartTolNs < 0:
		return clierr.Usagef("--start-tolerance must be >= 0 ns, got %d", o.StartTolNs)
	case o.HPCCStep < 1 || o.HPCCStep > 100:
		return clierr.Usagef("--hpcc-step must be in 1..100, got %d", o.HPCCStep)
	case o.Buckets < 1:
		return clierr.Usagef("--buckets must be >= 1, got %d", o.Buckets)
	case !(o.MaxOverallErr >= 0) || !(o.MaxBucketErr >= 0) || o.MinBucketFlows < 0:
		return clierr.Usagef("--max-overall-err, --max-bucket-err and --min-bucket-flows must be >= 0")
	}
	for _, n := range []string{"max-overall-err", "max-bucket-err", "min-bucket-flows"} {
		if given(n) {
			o.Bands = true
		}
	}
	o.Args = args
	return nil
}

// request is the Request the flags describe.
func (o *CommandOptions) request() Request {
	req := Request{NS3FCT: o.NS3FCT, Paths: o.Args, MinMatch: o.MinMatch, StartToleranceNs: o.StartTolNs,
		HPCCStepPct: o.HPCCStep, Buckets: o.Buckets, Top: o.Top}
	if o.Bands {
		req.Bands = &Bands{MaxOverallErr: o.MaxOverallErr, MaxBucketErr: o.MaxBucketErr, MinBucketFlows: o.MinBucketFlows}
	}
	return req
}

// Run compares the two sides, writes the figures and prints the report:
// the tables (or JSON) on s.Out; with JSON the ratios outside their bands
// on s.Err. Ratios outside are a BandError.
func (o *CommandOptions) Run(s iostreams.Streams) error {
	v, err := Validate(o.request())
	if err != nil {
		return err
	}
	if o.Plots != "" {
		if v.Plots, err = o.WritePlots(o.Plots, v.Report); err != nil {
			return err
		}
	}
	vs := v.Outside()
	if o.JSON {
		if err := s.PrintJSON(v); err != nil {
			return err
		}
		for _, x := range vs { // the table lists them on stdout
			fmt.Fprintln(s.Err, "outside band: "+x.String())
		}
	} else {
		fmt.Fprintln(s.Out, "ccreplay validate")
		WriteTable(s.Out, v.Report)
		if v.Bands != nil {
			WriteViolations(s.Out, *v.Bands, vs)
		}
		if len(v.Plots) > 0 {
			fmt.Fprintf(s.Out, "\nfigures: %s\n", strings.Join(v.Plots, ", "))
		}
	}
	if len(vs) > 0 {
		return BandError{len(vs)}
	}
	return nil
}
