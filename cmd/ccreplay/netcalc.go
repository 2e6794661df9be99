package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
	"github.com/ccreplay/ccreplay/units"
)

func init() { registerCommand(newNetcalcCmd) }

// netcalcOptions are the flags of `ccreplay netcalc`.
type netcalcOptions struct {
	s *streams

	Trace, Workload, Topology string
	Seed                      uint64
	CCA                       string
	CCAParams                 []string
	PFC                       string
	Dt, Horizon, Record       string
	Out, Format               string
	JSON, Force, Strict       bool
	Compare                   bool
	Figure                    string
	figures                   []string

	set map[string]bool
}

// NetcalcSchema names the layout of a netcalc output folder.
const NetcalcSchema = "ccreplay.netcalc.v1"

// ncSummary is summary.json of a netcalc folder.
type ncSummary struct {
	SchemaVersion string   `json:"schema_version"`
	Kind          string   `json:"kind"`
	Workload      string   `json:"workload"`
	Topology      string   `json:"topology"`
	Seed          uint64   `json:"seed"`
	CCA           string   `json:"cca"`
	CCAParams     []string `json:"cca_params"`
	PFC           bool     `json:"pfc"`
	DtNs          int64    `json:"dt_ns"`
	HorizonNs     int64    `json:"horizon_ns"`
	RecordNs      int64    `json:"record_ns"`
	Format        string   `json:"format"`
	// The model's inputs derived from the workload and the topology.
	Dst       int32    `json:"dst_host"`
	CBps      int64    `json:"c_bps"`
	DeltaRNs  int64    `json:"delta_r_ns"`
	XOffBytes int64    `json:"pfc_xoff_bytes"`
	XOnBytes  int64    `json:"pfc_xon_bytes"`
	Flows     []ncFlow `json:"flows"`
	// Results, at the recorded steps.
	PeakBacklogBytes  float64 `json:"peak_backlog_bytes"`
	PeakBacklogNs     int64   `json:"peak_backlog_ns"`
	FinalBacklogBytes float64 `json:"final_backlog_bytes"`
	FirstPauseNs      int64   `json:"first_pause_ns"` // -1: no pause
	Cuts              int     `json:"cuts"`           // cnp + timeout events
	CNPs              int     `json:"cnps"`
	Timeouts          int     `json:"timeouts"`
	Pauses            int     `json:"pauses"`
	Events            int     `json:"events"`
	CurveRows         int     `json:"curve_rows"`
	// ModelWallMs is printed in the text summary only: summary.json stays
	// byte-identical for the same inputs.
	ModelWallMs float64 `json:"-"`
	// Compare is the packet replay's side with --compare (else absent).
	Compare  *ncCompare `json:"compare,omitempty"`
	Files    []string   `json:"files"`
	Warnings []string   `json:"warnings"`
}

const netcalcExamples = `  # the paper's 31-to-1 incast (Section V): DCQCN without PFC, 10 ms of model time
  ccreplay netcalc --topology star:hosts=32,rate=100G,delay=1us --workload incast:n=31,size=10MB \
      --cca dcqcn --pfc off --out nc/dcqcn

  # PFC only (no congestion control), 2 ms, summary on stdout
  ccreplay netcalc --workload incast:n=8,size=1MB --cca linerate --pfc on --horizon 2ms --out nc/pfc --json

  # AIMD with its parameters, CSV files
  ccreplay netcalc --workload incast:n=2,size=5MB --cca aimd-rate --cca-param beta=0.5 \
      --cca-param ai_every=20us --horizon 2ms --format csv --out nc/aimd`

