package reproduce

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/plot"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	"github.com/ccreplay/ccreplay/version"
)

// Files Execute writes at the top of its output folder, beside the run
// folders.
const (
	// ReportFile is the report as JSON (Report).
	ReportFile = runfolder.ReproductionFile
	// ConfigsDir holds one run.yaml per run, named after its label.
	ConfigsDir = "configs"
)

// Options say how Execute runs an experiment.
type Options struct {
	// Scale is Small or Full (default Small).
	Scale Scale
	// Out is the output folder; it is written whole or not at all.
	Out string
	// Force replaces a previous ccreplay output folder at Out.
	Force bool
	// Parallel is the number of runs at once (default the number of CPUs).
	Parallel int
	// Registry builds the algorithms.
	Registry *cca.Registry
	// Progress, when not nil, is told after every run.
	Progress func(done, total int)
	// Figures are the formats of the figure ("png", "svg"); nil writes
	// none.
	Figures []string
	// CCAParams adds KEY=VALUE algorithm parameters to the runs of the
	// algorithm each key of the map names, e.g. {"fdcc": {"policy":
	// "p.json"}}: an evaluation of another policy on the paper's setup. The
	// run configurations written carry them.
	CCAParams map[string]map[string]string
	// CheckMemory, when not nil, is given every run's estimated peak
	// (replay.EstimateMemory) and Parallel once the runs are resolved,
	// before any starts; an error it returns is Execute's, nothing written.
	CheckMemory func(each []replay.MemoryEstimate, parallel int) error
}

// ConfigName is the file name under ConfigsDir of the run labelled label.
func ConfigName(label string) string {
	return strings.NewReplacer("/", "_", "=", "-", ":", "-").Replace(label) + ".yaml"
}

