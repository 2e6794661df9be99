package gbt_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/rl/gbt"
	"github.com/ccreplay/ccreplay/rl/gbt/fit"
	"github.com/ccreplay/ccreplay/rl/gbt/internal/gbttest"
)

// TestJSONRoundTripByteIdentical: WriteJSON -> ReadJSON -> WriteJSON gives
// the same bytes and the same predictions.
func TestJSONRoundTripByteIdentical(t *testing.T) {
	X, y := gbttest.RandomData(1000, 7, 11)
	names := []string{"rate_frac", "rtt_inflation", "cnps", "nacks", "prev_action", "prev_rate_frac", "prev_rtt_inflation"}
	e, err := fit.Fit(X, y, names, gbt.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	var a bytes.Buffer
	if err := e.WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	back, err := gbt.ReadJSON(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	gbttest.SameModel(t, e, back, X)
	if strings.Join(back.FeatureNames(), ",") != strings.Join(names, ",") {
		t.Fatalf("names %v", back.FeatureNames())
	}
}

func TestPredictAllocationFree(t *testing.T) {
	X, y := gbttest.RandomData(2000, 7, 13)
	e, err := fit.Fit(X, y, nil, gbt.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	var sink float64
	if a := testing.AllocsPerRun(1000, func() { sink += e.Predict(X[7]) }); a != 0 {
		t.Fatalf("Predict allocates %v times per call", a)
	}
	_ = sink
}

// BenchmarkPredict measures one RL-CC decision's inference: 10 trees of
// depth 4 over the 7 observation features
// (RL-CC-NIC, Fuhrer 2023, Section V-C).
func BenchmarkPredict(b *testing.B) {
	X, y := gbttest.RandomData(5000, 7, 17)
	e, err := fit.Fit(X, y, nil, gbt.DefaultParams())
	if err != nil {
		b.Fatal(err)
	}
	if e.NumTrees() != 10 || e.MaxDepth() != 4 {
		b.Fatalf("trees %d depth %d, want 10 and 4", e.NumTrees(), e.MaxDepth())
	}
	b.ReportAllocs()
	b.ResetTimer()
	var sink float64
	for i := 0; i < b.N; i++ {
		sink += e.Predict(X[i%len(X)])
	}
	_ = sink
}

// TestBuilderRebuildsTrees: a Builder given every Tree of an ensemble
// (plus its base score, width and names) rebuilds it exactly: the same
// JSON bytes and the same predictions. Tree and AddTree are inverse.
func TestBuilderRebuildsTrees(t *testing.T) {
	X, y := gbttest.RandomData(1000, 5, 23)
	names := []string{"a", "b", "c", "d", "e"}
	e, err := fit.Fit(X, y, names, gbt.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	b, err := gbt.NewBuilder(e.BaseScore(), e.NumFeatures(), e.FeatureNames())
	if err != nil {
		t.Fatal(err)
	}
	for i := range e.NumTrees() {
		if err := b.AddTree(e.Tree(i), 0); err != nil {
			t.Fatal(err)
		}
	}
	back, err := b.Ensemble()
	if err != nil {
		t.Fatal(err)
	}
	gbttest.SameModel(t, e, back, X)
	if err := b.AddTree([]gbt.Node{{Leaf: true}}, 0); err == nil {
		t.Fatal("AddTree after Ensemble accepted")
	}
	bad, err := gbt.NewBuilder(0, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tree := range [][]gbt.Node{
		{{Feature: 0, Threshold: 1, Left: 1, Right: 1}, {Leaf: true}},     // a node reached twice
		{{Feature: 1, Threshold: 1, Left: 1, Right: 2}, {Leaf: true}, {}}, // feature index out of range
		{{Leaf: true, Value: math.Inf(1)}},                                // not finite
	} {
		if err := bad.AddTree(tree, 0); err == nil {
			t.Errorf("AddTree(%+v) accepted", tree)
		}
	}
	if _, err := bad.Ensemble(); err == nil || !strings.Contains(err.Error(), "no trees") {
		t.Fatalf("a builder whose every tree was refused: %v, want no trees", err)
	}
}