func newNetcalcCmd(s *streams) *cobra.Command {
	o := &netcalcOptions{s: s}
	c := &cobra.Command{
		Use:   "netcalc (--workload SPEC | --trace FILE) --out DIR [flags]",
		Short: "Run the network-calculus model of congestion control (CC-NetCalc) on an n-to-1 workload",
		Long: `Maps a workload on a topology onto the CC-NetCalc model (paper 003,
docs/NETCALC.md) and writes its curves: all messages must go to one host
(one bottleneck, the slowest link every path shares, usually the
receiver's), with no dependencies. C is that link's rate, ΔR twice the
path's propagation delay, and each message (each queue pair) is a flow
whose bytes arrive at its release time; r_o is the sender's link rate.
Workloads and topologies are resolved as ` + "`ccreplay run`" + ` does. Writes, into
--out (whole or not at all):
  curves.parquet   per recorded step (--record) the aggregate (flow_id -1) and
                   each flow: t_ns, flow_id, epoch, a_bytes, ahat_bytes, d_bytes,
                   d_lo_bytes, d_hi_bytes, backlog_bytes, rate_bps, window_bytes,
                   rtt_ns, paused (-1 where a value is not defined)
  events.parquet   t_ns, flow_id, kind (inc, cnp, timeout, pause, resume, flight),
                   before, after, unit (bps or bytes)
  summary.json     inputs, the model's C/ΔR/flows, peak backlog and its time,
                   first PFC pause, cuts, events
  backlog.png      aggregate backlog (MB) over time (ms): the model's, the
                   replay's with --compare, PFC pauses as bars above (Figs. 7b-10b)
  rates.png        aggregate arrival rate into the bottleneck (Gb/s) over time:
                   model, replay, and the first 4 flows' model rates (Figs. 7a-10a)
--figure svg or png,svg changes the figures' format, --figure none leaves them out.
--format csv writes .csv files instead. --pfc on sets X_off/X_on to 9.5/9.25 kB
per Gb/s of C (950/925 kB at 100 Gb/s).
--compare also replays the workload packet by packet up to --horizon (linerate
as linerate, dcqcn as dcqcn:zhu2015; static PFC at the same thresholds, a
buffer that never overflows) and writes:
  replay/          the run folder, as ccreplay run writes it (--packets data)
  compare.parquet  per recorded step: t_ns, model_/replay_backlog_bytes (payload
                   queued at the bottleneck), model_/replay_rate_bps (payload into
                   it), model_/replay_paused (1 or 0)

` + ncParamHelp() + "\n" + workloadHelp() + "\n" + topologyHelp(),
		Example: netcalcExamples,
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.set = map[string]bool{}
			cmd.Flags().Visit(func(f *pflagFlag) { o.set[f.Name] = true })
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return o.run(ctx)
		},
	}
	f := c.Flags()
	f.StringVar(&o.Trace, "trace", "", "trace file (.csv, .parquet, .jsonl) or packet capture, as for run")
	f.StringVar(&o.Workload, "workload", "", "built-in workload generator spec, e.g. incast:n=31,size=10MB")
	f.StringVar(&o.Topology, "topology", "", "topology spec (see above); default: a star sized to the workload")
	f.Uint64Var(&o.Seed, "seed", 1, "random seed of the workload generators")
	f.StringVar(&o.CCA, "cca", "dcqcn", "model congestion control: linerate, dcqcn, aimd-rate, aimd-window or vegas")
	f.StringArrayVar(&o.CCAParams, "cca-param", nil, "model parameter KEY=VALUE (repeatable; keys above)")
	f.StringVar(&o.PFC, "pfc", "off", "per-ingress PFC: on or off")
	f.StringVar(&o.Dt, "dt", "100ns", "grid step of the model (a whole number of ns)")
	f.StringVar(&o.Horizon, "horizon", "10ms", "model time to compute")
	f.StringVar(&o.Record, "record", "1us", "time between recorded rows of curves (a multiple of --dt)")
	f.StringVarP(&o.Out, "out", "o", "", "output folder (required)")
	f.StringVar(&o.Format, "format", "parquet", "file format of curves and events: parquet or csv")
	f.BoolVar(&o.JSON, "json", false, "print summary.json to stdout")
	f.BoolVar(&o.Force, "force", false, "replace the output folder when it holds a previous ccreplay output")
	f.BoolVar(&o.Compare, "compare", false, "also run the packet replay (linerate, or dcqcn:zhu2015 for dcqcn) into replay/ and write compare.parquet")
	f.StringVar(&o.Figure, "figure", "png", "figures backlog and rates (Figs. 7-10 of the paper): png, svg, png,svg or none")
	f.BoolVar(&o.Strict, "strict", false, "refuse a damaged input (a truncated capture) instead of warning")
	return c
}

// grid parses --dt, --horizon and --record.
func (o *netcalcOptions) grid() (dt, horizon, record units.Time, err error) {
	parse := func(flag, v string) (units.Time, error) {
		d, err := units.ParseDuration(v)
		if err != nil {
			return 0, usageErrorf("--%s: %v", flag, err)
		}
		if d <= 0 || d%units.Nanosecond != 0 {
			return 0, usageErrorf("--%s %s: want a positive whole number of nanoseconds", flag, v)
		}
		return d, nil
	}
	if dt, err = parse("dt", o.Dt); err != nil {
		return
	}
	if horizon, err = parse("horizon", o.Horizon); err != nil {
		return
	}
	if record, err = parse("record", o.Record); err != nil {
		return
	}
	switch {
	case horizon < dt:
		err = usageErrorf("--horizon %s is shorter than --dt %s", o.Horizon, o.Dt)
	case record%dt != 0:
		err = usageErrorf("--record %s must be a multiple of --dt %s", o.Record, o.Dt)
	}
	return
}

