package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/estimate"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
)

// estimateInputs are what a Slurm task needs to plan an estimate again:
// the scenario's flags (Set: those given on the command line, which win
// over --config) and the clustering's. They are kept in the link folder's
// manifest.
type estimateInputs struct {
	Config    string   `json:"config,omitempty"`
	Trace     string   `json:"trace,omitempty"`
	Workload  string   `json:"workload,omitempty"`
	HPCC      string   `json:"hpcc_config,omitempty"`
	Topology  string   `json:"topology,omitempty"`
	CCA       string   `json:"cca"`
	CCAParams []string `json:"cca_params,omitempty"`
	Seed      uint64   `json:"seed"`
	MaxTime   string   `json:"max_time,omitempty"`
	Set       []string `json:"set"`
	// The clustering: which links are simulated (not part of the
	// scenario's hash, so a link's simulation is reused whatever chose
	// it).
	Tolerance float64 `json:"tolerance"`
	PoolFlows int     `json:"pool_flows"`
	NoCluster bool    `json:"no_cluster"`
}

// inputs are o's estimateInputs.
func (o *estimateOptions) inputs() estimateInputs {
	in := estimateInputs{Config: o.Config, Trace: o.Trace, Workload: o.Workload, HPCC: o.HPCC, Topology: o.Topology, CCA: o.CCA,
		CCAParams: o.CCAParams, Seed: o.Seed, MaxTime: o.MaxTime, Tolerance: o.Tolerance, PoolFlows: o.PoolFlows, NoCluster: o.NoCluster}
	for k := range o.set {
		in.Set = append(in.Set, k)
	}
	slices.Sort(in.Set)
	return in
}

// scenario returns the scenario's hash (estimate.ScenarioHash of the
// scenario's flags and the files they name) and the inputs as JSON.
func (o *estimateOptions) scenario(st *runconfig.Setup, p *estimate.Plan) (string, json.RawMessage, error) {
	in := o.inputs()
	all, err := json.Marshal(in)
	if err != nil {
		return "", nil, err
	}
	sc := in
	sc.Tolerance, sc.PoolFlows, sc.NoCluster = 0, 0, false
	// Only the flags that shape the scenario are hashed.
	sc.Set = slices.DeleteFunc(slices.Clone(in.Set), func(k string) bool {
		return !slices.Contains([]string{"config", "trace", "workload", "hpcc-config", "topology", "cca", "cca-param", "seed", "max-time"}, k)
	})
	b, err := json.Marshal(sc)
	if err != nil {
		return "", nil, err
	}
	var files []string
	for _, name := range []string{st.Req.Config, st.Req.Trace, st.Req.HPCCConfig} {
		if name != "" {
			files = append(files, name)
		}
	}
	if p, ok := strings.CutPrefix(st.Req.Topology, "hpcc:"); ok && p != "" {
		files = append(files, p)
	}
	return estimate.ScenarioHash(b, files, p), all, nil
}

// linksDir is the link folder: --links-dir, or with --slurm OUT.links.
func (o *estimateOptions) linksDir() string {
	if o.LinksDir == "" && o.Slurm {
		return strings.TrimRight(o.Out, "/") + ".links"
	}
	return o.LinksDir
}

// viaLinks runs the plan's link simulations through the link folder: on
// this machine (resumable), or submitted to Slurm. It returns the link
// simulations' outcomes when all are done, nil when a job array was
// submitted or is still running (what was done is printed).
func (o *estimateOptions) viaLinks(st *runconfig.Setup, p *estimate.Plan) ([]*estimate.LinkSim, error) {
	dir := o.linksDir()
	scen, inputs, err := o.scenario(st, p)
	if err != nil {
		return nil, err
	}
	m := &estimate.LinksManifest{Scenario: scen, Inputs: inputs, Links: p.LinkItems(scen)}
	if err := estimate.PrepareLinks(dir, m); errors.Is(err, runfolder.ErrRefused) {
		return nil, clierr.Usage(err)
	} else if err != nil {
		return nil, err
	}
	bp := p.Batch(scen)
	if o.Slurm {
		states := batch.States(dir, bp)
		c := batch.Tally(states)
		if todo := estimate.Todo(states); len(todo) > 0 {
			return nil, o.submitLinks(dir, bp, todo, c)
		}
		if c.Running > 0 {
			fmt.Fprintf(o.f.Out, "ccreplay estimate: nothing to submit: %d of %d link simulations done, %d running; follow with 'ccreplay estimate status %s', then run this command again\n", c.Done, c.Total, c.Running, dir)
			return nil, nil
		}
	} else {
		prog := o.f.newProgressLine()
		var progress func(batch.Counts, time.Duration)
		if prog != nil {
			progress = func(c batch.Counts, _ time.Duration) {
				prog.set(fmt.Sprintf("link simulations %d/%d (%d failed)", c.Done, c.Total, c.Failed))
			}
		}
		c, errs, err := batch.Run(o.ctx, dir, bp, batch.Options{Jobs: o.Jobs, KeepGoing: true, Progress: progress})
		prog.clear()
		if errors.Is(err, context.Canceled) {
			return nil, interrupted("interrupted: %d of %d link simulations done, kept in %s; run the same command to go on", c.Done, c.Total, dir)
		}
		if err != nil {
			return nil, err
		}
		if c.Failed > 0 {
			first := slices.IndexFunc(errs, func(e error) bool { return e != nil })
			return nil, fmt.Errorf("%d of %d link simulations failed (the first: %v; all in 'ccreplay estimate status %s'); run the same command again to retry them", c.Failed, c.Total, errs[first], dir)
		}
	}
	return p.Collect(dir, scen)
}

