package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/cca/rlcc"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/rl/distill"
	"github.com/ccreplay/ccreplay/rl/eval"
	"github.com/ccreplay/ccreplay/rl/gbt"
	"github.com/ccreplay/ccreplay/units"
)

func init() { registerCommand(newDistillCmd) }

// Files `ccreplay distill rlcc` writes into its output folder.
const (
	distillPolicyFile = "policy.json"
	distillReportFile = "distill.json"
)

// distillOptions are `ccreplay distill rlcc`'s flags.
type distillOptions struct {
	s            *streams
	Teacher      string
	Seed         uint64
	Out          string
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
	Select       string
	JSON         bool
}

func newDistillCmd(s *streams) *cobra.Command {
	return learnerGroupCmd("distill", "Distil a learned congestion controller into small trees", "distil", newDistillRLCCCmd(s))
}

func newDistillRLCCCmd(s *streams) *cobra.Command {
	o := &distillOptions{s: s}
	c := &cobra.Command{
		Use:   "rlcc --teacher FILE -o DIR",
		Short: "Distil an RL-CC policy into <= 10 gradient-boosted trees of depth <= 4 (RL-CC-NIC, Fuhrer 2023, Section V-C)",
		Long: `Replays many-to-one scenarios with the teacher policy in control, records every
decision's (observation, action) pair, fits gradient-boosted regression trees
(at most 10 trees of depth at most 4, RL-CC-NIC (Fuhrer 2023), Section V-C) to the teacher's
actions, then (--rounds) replays again with the student in control, labels the
states it visits with the teacher's actions and refits on everything gathered
(DAgger). Reports the student's RMSE on pairs from held-out runs, with the
teacher and with the student in control. Then, as
RL-CC-NIC (Fuhrer 2023), Table III does, it replays teacher and student on many-to-one 64,
512 and 2048 flows with the same 2 us decision latency and prints goodput
(normalised to line rate) and latency (us) for both.

Writes DIR/policy.json (a "trees" policy: load it with --cca rlcc --cca-param
policy=DIR/policy.json) and DIR/distill.json (fit and comparison figures). The
same flags and seed give byte-identical files. --teacher default distils the
embedded default policy.`,
		Example: `  # a quick distillation of the embedded MLP teacher (under a second), then a replay
  ccreplay distill rlcc --teacher teacher --flows 2,4,8 --rounds 2 --duration 2ms --eval-flows none --select-flows none -o student
  ccreplay run --workload incast:n=8,size=2MB --cca rlcc --cca-param policy=student/policy.json --out runs/student

  # the shipped trees' recipe, with the teacher/student comparison of RL-CC-NIC (Fuhrer 2023), Table III
  ccreplay distill rlcc --teacher teacher --seed 3 --trees 6 --depth 3 -o student-full --eval-flows 64 --json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd.Context()) },
	}
	f := c.Flags()
	f.StringVar(&o.Teacher, "teacher", "", `teacher policy file (any file --cca-param policy= loads), or "teacher" / "default" for the embedded MLP teacher / default trees`)
	f.Uint64Var(&o.Seed, "seed", 1, "seed of the collection runs (ECN draws, start jitter)")
	f.StringVarP(&o.Out, "out", "o", "", "output folder for policy.json and distill.json")
	oldOutputFlag(f, &o.Out)
	f.IntVar(&o.Trees, "trees", distill.MaxTrees, "boosting rounds (trees), at most 10")
	f.IntVar(&o.Depth, "depth", distill.MaxDepth, "maximum tree depth, at most 4")
	f.Float64Var(&o.LR, "learning-rate", distill.DefaultParams().LearningRate, "shrinkage of each tree, in (0, 1]")
	f.Float64Var(&o.Lambda, "lambda", gbt.DefaultParams().Lambda, "L2 penalty on leaf values (>= 0)")
	f.IntVar(&o.MinLeaf, "min-leaf", gbt.DefaultParams().MinLeaf, "minimum number of pairs in a leaf")
	f.StringVar(&o.Flows, "flows", "2,4,8,16,32,64,128", "many-to-one flow counts the teacher is replayed on (comma-separated)")
	f.StringVar(&o.Duration, "duration", "10ms", "simulated time of each collection run")
	f.StringVar(&o.Latency, "latency", "2us", "decision latency of teacher and student, collecting and evaluating (RL-CC-NIC, Fuhrer 2023, Table III: 2 us)")
	f.StringVar(&o.EvalFlows, "eval-flows", "64,512,2048", `flow counts of the teacher/student comparison (RL-CC-NIC, Fuhrer 2023, Table III), or "none"`)
	f.StringVar(&o.EvalDuration, "eval-duration", "10ms", "simulated time of each comparison run (measured over its second half)")
	f.BoolVar(&o.Lossy, "lossy", false, "compare on a lossy fabric (PFC off) instead of a lossless one")
	f.StringVar(&o.Buffer, "buffer", "5MB", "switch shared buffer of the collection and comparison runs (RL-CC, Tessler 2022, Fig. 3: 5 MB)")
	f.IntVar(&o.Rounds, "rounds", 10, "collection rounds: the first with the teacher in control, each later one with the student fitted so far (DAgger), all labelled by the teacher")
	f.Float64Var(&o.StartMin, "start-min", distill.DefaultStartMin, "start each collection flow at a rate drawn log-uniformly from [start-min, 1] x line rate (1: line rate)")
	f.StringVar(&o.Monotone, "monotone", "none", `monotone constraints of the trees, FEATURE=-1 (action never rises with it) or =1, comma-separated, or "none"`)
	f.StringVar(&o.Select, "select-flows", "24,48,96,192", `keep the round's student whose smallest many-to-one FR over these flow counts is highest (comma-separated), or "none" for the last round's`)
	f.BoolVar(&o.JSON, "json", false, "print distill.json to stdout instead of the text summary")
	return c
}

// distillReport is DIR/distill.json and the --json output.
type distillReport struct {
	Policy     string          `json:"policy"`
	Teacher    string          `json:"teacher"`
	ProducedBy string          `json:"produced_by"`
	Seed       uint64          `json:"seed"`
	Fit        *distill.Result `json:"fit"`
	// TableIII holds teacher and student rows on each --eval-flows count.
	TableIII []eval.Result `json:"table_iii"`
}

// parseFlowList parses "64,512" (or "none" when allowNone).
func parseFlowList(flag, s string, allowNone bool) ([]int, error) {
	if allowNone && strings.TrimSpace(s) == "none" {
		return nil, nil
	}
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 8192 {
			return nil, usageErrorf("--%s: %q is not a flow count in 1..8192", flag, p)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseMonotone parses --monotone ("rate_frac=-1,cnps=-1" or "none") into
// one constraint per rlcc.FeatureNames entry.
func parseMonotone(s string) ([]int8, error) {
	s = strings.TrimSpace(s)
	if s == "none" || s == "" {
		return nil, nil
	}
	out := make([]int8, rlcc.NumFeatures)
	for _, kv := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		j := slices.Index(rlcc.FeatureNames, strings.TrimSpace(name))
		v := strings.TrimSpace(val)
		if !ok || j < 0 || (v != "-1" && v != "1" && v != "+1" && v != "0") {
			return nil, usageErrorf("--monotone: %q is not FEATURE=-1|0|1 with FEATURE one of %s", kv, strings.Join(rlcc.FeatureNames, ", "))
		}
		n, _ := strconv.Atoi(strings.TrimPrefix(v, "+"))
		out[j] = int8(n)
	}
	return out, nil
}

// parseBufferFlag parses --buffer (a positive size such as 5MB).
func parseBufferFlag(s string) (units.Bytes, error) {
	b, err := units.ParseSize(s)
	if err != nil || b <= 0 {
		return 0, usageErrorf("--buffer: want a positive size such as 5MB, got %q", s)
	}
	return b, nil
}

// parseDurationFlag parses a flag's duration (> 0, or >= 0 when zeroOK).
func parseDurationFlag(flag, s string, zeroOK bool) (units.Time, error) {
	d, err := units.ParseDuration(s)
	if err != nil || d < 0 || (d == 0 && !zeroOK) {
		return 0, usageErrorf("--%s: want a positive time such as 10ms, got %q", flag, s)
	}
	return d, nil
}

func (o *distillOptions) options() (distill.Options, []int, eval.Options, error) {
	var d distill.Options
	var e eval.Options
	if o.Out == "" {
		return d, nil, e, usageErrorf("give the output folder: -o DIR")
	}
	if o.Teacher == "" {
		return d, nil, e, usageErrorf(`give the teacher: --teacher FILE (or --teacher default)`)
	}
	if o.Trees < 1 || o.Trees > distill.MaxTrees {
		return d, nil, e, usageErrorf("--trees: want 1..%d (RL-CC-NIC, Fuhrer 2023, Section V-C), got %d", distill.MaxTrees, o.Trees)
	}
	if o.Depth < 1 || o.Depth > distill.MaxDepth {
		return d, nil, e, usageErrorf("--depth: want 1..%d (RL-CC-NIC, Fuhrer 2023, Section V-C), got %d", distill.MaxDepth, o.Depth)
	}
	if !(o.LR > 0 && o.LR <= 1) {
		return d, nil, e, usageErrorf("--learning-rate: want a value in (0, 1], got %v", o.LR)
	}
	if !(o.Lambda >= 0) {
		return d, nil, e, usageErrorf("--lambda: want a value >= 0, got %v", o.Lambda)
	}
	if o.MinLeaf < 1 {
		return d, nil, e, usageErrorf("--min-leaf: want at least 1, got %d", o.MinLeaf)
	}
	flows, err := parseFlowList("flows", o.Flows, false)
	if err != nil {
		return d, nil, e, err
	}
	evalFlows, err := parseFlowList("eval-flows", o.EvalFlows, true)
	if err != nil {
		return d, nil, e, err
	}
	dur, err := parseDurationFlag("duration", o.Duration, false)
	if err != nil {
		return d, nil, e, err
	}
	edur, err := parseDurationFlag("eval-duration", o.EvalDuration, false)
	if err != nil {
		return d, nil, e, err
	}
	lat, err := parseDurationFlag("latency", o.Latency, true)
	if err != nil {
		return d, nil, e, err
	}
	teacher, err := rlcc.Named(o.Teacher)
	if err != nil {
		return d, nil, e, inputErrorf("--teacher: %v", err)
	}
	d = distill.Options{
		Teacher: teacher, Flows: flows, Duration: dur, Latency: lat, Seed: o.Seed,
		Params: gbt.Params{Trees: o.Trees, MaxDepth: o.Depth, LearningRate: o.LR, MinLeaf: o.MinLeaf, Lambda: o.Lambda},
	}
	if lat == 0 {
		d.Latency = -1 // distill.Options: negative is none, 0 the default
	}
	teacherName := o.Teacher
	if teacherName != "default" && teacherName != "teacher" {
		teacherName = filepath.Base(teacherName)
	}
	if o.Rounds < 1 || o.Rounds > 20 {
		return d, nil, e, usageErrorf("--rounds: want 1..20, got %d", o.Rounds)
	}
	if !(o.StartMin > 0 && o.StartMin <= 1) {
		return d, nil, e, usageErrorf("--start-min: want a fraction in (0, 1], got %v", o.StartMin)
	}
	buf, err := parseBufferFlag(o.Buffer)
	if err != nil {
		return d, nil, e, err
	}
	d.Rounds, d.StartMin, d.BufferBytes = o.Rounds, o.StartMin, buf
	if d.Params.Monotone, err = parseMonotone(o.Monotone); err != nil {
		return d, nil, e, err
	}
	if d.SelectFlows, err = parseFlowList("select-flows", o.Select, true); err != nil {
		return d, nil, e, err
	}
	d.ProducedBy = fmt.Sprintf("ccreplay distill rlcc --teacher %s --seed %d --trees %d --depth %d --learning-rate %v --lambda %v --min-leaf %d --flows %s --duration %s --latency %s --rounds %d --start-min %v --buffer %s --monotone %s --select-flows %s",
		teacherName, o.Seed, o.Trees, o.Depth, o.LR, o.Lambda, o.MinLeaf, o.Flows, o.Duration, o.Latency, o.Rounds, o.StartMin, o.Buffer, o.Monotone, o.Select)
	e = eval.Options{Duration: edur, Lossy: o.Lossy, Seed: o.Seed, BufferBytes: buf}
	return d, evalFlows, e, nil
}

func (o *distillOptions) run(ctx context.Context) error {
	d, evalFlows, eo, err := o.options()
	if err != nil {
		return err
	}
	d.Context, eo.Context = ctx, ctx
	start := time.Now()
	if o.s.ErrIsTerminal {
		fmt.Fprintf(o.s.Err, "collecting the teacher's decisions on %s flows and fitting %d trees of depth %d ...\n", o.Flows, o.Trees, o.Depth)
	}
	res, err := distill.Distill(d)
	if errors.Is(err, context.Canceled) {
		return interrupted("%v; nothing written to %s", err, o.Out)
	}
	if err != nil {
		return err
	}
	rep := distillReport{
		Policy: filepath.Join(o.Out, distillPolicyFile), Teacher: o.Teacher,
		ProducedBy: d.ProducedBy, Seed: o.Seed, Fit: res,
	}
	if len(evalFlows) > 0 {
		lat := max(d.Latency, 0)
		teacherSpec, err := rlcc.NewSpec("rlcc:teacher", rlcc.Config{Policy: d.Teacher, PolicyPath: o.Teacher, Latency: lat})
		if err != nil {
			return inputErrorf("--teacher: %v", err)
		}
		studentSpec, err := rlcc.NewSpec("rlcc:student", rlcc.Config{Policy: res.Student, PolicyPath: rep.Policy, Latency: lat})
		if err != nil {
			return err
		}
		var progress func(eval.Result)
		if o.s.ErrIsTerminal {
			progress = func(r eval.Result) {
				fmt.Fprintf(o.s.Err, "%s on %d to 1: GP %.2f latency %.2f us (%v)\n", r.Label, r.Flows, r.Goodput, r.Latency, time.Since(start).Round(time.Second))
			}
		}
		rep.TableIII, err = eval.Compare([]eval.Entry{{Label: "teacher", Spec: teacherSpec}, {Label: "student", Spec: studentSpec}}, evalFlows, eo, progress)
		if errors.Is(err, context.Canceled) {
			return interrupted("interrupted while evaluating the student; nothing written to %s", o.Out)
		}
		if err != nil {
			return err
		}
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return inputErrorf("output folder: %v", err)
	}
	if err := output.WriteJSONAtomic(rep.Policy, res.Student.File()); err != nil {
		return err
	}
	if err := output.WriteJSONAtomic(filepath.Join(o.Out, distillReportFile), rep); err != nil {
		return err
	}
	if o.JSON {
		enc := json.NewEncoder(o.s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	w := o.s.Out
	fmt.Fprintf(w, "wrote %s (%d trees, depth %d, %d nodes) and %s\n", rep.Policy, res.Trees, res.Depth, res.Nodes, filepath.Join(o.Out, distillReportFile))
	fmt.Fprintf(w, "student vs teacher action RMSE: %.4f held out (%d pairs), %.4f fitted (%d pairs, %d rounds), %.4f with the student in control (%d pairs); teacher action std %.4f\n",
		res.TestRMSE, res.TestPairs, res.TrainRMSE, res.TrainPairs, res.Rounds, res.ClosedLoopRMSE, res.ClosedLoopPairs, res.TestStd)
	if len(res.RoundFR) > 0 {
		fmt.Fprintf(w, "kept round %d's student; smallest FR on %s flows per round:", res.SelectedRound, o.Select)
		for _, fr := range res.RoundFR {
			fmt.Fprintf(w, " %.0f", fr)
		}
		fmt.Fprintln(w)
	}
	for _, f := range res.PerFlows {
		fmt.Fprintf(w, "  %5d to 1: held-out RMSE %.4f (%d pairs)\n", f.Flows, f.TestRMSE, f.TestPairs)
	}
	if len(rep.TableIII) > 0 {
		fmt.Fprintf(w, "\nRL-CC-NIC (Fuhrer 2023), Table III (goodput normalised to line rate, latency in us, %s fabric, %s buffer, window %s):\n", fabricName(eo.Lossy), o.Buffer, windowName(eo))
		return eval.WriteTableIII(w, rep.TableIII)
	}
	return nil
}

func fabricName(lossy bool) string {
	if lossy {
		return "lossy"
	}
	return "lossless"
}

// windowName describes the measurement window of eval options.
func windowName(o eval.Options) string {
	warm := o.Warmup
	if warm == 0 {
		warm = o.Duration / 2
	}
	return fmt.Sprintf("%v..%v", warm, o.Duration)
}
