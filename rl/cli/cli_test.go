package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/all"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/internal/progress"
	"github.com/ccreplay/ccreplay/rl/train"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/units"
)

// rlccDefaults are `ccreplay train rlcc`'s flag defaults.
func rlccDefaults() TrainRLCC {
	return TrainRLCC{Episodes: 1400, Seed: 1, Out: "x", Flows: "2,4,8,16,32,64,128", Duration: "5ms", Latency: "2us", LR: 0.01,
		StartMin: train.DefaultStartMin, Penalty: train.DefaultPenalty, Buffer: "5MB", Select: "24,96", SelectBy: "heldout", Parallel: 1, Every: 50}
}

// fdccDefaults are `ccreplay train fdcc`'s flag defaults.
func fdccDefaults() TrainFDCC {
	return TrainFDCC{Curriculum: "2,4,8,16,32", PerStage: 10000, Seed: 1, Out: "x", Duration: "10ms", Jitter: "1ms", Size: "20MB",
		Explore: 0.1, Gamma: 0.99, NStep: 5, Updates: 50, Batch: 256, Hidden: 64, Head: "64,64", LR: 3e-4, Rescale: "compound",
		Reward: "fdcc", SelectBy: "heldout", Parallel: 1, ScoreFlows: "8,16,32", ScoreSeeds: "1000001..1000002"}
}

// Each bad flag value is refused with a one-line usage error (exit 2)
// naming the flag, a bad file with an input error (exit 3); the defaults
// pass and give the trainers' documented settings.
func TestTrainOptions(t *testing.T) {
	o := rlccDefaults()
	to, err := o.Options()
	if err != nil || to.Latency != 2*units.Microsecond || to.BufferBytes != 5_000_000 || len(to.Flows) != 7 || to.Heldout == nil ||
		!strings.HasPrefix(to.ProducedBy, "ccreplay train rlcc --episodes 1400 --seed 1 ") {
		t.Fatalf("train rlcc defaults: %+v, %v", to, err)
	}
	o.Latency = "0"
	if to, _ := o.Options(); to.Latency != -1 {
		t.Errorf("--latency 0 gives %v, want -1 (none)", to.Latency)
	}
	for _, tc := range []struct {
		set  func(*TrainRLCC)
		want string
		code int
	}{
		{func(o *TrainRLCC) { o.Out = "" }, "give the output folder: -o DIR", clierr.ExitUsage},
		{func(o *TrainRLCC) { o.Episodes = 0 }, "--episodes: want at least 1, got 0", clierr.ExitUsage},
		{func(o *TrainRLCC) { o.Flows = "2,0" }, `--flows: "0" is not a flow count in 1..2048`, clierr.ExitUsage},
		{func(o *TrainRLCC) { o.Duration = "0" }, `--duration: want a positive time such as 5ms, got "0"`, clierr.ExitUsage},
		{func(o *TrainRLCC) { o.LR = 2 }, "--lr: want a step size in (0, 1], got 2", clierr.ExitUsage},
		{func(o *TrainRLCC) { o.SelectBy = "best" }, `--select-by: want heldout, fr or last, got "best"`, clierr.ExitUsage},
		{func(o *TrainRLCC) { o.Parallel = 257 }, "--parallel: want 1..256 episodes at once, got 257", clierr.ExitUsage},
		{func(o *TrainRLCC) { o.Init = filepath.Join(t.TempDir(), "none.json") }, "--init: ", clierr.ExitBadInput},
	} {
		o := rlccDefaults()
		tc.set(&o)
		_, err := o.Options()
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || clierr.Code(err) != tc.code || strings.Contains(err.Error(), "\n") {
			t.Errorf("train rlcc: %v (exit %d), want %q (exit %d)", err, clierr.Code(err), tc.want, tc.code)
		}
	}
	f := fdccDefaults()
	fo, err := f.Options()
	if err != nil || len(fo.Curriculum) != 5 || fo.EpisodesPerStage != 10000 || len(fo.TD3.HeadHidden) != 2 || fo.Heldout == nil {
		t.Fatalf("train fdcc defaults: %+v, %v", fo, err)
	}
	for _, tc := range []struct {
		set  func(*TrainFDCC)
		want string
	}{
		{func(o *TrainFDCC) { o.Curriculum = "2,65" }, `--curriculum: "65" is not a flow count in 1..64`},
		{func(o *TrainFDCC) { o.Jitter = "1ps" }, `--jitter: want a positive time in whole nanoseconds such as 1ms, got "1ps"`},
		{func(o *TrainFDCC) { o.NStep = 65 }, "--nstep: want 1..64, got 65"},
		{func(o *TrainFDCC) { o.Reward = "x" }, `--reward: want one of [fdcc fdcc-literal fdcc-link], got "x"`},
		{func(o *TrainFDCC) { o.Head = "4,0" }, `--head: "0" is not a layer width in 1..1024`},
	} {
		o := fdccDefaults()
		tc.set(&o)
		if _, err := o.Options(); err == nil || err.Error() != tc.want || clierr.Code(err) != clierr.ExitUsage {
			t.Errorf("train fdcc: %v, want %q", err, tc.want)
		}
	}
	f.Every, f.ScoreSeeds = 1, "x"
	if _, _, err := f.scores(); err == nil || !strings.HasPrefix(err.Error(), "--score-seeds: ") || clierr.Code(err) != clierr.ExitUsage {
		t.Errorf("--score-seeds x: %v", err)
	}
}

