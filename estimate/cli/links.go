package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/ccreplay/ccreplay/batch"
	"github.com/ccreplay/ccreplay/estimate"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/runconfig"
	"github.com/ccreplay/ccreplay/runfolder"
)

// Inputs are what a Slurm task needs to plan an estimate again: the
// scenario's flags (Set: the names of those given on the command line,
// which win over --config) and the clustering's. They are kept in the
// link folder's manifest.
type Inputs struct {
	Config    string   `json:"config,omitempty"`
	Trace     string   `json:"trace,omitempty"`
	Workload  string   `json:"workload,omitempty"`
	HPCC      string   `json:"hpcc_config,omitempty"`
	Topology  string   `json:"topology,omitempty"`
	CCA       string   `json:"cca"`
	CCAParams []string `json:"cca_params,omitempty"`
	// Seed is the random seed (ECN draws, ECMP hashes, generators, the
	// estimate's draws).
	Seed uint64 `json:"seed"`
	// MaxTime stops each link simulation at this simulated time (e.g.
	// 10ms; "": when its flows complete).
	MaxTime string   `json:"max_time,omitempty"`
	Set     []string `json:"set"`
	// The clustering: which links are simulated (not part of the
	// scenario's hash, so a link's simulation is reused whatever chose
	// it). Tolerance is a fraction; PoolFlows a count of flows.
	Tolerance float64 `json:"tolerance"`
	PoolFlows int     `json:"pool_flows"`
	NoCluster bool    `json:"no_cluster"`
	// SimulateEvery names the link kinds whose every link is simulated
	// (estimate.Options.SimulateEvery).
	SimulateEvery []string `json:"simulate_every,omitempty"`
	// ReverseAcks is how the link networks carry the ACKs crossing the
	// link against its flows (estimate.ReverseAcksRate or
	// ReverseAcksPackets): in each link's hash, not the scenario's.
	ReverseAcks string `json:"reverse_acks,omitempty"`
	// SenderNICs says what the link networks' senders carry
	// (estimate.SenderNICsShares, SenderNICsAlone or SenderNICsShared): in
	// each link's hash, not the scenario's. A manifest without it was
	// written when every estimate was SenderNICsAlone.
	SenderNICs string `json:"sender_nics,omitempty"`
}

// commandOptions are the estimate options of in, as the command line
// gave them (one job, the default aggregation).
func (in Inputs) commandOptions() *CommandOptions {
	in.Set = slices.Clone(in.Set)
	slices.Sort(in.Set)
	in.ReverseAcks = cmp.Or(in.ReverseAcks, estimate.ReverseAcksRate) // a manifest written before the choice
	in.SenderNICs = cmp.Or(in.SenderNICs, estimate.SenderNICsAlone)
	return &CommandOptions{Inputs: in, Jobs: 1, Aggregate: estimate.AggregateOwn, Combine: estimate.CombineMax}
}

