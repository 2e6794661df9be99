package gbt

import (
	"bytes"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
)

var nan = math.NaN()

// probes are feature vectors around every threshold of the test models:
// exactly on it, just below, just above (in float64 and in float32), NaN,
// and +-0.
func probes() [][]float64 {
	vals := []float64{
		nan, 0, math.Copysign(0, -1), 1e-36, -1e-36, 0.1, 0.25, math.Nextafter(0.25, 0), math.Nextafter(0.25, 1),
		0.2499999999, 0.75, 0.75000000000000011, 0.7500000001, 1.5, 1.4999999999, math.Nextafter(1.5, 2),
		-1, -1.0000000000000002, -1.00000001, -2, 2, 1.0 / 3, 0.33333334, 0.3333333,
	}
	var out [][]float64
	for i, a := range vals {
		for j, b := range vals {
			out = append(out, []float64{a, b, vals[(i+j)%len(vals)]})
		}
	}
	return out
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	return testfiles.Read(t, "testdata/"+name)
}

// xgbLess is XGBoost's split rule: the feature is stored as float32 and
// compared with the float32 split condition; NaN takes the default branch.
// loadModel reads testdata/name with read.
func loadModel(t *testing.T, name string, read func(io.Reader) (*Ensemble, error)) *Ensemble {
	t.Helper()
	e, err := read(bytes.NewReader(readFile(t, name)))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// checkAgainst checks e's feature names (comma-separated) and that on
// every probe it predicts within tol of ref (0: equal bit for bit).
func checkAgainst(t *testing.T, e *Ensemble, names string, ref func([]float64) float64, tol float64) {
	t.Helper()
	if got := strings.Join(e.FeatureNames(), ","); got != names {
		t.Fatalf("feature names %q, want %q", got, names)
	}
	for _, x := range probes() {
		want := ref(x)
		if got := e.Predict(x); got != want && !(math.Abs(got-want) <= tol) {
			t.Errorf("Predict(%v) = %v, want %v", x, got, want)
		}
	}
}

func xgbLess(x, cond float64, defaultLeft bool) bool {
	if math.IsNaN(x) {
		return defaultLeft
	}
	return float32(x) < float32(cond)
}

// xgbV2Reference evaluates testdata/xgb_v2.json by hand, following the
// trees its arrays describe.
func xgbV2Reference(x []float64) float64 {
	f := func(v float64) float64 { return float64(float32(v)) }
	s := f(0.5)
	// Tree 0: node 0 splits rtt_inflation < 1.5 (default left); node 1
	// splits rate_frac < 0.25 (default right); leaves 0.3, 0.1, -0.2.
	if xgbLess(x[1], 1.5, true) {
		if xgbLess(x[0], 0.25, false) {
			s += f(0.1)
		} else {
			s += f(-0.2)
		}
	} else {
		s += f(0.3)
	}
	// Tree 1: node 0 splits cnps < -1 (default right) to leaf 0.05; node 2
	// splits rate_frac < 0.75 (default left); leaves -0.01, 0.02.
	if xgbLess(x[2], -1, false) {
		s += f(0.05)
	} else if xgbLess(x[0], 0.75, true) {
		s += f(-0.01)
	} else {
		s += f(0.02)
	}
	return s
}

func TestReadXGBoostJSONv2MatchesTrees(t *testing.T) {
	e := loadModel(t, "xgb_v2.json", ReadXGBoostJSON)
	if e.NumTrees() != 2 || e.MaxDepth() != 2 || e.NumFeatures() != 3 || e.NumNodes() != 10 {
		t.Fatalf("trees %d depth %d features %d nodes %d, want 2 2 3 10", e.NumTrees(), e.MaxDepth(), e.NumFeatures(), e.NumNodes())
	}
	checkAgainst(t, e, "rate_frac,rtt_inflation,cnps", xgbV2Reference, 1e-12)
	// NB: 1.4999999999 rounds to 1.5 in float32, so XGBoost sends it right.
	if got, want := e.Predict([]float64{0, 1.4999999999, 0}), float64(float32(0.5))+float64(float32(0.3))+float64(float32(-0.01)); math.Abs(got-want) > 1e-12 {
		t.Fatalf("float32 rounding at the threshold: got %v, want %v", got, want)
	}
}

func TestReadXGBoostJSONv1Booleans(t *testing.T) {
	e := loadModel(t, "xgb_v1.json", ReadXGBoostJSON)
	if e.FeatureNames() != nil {
		t.Fatalf("empty feature_names should give nil, got %v", e.FeatureNames())
	}
	for _, x := range probes() {
		want := 1.0
		if xgbLess(x[0], 0.3333333432674408, false) {
			want += -0.25
		} else {
			want += 0.125
		}
		if got := e.Predict(x[:2]); got != want {
			t.Errorf("Predict(%v) = %v, want %v", x[:2], got, want)
		}
	}
}

func TestReadXGBoostJSONRejects(t *testing.T) {
	v2 := string(readFile(t, "xgb_v2.json"))
	cases := []rejectCase{
		{"not json", "{", "XGBoost JSON"},
		{"no learner", `{"version":[2,0,0]}`, "no \"learner\""},
		{"dart", strings.Replace(v2, `"name":"gbtree"`, `"name":"dart"`, 1), `booster "dart"`},
		{"logistic", strings.Replace(v2, "reg:squarederror", "binary:logistic", 1), `objective "binary:logistic"`},
		{"multi-target", strings.Replace(v2, `"num_target":"1"`, `"num_target":"2"`, 1), "num_target"},
		{"categorical", strings.Replace(v2, `"split_type":[0,0,0,0,0]`, `"split_type":[1,0,0,0,0]`, 1), "categorical"},
		{"feature out of range", strings.Replace(v2, `"split_indices":[1,0,0,0,0]`, `"split_indices":[7,0,0,0,0]`, 1), "feature index 7"},
		{"child out of range", strings.Replace(v2, `"right_children":[2,4,-1,-1,-1]`, `"right_children":[2,9,-1,-1,-1]`, 1), "out of range"},
		{"cycle", strings.Replace(v2, `"left_children":[1,3,-1,-1,-1]`, `"left_children":[1,0,-1,-1,-1]`, 1), "reached twice"},
		{"short array", strings.Replace(v2, `"split_conditions":[1.5E0,2.5E-1,3E-1,1E-1,-2E-1]`, `"split_conditions":[1.5E0]`, 1), "split_conditions has 1"},
		{"bad default_left", strings.Replace(v2, `"default_left":[1,0,0,0,0]`, `"default_left":[7,0,0,0,0]`, 1), "default_left"},
		{"bad base score", strings.Replace(v2, `"base_score":"5E-1"`, `"base_score":"x"`, 1), "base_score"},
	}
	checkRejects(t, v2, cases, ReadXGBoostJSON)
}

func TestXGBoostBase31Vector(t *testing.T) {
	v2 := strings.Replace(string(readFile(t, "xgb_v2.json")), `"base_score":"5E-1"`, `"base_score":"[5E-1]"`, 1)
	e, err := ReadXGBoostJSON(strings.NewReader(v2))
	if err != nil {
		t.Fatal(err)
	}
	if e.BaseScore() != 0.5 {
		t.Fatalf("base score %v, want 0.5", e.BaseScore())
	}
}

// TestXGBThresholdBoundary checks the float32-rounding boundary against
// Go's own float64->float32 conversion around several thresholds.
func TestXGBThresholdBoundary(t *testing.T) {
	ts := []float32{0, 1.5, 0.25, -1, 1.0 / 3, 0.1, -0.1, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32,
		math.MaxFloat32, -math.MaxFloat32, 16777217, 3.4e38}
	for _, tf := range ts {
		b := xgbThreshold(tf)
		for _, x := range []float64{b, math.Nextafter(b, math.Inf(-1)), math.Nextafter(b, math.Inf(1)), float64(tf),
			math.Nextafter(float64(tf), math.Inf(-1)), math.Nextafter(float64(tf), math.Inf(1))} {
			if math.Abs(x) > math.MaxFloat32*1.0000001 {
				continue
			}
			if got, want := x < b, float32(x) < tf; got != want {
				t.Errorf("t=%v x=%v: x < %v is %v, float32(x) < t is %v", tf, x, b, got, want)
			}
		}
	}
}

// lgbNumerical is LightGBM's numerical decision for one node
// (include/LightGBM/tree.h NumericalDecision).
func lgbNumerical(x, threshold float64, decisionType int) bool {
	missing := (decisionType >> 2) & 3
	defaultLeft := decisionType&2 != 0
	if math.IsNaN(x) && missing != 2 {
		x = 0
	}
	if (missing == 1 && x >= -1e-35 && x <= 1e-35) || (missing == 2 && math.IsNaN(x)) {
		return defaultLeft
	}
	return x <= threshold
}

// lgbReference evaluates testdata/lgb_v4.txt by hand.
func lgbReference(x []float64) float64 {
	var s float64
	// Tree 0: node 0 rtt_inflation <= 1.5 (type 2: missing None, default
	// left) -> node 1, else leaf 2 = 0.8; node 1 rate_frac <= 0.25 (type 8:
	// missing NaN, default right) -> leaf 0 = 0.6, else leaf 1 = -0.2.
	if lgbNumerical(x[1], 1.5, 2) {
		if lgbNumerical(x[0], 0.25, 8) {
			s += 0.59999999999999998
		} else {
			s += -0.20000000000000001
		}
	} else {
		s += 0.80000000000000004
	}
	// Tree 1: node 0 cnps <= -1.0000000000000002 (type 10: NaN, default
	// left) -> leaf 0 = 0.05, else node 1; node 1 rate_frac <=
	// 0.75000000000000011 (type 6: Zero, default left) -> leaf 1 = -0.01,
	// else leaf 2 = 0.02.
	if lgbNumerical(x[2], -1.0000000000000002, 10) {
		s += 0.050000000000000003
	} else if lgbNumerical(x[0], 0.75000000000000011, 6) {
		s += -0.01
	} else {
		s += 0.02
	}
	// Tree 2: a single leaf.
	s += 0.001
	return s
}

func TestReadLightGBMMatchesTrees(t *testing.T) {
	e := loadModel(t, "lgb_v4.txt", ReadLightGBM)
	if e.NumTrees() != 3 || e.MaxDepth() != 2 || e.NumFeatures() != 3 || e.BaseScore() != 0 {
		t.Fatalf("trees %d depth %d features %d base %v, want 3 2 3 0", e.NumTrees(), e.MaxDepth(), e.NumFeatures(), e.BaseScore())
	}
	// Same additions in the same order: equal bit for bit.
	checkAgainst(t, e, "rate_frac,rtt_inflation,cnps", lgbReference, 0)
	// x == threshold goes left in LightGBM.
	if got, want := e.Predict([]float64{0.25, 1.5, 5}), 0.59999999999999998-0.01+0.001; got != want {
		t.Fatalf("on-threshold: got %v want %v", got, want)
	}
}

func TestReadLightGBMV3AndCRLF(t *testing.T) {
	in := strings.Replace(string(readFile(t, "lgb_v4.txt")), "version=v4", "version=v3", 1)
	in = strings.ReplaceAll(in, "\n", "\r\n")
	e, err := ReadLightGBM(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := e.Predict([]float64{0.1, 1, 0}), lgbReference([]float64{0.1, 1, 0}); got != want {
		t.Fatalf("got %v want %v", got, want)
	}
}

func TestReadLightGBMRejects(t *testing.T) {
	v4 := string(readFile(t, "lgb_v4.txt"))
	cases := []rejectCase{
		{"empty", "", "empty file"},
		{"not a model", "hello\n", `first line is "hello"`},
		{"version", strings.Replace(v4, "version=v4", "version=v2", 1), "version"},
		{"binary", strings.Replace(v4, "objective=regression", "objective=binary sigmoid:1", 1), "objective"},
		{"sqrt", strings.Replace(v4, "objective=regression", "objective=regression sqrt", 1), "objective"},
		{"multiclass", strings.Replace(v4, "num_class=1", "num_class=3", 1), "num_class"},
		{"rf", strings.Replace(v4, "objective=regression\n", "objective=regression\naverage_output\n", 1), "average_output"},
		{"stray line", strings.Replace(v4, "shrinkage=1\n", "shrinkage=1\nhello\n", 1), "not key=value (tree 0)"},
		{"categorical", strings.Replace(v4, "decision_type=2 8", "decision_type=3 8", 1), "categorical"},
		{"linear", strings.Replace(v4, "is_linear=0", "is_linear=1", 1), "linear"},
		{"leaf count", strings.Replace(v4, "leaf_value=0.05", "leaf_value=0.05 0.07", 1), "leaf_value has 4 values"},
		{"child range", strings.Replace(v4, "right_child=-3 -2", "right_child=-9 -2", 1), "out of range"},
		{"cycle", strings.Replace(v4, "left_child=1 -1", "left_child=1 0", 1), "reached twice"},
		{"feature range", strings.Replace(v4, "split_feature=1 0", "split_feature=5 0", 1), "feature index 5"},
		{"bad number", strings.Replace(v4, "threshold=1.5 0.25", "threshold=1.5 abc", 1), `threshold value 1 "abc"`},
		{"first bad column", strings.Replace(strings.Replace(v4, "threshold=1.5 0.25", "threshold=1.5 abc", 1), "decision_type=2 8", "decision_type=2 x", 1), `threshold value 1 "abc"`},
		{"tree order", strings.Replace(v4, "Tree=1", "Tree=5", 1), "want Tree=1"},
		{"names", strings.Replace(v4, "feature_names=rate_frac rtt_inflation cnps", "feature_names=a b", 1), "feature_names has 2"},
		{"duplicate key", strings.Replace(v4, "shrinkage=1\n", "shrinkage=1\nshrinkage=1\n", 1), "repeated"},
		{"no trees", "tree\nversion=v4\nobjective=regression\nmax_feature_idx=0\n\nend of trees\n", "no trees"},
	}
	checkRejects(t, v4, cases, ReadLightGBM)
}

// TestLoadedModelsRoundTrip: a loaded model written in ccreplay's format
// and read back predicts the same and rewrites the same bytes.
func TestLoadedModelsRoundTrip(t *testing.T) {
	xgb, err := ReadXGBoostJSON(bytes.NewReader(readFile(t, "xgb_v2.json")))
	if err != nil {
		t.Fatal(err)
	}
	lgb, err := ReadLightGBM(bytes.NewReader(readFile(t, "lgb_v4.txt")))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []*Ensemble{xgb, lgb} {
		var a bytes.Buffer
		if err := e.WriteJSON(&a); err != nil {
			t.Fatal(err)
		}
		back, err := ReadJSON(bytes.NewReader(a.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := back.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("round trip changed the bytes:\n%s\n%s", a.String(), b.String())
		}
		for _, x := range probes() {
			p, q := e.Predict(x), back.Predict(x)
			if p != q && !(math.IsNaN(p) && math.IsNaN(q)) {
				t.Fatalf("Predict(%v): %v before, %v after the round trip", x, p, q)
			}
		}
	}
}
