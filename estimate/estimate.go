package estimate

import (
	"context"
	"fmt"
	"time"

	"github.com/ccreplay/ccreplay/batch/pool"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/replay"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Aggregation modes: how a flow's delay at a link it was simulated with is
// taken.
const (
	// AggregateOwn takes the flow's own delay in that link's simulation
	// (it keeps the flow's arrival context: a flow that met a burst meets
	// it on every link it crosses); links represented by another link's
	// simulation are sampled.
	AggregateOwn = "own"
	// AggregateSample draws every link's delay from its (representative's)
	// distribution, as Parsimon does.
	AggregateSample = "sample"
)

// How a flow's delays at the links of its path make its delay.
const (
	// CombineMax takes the largest: a flow held back by its slowest link
	// is not held back again by the others (the link simulations feed each
	// link the flows at their upstream rate, so a flow slowed at one link
	// still loads the next as if it were not). Measured closer to the
	// packet-level run than the sum at the p95 and p99 (docs/ESTIMATE.md).
	CombineMax = "max"
	// CombineSum adds them (Parsimon, Section 4.4).
	CombineSum = "sum"
)

// LoadWarn is the offered load above which a link is reported: near
// saturation a link's queue depends on more than the flows' own rates.
const LoadWarn = 0.95

// Options are the method's settings.
type Options struct {
	// Tolerance is the clustering tolerance (relative difference of
	// features, see Similar); negative simulates every link.
	Tolerance float64
	// PoolFlows is about how many flows each cluster's link simulations
	// hold together (see Cluster); 0 means DefaultPoolFlows, negative one
	// link per cluster (as Parsimon).
	PoolFlows int
	// Jobs is how many link simulations run at once (< 1: one).
	Jobs int
	// Aggregate is AggregateOwn (default when empty) or AggregateSample.
	Aggregate string
	// Combine is CombineMax (default when empty) or CombineSum.
	Combine string
	// Timings records each link simulation's wall time in links.parquet
	// (wall_ns), the one output that is not a function of the inputs.
	Timings bool
	// Progress, when set, is told after each link simulation.
	Progress func(done, total int) `json:"-"`
}

// Result is an estimate: rows for flows.parquet, messages.parquet and
// links.parquet, the metrics of the flows, and the warnings.
type Result struct {
	Flows     []v2.FlowRow
	Messages  []v2.MessageRow
	Links     []v2.LinkRow
	Summary   metrics.Summary
	Warnings  []string
	Simulated int    // link simulations run
	Events    uint64 // events over all link simulations
	SimEnd    units.Time
}

// badInput marks an error of the inputs: errors.Is(err, replay.ErrBadInput)
// holds, as for replay.Run's own.
type badInput struct{ err error }

func (b badInput) Error() string        { return b.err.Error() }
func (b badInput) Unwrap() error        { return b.err }
func (b badInput) Is(target error) bool { return target == replay.ErrBadInput }

// CheckTrace refuses what the decomposition cannot estimate: messages
// released by other messages' completion (a closed loop ties flows on
// different links together), same-host messages and flows of more than
// one message.
func CheckTrace(tr *trace.Trace, flows []replay.FlowPath) error {
	for i := range tr.Messages {
		m := &tr.Messages[i]
		switch {
		case len(m.Deps) > 0 || m.Gap > 0:
			return badInput{fmt.Errorf("message %d depends on other messages: estimate needs an open-loop workload (releases at fixed times), use run", m.ID)}
		case m.Src == m.Dst:
			return badInput{fmt.Errorf("message %d stays on host %d: estimate needs every message to cross the network, use run", m.ID, m.Src)}
		}
	}
	for i := range flows {
		if n := len(flows[i].Msgs); n != 1 {
			return badInput{fmt.Errorf("flow %d (queue pair of message %d) carries %d messages: estimate needs one message per flow, use run", i, tr.Messages[flows[i].Msgs[0]].ID, n)}
		}
	}
	return nil
}

// linkSim is one link simulation's outcome.
type linkSim struct {
	delays     *Delays
	wall       time.Duration
	events     uint64
	end        units.Time
	paused     int64 // ns over its ports
	dropped    int64
	unfinished int64
}

// Run estimates tr under cfg (the configuration replay.Run would take) by
// link simulations (see the package comment).
func Run(ctx context.Context, cfg replay.Config, tr *trace.Trace, opt Options) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, badInput{err}
	}
	if err := tr.Validate(); err != nil {
		return nil, badInput{err}
	}
	if tr.Hosts > cfg.Topology.NumHosts {
		return nil, badInput{fmt.Errorf("topology %s has %d hosts but the workload needs %d", cfg.Topology.Name, cfg.Topology.NumHosts, tr.Hosts)}
	}
	switch opt.Aggregate {
	case "":
		opt.Aggregate = AggregateOwn
	case AggregateOwn, AggregateSample:
	default:
		return nil, fmt.Errorf("aggregation %q: want %s or %s", opt.Aggregate, AggregateOwn, AggregateSample)
	}
	switch opt.Combine {
	case "":
		opt.Combine = CombineMax
	case CombineMax, CombineSum:
	default:
		return nil, fmt.Errorf("combination %q: want %s or %s", opt.Combine, CombineMax, CombineSum)
	}
	flows, err := replay.FlowPaths(&cfg, tr)
	if err != nil {
		return nil, err
	}
	if err := CheckTrace(tr, flows); err != nil {
		return nil, err
	}
	w := wire{cfg.NIC.MTUPayload + cfg.NIC.HeaderBytes, cfg.NIC.AckBytes}
	links := Decompose(cfg.Topology, flows)
	span := arrivalSpan(flows)
	feats := make([]Features, len(links))
	for i := range links {
		feats[i] = LinkFeatures(&links[i], flows, span, w)
	}
	if opt.PoolFlows == 0 {
		opt.PoolFlows = DefaultPoolFlows
	}
	cl := Cluster(feats, opt.Tolerance, opt.PoolFlows)
	ideal := make([]units.Time, len(flows))
	for i := range flows {
		ideal[i] = topology.IdealOneWay(flows[i].Path, flows[i].Size, cfg.NIC.MTUPayload, cfg.NIC.HeaderBytes)
	}
	cont := make([][]float64, len(links))
	for i := range links {
		cont[i] = Contention(&links[i], flows, ideal)
	}
	var simIdx []int // links simulated, in link order
	for i, r := range cl.Rep {
		if int(r) == i {
			simIdx = append(simIdx, i)
		}
	}
	sims := make([]linkSim, len(links))
	popt := pool.Options{Parallel: opt.Jobs}
	if opt.Progress != nil {
		popt.Progress = func(c pool.Counts) { opt.Progress(c.Done+c.Failed, c.Total) }
	}
	err = pool.Run(ctx, len(simIdx), popt, func(ctx context.Context, k int) error {
		i := simIdx[k]
		s, err := simulate(ctx, cfg, &links[i], flows, tr, w, cont[i])
		if err != nil {
			return fmt.Errorf("link simulation of %s: %w", linkName(cfg.Topology, &links[i]), err)
		}
		sims[i] = *s
		return nil
	})
	if err != nil {
		return nil, err
	}
	res := &Result{Simulated: len(simIdx)}
	for _, i := range simIdx {
		res.Events += sims[i].events
		res.SimEnd = max(res.SimEnd, sims[i].end)
	}
	pooled := make([]*Delays, len(cl.Pool))
	for c, p := range cl.Pool {
		parts := make([]*Delays, len(p))
		for k, i := range p {
			parts[k] = sims[i].delays
		}
		pooled[c] = PoolDelays(parts)
	}
	res.Flows = estimateFlows(&cfg, flows, links, &cl, cont, sims, pooled, opt.Aggregate, opt.Combine)
	res.Messages = messageRows(tr, flows, res.Flows)
	res.Links, res.Warnings = linkRows(links, feats, &cl, sims, opt.Timings)
	res.Summary = metrics.Compute(res.Flows, res.Messages, nil, metrics.Options{})
	return res, nil
}