// scenario returns the scenario's hash (estimate.ScenarioHash of the
// scenario's flags and the files they name) and the inputs as JSON.
func (o *CommandOptions) scenario(st *runconfig.Setup, p *estimate.Plan) (string, json.RawMessage, error) {
	in := o.Inputs
	in.Set = slices.Clone(in.Set)
	slices.Sort(in.Set)
	all, err := json.Marshal(in)
	if err != nil {
		return "", nil, err
	}
	sc := in
	sc.Tolerance, sc.PoolFlows, sc.NoCluster, sc.ReverseAcks, sc.SenderNICs, sc.SimulateEvery = 0, 0, false, "", "", nil
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

// linksDir is the link folder: LinksDir, or with Slurm Out.links.
func (o *CommandOptions) linksDir() string {
	if o.LinksDir == "" && o.Slurm {
		return strings.TrimRight(o.Out, "/") + ".links"
	}
	return o.LinksDir
}

// viaLinks runs the plan's link simulations through the link folder: on
// this machine (resumable), or submitted to Slurm. It returns the link
// simulations' outcomes when all are done, nil when a job array was
// submitted or is still running (what was done is printed).
func (o *CommandOptions) viaLinks(env Env, st *runconfig.Setup, p *estimate.Plan) ([]*estimate.LinkSim, error) {
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
	if !o.Slurm {
		if err := o.runLinks(env, dir, bp); err != nil {
			return nil, err
		}
		return p.Collect(dir, scen)
	}
	states := batch.States(dir, bp)
	c := batch.Tally(states)
	if todo := estimate.Todo(states); len(todo) > 0 {
		return nil, o.submitLinks(env, dir, m, bp, todo, c)
	}
	if c.Running > 0 {
		fmt.Fprintf(env.Out, "ccreplay estimate: nothing to submit: %d of %d link simulations done, %d running; follow with 'ccreplay estimate status %s', then run this command again\n", c.Done, c.Total, c.Running, dir)
		return nil, nil
	}
	return p.Collect(dir, scen)
}

// runLinks runs the link simulations of dir not done on this machine.
func (o *CommandOptions) runLinks(env Env, dir string, bp *batch.Plan) error {
	prog := env.progress()
	var progress func(batch.Counts, time.Duration)
	if prog != nil {
		progress = func(c batch.Counts, _ time.Duration) {
			prog.Set(fmt.Sprintf("link simulations %d/%d (%d failed)", c.Done, c.Total, c.Failed))
		}
	}
	c, errs, err := batch.Run(env.Ctx, dir, bp, batch.Options{Jobs: o.Jobs, KeepGoing: true, Progress: progress})
	prog.Clear()
	if errors.Is(err, context.Canceled) {
		return clierr.Interruptedf("interrupted: %d of %d link simulations done, kept in %s; run the same command to go on", c.Done, c.Total, dir)
	}
	if err != nil {
		return err
	}
	if c.Failed > 0 {
		first := slices.IndexFunc(errs, func(e error) bool { return e != nil })
		return fmt.Errorf("%d of %d link simulations failed (the first: %v; all in 'ccreplay estimate status %s'); run the same command again to retry them", c.Failed, c.Total, errs[first], dir)
	}
	return nil
}

// submitLinks submits the link simulations not done as one job array.
func (o *CommandOptions) submitLinks(env Env, dir string, m *estimate.LinksManifest, bp *batch.Plan, todo []int, c batch.Counts) error {
	opt := o.SlurmOptions
	opt.Command = []string{"estimate", "link"}
	// The tasks plan from this manifest, kept beside the submission's
	// list: another estimate planned into the same link folder while the
	// array waits rewrites the folder's manifest, not this one.
	side, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	opt.Sidecar = side
	if opt.Exe == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("finding this ccreplay binary for the tasks: %v; give --ccreplay PATH", err)
		}
		if strings.Contains(exe, "go-build") {
			return clierr.Usagef("this ccreplay runs from a temporary build (go run), which the tasks cannot reach; build it (make build) or give --ccreplay PATH")
		}
		opt.Exe = exe
	}
	sub, err := batch.SubmitSlurm(env.Ctx, dir, bp, todo, opt)
	if err != nil {
		return err
	}
	if o.JSON {
		return env.PrintJSON(sub)
	}
	fmt.Fprintf(env.Out, "ccreplay estimate: submitted Slurm job %s: %d link simulations in %d tasks (%d done, %d running before); script %s\n",
		sub.JobID, sub.Points, sub.Tasks, c.Done, c.Running, sub.Script)
	fmt.Fprintf(env.Out, "follow with 'ccreplay estimate status %s'; when it is done, run this command again: it writes %s from them\n", dir, o.Out)
	return nil
}

// LinkOptions are the flags of `ccreplay estimate link`.
type LinkOptions struct {
	// Index is the link simulation to run (-1: none, give List).
	Index int
	// List is a submission's list of link simulations; Task the array
	// task and Chunk the link simulations per task.
	List  string
	Task  int
	Chunk int
}

