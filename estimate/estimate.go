package estimate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
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

// How the ACKs that cross a link against its flows (those of the flows
// whose ACKs are routed across it: its reverse link's flows) are in its
// link network.
const (
	// ReverseAcksRate runs the link slower by those ACKs' mean rate over
	// the trace (Link.AckRate), as Parsimon does.
	ReverseAcksRate = "rate"
	// ReverseAcksPackets runs the link at its rate and the flows whose
	// ACKs cross it (Link.Rev) through the link network as flows of their
	// own, so that their ACKs cross it as packets while those flows run;
	// their own delays are not read.
	ReverseAcksPackets = "packets"
)

// What the link networks' senders carry besides the link's flows.
const (
	// SenderNICsAlone: each sender carries only its flows crossing the
	// link.
	SenderNICsAlone = "alone"
	// SenderNICsShared: each sender also carries its host's other flows
	// that may run beside them (Link.Side, SenderFlows), which leave the
	// link network before the link, so that the host's NIC is shared as
	// in the full run; their own delays are not read.
	SenderNICsShared = "shared"
	// SenderNICsShares (the default): each sender carries only the link's
	// flows, each released in chunks at its share of its host's NIC
	// (NICShares: the host's flows in processor sharing at the NIC's
	// rate), so that the link sees its flows' packets spread as the host's
	// other flows spread them in the full run. A flow's delay at such a
	// link is read beyond that paced ideal, and the pacing's own delay
	// (NICDelay) added back once (CombineMax), so links can be clustered:
	// a represented link's flow longer than a window draws among flows
	// paced as it is (Delays.SamplePaced), and backlogs are those of the
	// paced arrivals (PacedBacklog). Host NICs' own links are simulated
	// as with SenderNICsAlone: they hold the sharing itself.
	SenderNICsShares = "shares"
)

// ErrSharedNICsClustered refuses SenderNICsShared with clustering: every
// link simulation then holds the delay the NIC's sharing gives a flow, and
// a flow crossing represented links takes the largest of several draws of
// it from other flows' pooled delays, where its own NIC delays it once
// (docs/ESTIMATE.md, "The senders' NICs shared").
var ErrSharedNICsClustered = errors.New("sender NICs shared needs every link simulated (no clustering): pooled delays would each carry another flow's NIC share")

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
	// Jobs is how many link simulations run at once (< 1: one), and how
	// many workers share the per-link and per-flow work around them (the
	// links' features and backlogs, the flows' rows, the files).
	Jobs int
	// Aggregate is AggregateOwn (default when empty) or AggregateSample.
	Aggregate string
	// Combine is CombineMax (default when empty) or CombineSum.
	Combine string
	// ReverseAcks is ReverseAcksRate (default when empty) or
	// ReverseAcksPackets.
	ReverseAcks string
	// SenderNICs is SenderNICsShares (default when empty),
	// SenderNICsAlone or SenderNICsShared.
	SenderNICs string
	// SimulateEvery lists link kinds whose every link is simulated (each
	// a cluster of its own); the others are clustered as Tolerance and
	// PoolFlows say. HostDown makes the host downlinks' delays every
	// flow's own, where the draws miss most (docs/ESTIMATE.md, "Every host
	// downlink simulated").
	SimulateEvery []LinkKind
	// DrawSeed, when not nil, seeds the draws of the flows' delays at the
	// links not simulated instead of the scenario's seed
	// (replay.Config.Seed): the same link simulations then give another
	// draw of the estimate, which measures its own spread
	// (docs/ESTIMATE.md).
	DrawSeed *uint64
	// Timings records each link simulation's wall time in links.parquet
	// (wall_ns), the one output that is not a function of the inputs.
	Timings bool
	// Progress, when set, is told after each link simulation.
	Progress func(done, total int) `json:"-"`
}

// withDefaults returns opt with its empty Aggregate, Combine and ReverseAcks and its
// zero PoolFlows set to their defaults, and an error when one of the
// three is none of its choices (the setting is then kept as given).
func (opt Options) withDefaults() (Options, error) {
	var errAgg, errComb, errRev, errSnd error
	opt.Aggregate, errAgg = choice("aggregation", opt.Aggregate, AggregateOwn, AggregateSample)
	opt.Combine, errComb = choice("combination", opt.Combine, CombineMax, CombineSum)
	opt.ReverseAcks, errRev = choice("reverse ACKs", opt.ReverseAcks, ReverseAcksRate, ReverseAcksPackets)
	opt.SenderNICs, errSnd = choice("sender NICs", opt.SenderNICs, SenderNICsShares, SenderNICsAlone, SenderNICsShared)
	if errSnd == nil && opt.SenderNICs == SenderNICsShared && opt.Tolerance >= 0 {
		errSnd = ErrSharedNICsClustered
	}
	if opt.PoolFlows == 0 {
		opt.PoolFlows = DefaultPoolFlows
	}
	return opt, cmp.Or(errAgg, errComb, errRev, errSnd)
}

