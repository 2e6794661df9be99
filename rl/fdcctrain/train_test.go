package fdcctrain

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/fdcc"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/units"
)

// decision builds a decision with the reward-relevant features.
func decision(rtt, q, sr, gp, o float64, int bool) fdcc.Decision {
	var d fdcc.Decision
	d.Obs[fdcc.FeatRTT], d.Obs[fdcc.FeatQLen], d.Obs[fdcc.FeatSwitchRate], d.Obs[fdcc.FeatGoodput] = rtt, q, sr, gp
	d.Obs[fdcc.FeatLastAction] = o
	d.Output, d.INT = o, int
	return d
}

func TestRewardIsAlgorithm1(t *testing.T) {
	// FDCC (Zhang 2023), Algorithm 1 through rl/reward: line 2's test
	// on SWITCHRATE + QLEN - 1 > 0.5, line 3 -RTT, line 5
	// THROUGHPUT + 1/RTT - (THROUGHPUT - 1/N)^2 as printed, and with
	// THROUGHPUT over the fair share (x = N THROUGHPUT: x + 1/RTT - (x-1)^2).
	d := decision(3, 0.9, 0.7, 0.2, 0, true) // 0.9 + 0.7 - 1 = 0.6 > 0.5
	if got := Reward(reward.FDCCAsPrinted, &d, 4); got != -3 {
		t.Errorf("draining: reward %v, want -RTT = -3", got)
	}
	d = decision(1.25, 0.2, 0.9, 0.3, 0, true) // 0.1 <= 0.5
	want := 0.3 + 1/1.25 - (0.3-0.25)*(0.3-0.25)
	if got := Reward(reward.FDCCAsPrinted, &d, 4); math.Abs(got-want) > 1e-15 {
		t.Errorf("probing: reward %v, want %v", got, want)
	}
	if got, ref := Reward(reward.FDCCAsPrinted, &d, 4), reward.FDCCLiteral(reward.FDCCObs{SwitchRate: 0.9, QLen: 0.2, RTT: 1.25, Throughput: 0.3, Flows: 4}); got != ref {
		t.Errorf("reward %v differs from reward.FDCCLiteral %v", got, ref)
	}
	// The normalised reading: x = 4 x 0.3 = 1.2: 1.2 + 0.8 - 0.04.
	if got, want := Reward(reward.FDCCNormalised, &d, 4), 1.2+1/1.25-0.2*0.2; math.Abs(got-want) > 1e-12 {
		t.Errorf("probing, normalised: reward %v, want %v", got, want)
	}
	d.INT = false
	if got := Reward(reward.FDCCAsPrinted, &d, 4); !math.IsNaN(got) {
		t.Errorf("without telemetry: reward %v, want NaN (stage unknown)", got)
	}
}

func TestTransitionsNStep(t *testing.T) {
	// Section 4.2: r_t = sum_{i<n} gamma^i r_{t+i}; the reward of the action
	// at t is Algorithm 1 on the observation at t+1.
	var f Flow
	for k := range 12 {
		f.Decisions = append(f.Decisions, decision(1+0.1*float64(k), 0.1, 0.5, 0.2, 0.01*float64(k), k > 0))
		f.Active = append(f.Active, 2)
	}
	e := &EpisodeResult{Flows: []Flow{f}, Reading: reward.FDCCNormalised}
	const gamma, n = 0.9, 3
	tr := e.Transitions(gamma, n)
	r := make([]float64, 11)
	for k := range r {
		r[k] = Reward(reward.FDCCNormalised, &f.Decisions[k+1], 2)
	}
	ret := reward.Discounted(r, gamma, n)
	if len(tr) != 11 {
		t.Fatalf("%d transitions, want 11 (every decision with a later one)", len(tr))
	}
	for k, x := range tr {
		if math.Abs(x.Reward-ret[k]) > 1e-12 {
			t.Errorf("t=%d: return %v, want %v", k, x.Reward, ret[k])
		}
		m := min(n, 11-k)
		if want := math.Pow(gamma, float64(m)); math.Abs(x.Discount-want) > 1e-12 {
			t.Errorf("t=%d: discount %v, want gamma^%d (the episode ends by time: bootstrap)", k, x.Discount, m)
		}
		if want := min(k+1, fdcc.History); x.Steps != want || len(x.Obs) != want*fdcc.NumFeatures {
			t.Errorf("t=%d: history of %d steps (%d values), want %d", k, x.Steps, len(x.Obs), want)
		}
		if want := min(k+m+1, fdcc.History); x.NextSteps != want {
			t.Errorf("t=%d: next history of %d steps, want %d", k, x.NextSteps, want)
		}
		if x.Action != f.Decisions[k].Output {
			t.Errorf("t=%d: action %v, want the decision's output %v", k, x.Action, f.Decisions[k].Output)
		}
	}
	// The newest row of a history is the decision's own observation.
	var last [fdcc.NumFeatures]float64
	fdcc.Transform(last[:], &f.Decisions[10].Obs)
	if got := tr[10].Obs[len(tr[10].Obs)-fdcc.NumFeatures:]; !slices.Equal(got, last[:]) {
		t.Errorf("history of t=10 ends with %v, want %v", got, last)
	}
	// A finished flow's last step is terminal.
	e.Flows[0].Finished = true
	tr = e.Transitions(gamma, n)
	if tr[10].Discount != 0 || tr[8].Discount != 0 || tr[7].Discount == 0 {
		t.Errorf("finished flow: discounts %v %v %v, want 0 where the n steps reach the last decision", tr[7].Discount, tr[8].Discount, tr[10].Discount)
	}
	// No telemetry at decision 0's successor would make the first return
	// undefined; decision 0 itself never enters a reward.
	e.Flows[0].Decisions[1].INT = false
	if tr = e.Transitions(gamma, n); len(tr) != 10 {
		t.Errorf("%d transitions, want 10 (the one whose reward is undefined skipped)", len(tr))
	}
}

