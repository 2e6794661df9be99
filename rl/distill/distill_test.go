package distill

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/rl/gbt"
	"github.com/ccreplay/ccreplay/units"
)

// small keeps the tests fast: two short collection runs per flow count.
func small(o Options) Options {
	o.Flows = []int{2, 4}
	o.Duration = 2 * units.Millisecond
	return o
}

// TestDistillDefaultTeacher: the student respects the NIC limits of
// RL-CC-NIC (Fuhrer 2023), Section V-C (<= 10 trees, depth <= 4), keeps
// the teacher's action range, and imitates it far better than a constant
// (the RMSE loss of RL-CC-NIC, Fuhrer 2023, Fig. 5, on held-out pairs).
func TestDistillDefaultTeacher(t *testing.T) {
	r, err := Distill(small(Options{Seed: 1}))
	if err != nil {
		t.Fatal(err)
	}
	teacher, _ := rlcc.Default()
	if r.Trees > MaxTrees || r.Depth > MaxDepth || r.Student.Trees.NumTrees() != r.Trees {
		t.Fatalf("student %d trees depth %d, limit %d and %d", r.Trees, r.Depth, MaxTrees, MaxDepth)
	}
	if r.Student.Kind != rlcc.KindTrees || r.Student.AMin != teacher.AMin || r.Student.AMax != teacher.AMax {
		t.Fatalf("student kind %s range [%v,%v]", r.Student.Kind, r.Student.AMin, r.Student.AMax)
	}
	if r.TrainPairs < 100 || r.TestPairs < 100 {
		t.Fatalf("only %d/%d pairs", r.TrainPairs, r.TestPairs)
	}
	if !(r.TestRMSE < 0.5*r.TestStd) {
		t.Fatalf("held-out RMSE %v is not well below the teacher's action std %v", r.TestRMSE, r.TestStd)
	}
	if len(r.PerFlows) != 2 || r.PerFlows[0].Flows != 2 || r.PerFlows[1].TestPairs == 0 {
		t.Fatalf("per flows %+v", r.PerFlows)
	}
	// Names are the RL-CC features, so the policy file loads back.
	b, err := r.Student.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := rlcc.Parse(b, "test")
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.3, 1.7, 1, 0, 0.9, 0.35, 1.5}
	if back.Action(x, nil) != r.Student.Action(x, nil) {
		t.Fatal("policy file changes the student's action")
	}
}

// TestDistillTreeTeacherExactly: a teacher that is itself one depth-2 tree
// is inside the student's class, so an unshrunk student reproduces its
// actions (held-out RMSE ~ 0).
func TestDistillTreeTeacherExactly(t *testing.T) {
	const teacherJSON = `{"format":"ccreplay.gbt","version":1,"base_score":1,"num_features":7,
	"trees":[{"nodes":[{"feature":1,"threshold":1.6,"left":1,"right":2},
	{"leaf":0.1},{"feature":0,"threshold":0.2,"left":3,"right":4},{"leaf":-0.05},{"leaf":-0.3}]}]}`
	e, err := gbt.ReadJSON(strings.NewReader(teacherJSON))
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := rlcc.NewTreePolicy(e, rlcc.AMin, rlcc.AMax, "test teacher")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Distill(small(Options{Teacher: teacher, Seed: 2, Params: gbt.Params{Trees: 3, MaxDepth: 2, LearningRate: 1, MinLeaf: 1}}))
	if err != nil {
		t.Fatal(err)
	}
	if r.TestRMSE > 1e-9 || r.TrainRMSE > 1e-9 {
		t.Fatalf("student RMSE %v held out, %v fitted; want 0", r.TestRMSE, r.TrainRMSE)
	}
}

// TestDistillDeterministic: the same options give the same policy bytes.
func TestDistillDeterministic(t *testing.T) {
	var out [2][]byte
	for i := range out {
		r, err := Distill(small(Options{Seed: 5, ProducedBy: "test"}))
		if err != nil {
			t.Fatal(err)
		}
		if out[i], err = r.Student.Marshal(); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Fatal("two distillations with the same seed differ")
	}
}

func TestCollectCapsPairs(t *testing.T) {
	teacher, _ := rlcc.Default()
	p, err := Collect(teacher, nil, 4, 1, Options{Duration: 2 * units.Millisecond, MaxPairsPerRun: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Y) != 50 || len(p.X) != 50 || len(p.X[0]) != rlcc.NumFeatures {
		t.Fatalf("%d pairs of %d features, want 50 of %d", len(p.Y), len(p.X[0]), rlcc.NumFeatures)
	}
	for i, a := range p.Y {
		if a < teacher.AMin || a > teacher.AMax || math.IsNaN(a) {
			t.Fatalf("pair %d action %v outside [%v, %v]", i, a, teacher.AMin, teacher.AMax)
		}
	}
}

func TestDistillRejects(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Params: gbt.Params{Trees: 11, MaxDepth: 4, LearningRate: 0.5}}, "exceed the NIC limit"},
		{Options{Params: gbt.Params{Trees: 10, MaxDepth: 5, LearningRate: 0.5}}, "exceed the NIC limit"},
		{Options{Flows: []int{0}}, "flow count 0"},
		{Options{Runs: -1}, "runs -1"},
		{Options{Duration: -1}, "duration"},
	} {
		if _, err := Distill(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c.o, err, c.want)
		}
	}
}