// arrivalSpan is the time from the first flow's start to the last one's,
// at least 1 ns (a burst released at one instant has an enormous load).
func arrivalSpan(flows []replay.FlowPath) units.Time {
	if len(flows) == 0 {
		return 0
	}
	lo, hi := flows[0].Start, flows[0].Start
	for i := range flows {
		lo, hi = min(lo, flows[i].Start), max(hi, flows[i].Start)
	}
	return max(hi-lo, units.Nanosecond)
}

// pathRTT is a flow's base RTT on its path.
func pathRTT(f *replay.FlowPath, w wire) units.Time {
	return topology.PathBaseRTT(f.Path, w.data, w.ack)
}

// simulate runs link l's network.
func simulate(ctx context.Context, cfg replay.Config, l *Link, flows []replay.FlowPath, tr *trace.Trace, w wire, cont []float64) (*linkSim, error) {
	net, err := BuildLinkNet(l, flows, tr, w.data, w.ack)
	if err != nil {
		return nil, err
	}
	c := cfg
	c.Topology = net.Topology
	c.Packets = replay.PacketsNone
	c.Threads = 1
	c.Progress, c.Observer, c.PFCObserver, c.QueueSampler, c.WrapCC = nil, nil, nil, nil, nil
	start := time.Now()
	res, err := replay.RunContext(ctx, c, net.Trace)
	if err != nil {
		return nil, err
	}
	if len(res.Flows) != len(l.Flows) {
		return nil, fmt.Errorf("link network ran %d flows, want %d", len(res.Flows), len(l.Flows))
	}
	s := &linkSim{delays: NewDelays(res.Flows, cont), wall: time.Since(start), events: res.Events, end: res.SimEnd}
	for _, p := range res.Ports {
		s.paused += p.PausedNs
		s.dropped += p.DroppedPkts
	}
	for _, f := range res.Flows {
		if f.FCTNs < 0 {
			s.unfinished++
		}
	}
	return s, nil
}

// linkName names a link by its nodes' names and the port: "tor0:4 -> agg1".
func linkName(t *topology.Topology, l *Link) string {
	return fmt.Sprintf("%s:%d -> %s", t.Nodes[l.Node].Name, l.Port, t.Nodes[l.Peer].Name)
}
