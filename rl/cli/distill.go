package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/rl/distill"
	"github.com/ccreplay/ccreplay/rl/eval"
	"github.com/ccreplay/ccreplay/rl/gbt"
	"github.com/ccreplay/ccreplay/runfolder"
)

// Distill are `ccreplay distill rlcc`'s flag values.
type Distill struct {
	Teacher      string
	Seed         uint64
	Out          string
	Force        bool
	Trees, Depth int
	LR, Lambda   float64
	MinLeaf      int
	Flows        string
	Duration     string
	Latency      string
	EvalFlows    string
	EvalDuration string
	Lossy        bool
	Buffer       string
	Rounds       int
	StartMin     float64
	Monotone     string
	Augment      string
	Select       string
	// KeepRounds writes every round's student to DIR/rounds/round-NN.json.
	KeepRounds bool
	JSON       bool
}

// Options checks the flag values and turns them into the distillation's
// options (the teacher loaded), the flow counts of the teacher/student
// comparison (RL-CC-NIC, Fuhrer 2023, Table III; nil for none) and its
// options.
func (o *Distill) Options() (distill.Options, []int, eval.Options, error) {
	var d distill.Options
	var e eval.Options
	if err := o.check(); err != nil {
		return d, nil, e, err
	}
	var p flagValues
	flows := p.flowList("flows", o.Flows, false)
	evalFlows := p.flowList("eval-flows", o.EvalFlows, true)
	dur := p.duration("duration", o.Duration, false)
	edur := p.duration("eval-duration", o.EvalDuration, false)
	d.Latency = p.duration("latency", o.Latency, true)
	if p.err != nil {
		return d, nil, e, p.err
	}
	var err error
	if d.Teacher, err = rlcc.Named(o.Teacher); err != nil {
		return d, nil, e, clierr.Inputf("--teacher: %v", err)
	}
	if err := o.more(&d); err != nil {
		return d, nil, e, err
	}
	d.Flows, d.Duration, d.Seed = flows, dur, o.Seed
	e = eval.Options{Duration: edur, Lossy: o.Lossy, Seed: o.Seed, BufferBytes: d.BufferBytes}
	return d, evalFlows, e, nil
}

// check checks the flags that need no parsing, in the order they are
// reported.
func (o *Distill) check() error {
	return firstUsageError(
		check{o.Out == "", "give the output folder: -o DIR"},
		check{o.Teacher == "", "give the teacher: --teacher FILE (or --teacher default)"},
		check{o.Trees < 1 || o.Trees > distill.MaxTrees, fmt.Sprintf("--trees: want 1..%d (RL-CC-NIC, Fuhrer 2023, Section V-C), got %d", distill.MaxTrees, o.Trees)},
		check{o.Depth < 1 || o.Depth > distill.MaxDepth, fmt.Sprintf("--depth: want 1..%d (RL-CC-NIC, Fuhrer 2023, Section V-C), got %d", distill.MaxDepth, o.Depth)},
		check{!(o.LR > 0 && o.LR <= 1), fmt.Sprintf("--learning-rate: want a value in (0, 1], got %v", o.LR)},
		check{!(o.Lambda >= 0), fmt.Sprintf("--lambda: want a value >= 0, got %v", o.Lambda)},
		check{o.MinLeaf < 1, fmt.Sprintf("--min-leaf: want at least 1, got %d", o.MinLeaf)},
		check{o.Rounds < 1 || o.Rounds > 20, fmt.Sprintf("--rounds: want 1..20, got %d", o.Rounds)},
		check{!(o.StartMin > 0 && o.StartMin <= 1), fmt.Sprintf("--start-min: want a fraction in (0, 1], got %v", o.StartMin)},
	)
}

