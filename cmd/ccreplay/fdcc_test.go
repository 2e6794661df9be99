package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/fdcc"
	"github.com/ccreplay/ccreplay/rl/fdcctrain"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/units"
)

// `ccreplay train fdcc` writes policy.json and learning.parquet (read
// back with Arrow); the same flags give byte-identical files; the policy
// loads with --cca fdcc --cca-param policy=FILE and drives a run.
func TestTrainFDCC(t *testing.T) {
	dir := t.TempDir()
	args := []string{"train", "fdcc", "--curriculum", "2,4", "--episodes-per-stage", "2", "--duration", "1ms",
		"--updates", "2", "--batch", "16", "--hidden", "4", "--head", "4", "--seed", "5", "--rescale", "direct", "--select-by", "last"}
	files := runTwice(t, subdir(dir), func(out string) []string { return append(args, "-o", out) },
		[]string{runfolder.PolicyFile, runfolder.LearningFile}, false, func(_ string, sum *fdcctrain.Summary) {
			if sum.Episodes != 4 || sum.Last.Episode != 3 || len(sum.LastByN) != 2 || !strings.Contains(sum.ProducedBy, "--seed 5") {
				t.Fatalf("summary %+v", *sum)
			}
		})
	if !strings.Contains(string(files[0]), `"rescale": "direct"`) || !strings.Contains(string(files[0]), `"format": "ccreplay.fdcc-policy"`) {
		t.Fatalf(runfolder.PolicyFile+":\n%.300s", files[0])
	}
	at := readArrow(t, filepath.Join(dir, "a", runfolder.LearningFile))
	if at.rows != 4 || len(at.i32["flows"]) != 4 || at.i32["flows"][3] != 4 || len(at.f64["mean_reward"]) != 4 {
		t.Fatalf(runfolder.LearningFile+" read by Arrow: %d rows, flows %v", at.rows, at.i32["flows"])
	}
	p := filepath.Join(dir, "a", runfolder.PolicyFile)
	r := runCLI(t, "run", "--workload", "incast:n=4,size=200KB", "--topology", "dumbbell:n=4", "--cca", "fdcc", "--cca-param", "policy="+p,
		"--packets", "none", "--out", filepath.Join(dir, "run"), "--json")
	r.mustSucceed(t)
	s := decodeSummary(t, []byte(r.stdout))
	if s.CCA != "fdcc:paper" || s.CCAParams["policy"] != p || s.CCAParams["rescale"] != "direct" || s.Metrics["flows_finished"] != float64(4) {
		t.Fatalf("run with the trained policy: cca %s params %v flows_finished %v", s.CCA, s.CCAParams, s.Metrics["flows_finished"])
	}
}

func TestTrainFDCCUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "fdcc"}, "-o DIR"},
		{[]string{"train", "fdcc", "-o", "x", "--curriculum", "2,100"}, "--curriculum"},
		{[]string{"train", "fdcc", "-o", "x", "--rescale", "wild"}, "--rescale"},
		{[]string{"train", "fdcc", "-o", "x", "--nstep", "0"}, "--nstep"},
		{[]string{"train", "fdcc", "-o", "x", "--jitter", "0"}, "--jitter"},
		{[]string{"train", "fdcc", "-o", "x", "--reward", "nope"}, "--reward: want one of [fdcc fdcc-literal fdcc-link]"},
		// fdcc-link (the first issue 35 policy's reading) passes the --reward
		// check, which comes before --select-by's.
		{[]string{"train", "fdcc", "-o", "x", "--reward", "fdcc-link", "--select-by", "wild"}, "--select-by"},
		{[]string{"eval", "fdcc", "--table", "6.3"}, "--table"},
		{[]string{"eval", "fdcc", "--policy", "/no/such/" + runfolder.PolicyFile}, "--policy"},
	} {
		r := runCLI(t, tc.args...)
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q: want one line naming %s", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// --checkpoint-every writes the actor after every N episodes and scores
// each by the mean Algorithm 1 reward, without exploration noise, on the
// --score-flows incasts at the --score-seeds: the last checkpoint is the
// final actor (policy-final.json), and scoring it again gives the same
// score. With --select-by heldout (the default) each checkpoint also plays
// the held-out scenarios and policy.json is the one with the best score,
// its table in evaluation.txt.
func TestTrainFDCCCheckpoints(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cp")
	r := runCLI(t, "train", "fdcc", "--curriculum", "2,4", "--episodes-per-stage", "2", "--duration", "1ms", "--updates", "2",
		"--batch", "16", "--hidden", "4", "--head", "4", "--checkpoint-every", "2", "--score-flows", "2,4", "--score-seeds", "1000001", "-o", out, "--json")
	r.mustSucceed(t)
	var sum fdcctrain.Summary
	if err := json.Unmarshal([]byte(r.stdout), &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Checkpoints) != 2 || sum.Checkpoints[0].Episode != 2 || sum.Checkpoints[1].Episode != 4 {
		t.Fatalf("checkpoints %+v, want after 2 and 4 episodes", sum.Checkpoints)
	}
	last, err := os.ReadFile(sum.Checkpoints[1].Policy)
	if err != nil {
		t.Fatal(err)
	}
	final, _ := os.ReadFile(filepath.Join(out, runfolder.FinalPolicyFile))
	var a, b, k, c struct {
		Net json.RawMessage `json:"network"`
	}
	if json.Unmarshal(last, &a) != nil || json.Unmarshal(final, &b) != nil || len(a.Net) == 0 || !bytes.Equal(a.Net, b.Net) {
		t.Error("the last checkpoint's network is not the final policy's")
	}
	if len(sum.Heldout) != 2 || sum.Heldout[sum.Kept].Score < sum.Heldout[1-sum.Kept].Score {
		t.Fatalf("held-out checkpoints %+v, kept %d", sum.Heldout, sum.Kept)
	}
	kept, _ := os.ReadFile(filepath.Join(out, runfolder.PolicyFile))
	ck, _ := os.ReadFile(sum.Checkpoints[sum.Kept].Policy)
	if json.Unmarshal(kept, &k) != nil || json.Unmarshal(ck, &c) != nil || !bytes.Equal(k.Net, c.Net) {
		t.Error(runfolder.PolicyFile + " is not the kept checkpoint's network")
	}
	if ev, err := os.ReadFile(filepath.Join(out, runfolder.EvaluationText)); err != nil || !strings.Contains(string(ev), "kept: "+runfolder.PolicyFile) {
		t.Errorf(runfolder.EvaluationText+": %v\n%s", err, ev)
	}
	var scores []fdcctrain.CheckpointScore
	if b, err := os.ReadFile(filepath.Join(out, "checkpoints", runfolder.ScoresFile)); err != nil || json.Unmarshal(b, &scores) != nil || len(scores) != 2 {
		t.Fatalf("%s: %v %v", runfolder.ScoresFile, err, scores)
	}
	pol, err := fdcc.Load(sum.Checkpoints[1].Policy)
	if err != nil {
		t.Fatal(err)
	}
	opt := fdcctrain.Options{Curriculum: []int{2, 4}, EpisodesPerStage: 2, Duration: units.Millisecond}
	again, err := fdcctrain.Score(pol, []int{2, 4}, []uint64{1000001}, opt)
	if err != nil || again != scores[1].Score {
		t.Errorf("scoring the last checkpoint again: %v (%v), "+runfolder.ScoresFile+" says %v", again, err, scores[1].Score)
	}
}
