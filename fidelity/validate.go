package fidelity

import (
	"errors"
	"path/filepath"

	"github.com/ccreplay/ccreplay/internal/clierr"
)

// Request is one `ccreplay validate`: two sides, how to compare them and
// the bands to check, as the command's flags give them (0 is "none" for
// MinMatch, StartToleranceNs and Top, as on the command line).
type Request struct {
	// NS3FCT, when not "", is the reference (the simulator's fct.txt)
	// and Paths holds the one other side; else Paths are the reference
	// and the other side.
	NS3FCT string
	Paths  []string
	// MinMatch 0 accepts any match; StartToleranceNs 0 matches exact
	// starts only; Top 0 lists no flows.
	MinMatch         float64
	StartToleranceNs int64
	HPCCStepPct      int
	Buckets          int
	Top              int
	// Bands, when not nil, are checked.
	Bands *Bands
}

// Validation is a finished validate: the report and, with bands, the
// ratios outside them (`ccreplay validate --json`).
type Validation struct {
	*Report
	// Bands and Violations are there only when bands were checked
	// (Violations then [] when every ratio is inside).
	Bands      *Bands       `json:"bands,omitempty"`
	Violations *[]Violation `json:"violations,omitempty"`
	// Plots are the figures written, when any.
	Plots []string `json:"plots,omitempty"`
}

// Validate loads both sides of req and compares them. Labels are short
// (legends, headings): ns-3 and ccreplay against a simulator's fct.txt,
// else the paths' base names (A and B when those are equal). A side that
// cannot be read, or too few flows matched, is a *clierr.InputError.
func Validate(req Request) (*Validation, error) {
	refPath, otherPath, refLabel, otherLabel := req.NS3FCT, "", "ns-3", "ccreplay"
	if req.NS3FCT != "" {
		otherPath = req.Paths[0]
	} else {
		refPath, otherPath = req.Paths[0], req.Paths[1]
		refLabel, otherLabel = filepath.Base(refPath), filepath.Base(otherPath)
		if refLabel == otherLabel {
			refLabel, otherLabel = "A", "B"
		}
	}
	ref, err := Load(refPath, refLabel)
	if err != nil {
		return nil, clierr.Inputf("validate: %v", err)
	}
	other, err := Load(otherPath, otherLabel)
	if err != nil {
		return nil, clierr.Inputf("validate: %v", err)
	}
	rep, err := Compare(ref, other, req.options())
	var me *MatchError
	if errors.As(err, &me) {
		return nil, clierr.Inputf("validate: %s vs %s: %v", refPath, otherPath, err)
	} else if err != nil {
		return nil, err
	}
	v := &Validation{Report: rep, Bands: req.Bands}
	if req.Bands != nil {
		vs := Check(rep, *req.Bands)
		if vs == nil {
			vs = []Violation{}
		}
		v.Violations = &vs
	}
	return v, nil
}

// options are Compare's options for the command line's values (its 0s
// are "none"; Compare's are "the default").
func (req Request) options() Options {
	opt := Options{Match: MatchOptions{StartToleranceNs: req.StartToleranceNs}, MinMatch: req.MinMatch,
		HPCCStepPct: req.HPCCStepPct, Buckets: req.Buckets, Top: req.Top}
	if opt.MinMatch == 0 {
		opt.MinMatch = -1 // accept any
	}
	if opt.Match.StartToleranceNs == 0 {
		opt.Match.StartToleranceNs = -1 // exact starts
	}
	if opt.Top == 0 {
		opt.Top = -1 // none
	}
	return opt
}

// Outside is the violations found (none without bands).
func (v *Validation) Outside() []Violation {
	if v.Violations == nil {
		return nil
	}
	return *v.Violations
}
