package fidelity

import (
	"errors"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/runfolder"
)

func defaults() CommandOptions {
	return CommandOptions{Top: DefaultTop, MinMatch: DefaultMinMatch, StartTolNs: DefaultStartToleranceNs,
		HPCCStep: DefaultHPCCStepPct, Buckets: DefaultBuckets, MaxOverallErr: DefaultMaxOverallErr,
		MaxBucketErr: DefaultMaxBucketErr, MinBucketFlows: DefaultMinBucketFlows}
}

func none(string) bool { return false }

// The arguments must fit --ns3-fct; every out-of-range flag is a usage
// error naming it; giving a band implies --bands.
func TestCommandOptionsValidate(t *testing.T) {
	for _, c := range []struct {
		edit func(*CommandOptions)
		args []string
		want string
	}{
		{func(o *CommandOptions) { o.NS3FCT = runfolder.FCTFile }, []string{"a", "b"}, "got 2 arguments"},
		{func(o *CommandOptions) {}, []string{"a"}, "give RUN_DIR --ns3-fct"},
		{func(o *CommandOptions) { o.Top = -1 }, []string{"a", "b"}, "--top must be >= 0"},
		{func(o *CommandOptions) { o.MinMatch = 1.5 }, []string{"a", "b"}, "--min-match"},
		{func(o *CommandOptions) { o.StartTolNs = -1 }, []string{"a", "b"}, "--start-tolerance"},
		{func(o *CommandOptions) { o.HPCCStep = 101 }, []string{"a", "b"}, "--hpcc-step"},
		{func(o *CommandOptions) { o.Buckets = 0 }, []string{"a", "b"}, "--buckets"},
		{func(o *CommandOptions) { o.MaxBucketErr = -0.1 }, []string{"a", "b"}, "--max-overall-err, --max-bucket-err"},
	} {
		o := defaults()
		c.edit(&o)
		err := o.Validate(c.args, none)
		var ue *clierr.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want a usage error with %q", c.args, err, c.want)
		}
	}
	o := defaults()
	if err := o.Validate([]string{"a", "b"}, none); err != nil || o.Bands || len(o.Args) != 2 {
		t.Errorf("defaults: %v, bands %v, args %v", err, o.Bands, o.Args)
	}
	if err := o.Validate([]string{"a", "b"}, func(f string) bool { return f == "min-bucket-flows" }); err != nil || !o.Bands {
		t.Errorf("--min-bucket-flows given: %v, bands %v", err, o.Bands)
	}
	if r := o.request(); r.Bands == nil || r.Bands.MinBucketFlows != DefaultMinBucketFlows || len(r.Paths) != 2 {
		t.Errorf("request %+v", r)
	}
	if err := (BandError{3}); err.Error() != "validate: 3 ratios outside their bands" || clierr.Code(err) != clierr.ExitFailure {
		t.Errorf("BandError says %q, exit %d", err, clierr.Code(err))
	}
}