// check validates the flags that need no input.
func (o *netcalcOptions) check() error {
	switch {
	case o.Out == "":
		return usageErrorf("give the output folder: --out DIR")
	case o.PFC != "on" && o.PFC != "off":
		return usageErrorf("--pfc %q: want on or off", o.PFC)
	case o.Format != "parquet" && o.Format != "csv":
		return usageErrorf("--format %q: want parquet or csv", o.Format)
	case !slices.Contains(ncCCs, netcalc.CCKind(o.CCA)):
		return inputErrorf("--cca %q: unknown model congestion control (want linerate, dcqcn, aimd-rate, aimd-window or vegas)", o.CCA)
	}
	var err error
	if o.figures, err = parseFigureFormats(o.Figure); err != nil {
		return err
	}
	return o.compareCheck()
}

// config resolves the workload and the topology as run does and builds
// the model's Config.
func (o *netcalcOptions) config() (netcalc.Config, *ncPath, *runconfig.Setup, error) {
	var cfg netcalc.Config
	dt, horizon, record, err := o.grid()
	if err != nil {
		return cfg, nil, nil, err
	}
	// NB: Resolve builds the packet replay's algorithms; "dcqcn" with no
	// parameters always builds, and the model's --cca is checked apart.
	st, err := runconfig.Resolve(runconfig.Request{
		Trace: o.Trace, Workload: o.Workload, CCA: "dcqcn", Topology: o.Topology, Seed: o.Seed,
		Out: o.Out, Packets: "none", Strict: o.Strict, Set: o.set,
	}, registry())
	if err != nil {
		return cfg, nil, nil, err
	}
	p, err := netcalcPath(st.Trace, st.Topology)
	if err != nil {
		return cfg, nil, nil, err
	}
	cfg = netcalc.Config{Dt: dt, Horizon: horizon, Record: record, C: p.C, DeltaR: p.DeltaR,
		Flows: p.Flows, CC: netcalc.CCKind(o.CCA)}
	ncDefaults(&cfg)
	if o.PFC == "on" {
		gbps := float64(p.C) / float64(units.Gbps)
		cfg.PFC = &netcalc.PFCParams{XOff: units.Bytes(math.Round(9500 * gbps)), XOn: units.Bytes(math.Round(9250 * gbps))}
	}
	if err := applyNCParams(&cfg, o.CCAParams); err != nil {
		return cfg, nil, nil, err
	}
	return cfg, p, st, nil
}

