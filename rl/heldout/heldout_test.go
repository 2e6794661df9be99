package heldout

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	// Without a window, twice the port's rate arrives until PFC pauses
	// the senders: a standing queue far above the bar, which sets the
	// score.
	if r.QueueUs < 2*QueueBar {
		t.Errorf("Q %v us, want a standing queue (two line-rate flows, no window)", r.QueueUs)
	}
	if want := math.Min(r.Goodput/GoodputBar, 1) * r.Fairness * (QueueBar / r.QueueUs); r.Score != want {
		t.Errorf("score %v, want min(G/0.85, 1) x F x 10us/Q = %v", r.Score, want)
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
		{Name: "b", Workload: "longflows:n=3,size=200KB,stagger=10us", Topology: "star:hosts=4,rate=100G,delay=1us", Join: true, Duration: units.Millisecond},
	}
	a, err := Evaluate(spec, scs, Options{Seed: 3, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Evaluate(spec, scs, Options{Seed: 3, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) || !reflect.DeepEqual(a.Rows[0].Scenario, b.Rows[0].Scenario) {
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
	r := Row{Scenario: "mix", Flows: 3, Goodput: 1, Fairness: math.NaN(), Unfair: math.NaN(), JoinShare: math.NaN(), Score: 1}
	b, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(b), `"fairness":null`) || !strings.Contains(string(b), `"goodput":1`) {
		t.Fatalf("%s, %v", b, err)
	}
	var back Row
	if err := json.Unmarshal(b, &back); err != nil || back.Flows != 3 || !math.IsNaN(back.Fairness) || back.Score != 1 {
		t.Fatalf("%+v, %v", back, err)
	}
	if !strings.Contains(string(b), `"join_share":null`) || !math.IsNaN(back.JoinShare) {
		t.Errorf("a NaN join share: %s, back %v", b, back.JoinShare)
	}
	r.Fairness, r.JoinShare = 0.5, 0.75
	b, _ = json.Marshal(r)
	if err := json.Unmarshal(b, &back); err != nil || back.Fairness != 0.5 || back.JoinShare != 0.75 {
		t.Fatalf("%+v, %v", back, err)
	}
}

// JoinShare on hand-made deliveries (FDCC, Zhang 2023, Fig. 6.2: flows
// join one by one and each should reach its share). Flow 0 runs alone from
// 0; flow 1 joins at 100 us and gets a quarter of flow 0's rate over the
// second half of its phase; flow 2 joins at 300 us and gets the mean rate.
// The worst phase is flow 1's: 0.25 / ((1 + 0.25) / 2) = 0.4.
func TestJoinShare(t *testing.T) {
	us := units.Microsecond
	ramp := func(start units.Time, rates []struct {
		until  units.Time
		perBin int64
	}) []mark {
		var out []mark
		cum := int64(0)
		at := start
		for _, r := range rates {
			for at+binPs <= r.until {
				at += binPs
				cum += r.perBin
				out = append(out, mark{at, cum})
			}
		}
		return out
	}
	type seg = struct {
		until  units.Time
		perBin int64
	}
	m := &meter{flows: []flowInfo{
		{release: 0, done: -1, marks: ramp(0, []seg{{100 * us, 1000}, {300 * us, 800}, {500 * us, 500}})},
		{release: 100 * us, done: -1, marks: ramp(100*us, []seg{{300 * us, 200}, {500 * us, 500}})},
		{release: 300 * us, done: -1, marks: ramp(300*us, []seg{{500 * us, 500}})},
	}}
	if got, want := m.joinShare(500*us), 200.0/((800+200)/2.0); math.Abs(got-want) > 1e-12 {
		t.Errorf("join share %v, want flow 1's %v", got, want)
	}
	// Flow 1 at the mean too: every newcomer has its share, 1.
	m.flows[1].marks = ramp(100*us, []seg{{300 * us, 800}, {500 * us, 500}})
	if got := m.joinShare(500 * us); math.Abs(got-1) > 1e-12 {
		t.Errorf("join share %v, want 1", got)
	}
	// A newcomer that gets nothing: 0.
	m.flows[2].marks = nil
	if got := m.joinShare(500 * us); got != 0 {
		t.Errorf("starved newcomer: join share %v, want 0", got)
	}
	// One flow: no phase, NaN.
	if got := (&meter{flows: m.flows[:1]}).joinShare(500 * us); !math.IsNaN(got) {
		t.Errorf("one flow: %v, want NaN", got)
	}
}

// Through a replay: three flows at line rate joining every 100 us into one
// receiver share it by PFC, so each newcomer gets about the mean rate; a
// scenario without Join has no JoinShare.
func TestMeasureJoin(t *testing.T) {
	spec, _ := linerate.Build("", nil)
	sc := Scenario{Name: "join", Workload: "longflows:n=3,size=2MB,stagger=100us", Topology: "star:hosts=4,rate=100G,delay=1us", Join: true, Duration: 2 * units.Millisecond}
	r, err := Measure(spec, sc, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("join share %v", r.JoinShare)
	if !(r.JoinShare > 0.8 && r.JoinShare < 1.25) {
		t.Errorf("join share %v, want about 1 (PFC shares the link)", r.JoinShare)
	}
	sc.Join = false
	if r, _ = Measure(spec, sc, Options{Seed: 1}); !math.IsNaN(r.JoinShare) {
		t.Errorf("no Join: join share %v, want NaN", r.JoinShare)
	}
}

// Compare labels each entry's table, in the entries' order, each equal to
// Evaluate's; the first failing entry stops it.
func TestCompareLabelsTables(t *testing.T) {
	spec, _ := linerate.Build("", nil)
	scs := []Scenario{{Name: "a", Workload: "incast:n=3,size=200KB", Topology: "star:hosts=4,rate=100G,delay=1us", Duration: units.Millisecond}}
	out, err := Compare([]Entry{{Label: "x", Spec: spec}, {Label: "y", Spec: spec}}, scs, Options{Seed: 3, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Evaluate(spec, scs, Options{Seed: 3, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(out[len(out)-1].Table)
	w, _ := json.Marshal(want) // NB: JSON, since the join share is NaN here
	if len(out) != 2 || out[0].Label != "x" || out[1].Label != "y" || !bytes.Equal(got, w) {
		t.Errorf("Compare = %+v, want x and y with %+v", out, want)
	}
	bad := []Scenario{{Name: "bad", Workload: "nope", Topology: "star:hosts=2"}}
	if _, err := Compare([]Entry{{Label: "x", Spec: spec}}, bad, Options{}); err == nil {
		t.Error("a bad workload gave no error")
	}
}

// The queueing delay Q through a replay, against the queue the windows
// imply. Four flows with one-BDP windows (nic.Config.WindowBDP) into one
// receiver, without congestion control, keep 4 BDP in flight where the
// path holds one: the receiver's switch port holds the other three, and a
// packet waits about 3 BDP / line rate = 3 base RTTs there (Little's law),
// about 13 us on this star of 1 us links. The bar (QueueBar, 10 us) then
// scales the score by QueueBar / Q. Two flows at 40 Gb/s each (80 % of
// the port) leave no standing queue: Q under one packet's serialisation
// (0.08 us), and the score is min(G / 0.85, 1) x F.
func TestQueueingDelay(t *testing.T) {
	sc := Scenario{Name: "4x2MB", Workload: "incast:n=4,size=2MB", Topology: "star:hosts=5,rate=100G,delay=1us", WindowBDP: true, Duration: 4 * units.Millisecond}
	r := measureLinerate(t, sc, nil)
	// The base RTT: four 1 us links plus the serialisation of a data
	// packet and an ACK at each hop, 4.0 to 4.4 us; within 10 % for the
	// start, when the queue builds, and the end, when it drains.
	if r.QueueUs < 3*4.0*0.9 || r.QueueUs > 3*4.4*1.1 {
		t.Errorf("Q %v us, want about 3 base RTTs (10.8 to 14.5 us)", r.QueueUs)
	}
	if r.Goodput < 0.9 || r.Fairness < 0.9 {
		t.Fatalf("goodput %v fairness %v, want both near 1", r.Goodput, r.Fairness)
	}
	if want := math.Min(r.Goodput/GoodputBar, 1) * r.Fairness * (QueueBar / r.QueueUs); math.Abs(r.Score-want) > 1e-12 || r.Score > QueueBar/r.QueueUs {
		t.Errorf("score %v, want min(G/0.85, 1) x F x QueueBar / Q = %v", r.Score, want)
	}
	sc = Scenario{Name: "2x1MB at 40G", Workload: "incast:n=2,size=1MB", Topology: "star:hosts=3,rate=100G,delay=1us", Duration: 2 * units.Millisecond}
	r = measureLinerate(t, sc, map[string]string{"rate": "40G"})
	if r.QueueUs < 0 || r.QueueUs > 0.1 {
		t.Errorf("Q %v us at 80 %% load, want under one packet's serialisation", r.QueueUs)
	}
	if want := math.Min(r.Goodput/GoodputBar, 1) * r.Fairness; r.Score != want {
		t.Errorf("score %v, want min(G/0.85, 1) x F = %v", r.Score, want)
	}
}

// The rule on rows: a policy without congestion control (windows at the
// one-BDP cap: goodput and fairness as high as a controlled one's, the
// queue of FDCC run A's 20-episode actor at 16-to-1, 1.13 MB = 90 us at
// 100 Gb/s) scores well below one that keeps the queue under the bar at
// the same goodput and fairness; a mix has no fairness but its queue
// counts. The terms multiply: with a queue far above the bar for both,
// the fairer of two policies still scores higher in proportion.
func TestRowScoreQueue(t *testing.T) {
	capped := Row{Goodput: 0.95, Fairness: 0.97, QueueUs: 90}
	small := Row{Goodput: 0.95, Fairness: 0.97, QueueUs: 2}
	if got, want := rowScore(&capped, false), 0.97*10.0/90; math.Abs(got-want) > 1e-12 {
		t.Errorf("capped windows: %v, want F x QueueBar / Q = %v", got, want)
	}
	if got := rowScore(&small, false); got != 0.97 {
		t.Errorf("small queue: %v, want the fairness 0.97", got)
	}
	fair, unfair := Row{Goodput: 0.95, Fairness: 0.4, QueueUs: 1300}, Row{Goodput: 0.95, Fairness: 0.2, QueueUs: 1300}
	if a, b := rowScore(&fair, false), rowScore(&unfair, false); math.Abs(a-2*b) > 1e-12 {
		t.Errorf("same queue, fairness 0.4 and 0.2: %v and %v, want a ratio of 2", a, b)
	}
	slow := Row{Goodput: 0.425, Fairness: 0.5, QueueUs: 20}
	if got := rowScore(&slow, false); math.Abs(got-0.5*0.5*0.5) > 1e-12 {
		t.Errorf("every term at one half: %v, want 0.125", got)
	}
	mix := Row{Goodput: 1, Fairness: math.NaN(), QueueUs: 20}
	if got := rowScore(&mix, true); got != 0.5 {
		t.Errorf("mix with Q 20 us: %v, want 0.5", got)
	}
	mix.QueueUs = 10
	if got := rowScore(&mix, true); got != 1 {
		t.Errorf("mix with Q at the bar: %v, want 1", got)
	}
}

// A lone flow on an idle link (the sets' "lone" scenario): at line rate it
// scores 1; held at 43 % of the line rate (FDCC run A's 120-episode actor
// alone, docs/FDCC.md) it delivers 0.43 x 1000 / 1048 (payload over wire)
// = 0.41 of the line rate and scores 0.41 / 0.85, about 0.48. Fairness of
// one flow is 1 and there is no queue.
func TestLoneFlow(t *testing.T) {
	for _, set := range [][]Scenario{FDCC, RLCC} {
		var lone *Scenario
		for i := range set {
			if strings.HasPrefix(set[i].Name, "lone") {
				lone = &set[i]
			}
		}
		if lone == nil {
			t.Fatal("a held-out set without a lone flow")
		}
		for _, c := range []struct {
			rate   string
			lo, hi float64
		}{{"line", 1, 1}, {"43G", 0.46, 0.50}} {
			r := measureLinerate(t, *lone, map[string]string{"rate": c.rate})
			if r.Flows != 1 || r.Finished != 1 || r.Fairness != 1 || r.QueueUs > 0.1 {
				t.Errorf("%s at %s: %+v, want one finished flow, fairness 1, no queue", lone.Name, c.rate, r)
			}
			if r.Score < c.lo || r.Score > c.hi {
				t.Errorf("%s at %s: score %v, want in [%v, %v]", lone.Name, c.rate, r.Score, c.lo, c.hi)
			}
		}
	}
}

// Rule, the words the trainers and tables print, names the constants the
// score uses.
func TestRuleNamesConstants(t *testing.T) {
	for _, s := range []string{fmt.Sprintf("goodput/%.2f", GoodputBar), fmt.Sprintf("%gus/queueing delay", QueueBar), "fairness"} {
		if !strings.Contains(Rule, s) {
			t.Errorf("Rule %q does not say %q", Rule, s)
		}
	}
	if h := (Table{}).Format("x"); !strings.Contains(h, Rule) || !strings.Contains(h, "queue us") {
		t.Errorf("the table header does not state the rule and the queue column:\n%s", h)
	}
}

// measureLinerate is Measure of sc (seed 1) under linerate with params
// (nil: the line rate), the test failed on an error.
func measureLinerate(t *testing.T, sc Scenario, params map[string]string) Row {
	t.Helper()
	spec, err := linerate.Build("", params)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Measure(spec, sc, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (%s, %v): %+v", sc.Name, sc.Topology, params, r)
	return r
}
