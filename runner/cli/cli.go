// Package cli is `ccreplay run` and `ccreplay compare` as Go calls: the
// flags (runconfig.Flags) resolved into a setup; for run, the scenario run
// by runner into a staged run folder with the files a run adds beyond
// runner's (the HPCC simulator's fct.txt, pfc.txt and qlen.txt, --fct-txt),
// warnings of a stalled or collapsed run, and the header, metrics table
// and OSU report printed (or summary.json with --json); for compare, the
// comparison planned and executed by package compare, then printed.
package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/iostreams"
	"github.com/ccreplay/ccreplay/internal/progress"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
)

// Env is what a run takes from the command line beyond its flags.
type Env struct {
	Streams  iostreams.Streams
	Registry *cca.Registry
	// Progress is the status line (nil: none).
	Progress *progress.Line
	// Now is the wall clock (--stats).
	Now func() time.Time
	// CheckMemory refuses a run whose estimated memory exceeds the
	// --max-memory budget (runs replays held at once).
	CheckMemory func(flag string, topo *topology.Topology, tr *trace.Trace, runs int) error
	// Stats writes --stats' line of speed figures.
	Stats func(w io.Writer, wall time.Duration, res *replay.Result)
	// PresetNote says which preset an algorithm spec uses ("": none).
	PresetNote func(spec string) string
}

// Scenario is the scenario of st under cfg, for runner.Run.
func Scenario(st *runconfig.Setup, cfg *replay.Config) *runner.Scenario {
	return &runner.Scenario{Config: cfg, Trace: st.Trace, TraceName: filepath.ToSlash(st.TraceName), Warnings: st.Warnings}
}

// run is one `ccreplay run` under way.
type run struct {
	o     *runconfig.Flags
	env   Env
	st    *runconfig.Setup
	cfg   replay.Config
	stage *runfolder.Staged
	hpcc  *runconfig.HPCCOutputs
	spans runner.OSUSpans
}

// Run replays the workload the flags describe and writes its run folder
// into o.Out, whole or not at all, then prints the run.
func Run(ctx context.Context, o *runconfig.Flags, env Env) error {
	r := &run{o: o, env: env}
	if err := r.prepare(); err != nil {
		return err
	}
	defer r.stage.Abort()
	start := env.Now()
	// Rows go to their files as flows finish, unless fct.txt is to be
	// written from them; an OSU benchmark's report folds them as they pass.
	sc := Scenario(r.st, &r.cfg)
	sc.StreamRows = r.st.HPCC == nil && o.FCTTxt == ""
	if sc.StreamRows && gen.IsOSU(r.st.Req.Workload) {
		r.spans = runner.OSUSpans{}
		sc.OnMessage = r.spans.Add
	}
	res, man, err := runner.Run(ctx, sc, r.stage.Dir, func(dir string, res *replay.Result, man *runner.Manifest) error {
		env.Progress.Clear()
		if o.Stats {
			env.Stats(env.Streams.Err, env.Now().Sub(start), res)
		}
		return r.extraFiles(dir, res, man)
	})
	env.Progress.Clear()
	if err != nil {
		return o.Failed(err, r.stage)
	}
	if err := r.stage.Commit(); err != nil {
		return err
	}
	return r.print(res, man)
}

// prepare resolves the flags, checks --threads and the memory budget and
// stages the output folder.
func (r *run) prepare() error {
	o := r.o
	st, err := o.Resolve(false, r.env.Registry, r.env.Streams.Err)
	if err != nil {
		return err
	}
	r.st = st
	if r.cfg, err = st.Config(st.Specs[0], o.Seed); err != nil {
		return err
	}
	if o.Threads < 1 {
		return clierr.Usagef("--threads must be at least 1, got %d", o.Threads)
	}
	r.cfg.Threads = o.Threads
	if err := r.env.CheckMemory(o.MaxMemory, st.Topology, st.Trace, 1); err != nil {
		return err
	}
	if r.stage, err = o.Stage(); err != nil {
		return err
	}
	r.cfg.Progress = r.env.Progress.Replay()
	if st.HPCC != nil {
		// pfc.txt and qlen.txt when the config asks for them.
		r.hpcc = st.HPCC.Outputs(&r.cfg)
	}
	return nil
}

// StagedPath maps a path inside out (e.g. --fct-txt out/fct.txt) to the
// same place in the staged folder, so that it arrives with the run; other
// paths are returned as they are.
func StagedPath(out string, stage *runfolder.Staged, p string) string {
	outAbs, err1 := filepath.Abs(out)
	abs, err2 := filepath.Abs(p)
	if err1 != nil || err2 != nil {
		return p
	}
	rel, err := filepath.Rel(outAbs, abs)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return p
	}
	dst := filepath.Join(stage.Dir, rel)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return p
	}
	return dst
}