// TestRoundSelection: with SelectFlows every round's student is replayed
// and the one with the highest smallest FR is kept (the earliest on
// ties); without, RoundFR stays empty. Every round after the first adds
// the states the student visited, labelled by the teacher (DAgger), so
// the fitted pairs grow with the rounds.
func TestRoundSelection(t *testing.T) {
	o := small(Options{Seed: 3, Rounds: 3, SelectFlows: []int{3}})
	r, err := Distill(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.RoundFR) != 3 || r.Rounds != 3 {
		t.Fatalf("RoundFR %v over %d rounds, want 3 values", r.RoundFR, r.Rounds)
	}
	best := 0
	for i, fr := range r.RoundFR {
		if fr > r.RoundFR[best] {
			best = i
		}
	}
	if r.SelectedRound != best {
		t.Fatalf("kept round %d of FRs %v, want %d", r.SelectedRound, r.RoundFR, best)
	}
	fr, err := worstFR(r.Student, o.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if fr != r.RoundFR[best] {
		t.Fatalf("the kept student replays to FR %v, its round had %v", fr, r.RoundFR[best])
	}
	one, err := Distill(small(Options{Seed: 3, Rounds: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if len(one.RoundFR) != 0 || one.TrainPairs >= r.TrainPairs {
		t.Fatalf("one round: RoundFR %v, %d pairs; three rounds %d pairs", one.RoundFR, one.TrainPairs, r.TrainPairs)
	}
}

// TestAugmentRates: each copy scales rate_frac and prev_rate_frac by its
// factor, keeps the other features, is labelled with the teacher's action
// in the scaled state, and is skipped when a scaled rate leaves (0, 1].
func TestAugmentRates(t *testing.T) {
	teacher, err := rlcc.Named("teacher")
	if err != nil {
		t.Fatal(err)
	}
	p := Pairs{X: [][]float64{{0.01, 1.5, 1, 0, 0.9, 0.012, 1.4}, {0.6, 1.1, 0, 0, 1, 0.5, 1}}, Y: []float64{-1, -2}}
	got := AugmentRates(p, teacher, []float64{0.5, 2})
	// 0.6 x 2 > 1: the second pair has no doubled copy.
	if len(got.Y) != 5 || len(got.X) != 5 {
		t.Fatalf("%d pairs, want 2 + 2 halved + 1 doubled", len(got.Y))
	}
	if got.Y[0] != -1 || got.Y[1] != -2 {
		t.Fatal("the recorded pairs changed")
	}
	want := [][]float64{{0.005, 1.5, 1, 0, 0.9, 0.006, 1.4}, {0.3, 1.1, 0, 0, 1, 0.25, 1}, {0.02, 1.5, 1, 0, 0.9, 0.024, 1.4}}
	for i, w := range want {
		x := got.X[2+i]
		for j := range w {
			if math.Abs(x[j]-w[j]) > 1e-15 {
				t.Fatalf("copy %d is %v, want %v", i, x, w)
			}
		}
		if a := teacher.Action(w, make([]float64, teacher.WorkSize())); got.Y[2+i] != a {
			t.Fatalf("copy %d labelled %v, teacher says %v", i, got.Y[2+i], a)
		}
	}
	if same := AugmentRates(p, teacher, nil); len(same.Y) != 2 {
		t.Fatal("no factors added pairs")
	}
}

// TestDistillAugmented: with rate copies the student is fitted on more
// pairs, the copies are counted, the held-out pairs stay the recorded ones,
// and the run stays deterministic; a factor of 1 or below 0 is rejected.
func TestDistillAugmented(t *testing.T) {
	plain, err := Distill(small(Options{Seed: 4, Rounds: 1}))
	if err != nil {
		t.Fatal(err)
	}
	var files [2][]byte
	var r *Result
	for i := range files {
		if r, err = Distill(small(Options{Seed: 4, Rounds: 1, AugmentRates: []float64{0.5, 2}})); err != nil {
			t.Fatal(err)
		}
		if files[i], err = r.Student.Marshal(); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatal("two augmented distillations with the same seed differ")
	}
	if plain.AugmentedPairs != 0 || r.AugmentedPairs == 0 || r.TrainPairs != plain.TrainPairs+r.AugmentedPairs || r.TestPairs != plain.TestPairs {
		t.Fatalf("plain %d fitted %d held out; augmented %d fitted (%d copies) %d held out",
			plain.TrainPairs, plain.TestPairs, r.TrainPairs, r.AugmentedPairs, r.TestPairs)
	}
	if !(r.RateSlopeRMS > 0) || !(r.RateSlopeRMSE >= 0) {
		t.Fatalf("rate slope RMSE %v of teacher slopes RMS %v", r.RateSlopeRMSE, r.RateSlopeRMS)
	}
	for _, f := range []float64{1, -0.5, math.Inf(1)} {
		if _, err := Distill(small(Options{AugmentRates: []float64{f}})); err == nil || !strings.Contains(err.Error(), "augmentation factor") {
			t.Errorf("factor %v: err %v", f, err)
		}
	}
}