// indexes are the link simulations o names, checked against the
// manifest's count n.
func (o *LinkOptions) indexes(root string, n int) ([]int, error) {
	var idx []int
	switch {
	case o.List != "" && o.Index >= 0:
		return nil, clierr.Usagef("give --index or --list, not both")
	case o.List != "":
		var err error
		if idx, err = batch.TaskPoints(o.List, o.Task, o.Chunk); err != nil {
			return nil, clierr.Input(err)
		}
	case o.Index >= 0:
		idx = []int{o.Index}
	default:
		return nil, clierr.Usagef("give --index I or --list FILE --task T")
	}
	for _, i := range idx {
		if i >= n {
			return nil, clierr.Usagef("link simulation %d: %s lists %d", i, root, n)
		}
	}
	return idx, nil
}

// Run plans the estimate of the link folder root again from its manifest
// (with --list, the copy the submission keeps beside its list, when
// there is one), checks that it gives the same link simulations, and runs
// those o names.
func (o *LinkOptions) Run(env Env, root string) error {
	m, err := o.manifest(root)
	if err != nil {
		return clierr.Input(err)
	}
	idx, err := o.indexes(root, len(m.Links))
	if err != nil {
		return err
	}
	var in Inputs
	if err := json.Unmarshal(m.Inputs, &in); err != nil {
		return clierr.Inputf("%s: inputs: %v", root, err)
	}
	eo := in.commandOptions()
	st, cfg, opt, err := eo.plan(env)
	if err != nil {
		return err
	}
	p, err := estimate.Prepare(cfg, st.Trace, opt)
	if err != nil {
		return err
	}
	scen, _, err := eo.scenario(st, p)
	if err != nil {
		return err
	}
	if scen != m.Scenario {
		return clierr.Inputf("%s: the estimate's inputs (a file they name, or ccreplay's version) changed since it was planned; run the estimate again", root)
	}
	if err := estimate.SameLinks(m, p.LinkItems(scen)); err != nil {
		return clierr.Input(err)
	}
	return batch.RunIndexes(env.Ctx, root, p.Batch(scen), idx)
}

// manifest reads the manifest the link simulations o names were planned
// with: a submission's own copy (batch.SidecarPath of --list), else the
// link folder's (--index, and submissions made before the copies).
func (o *LinkOptions) manifest(root string) (*estimate.LinksManifest, error) {
	if o.List != "" {
		side := batch.SidecarPath(o.List)
		if _, err := os.Stat(side); err == nil {
			return estimate.ReadLinksManifestFile(side)
		}
	}
	return estimate.ReadLinksManifest(root)
}

// Status is `ccreplay estimate status --json`.
type Status struct {
	Dir     string       `json:"dir"`
	Total   int          `json:"total"`
	Done    int          `json:"done"`
	Failed  int          `json:"failed"`
	Running int          `json:"running"`
	Pending int          `json:"pending"`
	NotDone []NotDoneRow `json:"not_done"`
}

// NotDoneRow is a link simulation not done: its place in the link
// folder's list, its name, its state and its last error.
type NotDoneRow struct {
	Link  int    `json:"link"`
	Name  string `json:"name"`
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}

// StatusOptions are the flags of `ccreplay estimate status`.
type StatusOptions struct {
	// JSON prints a Status instead of the text.
	JSON bool
	// Limit lists at most this many link simulations not done (0: all).
	Limit int
}

// Run counts the link simulations of the link folder dir by state and
// prints them, with those not done.
func (o *StatusOptions) Run(env Env, dir string) error {
	m, err := estimate.ReadLinksManifest(dir)
	if err != nil {
		return clierr.Input(err)
	}
	pl := estimate.LinksPlan(m.Links, nil)
	states := batch.States(dir, pl)
	if !o.JSON {
		batch.WriteStatus(env.Out, "estimate links", dir, pl, states, o.Limit)
		return nil
	}
	c := batch.Tally(states)
	out := Status{Dir: dir, Total: c.Total, Done: c.Done, Failed: c.Failed, Running: c.Running, Pending: c.Pending, NotDone: []NotDoneRow{}}
	for k, s := range states {
		if s.State != batch.Done {
			out.NotDone = append(out.NotDone, NotDoneRow{Link: m.Links[k].Index, Name: m.Links[k].Link, State: string(s.State), Error: s.Error})
		}
	}
	return env.PrintJSON(out)
}