// submitLinks submits the link simulations not done as one job array.
func (o *estimateOptions) submitLinks(dir string, bp *batch.Plan, todo []int, c batch.Counts) error {
	opt := o.slurm
	opt.Command = []string{"estimate", "link"}
	if opt.Exe == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("finding this ccreplay binary for the tasks: %v; give --ccreplay PATH", err)
		}
		if strings.Contains(exe, "go-build") {
			return usageErrorf("this ccreplay runs from a temporary build (go run), which the tasks cannot reach; build it (make build) or give --ccreplay PATH")
		}
		opt.Exe = exe
	}
	sub, err := batch.SubmitSlurm(o.ctx, dir, bp, todo, opt)
	if err != nil {
		return err
	}
	if o.JSON {
		return printJSON(o.f, sub)
	}
	fmt.Fprintf(o.f.Out, "ccreplay estimate: submitted Slurm job %s: %d link simulations in %d tasks (%d done, %d running before); script %s\n",
		sub.JobID, sub.Points, sub.Tasks, c.Done, c.Running, sub.Script)
	fmt.Fprintf(o.f.Out, "follow with 'ccreplay estimate status %s'; when it is done, run this command again: it writes %s from them\n", dir, o.Out)
	return nil
}

// newEstimateLinkCmd is `ccreplay estimate link`: what a Slurm task runs.
func newEstimateLinkCmd(f *Factory) *cobra.Command {
	var index, task, chunk int
	var list string
	c := &cobra.Command{
		Use:   "link DIR (--index I | --list FILE --task T [--chunk K])",
		Short: "Run link simulations of an estimate's link folder (what each Slurm array task runs)",
		Long: `Plans the estimate of the link folder DIR again from its ` + estimate.LinksManifestFile + ` (the same
inputs, which must still give the same link simulations) and runs its link simulation I, or those a
Slurm submission lists for array task T (entries T*K..T*K+K-1 of FILE), each into DIR/link=N (the
link network's run folder and ` + estimate.OutcomeFile + `). A link already done is skipped; a failure is
recorded in DIR/` + estimate.LinksStateDir + `/failed and the command exits non-zero after trying every link
of its share.`,
		Example: `  # the link simulations of an estimate kept in a link folder, then link simulation 0 again (done: skipped)
  ccreplay estimate --workload cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=50us \
      --topology fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2 --links-dir est.links --out est
  ccreplay estimate link est.links --index 0

  # what a Slurm array task runs:
  #   ccreplay estimate link /shared/est.links --list /shared/est.links/.estimate/slurm/submit-001.list --task "$SLURM_ARRAY_TASK_ID" --chunk 4`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			root := args[0]
			m, err := estimate.ReadLinksManifest(root)
			if err != nil {
				return clierr.Input(err)
			}
			var idx []int
			switch {
			case list != "" && index >= 0:
				return usageErrorf("give --index or --list, not both")
			case list != "":
				if idx, err = batch.TaskPoints(list, task, chunk); err != nil {
					return clierr.Input(err)
				}
			case index >= 0:
				idx = []int{index}
			default:
				return usageErrorf("give --index I or --list FILE --task T")
			}
			for _, i := range idx {
				if i >= len(m.Links) {
					return usageErrorf("link simulation %d: %s lists %d", i, root, len(m.Links))
				}
			}
			var in estimateInputs
			if err := json.Unmarshal(m.Inputs, &in); err != nil {
				return clierr.Inputf("%s: inputs: %v", root, err)
			}
			o := in.options(f)
			o.ctx = cmd.Context()
			st, cfg, opt, err := o.plan()
			if err != nil {
				return err
			}
			p, err := estimate.Prepare(cfg, st.Trace, opt)
			if err != nil {
				return err
			}
			scen, _, err := o.scenario(st, p)
			if err != nil {
				return err
			}
			if scen != m.Scenario {
				return clierr.Inputf("%s: the estimate's inputs (a file they name, or ccreplay's version) changed since it was planned; run the estimate again", root)
			}
			if err := estimate.SameLinks(m, p.LinkItems(scen)); err != nil {
				return clierr.Input(err)
			}
			return batch.RunIndexes(cmd.Context(), root, p.Batch(scen), idx)
		},
	}
	c.Flags().IntVar(&index, "index", -1, "the link simulation to run (its place in the link folder's list)")
	c.Flags().StringVar(&list, "list", "", "a submission's list of link simulations (one index per line)")
	c.Flags().IntVar(&task, "task", 0, "the array task: runs entries task*chunk .. task*chunk+chunk-1 of --list")
	c.Flags().IntVar(&chunk, "chunk", 1, "link simulations per task")
	return c
}