// choice returns v, or def when v is empty; v is def or other, else an
// error names what it is.
func choice(what, v, def string, others ...string) (string, error) {
	if v == "" {
		return def, nil
	}
	if v == def || slices.Contains(others, v) {
		return v, nil
	}
	want := def
	for k, o := range others {
		if k == len(others)-1 {
			want += " or " + o
		} else {
			want += ", " + o
		}
	}
	return v, fmt.Errorf("%s %q: want %s", what, v, want)
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

// linkSim is one link simulation's outcome as the aggregation reads it.
type linkSim struct {
	delays     *Delays
	wall       time.Duration
	events     uint64
	end        units.Time
	paused     int64 // ns over its ports
	dropped    int64
	unfinished int64
	reverse    int // flows carried for their ACKs only
	side       int // flows carried for their senders' NICs only
}

// Run estimates tr under cfg (the configuration replay.Run would take) by
// link simulations (see the package comment), opt.Jobs at a time on this
// machine.
func Run(ctx context.Context, cfg replay.Config, tr *trace.Trace, opt Options) (*Result, error) {
	p, err := Prepare(cfg, tr, opt)
	if err != nil {
		return nil, err
	}
	return p.Run(ctx)
}

// Run runs the plan's link simulations on this machine (its options'
// Jobs at a time) and assembles the estimate.
func (p *Plan) Run(ctx context.Context) (*Result, error) {
	sims := make([]*LinkSim, len(p.links))
	popt := pool.Options{Parallel: p.opt.Jobs}
	if p.opt.Progress != nil {
		popt.Progress = func(c pool.Counts) { p.opt.Progress(c.Done+c.Failed, c.Total) }
	}
	err := pool.Run(ctx, len(p.sim), popt, func(ctx context.Context, k int) error {
		s, err := p.Simulate(ctx, p.sim[k])
		sims[p.sim[k]] = s
		return err
	})
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		var in *replay.InterruptedError
		if !errors.As(err, &in) { // stopped between link simulations
			done := 0
			for _, s := range sims {
				if s != nil {
					done++
				}
			}
			err = &InterruptedError{Done: done, Total: len(p.sim), Err: err}
		}
	}
	if err != nil {
		return nil, err
	}
	return p.Assemble(sims), nil
}

// InterruptedError is Run stopped by its context between link
// simulations: how many of them had finished, and the context's error.
// (Stopped inside one, Run returns that simulation's
// replay.InterruptedError, named by its link.)
type InterruptedError struct {
	Done, Total int
	Err         error
}

// Error says how far the estimate got ("interrupted after 12 of 3072 link
// simulations").
func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted after %d of %d link simulations", e.Done, e.Total)
}

// Unwrap returns the context's error (context.Canceled, ...).
func (e *InterruptedError) Unwrap() error { return e.Err }

// Plan is an estimate prepared: the flows routed, the links decomposed
// and clustered, and which links are simulated. Its link simulations are
// independent (Simulate, in any order, on any machine); Assemble makes
// the estimate from their outcomes.
type Plan struct {
	cfg   replay.Config
	tr    *trace.Trace
	opt   Options
	w     wire
	flows []replay.FlowPath
	links []Link
	feats []Features
	cl    Clusters
	cont  [][]float64 // per link, per flow of the link: Backlog
	sim   []int       // the links simulated, in link order
	// maxRTT is the full topology's topology.NS3MaxRTT when the base RTT
	// mode needs it (every flow's algorithm is given it).
	maxRTT units.Time
	// pace is, per flow, its chunks under SenderNICsShares (NICShares;
	// nil otherwise), and paceID the id of each flow's second chunk.
	pace   [][]Chunk
	paceID []int64
}

