package heldout

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/linerate"
	"github.com/ccreplay/ccreplay/units"
)

// Two flows at line rate into one receiver (PFC shares the link between
// them): the bottleneck is busy from the first release to the last
// completion, so G is close to payload / wire (1000 / 1048 = 0.954, at
// most); the two flows are released together and have the same size, so
// over the span in which both are active they get about the same rate
// (F near 1, unfair ratio near 0).
func TestMeasureTwoFlowsAtLineRate(t *testing.T) {
	spec, err := linerate.Build("", nil)
	if err != nil {
		t.Fatal(err)
	}
	sc := Scenario{Name: "2x1MB", Workload: "incast:n=2,size=1MB", Topology: "star:hosts=3,rate=100G,delay=1us", Duration: 2 * units.Millisecond}
	r, err := Measure(spec, sc, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if r.Flows != 2 || r.Finished != 2 {
		t.Fatalf("flows %d finished %d, want 2 and 2", r.Flows, r.Finished)
	}
	if r.Goodput > 1000.0/1048+1e-9 || r.Goodput < 0.85 {
		t.Errorf("goodput %v, want in [0.85, 0.954]", r.Goodput)
	}
	if r.Fairness < 0.9 || r.Fairness > 1 || r.Unfair > 0.06 || r.SpanUs <= 0 {
		t.Errorf("fairness %v unfair %v over %v us, want >= 0.9, <= 0.06, a span", r.Fairness, r.Unfair, r.SpanUs)
	}
	if want := math.Min(math.Min(r.Goodput/GoodputBar, r.Fairness), 1); r.Score != want {
		t.Errorf("score %v, want min(G/0.85, F, 1) = %v", r.Score, want)
	}
	// A flow left unfinished: the run stops after 100 us, long before
	// 2 MB can cross at 100 Gb/s; goodput is over the run, not zero, and
	// nothing finishes.
	sc.Duration = 100 * units.Microsecond
	r, err = Measure(spec, sc, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Finished != 0 || !(r.Goodput > 0.5) {
		t.Errorf("stopped early: finished %d goodput %v", r.Finished, r.Goodput)
	}
}

// Staggered starts: the second flow joins when the first has finished, so
// no span has both active and F falls back to each flow's own life (both
// alone at line rate: F near 1). A mix is scored on delivery alone.
func TestMeasureFallbackAndMix(t *testing.T) {
	spec, _ := linerate.Build("", nil)
	sc := Scenario{Name: "apart", Workload: "longflows:n=2,size=100KB,stagger=100us", Topology: "star:hosts=3,rate=100G,delay=1us", Duration: units.Millisecond}
	r, err := Measure(spec, sc, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.SpanUs != 0 || r.Fairness < 0.9 || r.Finished != 2 {
		t.Errorf("apart: span %v us fairness %v finished %d, want 0 (own lives), >= 0.9, 2", r.SpanUs, r.Fairness, r.Finished)
	}
	mix := Scenario{Name: "mix", Workload: "cdf:dist=websearch,hosts=8,load=0.2,duration=200us", Topology: "leafspine:leaves=2,hosts=4,spines=2,rate=100G,fabric=100G,delay=1us", Mix: true, Duration: 20 * units.Millisecond}
	r, err = Measure(spec, mix, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Finished != r.Flows || r.Goodput != 1 || !math.IsNaN(r.Fairness) || r.Score != 1 {
		t.Errorf("mix: %+v, want every flow finished, G 1, no fairness, score 1", r)
	}
}

// Evaluate's table is the same at any parallelism and with the same seed.
func TestEvaluateDeterministic(t *testing.T) {
	spec, _ := linerate.Build("", nil)
	scs := []Scenario{
		{Name: "a", Workload: "incast:n=3,size=200KB,jitter=20us,dist=gaussian", Topology: "star:hosts=4,rate=100G,delay=1us", Duration: units.Millisecond},
		{Name: "b", Workload: "longflows:n=3,size=200KB,stagger=10us", Topology: "star:hosts=4,rate=100G,delay=1us", Duration: units.Millisecond},
	}
	a, err := Evaluate(spec, scs, Options{Seed: 3, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Evaluate(spec, scs, Options{Seed: 3, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("parallel 1 and 2 differ:\n%s\n%s", a.Format("1"), b.Format("2"))
	}
	if want := (a.Rows[0].Score + a.Rows[1].Score) / 2; a.Score != want {
		t.Errorf("table score %v, want the rows' mean %v", a.Score, want)
	}
	if Best([]float64{0.2, 0.5, 0.5, 0.1}) != 1 || Best(nil) != -1 {
		t.Error("Best does not keep the earlier of equal scores")
	}
	if _, err := Evaluate(spec, []Scenario{{Name: "bad", Workload: "nope", Topology: "star:hosts=2"}}, Options{}); err == nil {
		t.Error("a bad workload gave no error")
	}
}

// A row's NaN figures (a mix has no fairness) go to JSON as null and come
// back as NaN.
func TestRowJSON(t *testing.T) {
	r := Row{Scenario: "mix", Flows: 3, Goodput: 1, Fairness: math.NaN(), Unfair: math.NaN(), Score: 1}
	b, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(b), `"fairness":null`) || !strings.Contains(string(b), `"goodput":1`) {
		t.Fatalf("%s, %v", b, err)
	}
	var back Row
	if err := json.Unmarshal(b, &back); err != nil || back.Flows != 3 || !math.IsNaN(back.Fairness) || back.Score != 1 {
		t.Fatalf("%+v, %v", back, err)
	}
	r.Fairness = 0.5
	b, _ = json.Marshal(r)
	if err := json.Unmarshal(b, &back); err != nil || back.Fairness != 0.5 {
		t.Fatalf("%+v, %v", back, err)
	}
}
