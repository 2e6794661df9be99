package distill

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/runfolder"
)

// The report carries the options' seed and provenance, and its text the
// fit, the rounds' FR with the check's flow counts, and no Table III when
// none was run.
func TestReportText(t *testing.T) {
	o := Options{Seed: 3, ProducedBy: "p", SelectFlows: []int{24, 48}}
	res := &Result{Trees: 2, Depth: 3, Nodes: 9, TestRMSE: 0.01, RoundFR: []float64{40, 60}, SelectedRound: 1,
		PerFlows: []ScenarioFit{{Flows: 4, TestRMSE: 0.02, TestPairs: 10}}}
	policy, report := "out/"+runfolder.PolicyFile, "out/"+runfolder.DistillFile
	r := NewReport(policy, "teacher", o, res)
	if r.Seed != 3 || r.ProducedBy != "p" || r.Fit != res || r.Teacher != "teacher" {
		t.Errorf("report %+v", r)
	}
	var b bytes.Buffer
	if err := r.WriteText(&b, report, "5MB"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wrote " + policy + " (2 trees, depth 3, 9 nodes) and " + report,
		"kept round 1's student; smallest FR on 24,48 flows per round: 40 60\n", "      4 to 1: held-out RMSE 0.0200 (10 pairs)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "Table III") {
		t.Errorf("a report without a comparison prints Table III:\n%s", b.String())
	}
}

// Monotone constraints land on their features' indices; a bad one names
// the features.
func TestParseMonotone(t *testing.T) {
	if m, err := ParseMonotone("none"); m != nil || err != nil {
		t.Errorf("none: %v, %v", m, err)
	}
	m, err := ParseMonotone(rlcc.FeatureNames[0] + "=-1, " + rlcc.FeatureNames[2] + "=+1")
	if err != nil || len(m) != rlcc.NumFeatures || m[0] != -1 || m[2] != 1 || m[1] != 0 {
		t.Errorf("constraints %v, %v", m, err)
	}
	for _, bad := range []string{"foo=1", rlcc.FeatureNames[0] + "=2", rlcc.FeatureNames[0]} {
		if _, err := ParseMonotone(bad); err == nil || !strings.Contains(err.Error(), rlcc.FeatureNames[1]) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// Rate augmentation factors: "none" is none; a list parses in order; 1, a
// negative, a word or more than 8 factors is an error naming the value.
func TestParseFactors(t *testing.T) {
	if f, err := ParseFactors("none"); f != nil || err != nil {
		t.Fatalf("none: %v %v", f, err)
	}
	f, err := ParseFactors("0.5, 0.7,1.4,2")
	if err != nil || len(f) != 4 || f[0] != 0.5 || f[3] != 2 {
		t.Fatalf("%v %v", f, err)
	}
	for _, bad := range []string{"1", "0.5,-2", "x", "0"} {
		if _, err := ParseFactors(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := ParseFactors("2,2,2,2,2,2,2,2,2"); err == nil || !strings.Contains(err.Error(), "at most 8") {
		t.Errorf("nine factors: %v", err)
	}
}