func (o *netcalcOptions) run(ctx context.Context) error {
	if err := o.check(); err != nil {
		return err
	}
	cfg, p, st, err := o.config()
	if err != nil {
		return err
	}
	warnings := append(slices.Clone(st.Warnings), p.Warnings...)
	for _, w := range warnings {
		fmt.Fprintf(o.s.Err, "warning: %s\n", w)
	}
	start := time.Now()
	res, err := netcalc.Run(cfg)
	wall := time.Since(start)
	if err != nil {
		return inputErrorf("netcalc: %v", err)
	}
	stage, err := runfolder.Stage(o.Out, runfolder.StageOptions{Force: o.Force, Flag: "--out"})
	if errors.Is(err, runfolder.ErrRefused) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	defer stage.Abort()
	files, err := writeNCFiles(stage.Dir, o.Format, res)
	if err != nil {
		return err
	}
	var cmp *ncCompare
	var rows []ncCompareRow
	if o.Compare {
		var more []string
		if rows, cmp, more, err = o.runReplay(ctx, stage.Dir, &cfg, p, res); err != nil {
			return err
		}
		for _, w := range more {
			fmt.Fprintf(o.s.Err, "warning: %s\n", w)
		}
		warnings = append(warnings, more...)
		files = append(files, ncCompareDir+"/", ncCompareFile, ncCompareFlowsFile)
	}
	sum := o.summarize(&cfg, p, st, res)
	title := fmt.Sprintf("%s, %s, pfc %s", sum.Workload, o.CCA, o.PFC)
	figs, err := writeNCFigures(stage.Dir, o.figures, ncFigureCurves(res, rows, title))
	if err != nil {
		return err
	}
	files = append(files, figs...)
	sum.Compare = cmp
	sum.ModelWallMs = float64(wall.Microseconds()) / 1000
	sum.Files = append(files, "summary.json")
	sum.Warnings = warnings
	b, _ := json.MarshalIndent(sum, "", "  ")
	b = append(b, '\n')
	if err := output.WriteFileAtomic(filepath.Join(stage.Dir, "summary.json"), b); err != nil {
		return err
	}
	if err := stage.Commit(); err != nil {
		return err
	}
	if o.JSON {
		o.s.Out.Write(b)
		return nil
	}
	fmt.Fprintf(o.s.Out, "ccreplay netcalc: %s under %s (pfc %s) on %s: %d flows into host %d, C %v, ΔR %v\n",
		sum.Workload, o.CCA, o.PFC, sum.Topology, len(cfg.Flows), p.Dst, cfg.C, cfg.DeltaR)
	firstPause := "none"
	if sum.FirstPauseNs >= 0 {
		firstPause = units.FormatDuration(units.Nanos(sum.FirstPauseNs))
	}
	fmt.Fprintf(o.s.Out, "peak backlog %.3f MB at %s, first PFC pause %s, %d cuts, %d events; model %v of %v in %.0f ms; outputs in %s\n",
		sum.PeakBacklogBytes/1e6, units.FormatDuration(units.Nanos(sum.PeakBacklogNs)),
		firstPause, sum.Cuts, sum.Events, cfg.Horizon, cfg.Dt, sum.ModelWallMs, o.Out)
	if c := sum.Compare; c != nil {
		firstPause = "none"
		if c.FirstPauseNs >= 0 {
			firstPause = units.FormatDuration(units.Nanos(c.FirstPauseNs))
		}
		fmt.Fprintf(o.s.Out, "replay (%s): peak backlog %.3f MB at %s, first PFC pause %s; replay %.0f ms, %.1fx the model's wall time; in %s, %s and %s\n",
			c.ReplayCCA, c.PeakBacklogBytes/1e6, units.FormatDuration(units.Nanos(c.PeakBacklogNs)), firstPause,
			c.ReplayWallMs, c.ReplayWallMs/max(sum.ModelWallMs, 0.001), ncCompareDir+"/", ncCompareFile, ncCompareFlowsFile)
		fmt.Fprintf(o.s.Out, "peak delay at the bottleneck: model %s, replay %s; Jain's index of the flows' bytes by the horizon: model %.4f, replay %.4f\n",
			fmtDelayNs(c.ModelPeakDelayNs), fmtDelayNs(c.ReplayPeakDelayNs), c.ModelJain, c.ReplayJain)
	}
	return nil
}

// fmtDelayNs prints a delay in ns, or "none" for -1.
func fmtDelayNs(ns int64) string {
	if ns < 0 {
		return "none"
	}
	return fmt.Sprintf("%.1f us", float64(ns)/1e3)
}

// summarize computes summary.json but for the wall time and the files.
func (o *netcalcOptions) summarize(cfg *netcalc.Config, p *ncPath, st *runconfig.Setup, res *netcalc.Result) *ncSummary {
	s := &ncSummary{
		SchemaVersion: NetcalcSchema, Kind: "netcalc", Workload: filepath.ToSlash(st.TraceName),
		Topology: st.Topology.Describe(), Seed: st.Req.Seed, CCA: o.CCA, CCAParams: o.CCAParams,
		PFC: o.PFC == "on", DtNs: nsOf(cfg.Dt), HorizonNs: nsOf(cfg.Horizon), RecordNs: nsOf(cfg.Record),
		Format: o.Format, Dst: p.Dst, CBps: int64(cfg.C), DeltaRNs: nsOf(cfg.DeltaR), Flows: p.Sources,
		FirstPauseNs: -1, Events: len(res.Events),
	}
	if s.CCAParams == nil {
		s.CCAParams = []string{}
	}
	if cfg.PFC != nil {
		s.XOffBytes, s.XOnBytes = int64(cfg.PFC.XOff), int64(cfg.PFC.XOn)
	}
	bl := res.Aggregate.Backlog
	for k, v := range bl {
		if v > s.PeakBacklogBytes {
			s.PeakBacklogBytes, s.PeakBacklogNs = v, nsOf(res.T(k))
		}
	}
	if len(bl) > 0 {
		s.FinalBacklogBytes = bl[len(bl)-1]
	}
	s.CurveRows = len(bl) * (len(res.Flows) + 1)
	for _, e := range res.Events {
		switch e.Kind {
		case netcalc.EvCNP:
			s.CNPs++
		case netcalc.EvTimeout:
			s.Timeouts++
		case netcalc.EvPause:
			if s.Pauses == 0 {
				s.FirstPauseNs = nsOf(e.T)
			}
			s.Pauses++
		}
	}
	s.Cuts = s.CNPs + s.Timeouts
	return s
}