// Prepare checks the inputs, routes the flows as replay.Run does,
// decomposes the network into links, clusters them and chooses the
// links to simulate.
func Prepare(cfg replay.Config, tr *trace.Trace, opt Options) (*Plan, error) {
	if err := cfg.ValidateFor(tr); err != nil {
		return nil, badInput{err}
	}
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	flows, err := replay.FlowPaths(&cfg, tr)
	if err != nil {
		return nil, err
	}
	if err := CheckTrace(tr, flows); err != nil {
		return nil, err
	}
	p := &Plan{cfg: cfg, tr: tr, opt: opt, flows: flows, w: wire{cfg.NIC.MTUPayload + cfg.NIC.HeaderBytes, cfg.NIC.AckBytes}}
	if cfg.CCBaseRTT == replay.BaseRTTNS3Max {
		p.maxRTT, _ = topology.NS3MaxRTT(cfg.Topology, cfg.NIC.MTUPayload)
	}
	p.links = Decompose(cfg.Topology, flows)
	span := arrivalSpan(flows)
	if opt.ReverseAcks == ReverseAcksPackets {
		ReverseFlows(cfg.Topology, p.links, flows)
	} else {
		ReverseAcks(p.links, flows, span, cfg.NIC.MTUPayload, cfg.NIC.AckBytes, cfg.NIC.AckEvery)
	}
	// Each flow's base RTT once (it crosses several links), then each
	// link's features and backlogs, the links split over the workers.
	rtt := make([]units.Time, len(flows))
	split(opt.Jobs, len(flows), flowChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			rtt[i] = pathRTT(&flows[i], p.w)
		}
	})
	if opt.SenderNICs == SenderNICsShared {
		life := make([]units.Time, len(flows))
		for i := range flows {
			f := &flows[i]
			life[i] = SenderLife * topology.IdealOneWay(f.Path, f.Size, cfg.NIC.MTUPayload, cfg.NIC.HeaderBytes)
		}
		SenderFlows(p.links, flows, life)
	}
	if opt.SenderNICs == SenderNICsShares {
		p.pace = NICShares(flows, cfg.NIC.MTUPayload, cfg.NIC.HeaderBytes)
		p.paceID = make([]int64, len(flows))
		next := int64(0)
		for _, m := range tr.Messages {
			next = max(next, m.ID+1)
		}
		for i, ch := range p.pace {
			p.paceID[i] = next
			next += int64(max(len(ch)-1, 0))
		}
	}
	p.feats = make([]Features, len(p.links))
	p.cont = make([][]float64, len(p.links))
	split(opt.Jobs, len(p.links), linkChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			p.feats[i] = LinkFeatures(&p.links[i], flows, rtt, span)
			p.cont[i] = PacedBacklog(&p.links[i], flows, p.pace)
		}
	})
	p.cl = Cluster(p.feats, p.opt.Tolerance, p.opt.PoolFlows, p.opt.SimulateEvery...)
	for i, r := range p.cl.Rep {
		if int(r) == i {
			p.sim = append(p.sim, i)
		}
	}
	return p, nil
}

// drawSeed is the seed of the draws at links not simulated: DrawSeed, or
// the scenario's.
func (p *Plan) drawSeed() uint64 {
	if p.opt.DrawSeed != nil {
		return *p.opt.DrawSeed
	}
	return p.cfg.Seed
}

// Links is the number of links carrying traffic.
func (p *Plan) Links() int { return len(p.links) }

// Simulated lists the links to simulate (indexes into the links, in
// order).
func (p *Plan) Simulated() []int { return append([]int(nil), p.sim...) }

// LinkName names link i by its nodes and port: "tor0:4 -> agg1".
func (p *Plan) LinkName(i int) string { return linkName(p.cfg.Topology, &p.links[i]) }