// tiny is a training run of a few seconds.
func tiny(seed uint64) Options {
	o := Options{Curriculum: []int{2, 4}, EpisodesPerStage: 2, Seed: seed, Duration: 1500 * units.Microsecond,
		UpdatesPerEpisode: 3, RandomEpisodes: 1, ProducedBy: "test"}
	o.TD3.Batch, o.TD3.Hidden, o.TD3.HeadHidden = 32, 8, []int{8}
	return o
}

func TestTrainDeterministic(t *testing.T) {
	var out [2][]byte
	for i := range out {
		res, err := Train(tiny(3))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Curve) != 4 || res.Curve[0].Flows != 2 || res.Curve[2].Flows != 2 || res.Curve[3].Flows != 4 {
			t.Fatalf("curriculum 2,4 x 2 episodes: flows %v, want 2 2 2 4 (stage 1 keeps stage 0's 2-to-1)", flows(res.Curve))
		}
		if res.Curve[3].Updates == 0 || res.Curve[3].Added == 0 {
			t.Fatalf("last episode: %d transitions, %d updates", res.Curve[3].Added, res.Curve[3].Updates)
		}
		if out[i], err = res.Policy.Marshal(); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Fatal("two runs with the same options wrote different policies")
	}
	res, err := Train(tiny(4))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := res.Policy.Marshal(); bytes.Equal(b, out[0]) {
		t.Fatal("another seed wrote the same policy")
	}
	if _, err := fdcc.Parse(out[0], "trained"); err != nil {
		t.Fatalf("the trained policy does not load: %v", err)
	}
}

func flows(rows []Row) []int32 {
	var f []int32
	for _, r := range rows {
		f = append(f, r.Flows)
	}
	return f
}

func TestOptionsRejected(t *testing.T) {
	for _, o := range []Options{
		{Curriculum: []int{0}},
		{Curriculum: []int{65}},
		{Gamma: 1.5},
		{NStep: 100},
		{FlowBytes: -1},
		{Jitter: 1},
	} {
		if _, err := Train(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestTrainParallel: with Parallel 2 two episodes play at once with the
// same actor and the learner then takes both episodes' updates; the same
// seed and Parallel give a byte-identical policy and curve; the first
// episode is the one Parallel 1 plays (same actor, same seed; Parallel 1
// updates the actor before the second).
func TestTrainParallel(t *testing.T) {
	o := tiny(3)
	o.Parallel = 2
	var out [2][]byte
	var curves [2][]Row
	for i := range out {
		res, err := Train(o)
		if err != nil {
			t.Fatal(err)
		}
		if out[i], err = res.Policy.Marshal(); err != nil {
			t.Fatal(err)
		}
		curves[i] = res.Curve
	}
	if !bytes.Equal(out[0], out[1]) || !reflect.DeepEqual(curves[0], curves[1]) {
		t.Fatal("two runs with Parallel 2 and the same seed differ")
	}
	c := curves[0]
	if len(c) != 4 || c[0].Updates != 0 || (c[1].Updates != 0 && c[1].Updates != 2*int32(o.UpdatesPerEpisode)) || c[3].Updates != 2*int32(o.UpdatesPerEpisode) {
		t.Fatalf("updates per row %d %d %d %d, want the batch's on its last row", c[0].Updates, c[1].Updates, c[2].Updates, c[3].Updates)
	}
	one, err := Train(tiny(3))
	if err != nil {
		t.Fatal(err)
	}
	if one.Curve[0].Reward != c[0].Reward || one.Curve[1].Seed != c[1].Seed {
		t.Errorf("first episode's reward %v under Parallel 1, %v under 2", one.Curve[0].Reward, c[0].Reward)
	}
}

// TestTrainHeldoutSelection: with Heldout and CheckpointEvery the run
// scores each checkpoint and the final actor on the held-out scenarios
// and returns the best; WriteOutputs writes the final actor and the
// evaluation beside it.
func TestTrainHeldoutSelection(t *testing.T) {
	o := tiny(3)
	o.CheckpointEvery = 3
	o.Heldout = []heldout.Scenario{{Name: "incast 3x200KB", Workload: "incast:n=3,size=200KB,jitter=50us,dist=gaussian,dst=64",
		Topology: "dumbbell:n=64,rate=100G,bottleneck=100G,delay=1us", WindowBDP: true, Duration: units.Millisecond}}
	res, err := Train(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Checkpoints) != 2 || res.Checkpoints[0].Episode != 3 || res.Checkpoints[1].Episode != 4 {
		t.Fatalf("checkpoints %+v, want after 3 episodes and the final (4)", res.Checkpoints)
	}
	scores := []float64{res.Checkpoints[0].Score, res.Checkpoints[1].Score}
	if res.Selected != heldout.Best(scores) {
		t.Fatalf("kept %d, scores %v", res.Selected, scores)
	}
	dir := t.TempDir()
	if err := WriteOutputs(dir, res); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{runfolder.PolicyFile, runfolder.FinalPolicyFile, runfolder.EvaluationFile, runfolder.EvaluationText, runfolder.LearningFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, runfolder.EvaluationText))
	if !strings.Contains(string(b), "kept: "+runfolder.PolicyFile) || !strings.Contains(string(b), "incast 3x200KB") {
		t.Errorf(runfolder.EvaluationText+":\n%s", b)
	}
}