// cancelWriter cancels a context when written to.
type cancelWriter context.CancelFunc

func (c cancelWriter) Write(b []byte) (int, error) { c(); return len(b), nil }

// A tiny FDCC training, with checkpoints, interrupted after its first
// episode (the first checkpoint written) leaves no -o folder and nothing
// beside it; run to the end it writes the folder whole, training.json
// last and the checkpoints named where they end up; a second run into it
// is refused without --force and replaces it with --force.
func TestTrainFDCCStaged(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "pol")
	o := TrainFDCC{Curriculum: "2", PerStage: 3, Seed: 1, Out: out, Duration: "1ms", Jitter: "1ms", Size: "20MB", Explore: 0.1,
		Gamma: 0.99, NStep: 5, Updates: 1, Batch: 16, Hidden: 4, Head: "4", LR: 3e-4, Rescale: "compound", Reward: "fdcc",
		SelectBy: "last", Parallel: 1, Every: 1, ScoreFlows: "2", ScoreSeeds: "5"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout bytes.Buffer
	// The status line's first redraw (after the first episode) cancels.
	line := progress.New(cancelWriter(cancel))
	env := Env{Streams: iostreams.Streams{Out: &stdout, ErrIsTerminal: true}, Ctx: ctx, Progress: line}
	err := o.Run(env)
	if !errors.Is(err, context.Canceled) || clierr.Code(err) != clierr.ExitInterrupted || !strings.Contains(err.Error(), "nothing written to "+out) {
		t.Fatalf("interrupted training: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 || stdout.Len() != 0 {
		t.Fatalf("an interrupted training left %v in %s and printed %q", ents, dir, stdout.String())
	}
	env = Env{Streams: iostreams.Streams{Out: &stdout}, Ctx: context.Background()}
	if err := o.Run(env); err != nil {
		t.Fatal(err)
	}
	m, err := runfolder.ReadTraining(out)
	if err != nil || m.Command != "train fdcc" || m.Files[len(m.Files)-1] != runfolder.TrainingFile {
		t.Fatalf("%s: %+v, %v", runfolder.TrainingFile, m, err)
	}
	scores, err := os.ReadFile(filepath.Join(out, "checkpoints", runfolder.ScoresFile))
	if err != nil || !strings.Contains(string(scores), `"policy": "`+filepath.Join(out, "checkpoints", "policy-ep000001.json")+`"`) {
		t.Fatalf("%s does not name the checkpoints in %s: %v\n%s", runfolder.ScoresFile, out, err, scores)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%s holds %v, want the training folder only", dir, ents)
	}
	if err := o.Run(env); err == nil || clierr.Code(err) != clierr.ExitUsage || !strings.Contains(err.Error(), "give --force") {
		t.Errorf("a second training into %s: %v, want a refusal naming --force", out, err)
	}
	o.Force = true
	if err := o.Run(env); err != nil {
		t.Errorf("--force: %v", err)
	}
}

// The evaluations' flag values: baselines by name or "none", an RL-CC
// policy that does not load an input error naming --policy, the held-out
// set by name.
func TestEvalFlags(t *testing.T) {
	reg := all.Registry()
	if sp, err := BaselineSpecs(reg, " dcqcn, hpcc:hpcc "); err != nil || len(sp) != 2 || !strings.HasPrefix(sp[1].Name, "hpcc:") {
		t.Errorf("baselines: %v, %v", sp, err)
	}
	if sp, err := BaselineSpecs(reg, "none"); err != nil || sp != nil {
		t.Errorf("none: %v, %v", sp, err)
	}
	if _, err := BaselineSpecs(reg, "dcqcn,nope"); err == nil || !strings.HasPrefix(err.Error(), "--baselines: ") || clierr.Code(err) != clierr.ExitUsage {
		t.Errorf("an unknown baseline: %v", err)
	}
	if _, err := RLCCSpec("rlcc", filepath.Join("/no/such", runfolder.PolicyFile), 0); err == nil || !strings.HasPrefix(err.Error(), "--policy: ") || clierr.Code(err) != clierr.ExitBadInput {
		t.Errorf("a missing policy: %v", err)
	}
	for set, n := range map[string]int{"fdcc": 1, "rlcc": 1} {
		h := EvalHeldout{Set: set, Policy: "default", Latency: "2us"}
		if scs, sp, err := h.Learned(); err != nil || len(scs) < n || !strings.HasPrefix(sp.Name, set) {
			t.Errorf("--set %s: %d scenarios, spec %q, %v", set, len(scs), sp.Name, err)
		}
	}
	h := EvalHeldout{Set: "x"}
	if _, _, err := h.Learned(); err == nil || err.Error() != `--set: want fdcc or rlcc, got "x"` {
		t.Errorf("--set x: %v", err)
	}
	if p, err := FDCCPolicyParams("default"); p != nil || err != nil {
		t.Errorf("--policy default: %v, %v", p, err)
	}
	if _, err := FDCCPolicyParams(filepath.Join("/no/such", runfolder.PolicyFile)); err == nil || clierr.Code(err) != clierr.ExitBadInput {
		t.Errorf("--policy missing: %v", err)
	}
}

// actionCell is one cell of explain's table: ours [the paper's].
var actionCell = regexp.MustCompile(`\d\.\d{3} \[\d\.\d\d\]`)

// explain prints Table VI's nine rows for the default policy; bad flag
// values are usage errors.
func TestExplain(t *testing.T) {
	var out bytes.Buffer
	if err := (&Explain{Flows: 4}).Run(Env{Streams: iostreams.Streams{Out: &out}}); err != nil || len(actionCell.FindAllString(out.String(), -1)) != 9 {
		t.Fatalf("explain: %v\n%s", err, out.String())
	}
	for _, o := range []Explain{{Flows: 0}, {Flows: 4, Params: []string{"policy"}}} {
		if err := o.Run(Env{Streams: iostreams.Streams{Out: &out}}); clierr.Code(err) != clierr.ExitUsage {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
}

// flagValues keeps the first failure of a run of parses: a later bad
// value is not reported, and values after the failure are zero.
func TestFlagValuesFirstError(t *testing.T) {
	var p flagValues
	flows := p.flowList("flows", "4,16", false)
	d := p.duration("duration", "abc", false)
	ev := p.flowList("eval-flows", "x", true)
	lat := p.duration("latency", "2us", true)
	if len(flows) != 2 || d != 0 || ev != nil || lat != 0 {
		t.Errorf("values %v %v %v %v, want [4 16] then zeros", flows, d, ev, lat)
	}
	if p.err == nil || p.err.Error() != `--duration: want a positive time such as 10ms, got "abc"` {
		t.Errorf("error %v, want --duration's", p.err)
	}
	var ok flagValues
	if got := ok.duration("latency", "0", true); got != 0 || ok.err != nil {
		t.Errorf("latency 0 with zero allowed: %v, %v", got, ok.err)
	}
	if got := ok.duration("duration", "5ms", false); got != 5*units.Millisecond || ok.err != nil {
		t.Errorf("duration 5ms: %v, %v", got, ok.err)
	}
}
