package fidelity

import (
	"errors"
	"testing"

	"github.com/ccreplay/ccreplay/internal/clierr"
)

// TestRequestOptions: the command line's 0 is "none" (any match, exact
// starts, no flows listed), where Compare's 0 is "the default".
func TestRequestOptions(t *testing.T) {
	o := Request{HPCCStepPct: 5, Buckets: 10}.options()
	if o.MinMatch != -1 || o.Match.StartToleranceNs != -1 || o.Top != -1 || o.HPCCStepPct != 5 || o.Buckets != 10 {
		t.Errorf("zeros: %+v", o)
	}
	o = Request{MinMatch: 0.5, StartToleranceNs: 3, Top: 2}.options()
	if o.MinMatch != 0.5 || o.Match.StartToleranceNs != 3 || o.Top != 2 {
		t.Errorf("values: %+v", o)
	}
}

// TestValidate: a side against itself is inside any band, labels are A
// and B when the base names agree; a missing side is a bad input.
func TestValidate(t *testing.T) {
	req := Request{Paths: []string{"testdata/ns3_fct.txt", "testdata/ns3_fct.txt"}, MinMatch: 1, Bands: &Bands{MaxOverallErr: 1e-9, MaxBucketErr: 1e-9}}
	v, err := Validate(req)
	if err != nil {
		t.Fatal(err)
	}
	if v.Reference.Label != "A" || v.Other.Label != "B" || v.Violations == nil || len(v.Outside()) != 0 {
		t.Errorf("labels %q %q, violations %v", v.Reference.Label, v.Other.Label, v.Violations)
	}
	if v, err := Validate(Request{NS3FCT: "testdata/ns3_fct.txt", Paths: []string{"testdata/other_fct.txt"}}); err != nil || v.Reference.Label != "ns-3" || v.Other.Label != "ccreplay" || v.Violations != nil {
		t.Errorf("ns-3 reference: %v, %+v", err, v)
	}
	var ie *clierr.InputError
	if _, err := Validate(Request{Paths: []string{"testdata/nope.txt", "testdata/ns3_fct.txt"}}); !errors.As(err, &ie) {
		t.Errorf("missing side: %v, want an input error", err)
	}
}
