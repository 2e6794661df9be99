package gbt

import (
	"bytes"
	"io"
	"math"
	"os"
	"testing"
)

// checkLoaded exercises a successfully parsed ensemble: Predict never
// panics, and the ccreplay JSON form (when the values are representable in
// JSON) reads back to the same predictions.
func checkLoaded(t *testing.T, e *Ensemble) {
	if e.NumTrees() < 1 {
		t.Fatalf("parsed an ensemble with %d trees", e.NumTrees())
	}
	xs := [][]float64{nil, {0, 0, 0}, {math.NaN(), 1, -1}, {1e300, -1e300, 0.5, 2, 3, 4, 5, 6}}
	for _, x := range xs {
		e.Predict(x)
	}
	var buf bytes.Buffer
	if err := e.WriteJSON(&buf); err != nil {
		return // e.g. an infinite threshold has no JSON form
	}
	back, err := ReadJSON(&buf)
	if err != nil {
		t.Fatalf("reading back our own JSON: %v", err)
	}
	for _, x := range xs {
		p, q := e.Predict(x), back.Predict(x)
		if p != q && !(math.IsNaN(p) && math.IsNaN(q)) {
			t.Fatalf("Predict(%v) %v != %v after round trip", x, p, q)
		}
	}
}

func addSeeds(f *testing.F, files ...string) {
	for _, name := range files {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// fuzzRead feeds arbitrary bytes to read: a model it accepts must pass
// checkLoaded.
func fuzzRead(f *testing.F, read func(io.Reader) (*Ensemble, error)) {
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := read(bytes.NewReader(b))
		if err != nil {
			return
		}
		checkLoaded(t, e)
	})
}

func FuzzReadXGBoostJSON(f *testing.F) {
	addSeeds(f, "xgb_v2.json", "xgb_v1.json")
	f.Add([]byte(`{"learner":{"gradient_booster":{"name":"gbtree","model":{"trees":[{"left_children":[-1],"right_children":[-1],"split_indices":[0],"split_conditions":[1],"default_left":[0]}]}},"learner_model_param":{"base_score":"0","num_feature":"1"},"objective":{"name":"reg:squarederror"}}}`))
	fuzzRead(f, ReadXGBoostJSON)
}

func FuzzReadLightGBM(f *testing.F) {
	addSeeds(f, "lgb_v4.txt")
	f.Add([]byte("tree\nversion=v4\nmax_feature_idx=0\nobjective=regression\n\nTree=0\nnum_leaves=1\nleaf_value=1\n\nend of trees\n"))
	fuzzRead(f, ReadLightGBM)
}

func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(`{"format":"ccreplay.gbt","version":1,"base_score":0.5,"num_features":2,"trees":[{"nodes":[{"feature":1,"threshold":1,"left":1,"right":2,"missing_left":true},{"leaf":1},{"leaf":2}]}]}`))
	f.Add([]byte(`{"format":"ccreplay.gbt","version":1,"base_score":0,"num_features":1,"trees":[{"nodes":[{"leaf":1}]}]}`))
	fuzzRead(f, ReadJSON)
}

// FuzzXGBThreshold: for every float32 threshold t and float64 x inside the
// float32 range, x < xgbThreshold(t) exactly when float32(x) < t.
func FuzzXGBThreshold(f *testing.F) {
	f.Add(uint32(0x3fc00000), 1.4999999999)
	f.Add(uint32(1), 1e-46)
	f.Add(uint32(0x7f7fffff), 3.4028235e38)
	f.Fuzz(func(t *testing.T, bits uint32, x float64) {
		tf := math.Float32frombits(bits)
		if tf != tf || math.IsNaN(x) || math.Abs(x) > math.MaxFloat32 {
			return
		}
		b := xgbThreshold(tf)
		if got, want := x < b, float32(x) < tf; got != want {
			t.Fatalf("t=%v x=%v: x < %v is %v, float32(x) < t is %v", tf, x, b, got, want)
		}
	})
}
