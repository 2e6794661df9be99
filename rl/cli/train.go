package cli

import (
	"fmt"
	"path/filepath"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/rl/heldout"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/rl/train"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/units"
)

// TrainRLCC are `ccreplay train rlcc`'s flag values.
type TrainRLCC struct {
	Episodes int
	Seed     uint64
	Out      string
	Force    bool
	Flows    string
	Duration string
	Latency  string
	LR       float64
	StartMin float64
	Around   float64
	Penalty  float64
	Buffer   string
	Select   string
	SelectBy string
	Parallel int
	Every    int
	Init     string
	JSON     bool
}

// Options checks the flag values and turns them into the trainer's
// options, --init's network loaded and the provenance set.
func (o *TrainRLCC) Options() (train.Options, error) {
	var t train.Options
	if o.Out == "" {
		return t, clierr.Usagef("give the output folder: -o DIR")
	}
	if o.Episodes < 1 {
		return t, clierr.Usagef("--episodes: want at least 1, got %d", o.Episodes)
	}
	var err error
	if t.Flows, err = parseCounts("flows", o.Flows, "flow count", train.MaxFlows); err != nil {
		return t, err
	}
	if t.Duration, err = units.ParseDuration(o.Duration); err != nil || t.Duration <= 0 {
		return t, clierr.Usagef("--duration: want a positive time such as 5ms, got %q", o.Duration)
	}
	if t.Latency, err = units.ParseDuration(o.Latency); err != nil || t.Latency < 0 {
		return t, clierr.Usagef("--latency: want a time such as 2us, got %q", o.Latency)
	}
	if t.BufferBytes, err = parseBuffer(o.Buffer); err != nil {
		return t, err
	}
	if err := o.check(); err != nil {
		return t, err
	}
	frFlows, err := parseFlowList("select-flows", o.Select, true)
	if err != nil {
		return t, err
	}
	switch o.SelectBy {
	case "heldout":
		t.Heldout = heldout.RLCC
	case "fr":
		t.SelectFlows = frFlows
	}
	if t.Latency == 0 {
		t.Latency = -1 // train.Options: negative is none, 0 the default
	}
	t.Episodes, t.Seed, t.LR, t.StartMin, t.StartAround = o.Episodes, o.Seed, o.LR, o.StartMin, o.Around
	t.Parallel, t.SelectEvery = o.Parallel, o.Every
	t.Objective = train.Objective{Target: reward.RLCCTarget, Beta: reward.RLCCBeta, Clip: train.DefaultClip, Penalty: o.Penalty}
	if err := o.init(&t); err != nil {
		return t, err
	}
	t.ProducedBy = fmt.Sprintf("ccreplay train rlcc --episodes %d --seed %d --flows %s --duration %s --latency %s --lr %v --start-min %v --start-around %v --buffer %s --penalty %v --select-by %s --select-flows %s --select-every %d -j %d",
		o.Episodes, o.Seed, o.Flows, o.Duration, o.Latency, o.LR, o.StartMin, o.Around, o.Buffer, o.Penalty, o.SelectBy, o.Select, o.Every, o.Parallel)
	if o.Init != "" {
		t.ProducedBy += " --init " + filepath.Base(o.Init)
	}
	return t, nil
}

// check checks the numeric and named flags, in the order they are
// reported.
func (o *TrainRLCC) check() error {
	return firstUsageError(
		check{!(o.LR > 0) || o.LR > 1, fmt.Sprintf("--lr: want a step size in (0, 1], got %v", o.LR)},
		check{!(o.StartMin > 0 && o.StartMin <= 1), fmt.Sprintf("--start-min: want a fraction in (0, 1], got %v", o.StartMin)},
		check{!(o.Penalty >= 0) || o.Penalty > 100, fmt.Sprintf("--penalty: want a weight in [0, 100], got %v", o.Penalty)},
		check{!(o.Around >= 0 && o.Around <= 4), fmt.Sprintf("--start-around: want 0 to 4 decades, got %v", o.Around)},
		check{o.SelectBy != "heldout" && o.SelectBy != "fr" && o.SelectBy != "last", fmt.Sprintf("--select-by: want heldout, fr or last, got %q", o.SelectBy)},
		check{o.Parallel < 1 || o.Parallel > 256, fmt.Sprintf("--parallel: want 1..256 episodes at once, got %d", o.Parallel)},
		check{o.Every < 1, fmt.Sprintf("--select-every: want at least 1 iteration, got %d", o.Every)},
	)
}

// init sets the network --init starts from (an MLP policy file).
func (o *TrainRLCC) init(t *train.Options) error {
	if o.Init == "" {
		return nil
	}
	p, err := rlcc.LoadFile(o.Init)
	if err != nil {
		return clierr.Inputf("--init: %v", err)
	}
	if p.Kind != rlcc.KindMLP {
		return clierr.Inputf("--init %s: a %s policy; training needs an mlp", o.Init, p.Kind)
	}
	t.Init, t.AMin, t.AMax = p.MLP, p.AMin, p.AMax
	return nil
}

// Run trains into -o, staged (the folder appears complete or not at all,
// training.json last), and prints the summary, as text or JSON.
func (o *TrainRLCC) Run(env Env) error {
	t, err := o.Options()
	if err != nil {
		return err
	}
	t.Context = env.Ctx
	st, err := stageTraining(o.Out, o.Force)
	if err != nil {
		return err
	}
	defer st.Abort()
	if env.Progress != nil {
		t.Progress = func(r v2.LearningRow) {
			env.Progress.Set(fmt.Sprintf("episode %d/%d  %-16s reward %9.4f  utilization %.3f  rtt inflation %6.3f",
				r.Episode+1, t.Episodes, r.Scenario, r.MeanReward, r.Utilization, r.MeanRTTInflation))
		}
	}
	res, err := train.Train(t)
	env.Progress.Clear()
	if err := interrupted(err, "written to "+o.Out); err != nil {
		return err
	}
	if err := train.WriteOutputs(st.Dir, res); err != nil {
		return err
	}
	if err := commitTraining(st, "train rlcc", t.Seed); err != nil {
		return err
	}
	sum := train.Summarize(o.Out, t, res)
	if o.JSON {
		return env.PrintJSON(sum)
	}
	return sum.WriteText(env.Out)
}
