package gbt

import (
	"io"
	"math"
	"strings"
	"testing"
)

func TestReadJSONRejects(t *testing.T) {
	good := `{"format":"ccreplay.gbt","version":1,"base_score":0,"num_features":1,"trees":[{"nodes":[{"feature":0,"threshold":1,"left":1,"right":2},{"leaf":1},{"leaf":2}]}]}`
	if _, err := ReadJSON(strings.NewReader(good)); err != nil {
		t.Fatalf("good model: %v", err)
	}
	cases := []rejectCase{
		{"format", strings.Replace(good, "ccreplay.gbt", "other", 1), `format is "other"`},
		{"version", strings.Replace(good, `"version":1`, `"version":9`, 1), "version 9"},
		{"unknown field", strings.Replace(good, `"base_score"`, `"bias":1,"base_score"`, 1), "unknown field"},
		{"no trees", strings.Replace(good, `"trees":[{"nodes":[{"feature":0,"threshold":1,"left":1,"right":2},{"leaf":1},{"leaf":2}]}]`, `"trees":[]`, 1), "no trees"},
		{"half node", strings.Replace(good, `"left":1,`, ``, 1), "tree 0 node 0: need leaf"},
		{"leaf with split", strings.Replace(good, `{"leaf":1}`, `{"leaf":1,"feature":0}`, 1), "leaf has split fields"},
		{"self loop", strings.Replace(good, `"left":1`, `"left":0`, 1), "reached twice"},
		{"range", strings.Replace(good, `"right":2`, `"right":3`, 1), "out of range"},
		{"feature", strings.Replace(good, `"feature":0`, `"feature":1`, 1), "feature index 1"},
		{"names", strings.Replace(good, `"num_features":1`, `"num_features":1,"features":["a","b"]`, 1), "2 feature names for 1"},
	}
	checkRejects(t, good, cases, ReadJSON)
}

// rejectCase is one malformed model and a phrase its error must contain.
type rejectCase struct{ name, in, want string }

// checkRejects reads each case's model with read: each must fail with a
// one-line error that contains the case's phrase. good is the valid model
// the cases edit; a case equal to it is an edit that did not apply.
func checkRejects(t *testing.T, good string, cases []rejectCase, read func(io.Reader) (*Ensemble, error)) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.in == good {
				t.Fatal("replacement did not apply")
			}
			_, err := read(strings.NewReader(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to mention %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
		})
	}
}

// TestPredictShortAndNaN: a short vector or NaN takes the missing branch
// instead of panicking.
func TestPredictShortAndNaN(t *testing.T) {
	in := `{"format":"ccreplay.gbt","version":1,"base_score":0,"num_features":2,"trees":[{"nodes":[{"feature":1,"threshold":1,"left":1,"right":2,"missing_left":true},{"leaf":1},{"leaf":2}]}]}`
	e, err := ReadJSON(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x    []float64
		want float64
	}{{nil, 1}, {[]float64{5}, 1}, {[]float64{5, math.NaN()}, 1}, {[]float64{5, 0.5}, 1}, {[]float64{5, 1}, 2}} {
		if got := e.Predict(c.x); got != c.want {
			t.Errorf("Predict(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}
