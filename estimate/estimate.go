package estimate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
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
	// Jobs is how many link simulations run at once (< 1: one).
	Jobs int
	// Aggregate is AggregateOwn (default when empty) or AggregateSample.
	Aggregate string
	// Combine is CombineMax (default when empty) or CombineSum.
	Combine string
	// NoSolo turns the solo correction (CombineSum only) off (see solo.go): every link's
	// delay is summed as measured, as Parsimon does.
	NoSolo bool
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
	delays    *Delays
	wall      time.Duration
	events    uint64
	end       units.Time
	paused    int64 // ns over its ports
	dropped   int64
	unfinshed int64
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
	tol := opt.Tolerance
	rep := Cluster(feats, tol)
	var simIdx []int // links simulated, in link order
	for i, r := range rep {
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
		s, err := simulate(ctx, cfg, &links[i], flows, tr, w)
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
	res.Flows = estimateFlows(&cfg, flows, links, rep, sims, opt.Aggregate, opt.Combine)
	res.Messages = messageRows(tr, flows, res.Flows)
	res.Links, res.Warnings = linkRows(links, feats, rep, sims, opt.Timings)
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
func simulate(ctx context.Context, cfg replay.Config, l *Link, flows []replay.FlowPath, tr *trace.Trace, w wire) (*linkSim, error) {
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
	res, err := replay.RunContext(ctx, c, net.Trace, "")
	if err != nil {
		return nil, err
	}
	if len(res.Flows) != len(l.Flows) {
		return nil, fmt.Errorf("link network ran %d flows, want %d", len(res.Flows), len(l.Flows))
	}
	s := &linkSim{delays: NewDelays(res.Flows), wall: time.Since(start), events: res.Events, end: res.SimEnd}
	for _, p := range res.Ports {
		s.paused += p.PausedNs
		s.dropped += p.DroppedPkts
	}
	for _, f := range res.Flows {
		if f.FCTNs < 0 {
			s.unfinshed++
		}
	}
	return s, nil
}

// flowSeed mixes the run's seed and a flow id into the seed of that flow's
// draws (independent of the order in which anything ran).
const flowSeed = 0x6a09e667f3bcc909

// estimateFlows builds each flow's row: its ideal on its real path plus
// its delays at the links of its path, combined by combine: the largest
// (CombineMax) or the sum (CombineSum).
func estimateFlows(cfg *replay.Config, flows []replay.FlowPath, links []Link, rep []int32, sims []linkSim, mode, combine string) []v2.FlowRow {
	// at[f] lists, per hop of flow f, (link index, position among the
	// link's flows).
	at := make([][][2]int32, len(flows))
	for i := range flows {
		at[i] = make([][2]int32, len(flows[i].Path))
	}
	for li := range links {
		l := &links[li]
		for k, fi := range l.Flows {
			at[fi][l.Hop[k]] = [2]int32{int32(li), int32(k)}
		}
	}
	mtu, hdr := cfg.NIC.MTUPayload, cfg.NIC.HeaderBytes
	w := wire{mtu + hdr, cfg.NIC.AckBytes}
	rows := make([]v2.FlowRow, len(flows))
	for i := range flows {
		f := &flows[i]
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(f.ID)^flowSeed))
		pkts := topology.NumPackets(f.Size, mtu)
		ideal := topology.IdealOneWay(f.Path, f.Size, mtu, hdr)
		delay, most := 0.0, 0.0
		for _, x := range at[i] {
			li, k := x[0], x[1]
			r := rep[li]
			d := 0.0
			if mode == AggregateOwn && r == li {
				d = sims[li].delays.Own[k]
			} else {
				d = float64(pkts) * sims[r].delays.Sample(int64(f.Size), rng)
			}
			delay += d
			most = max(most, d)
		}
		if combine == CombineMax {
			delay = most
		}
		standalone := topology.NS3StandaloneFCT(f.Path, f.Size, mtu, hdr-cfg.NIC.INTBytes)
		row := v2.FlowRow{
			FlowID: int64(f.ID), Src: f.Src, Dst: f.Dst, SizeBytes: int64(f.Size), Packets: pkts, Messages: 1,
			StartNs: f.Start.Nanoseconds(), FinishNs: -1, FCTNs: -1, IdealFCTNs: ideal.Nanoseconds(),
			StandaloneNs: standalone.Nanoseconds(), BaseRTTNs: pathRTT(f, w).Nanoseconds(),
			BottleneckBps: int64(topology.PathBottleneck(f.Path)), Hops: int32(len(f.Path)),
			SenderFinishNs: -1, SenderFCTNs: -1,
		}
		if !math.IsNaN(delay) {
			fct := ideal + units.Time(math.Round(delay))
			row.FCTNs = fct.Nanoseconds()
			row.FinishNs = row.StartNs + row.FCTNs
			row.Slowdown = float64(fct) / float64(ideal)
			if fct > 0 {
				row.GoodputBps = float64(f.Size) * 8 / fct.Seconds()
			}
			// The sender learns of the last byte one ACK's trip later,
			// without queueing on the way back (an approximation: the
			// link simulations measure delivery, not ACK return).
			sfct := fct + ackReturn(f.Path, cfg.NIC.AckBytes)
			row.SenderFCTNs = int64(sfct / units.Nanosecond)
			row.SenderFinishNs = row.StartNs + row.SenderFCTNs
			if standalone > 0 {
				row.SenderSlowdown = float64(row.SenderFCTNs*int64(units.Nanosecond)) / float64(standalone)
			}
		}
		rows[i] = row
	}
	return rows
}