// more sets the booster, the collection runs and the student's selection
// from their flags, and the provenance.
func (o *Distill) more(d *distill.Options) error {
	d.Params = gbt.Params{Trees: o.Trees, MaxDepth: o.Depth, LearningRate: o.LR, MinLeaf: o.MinLeaf, Lambda: o.Lambda}
	if d.Latency == 0 {
		d.Latency = -1 // distill.Options: negative is none, 0 the default
	}
	var err error
	if d.BufferBytes, err = parseBuffer(o.Buffer); err != nil {
		return err
	}
	if d.Params.Monotone, err = distill.ParseMonotone(o.Monotone); err != nil {
		return clierr.Usagef("--monotone: %v", err)
	}
	if d.AugmentRates, err = distill.ParseFactors(o.Augment); err != nil {
		return clierr.Usagef("--augment-rates: %v", err)
	}
	if d.SelectFlows, err = parseFlowList("select-flows", o.Select, true); err != nil {
		return err
	}
	teacherName := o.Teacher
	if teacherName != "default" && teacherName != "teacher" {
		teacherName = filepath.Base(teacherName)
	}
	d.Rounds, d.StartMin = o.Rounds, o.StartMin
	d.ProducedBy = fmt.Sprintf("ccreplay distill rlcc --teacher %s --seed %d --trees %d --depth %d --learning-rate %v --lambda %v --min-leaf %d --flows %s --duration %s --latency %s --rounds %d --start-min %v --buffer %s --monotone %s --select-flows %s",
		teacherName, o.Seed, o.Trees, o.Depth, o.LR, o.Lambda, o.MinLeaf, o.Flows, o.Duration, o.Latency, o.Rounds, o.StartMin, o.Buffer, o.Monotone, o.Select)
	if len(d.AugmentRates) > 0 {
		d.ProducedBy += " --augment-rates " + o.Augment
	}
	return nil
}

// Run distils into -o, staged (training.json last), compares teacher and
// student (Table III) and prints the report, as text or JSON.
func (o *Distill) Run(env Env) error {
	d, evalFlows, eo, err := o.Options()
	if err != nil {
		return err
	}
	d.Context, eo.Context = env.Ctx, env.Ctx
	st, err := stageTraining(o.Out, o.Force)
	if err != nil {
		return err
	}
	defer st.Abort()
	if env.ErrIsTerminal {
		fmt.Fprintf(env.Err, "collecting the teacher's decisions on %s flows and fitting %d trees of depth %d ...\n", o.Flows, o.Trees, o.Depth)
	}
	res, err := distill.Distill(d)
	if err := interrupted(err, "written to "+o.Out); err != nil {
		return err
	}
	rep := distill.NewReport(filepath.Join(o.Out, runfolder.PolicyFile), o.Teacher, d, res)
	if len(evalFlows) > 0 {
		err := rep.CompareTableIII(d, evalFlows, eo, env.distillProgress())
		if errors.Is(err, context.Canceled) {
			return clierr.Interruptedf("interrupted while evaluating the student; nothing written to %s", o.Out)
		}
		if err != nil {
			return err
		}
	}
	if err := output.WriteJSONAtomic(filepath.Join(st.Dir, runfolder.PolicyFile), res.Student.File()); err != nil {
		return err
	}
	if err := output.WriteJSONAtomic(filepath.Join(st.Dir, runfolder.DistillFile), rep); err != nil {
		return err
	}
	if o.KeepRounds {
		if err := writeRounds(st.Dir, res.RoundStudents); err != nil {
			return err
		}
	}
	if err := commitTraining(st, "distill rlcc", o.Seed); err != nil {
		return err
	}
	if o.JSON {
		return env.PrintJSON(rep)
	}
	return rep.WriteText(env.Out, filepath.Join(o.Out, runfolder.DistillFile), o.Buffer)
}

// distillProgress prints each comparison run's figures on a terminal.
func (e Env) distillProgress() func(eval.Result) {
	if !e.ErrIsTerminal {
		return nil
	}
	start := time.Now()
	return func(r eval.Result) {
		fmt.Fprintf(e.Err, "%s on %d to 1: GP %.2f latency %.2f us (%v)\n", r.Label, r.Flows, r.Goodput, r.Latency, time.Since(start).Round(time.Second))
	}
}

// RoundsDir is the folder of a distillation's every round's student
// (--keep-rounds), inside its output folder.
const RoundsDir = "rounds"

// RoundFile is round r's (0-based) student's file name in RoundsDir.
func RoundFile(r int) string { return fmt.Sprintf("round-%02d.json", r) }

// writeRounds writes each round's student into dir/RoundsDir.
func writeRounds(dir string, students []*rlcc.Policy) error {
	rd := filepath.Join(dir, RoundsDir)
	if err := os.MkdirAll(rd, 0o755); err != nil {
		return err
	}
	for r, p := range students {
		if err := output.WriteJSONAtomic(filepath.Join(rd, RoundFile(r)), p.File()); err != nil {
			return err
		}
	}
	return nil
}