// Execute runs every configuration of e at o.Scale into o.Out and judges
// its claims. Runs are independent and deterministic: the output does not
// depend on o.Parallel. On an error or a cancelled ctx nothing is left
// at o.Out but what was there before.
func Execute(ctx context.Context, e *Experiment, o Options) (*Report, error) {
	if o.Scale == "" {
		o.Scale = Small
	}
	if o.Parallel < 1 {
		o.Parallel = runtime.GOMAXPROCS(0)
	}
	if o.Registry == nil {
		return nil, errors.New("reproduce: no algorithm registry")
	}
	runs := e.Runs(o.Scale)
	if err := checkLabels(runs); err != nil {
		return nil, fmt.Errorf("%s: %w", e.Name, err)
	}
	stage, err := runfolder.Stage(o.Out, runfolder.StageOptions{Force: o.Force})
	if err != nil {
		return nil, err
	}
	defer stage.Abort()
	if err := os.MkdirAll(filepath.Join(stage.Dir, ConfigsDir), 0o755); err != nil {
		return nil, err
	}
	// Resolve every run first: a bad configuration fails before any
	// simulation starts.
	setups := make([]*runconfig.Setup, len(runs))
	cfgs := make([]replay.Config, len(runs))
	outs := make([]*Outcome, len(runs))
	for i, r := range runs {
		name, _, _ := strings.Cut(r.Config.CCA, ":")
		if extra := o.CCAParams[name]; len(extra) > 0 {
			p := maps.Clone(r.Config.CCAParams)
			if p == nil {
				p = map[string]string{}
			}
			maps.Copy(p, extra)
			r.Config.CCAParams = p
			runs[i] = r
		}
		path := filepath.Join(stage.Dir, ConfigsDir, ConfigName(r.Label))
		b, err := marshalConfig(&r.Config)
		if err != nil {
			return nil, err
		}
		head := fmt.Sprintf("# %s (%s), %s scale, run %s: rerun with\n#   ccreplay run --config %s -o OUT\n", e.Name, e.Paper, o.Scale, r.Label, filepath.ToSlash(filepath.Join(ConfigsDir, ConfigName(r.Label))))
		if err := output.WriteFileAtomic(path, append([]byte(head), b...)); err != nil {
			return nil, err
		}
		st, err := runconfig.Resolve(runconfig.Request{Config: path}, o.Registry)
		if err != nil {
			return nil, fmt.Errorf("%s run %s: %w", e.Name, r.Label, err)
		}
		if len(st.Specs) != 1 {
			return nil, fmt.Errorf("%s run %s: want one algorithm, got %d", e.Name, r.Label, len(st.Specs))
		}
		seed := uint64(1)
		if r.Config.Seed != nil {
			seed = *r.Config.Seed
		}
		if cfgs[i], err = st.Config(st.Specs[0], seed); err != nil {
			return nil, fmt.Errorf("%s run %s: %w", e.Name, r.Label, err)
		}
		setups[i] = st
		outs[i] = &Outcome{Run: r, Dir: filepath.Join(stage.Dir, filepath.FromSlash(r.Label))}
	}
	if o.CheckMemory != nil {
		each := make([]replay.MemoryEstimate, len(setups))
		for i, st := range setups {
			each[i] = replay.EstimateMemory(st.Topology, st.Trace)
		}
		if err := o.CheckMemory(each, o.Parallel); err != nil {
			return nil, err
		}
	}
	pl := &batch.Plan{}
	for i, oc := range outs {
		pl.Items = append(pl.Items, batch.Item{Dir: oc.Run.Label, Run: func(ctx context.Context, dir string) error {
			// Of a finished run Execute keeps a digest (Outcome), not its
			// rows, nor its trace. The rows are not streamed during the run
			// (runner.Scenario.StreamRows): the only runs large enough for
			// it (runner.StreamRowsMin), dolce-fig5's at the full scale, are
			// OSU all-to-alls whose flows (one queue pair per rank pair)
			// all finish at the end, where streaming peaked higher (3.31
			// against 2.92 GiB, docs/LIMITS.md).
			sc := runner.Scenario{Config: &cfgs[i], Trace: setups[i].Trace, TraceName: filepath.ToSlash(setups[i].TraceName), Warnings: setups[i].Warnings}
			res, man, err := runner.Run(ctx, &sc, dir, nil)
			setups[i] = nil
			if err != nil {
				if errors.Is(err, context.Canceled) {
					return err
				}
				return fmt.Errorf("%s run %s: %w", e.Name, oc.Run.Label, err)
			}
			spans := runner.OSUSpans{}
			for k := range res.Messages {
				spans.Add(&res.Messages[k])
			}
			oc.Done, oc.Summary, oc.Spans = true, man.Summary, spans
			return nil
		}})
	}
	_, _, err = batch.Run(ctx, stage.Dir, pl, batch.Options{Jobs: o.Parallel, Progress: func(c batch.Counts, _ time.Duration) {
		if o.Progress != nil {
			o.Progress(c.Done, c.Total)
		}
	}})
	if err != nil {
		return nil, err
	}
	byLabel := Outcomes{}
	for _, oc := range outs {
		byLabel[oc.Run.Label] = oc
	}
	rep, err := judge(e, o.Scale, byLabel)
	if err != nil {
		return nil, err
	}
	for _, oc := range outs {
		rep.Runs = append(rep.Runs, RunInfo{Label: oc.Run.Label, Config: filepath.ToSlash(filepath.Join(ConfigsDir, ConfigName(oc.Run.Label)))})
	}
	if err := output.WriteJSONAtomic(filepath.Join(stage.Dir, ReportFile), rep); err != nil {
		return nil, err
	}
	if len(o.Figures) > 0 {
		if _, err := plot.WriteFigure(stage.Dir, Figure(rep), o.Figures); err != nil {
			return nil, err
		}
	}
	coll := runfolder.Collection{Tool: "ccreplay " + version.Version, Trace: e.Name, Topology: string(o.Scale)}
	for _, oc := range outs {
		coll.Runs = append(coll.Runs, oc.Run.Label)
	}
	if err := runfolder.WriteCollection(stage.Dir, &coll); err != nil {
		return nil, err
	}
	if err := stage.Commit(); err != nil {
		return nil, err
	}
	for _, oc := range outs {
		oc.Dir = filepath.Join(o.Out, filepath.FromSlash(oc.Run.Label))
	}
	return rep, nil
}

// checkLabels refuses empty, duplicate, absolute or escaping labels.
func checkLabels(runs []Run) error {
	seen := map[string]bool{}
	for _, r := range runs {
		l := r.Label
		if l == "" || strings.HasPrefix(l, "/") || strings.Contains(l, "..") || strings.Contains(l, "\\") {
			return fmt.Errorf("bad run label %q", l)
		}
		if seen[l] {
			return fmt.Errorf("run label %q used twice", l)
		}
		seen[l] = true
	}
	return nil
}

// judge measures every claim of e at scale on the outcomes.
func judge(e *Experiment, scale Scale, oc Outcomes) (*Report, error) {
	rep := &Report{Experiment: e.Name, Paper: e.Paper, Title: e.Title, Scale: scale, SchemaVersion: ReportVersion}
	for _, c := range e.Claims(scale) {
		v, err := c.Measure(oc)
		if err != nil {
			return nil, fmt.Errorf("%s claim %s: %w", e.Name, c.ID, err)
		}
		rep.Claims = append(rep.Claims, ClaimResult{
			ID: c.ID, What: c.What, Unit: c.Unit, Paper: c.Paper, Ours: Value(v),
			Rule: c.Rule(), Verdict: c.Judge(v), Note: c.Note, Change: c.Kind == Change,
		})
	}
	return rep, nil
}