// ackReturn is an ACK's one-way time back along path without queueing.
func ackReturn(path []topology.Hop, ack units.Bytes) units.Time {
	var t units.Time
	for _, h := range path {
		t += h.Delay + units.TxTime(ack, h.Rate)
	}
	return t
}

// messageRows gives each flow's one message the flow's estimate.
func messageRows(tr *trace.Trace, flows []replay.FlowPath, rows []v2.FlowRow) []v2.MessageRow {
	out := make([]v2.MessageRow, 0, len(tr.Messages))
	for i := range flows {
		m := &tr.Messages[flows[i].Msgs[0]]
		r := &rows[i]
		mr := v2.MessageRow{
			MsgID: m.ID, FlowID: r.FlowID, Src: r.Src, Dst: r.Dst, SizeBytes: m.Bytes, CollectiveID: m.CollectiveID,
			ReleaseNs: r.StartNs, FirstTxNs: r.StartNs, FinishNs: r.FinishNs, MCTNs: r.FCTNs, IdealMCTNs: r.IdealFCTNs,
			Slowdown: r.Slowdown, SenderDoneNs: r.SenderFinishNs,
		}
		out = append(out, mr)
	}
	return out
}

// linkRows builds links.parquet's rows and the run's warnings.
func linkRows(links []Link, feats []Features, rep []int32, sims []linkSim, timings bool) ([]v2.LinkRow, []string) {
	rows := make([]v2.LinkRow, len(links))
	cluster := make([]int32, len(links))
	nc := int32(0)
	var nPFC, nDrop, nLoad, nUnf int
	for i := range links {
		l, r := &links[i], rep[i]
		if int(r) == i {
			cluster[i] = nc
			nc++
		} else {
			cluster[i] = cluster[r]
		}
		s := &sims[r]
		row := v2.LinkRow{
			LinkID: int32(i), Node: l.Node, Port: l.Port, PeerNode: l.Peer, Kind: l.Kind.String(), RateBps: int64(l.Rate),
			Flows: int64(len(l.Flows)), Bytes: int64(l.Bytes), OfferedLoad: feats[i].Load, Cluster: cluster[i],
			Simulated: int(r) == i, RepresentedBy: r, WallNs: -1,
			PFCPausedNs: s.paused, DroppedPkts: s.dropped, Unfinished: s.unfinshed,
		}
		if row.Simulated {
			row.Events, row.SimEndNs = int64(s.events), s.end.Nanoseconds()
			if timings {
				row.WallNs = s.wall.Nanoseconds()
			}
		}
		var w []string
		if s.paused > 0 {
			w, nPFC = append(w, "pfc"), nPFC+1
		}
		if s.dropped > 0 {
			w, nDrop = append(w, "drops"), nDrop+1
		}
		if feats[i].Load > LoadWarn {
			w, nLoad = append(w, "load>95%"), nLoad+1
		}
		if s.unfinshed > 0 {
			w, nUnf = append(w, "unfinished"), nUnf+1
		}
		row.Warnings = strings.Join(w, ";")
		rows[i] = row
	}
	var warn []string
	if nPFC > 0 {
		warn = append(warn, fmt.Sprintf("%d of %d links saw PFC pauses in their link simulations: backpressure spreads across links, which the decomposition does not model (links.parquet warnings)", nPFC, len(links)))
	}
	if nDrop > 0 {
		warn = append(warn, fmt.Sprintf("%d of %d links dropped packets in their link simulations: losses and retransmissions couple links (links.parquet warnings)", nDrop, len(links)))
	}
	if nLoad > 0 {
		warn = append(warn, fmt.Sprintf("%d of %d links are offered more than %.0f %% of their capacity: their queues depend on more than the flows' own rates (links.parquet warnings)", nLoad, len(links), LoadWarn*100))
	}
	if nUnf > 0 {
		warn = append(warn, fmt.Sprintf("%d of %d links have flows that did not finish in their link simulations: those flows are reported unfinished", nUnf, len(links)))
	}
	return rows, warn
}

// linkName names a link by its nodes' names and the port: "tor0:4 -> agg1".
func linkName(t *topology.Topology, l *Link) string {
	return fmt.Sprintf("%s:%d -> %s", t.Nodes[l.Node].Name, l.Port, t.Nodes[l.Peer].Name)
}