// Assemble makes the estimate from the outcomes of the simulated links
// (sims[i] for each link i of Simulated; the others are not read).
func (p *Plan) Assemble(sims []*LinkSim) *Result {
	res := &Result{Simulated: len(p.sim)}
	win := make([]float64, len(p.links)) // each link's LinkWindow
	for i := range win {
		win[i] = LinkWindow(&p.links[i], &p.feats[i], p.w.data)
	}
	// Under SenderNICsShares each flow's pacing delay (NICDelay) and
	// pacing ratio, that delay over its ideal FCT (what long flows' draws
	// are matched on, Delays.SamplePaced).
	var nic []units.Time
	var ratio []float64
	if p.pace != nil {
		nic, ratio = make([]units.Time, len(p.flows)), make([]float64, len(p.flows))
		for i := range p.flows {
			f := &p.flows[i]
			nic[i] = NICDelay(f.Path, f.Start, f.Size, p.pace[i], p.cfg.NIC.MTUPayload, p.cfg.NIC.HeaderBytes)
			ratio[i] = float64(nic[i]) / float64(topology.IdealOneWay(f.Path, f.Size, p.cfg.NIC.MTUPayload, p.cfg.NIC.HeaderBytes))
		}
	}
	all := make([]linkSim, len(p.links))
	for _, i := range p.sim {
		s := sims[i]
		var linkRatio []float64 // the link's flows' pacing ratios
		if ratio != nil {
			linkRatio = make([]float64, len(p.links[i].Flows))
			for k, fi := range p.links[i].Flows {
				linkRatio[k] = ratio[fi]
			}
		}
		all[i] = linkSim{delays: NewPacedDelays(s.rows(), p.cont[i], linkRatio, NormWindow(p.links[i].Kind, win[i])), wall: time.Duration(s.WallNs), events: s.Events,
			end: units.Time(s.SimEndNs) * units.Nanosecond, paused: s.PausedNs, dropped: s.DroppedPkts, unfinished: s.Unfinished,
			reverse: s.ReverseFlows, side: s.SideFlows}
		res.Events += s.Events
		res.SimEnd = max(res.SimEnd, all[i].end)
	}
	pooled := make([]*Delays, len(p.cl.Pool))
	for c, m := range p.cl.Pool {
		parts := make([]*Delays, len(m))
		for k, i := range m {
			parts[k] = all[i].delays
		}
		pooled[c] = PoolDelays(parts)
	}
	res.Flows = estimateFlows(p.opt.Jobs, &p.cfg, p.flows, p.links, win, &p.cl, p.cont, all, pooled, p.opt.Aggregate, p.opt.Combine, p.drawSeed(), nic, ratio)
	res.Messages = messageRows(p.opt.Jobs, p.tr, p.flows, res.Flows)
	res.Links, res.Warnings = linkRows(p.links, p.feats, &p.cl, all, p.opt.Timings)
	res.Summary = metrics.Compute(res.Flows, res.Messages, nil, metrics.Options{})
	return res
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

// LinkSim is the outcome of one link simulation: what the estimate reads
// of it (its flows in the link's flow order) and what links.parquet
// reports.
type LinkSim struct {
	// Link names the link ("tor0:4 -> agg1") and Index is its place among
	// the plan's links.
	Link  string `json:"link"`
	Index int    `json:"index"`
	// FCTNs, IdealFCTNs, SizeBytes and Packets are the link's own
	// flows' (LinkNet.Flows less the reverse ones) FCT (-1: unfinished) and ideal FCT, ns, size, bytes, and
	// data packets.
	FCTNs      []int64 `json:"fct_ns"`
	IdealFCTNs []int64 `json:"ideal_fct_ns"`
	SizeBytes  []int64 `json:"size_bytes"`
	Packets    []int64 `json:"packets"`
	// ReverseFlows is how many flows the link network carried for their
	// ACKs only (ReverseAcksPackets; not in the arrays above).
	ReverseFlows int `json:"reverse_flows,omitempty"`
	// SideFlows is how many flows the link network carried for their
	// senders' NICs only (SenderNICsShared; not in the arrays above).
	SideFlows int `json:"side_flows,omitempty"`
	// Events and SimEndNs are the simulation's events and end, ns;
	// PausedNs the PFC pause time over its ports, ns; DroppedPkts its
	// drops; Unfinished its flows that did not finish; WallNs its wall
	// time, ns (the one value that is not a function of the inputs).
	Events      uint64 `json:"events"`
	SimEndNs    int64  `json:"sim_end_ns"`
	PausedNs    int64  `json:"pfc_paused_ns"`
	DroppedPkts int64  `json:"dropped_pkts"`
	Unfinished  int64  `json:"unfinished"`
	WallNs      int64  `json:"wall_ns"`
}

// rows are the flow rows NewDelays reads.
func (s *LinkSim) rows() []v2.FlowRow {
	rows := make([]v2.FlowRow, len(s.FCTNs))
	for i := range rows {
		rows[i] = v2.FlowRow{FCTNs: s.FCTNs[i], IdealFCTNs: s.IdealFCTNs[i], SizeBytes: s.SizeBytes[i], Packets: s.Packets[i]}
	}
	return rows
}

// check says whether s can be link i's outcome: its name and flow count.
func (p *Plan) check(i int, s *LinkSim) error {
	n := len(p.links[i].Flows)
	if s.Link != p.LinkName(i) || s.Index != i {
		return fmt.Errorf("the outcome of link %d (%s) is of link %d (%s)", i, p.LinkName(i), s.Index, s.Link)
	}
	if len(s.FCTNs) != n || len(s.IdealFCTNs) != n || len(s.SizeBytes) != n || len(s.Packets) != n {
		return fmt.Errorf("the outcome of link %d (%s) has %d flows, the link %d", i, s.Link, len(s.FCTNs), n)
	}
	return nil
}

// linkConfig is the configuration of link i's network, and its trace.
func (p *Plan) linkConfig(i int) (replay.Config, *trace.Trace, error) {
	l := &p.links[i]
	net, err := BuildLinkNet(p.cfg.Topology, l, p.flows, p.tr, p.w.data, p.w.ack)
	if err != nil {
		return replay.Config{}, nil, err
	}
	if p.pace != nil && l.Kind != HostUp {
		own := make(map[int64]int32, len(l.Flows))
		for _, fi := range l.Flows {
			own[int64(p.flows[fi].ID)] = fi
		}
		paceTrace(net.Trace, own, p.pace, p.paceID)
	}
	c := p.cfg
	c.Topology = net.Topology
	// The link runs slower by its reverse ACKs; its queue is marked as
	// the full run marks a port of its real rate.
	c.Switch.ECN = c.Switch.ECN.RateAs(l.Rate-l.AckRate, l.Rate)
	// Each flow's algorithm is told of its full-run path, not of its path
	// in the link network: the base RTT of the run's mode (the full
	// network's largest under ns3-max), the BDP window, the hop count.
	// The reverse flows too, though the link network routes them on
	// the mirror of their ACKs' path.
	c.FlowCC = make([]replay.FlowCCInfo, len(net.Flows))
	for k, fi := range net.Flows {
		c.FlowCC[k] = p.cfg.CCInfo(p.flows[fi].Path, p.maxRTT)
	}
	c.Packets = replay.PacketsNone
	c.Threads = 1
	c.Progress, c.Observer, c.PFCObserver, c.QueueSampler, c.WrapCC, c.PacketSink, c.RowSink = nil, nil, nil, nil, nil, nil, nil
	return c, net.Trace, nil
}

// Simulate runs link i's network.
func (p *Plan) Simulate(ctx context.Context, i int) (*LinkSim, error) {
	c, tr, err := p.linkConfig(i)
	if err != nil {
		return nil, fmt.Errorf("link simulation of %s: %w", p.LinkName(i), err)
	}
	start := time.Now()
	res, err := replay.RunContext(ctx, c, tr)
	if err != nil {
		return nil, fmt.Errorf("link simulation of %s: %w", p.LinkName(i), err)
	}
	return p.outcome(i, res, time.Since(start))
}

// outcome reads link i's simulation result.
func (p *Plan) outcome(i int, res *replay.Result, wall time.Duration) (*LinkSim, error) {
	l := &p.links[i]
	all, role := netFlows(l)
	if len(res.Flows) != len(all) {
		return nil, fmt.Errorf("link simulation of %s: the link network ran %d flows, want %d", p.LinkName(i), len(res.Flows), len(all))
	}
	n := len(l.Flows)
	s := &LinkSim{Link: p.LinkName(i), Index: i, FCTNs: make([]int64, 0, n), IdealFCTNs: make([]int64, 0, n), SizeBytes: make([]int64, 0, n), Packets: make([]int64, 0, n),
		ReverseFlows: len(l.Rev), SideFlows: len(l.Side), Events: res.Events, SimEndNs: res.SimEnd.Nanoseconds(), WallNs: wall.Nanoseconds()}
	for k, f := range res.Flows {
		if role[k] != roleOwn {
			continue // there for its ACKs or its sender's NIC
		}
		s.FCTNs, s.IdealFCTNs = append(s.FCTNs, f.FCTNs), append(s.IdealFCTNs, f.IdealFCTNs)
		s.SizeBytes, s.Packets = append(s.SizeBytes, f.SizeBytes), append(s.Packets, f.Packets)
		if f.FCTNs < 0 {
			s.Unfinished++
		}
	}
	for _, pt := range res.Ports {
		s.PausedNs += pt.PausedNs
		s.DroppedPkts += pt.DroppedPkts
	}
	return s, nil
}

// linkName names a link by its nodes' names and the port: "tor0:4 -> agg1".
func linkName(t *topology.Topology, l *Link) string {
	return fmt.Sprintf("%s:%d -> %s", t.Nodes[l.Node].Name, l.Port, t.Nodes[l.Peer].Name)
}