// options are the estimate options of in, as the command line gave them.
func (in estimateInputs) options(f *Factory) *estimateOptions {
	o := &estimateOptions{runOptions: runOptions{f: f, Config: in.Config, Trace: in.Trace, Workload: in.Workload, HPCC: in.HPCC,
		Topology: in.Topology, CCA: in.CCA, CCAParams: in.CCAParams, Seed: in.Seed, MaxTime: in.MaxTime, set: map[string]bool{}},
		Tolerance: in.Tolerance, PoolFlows: in.PoolFlows, NoCluster: in.NoCluster, Jobs: 1,
		Aggregate: estimate.AggregateOwn, Combine: estimate.CombineMax}
	for _, k := range in.Set {
		o.set[k] = true
	}
	return o
}

// estimateStatus is `ccreplay estimate status --json`.
type estimateStatus struct {
	Dir     string           `json:"dir"`
	Total   int              `json:"total"`
	Done    int              `json:"done"`
	Failed  int              `json:"failed"`
	Running int              `json:"running"`
	Pending int              `json:"pending"`
	NotDone []linkNotDoneRow `json:"not_done"`
}

type linkNotDoneRow struct {
	Link  int    `json:"link"`
	Name  string `json:"name"`
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}

func newEstimateStatusCmd(f *Factory) *cobra.Command {
	var asJSON bool
	var limit int
	c := &cobra.Command{
		Use:   "status DIR",
		Short: "Show an estimate's link simulations done, failed, running and pending, from its link folder alone",
		Long: `Reads the link folder DIR (estimate --links-dir, or --slurm's OUT.links) and counts its link
simulations: done (the folder holds a complete link simulation of the link's hash), failed (the last
attempt's error), running (a process is on it) and pending; then lists those not done, failures first.
Exits 0 whatever the states are.`,
		Example: `  ccreplay estimate --workload cdf:dist=websearch,hosts=16,bw=100G,load=0.3,duration=50us \
      --topology fattree:pods=2,tors=2,hosts=4,aggs=2,cores=2 --links-dir est.links --out est
  ccreplay estimate status est.links
  ccreplay estimate status est.links --json`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := estimate.ReadLinksManifest(args[0])
			if err != nil {
				return clierr.Input(err)
			}
			pl := estimate.LinksPlan(m.Links, nil)
			states := batch.States(args[0], pl)
			if !asJSON {
				batch.WriteStatus(f.Out, "estimate links", args[0], pl, states, limit)
				return nil
			}
			c := batch.Tally(states)
			out := estimateStatus{Dir: args[0], Total: c.Total, Done: c.Done, Failed: c.Failed, Running: c.Running, Pending: c.Pending, NotDone: []linkNotDoneRow{}}
			for k, s := range states {
				if s.State != batch.Done {
					out.NotDone = append(out.NotDone, linkNotDoneRow{Link: m.Links[k].Index, Name: m.Links[k].Link, State: string(s.State), Error: s.Error})
				}
			}
			return printJSON(f, out)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the counts and the link simulations not done as JSON")
	c.Flags().IntVar(&limit, "limit", 50, "list at most this many link simulations not done (0 = all)")
	return c
}
