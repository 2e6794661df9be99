package replay

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/internal/splitmix"
	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/limits"

	"github.com/ccreplay/ccreplay/nic"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Result is what a run produced.
type Result struct {
	Flows    []v2.FlowRow
	Messages []v2.MessageRow
	Ports    []v2.PortRow
	// MessageSpans, for a run with a RowSink (Messages nil), are what the
	// collapse check needs of each message row, in trace order: the
	// sink's owner sets them (see package runner).
	MessageSpans []MessageSpan
	// SimEnd is the simulated time of the last event, picoseconds.
	SimEnd units.Time
	// Events is the number of kernel events executed.
	Events uint64
	// DataPackets counts data packets transmitted by NICs (incl. retransmissions).
	DataPackets int64
	// PacketRows is the number of rows given to Config.PacketSink.
	PacketRows int64
	// PacketHops counts packet transmissions onto links, every kind (data,
	// ACK, CNP, PFC, ...) on every port of hosts and switches: the sum of
	// ports.parquet's tx_pkts, the unit of work that the replay's cost
	// grows with.
	PacketHops int64
	// PeakFlowsHeld is the largest number of flows whose state the run
	// held at once, as seen between two windows: started and not yet
	// retired (a flow is retired when its last message is complete and
	// none of its packets is left in the network). The run's memory
	// follows it, not the number of flows.
	PeakFlowsHeld int
	// Partitions is the number of partitions the run was split into
	// (Config.Threads, or 1: see SerialWhy); the outputs do not depend on it.
	Partitions int
	// SerialWhy, when Config.Threads asked for more than one partition and
	// the run had one, says why.
	SerialWhy string
	// HostsWhy, when the run was split with every host in one partition
	// (and the switches spread over the others), says why: a message
	// released by a delivery at another host.
	HostsWhy string
}

// run is one run's mutable state.
//
// The run's nodes are split among partitions (parts), each run by its own
// kernel.Sim, in windows of simulated time no longer than the shortest
// link delay (see kernel.Group and parallel.go). With one partition the
// run goes the same way: the same windows, the same barriers, the same
// order of events, hence the same outputs for any number of partitions.
// What a partition's events do to state shared by the whole run (message
// counts, the concurrency window, finished flows, drops) goes to its part
// and is taken up at the barrier that ends the window.
type run struct {
	intr      atomic.Bool // set when the context ends (see RunContext)
	cfg       *Config
	tr        *trace.Trace
	g         *kernel.Group
	parts     []*part
	partOf    []int32    // node -> partition
	window    units.Time // the window length: the shortest link delay
	serialWhy string     // why one partition when Config.Threads asked for more
	hostsWhy  string     // why every host is in the first partition (crossHostDep)
	sampleAt  units.Time // the next queue sample (Config.QueueSampler), or units.Never
	feeds     []*feeder  // per host: its releases and local messages
	tap       *packetTap
	nics      []*nic.NIC
	sws       []*switchmodel.Switch
	// The flow table, indexed by flow id. A flow's nic.Flow and path are
	// made at its first release (newFlow) and dropped when it is retired
	// (flowQuiet): its row and its messages' are then made and handed on
	// (putFlow, putMessage). So the run holds the state of
	// the flows in progress, not of every flow of the trace.
	specs    []flowSpec
	flows    []*nic.Flow       // nil before the first release and once retired
	paths    [][]topology.Hop  // as flows
	retired  []bool            // per flow: retired, its row and its messages' handed on (nil until the first)
	sink     RowSink           // Config.RowSink, or resultRows
	flowsOut int               // flow rows handed on
	msgsOut  int               // message rows handed on
	dataPkts int64             // data_pkts_sent of the flow rows handed on
	resFlows []v2.FlowRow      // the rows for Result without a RowSink
	resMsgs  []v2.MessageRow   // as resFlows
	sdone    []int32           // messages whose sender has seen completion, per flow
	routes   *topology.Routing // the topology's routes, for newFlow
	maxRTT   units.Time        // NS3MaxRTT, computed once when needed
	held     int               // flows started and not retired
	peak     int               // the most held at once
	ending   []int32           // flows delivered and complete at the sender, not yet retired
	inEnding []bool            // per flow: in ending
	winEvs   []winEvent        // windowBarrier's buffer
	pfcBuf   []pfcFrame        // pfcBarrier's buffer
	msgs     []*nic.Message
	msgF     []int32 // message index -> flow index

	waiting  []int32   // unmet dependency count per message
	children [][]int32 // dependents per message

	flowMsgs [][]int32

	delivered, senderDone int
	endAt                 units.Time // the last completion, once every message is complete
	checkErr              error
	nextCheck             units.Time // the next conservation check (CheckEvery)

	// The concurrency window (flows.parquet's concurrent_bytes): from the
	// release of the last flow's first message to the first flow's last
	// delivery, the span in which every flow is active.
	win concWindow
}

// concWindow follows the run's concurrency window. It opens when the count
// of started flows reaches the number of flows (known up front, also when
// later messages wait for dependencies) and closes when the first flow
// delivers its last message, or at the end of the run; it stays empty when
// a flow finishes before the last one starts.
//
// The instants at which it opens and closes are events of the run's order
// (a time and a kernel.Key), found at the barrier that follows them from
// the partitions' logs; every flow's in-order bytes at such an instant are
// its bytes at the barrier less those logged after the instant (rxLog,
// kept only until the first flow finishes).
type concWindow struct {
	msgs     []int32       // trace messages per flow (released or not)
	done     []int32       // messages delivered per flow
	started  int           // flows that have started
	finished int           // flows whose every message is delivered
	open     bool          // the window has opened and not yet closed
	atStart  []units.Bytes // in-order bytes at the receiver when it opened
	bytes    []int64       // in-order bytes delivered inside it, per flow
	logging  bool          // the NICs log in-order bytes (no flow has finished)
}

// Event kinds of a host's feeder.
const (
	evFeed    uint8 = 1 // release independent messages whose time has come
	evRelease uint8 = 2 // release one dependent message (arg = index)
	evLocal   uint8 = 4 // a same-host message completes (arg = index)
)

// Run replays tr under cfg. It writes nothing: its rows are in the
// Result, and packet rows go to cfg.PacketSink (package runner writes a
// run folder).
func Run(cfg Config, tr *trace.Trace) (*Result, error) {
	return RunContext(context.Background(), cfg, tr)
}

// eventSlice is how many events the run executes between two looks at its
// context and its progress callback: about 10 ms of wall time.
const eventSlice = 1 << 16

// ErrBadInput marks the errors of a run that come from its inputs rather
// than from the simulator: a flow with no route, a flow or a chain of
// dependencies that cannot fit the simulator's clock (see package limits).
// errors.Is(err, ErrBadInput) tells them apart.
var ErrBadInput = errors.New("bad input")

// badInput is an error of the inputs; errors.Is(err, ErrBadInput) holds.
type badInput struct{ err error }

func (b badInput) Error() string        { return b.err.Error() }
func (b badInput) Unwrap() error        { return b.err }
func (b badInput) Is(target error) bool { return target == ErrBadInput }

// InterruptedError is what RunContext returns when its context ends the
// run: the simulated time reached and the context's error.
type InterruptedError struct {
	At    units.Time
	Err   error
	SetUp bool // stopped while building the network and flows, before any event
}

// Error says where the run stopped ("interrupted at simulated time 1.2ms",
// "interrupted during set-up").
func (e *InterruptedError) Error() string {
	if e.SetUp {
		return "interrupted during set-up, before simulated time 0"
	}
	return fmt.Sprintf("interrupted at simulated time %v", e.At)
}

// Unwrap returns the context's error (context.Canceled, ...).
func (e *InterruptedError) Unwrap() error { return e.Err }

// RunContext is Run that stops when ctx is done: it then returns an
// *InterruptedError (wrapping ctx.Err()) that says at which simulated
// time it stopped. The context is looked at every eventSlice events, so a
// run stops within milliseconds of a cancel.
func RunContext(ctx context.Context, cfg Config, tr *trace.Trace) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, &InterruptedError{Err: err, SetUp: true}
	}
	if err := cfg.ValidateFor(tr); err != nil {
		return nil, badInput{err}
	}
	r := &run{cfg: &cfg, tr: tr}
	if cfg.PacketSink != nil && cfg.Packets != PacketsNone && cfg.Packets != "" {
		r.tap = &packetTap{out: cfg.PacketSink, all: cfg.Packets == PacketsAll}
	}
	if err := r.build(ctx); err != nil {
		return nil, err
	}
	defer r.g.Close()
	// A window can hold millions of events (every release of a large
	// trace at one instant): the partitions stop in the middle of one
	// when ctx ends, and execute then reports the interruption.
	defer context.AfterFunc(ctx, func() { r.intr.Store(true) })()
	for _, s := range r.g.Sims {
		s.SetInterrupt(&r.intr)
	}
	r.schedule()
	r.startRows()
	res, err := r.execute(ctx)
	if q := cfg.QueueSampler; q != nil && q.Final != nil && err == nil {
		q.Final(res.SimEnd, r.sws)
	}
	if err != nil {
		return nil, err
	}
	if r.tap != nil {
		res.PacketRows = r.tap.rows
	}
	return res, nil
}

// flowSpec is what the run knows of a flow before its first release:
// enough to make its nic.Flow then (newFlow), and its row if it never
// starts.
type flowSpec struct {
	src, dst int32
	hash     uint64      // ECMP hash
	prio     uint8       // trace priority class (0: the NIC's default)
	size     units.Bytes // payload of all its messages
}

// newFlow makes flow fid's state: the queue pair, its path and the path's
// facts (base RTT, bottleneck, hops) that the NIC and the algorithm use.
func (r *run) newFlow(fid int32) *nic.Flow {
	sp := &r.specs[fid]
	cfg := r.cfg
	newCC := cfg.CC.New
	mk := newCC
	if wrap := cfg.WrapCC; wrap != nil {
		mk = func() cca.Algorithm { return wrap(fid, newCC()) }
	}
	f := nic.NewFlow(fid, sp.src, sp.dst, sp.hash, mk)
	f.Prio = sp.prio // 0: the NIC's default class
	f.SizeBytes = sp.size
	path := r.routes.Path(sp.src, sp.dst, sp.hash)
	f.BaseRTT = topology.PathBaseRTT(path, cfg.NIC.MTUPayload+cfg.NIC.HeaderBytes, cfg.NIC.AckBytes)
	if cfg.CCBaseRTT != BaseRTTPath {
		// maxRTT is computed by build: newFlow runs in every partition.
		f.CCBaseRTT = cfg.CCInfo(path, r.maxRTT).BaseRTT
	}
	f.Bottleneck = topology.PathBottleneck(path)
	f.Hops = len(path)
	if cfg.FlowCC != nil {
		f.CCBaseRTT, f.CCHops = cfg.FlowCC[fid].BaseRTT, cfg.FlowCC[fid].Hops
	}
	r.flows[fid], r.paths[fid] = f, path
	return f
}

// retire lets a finished, quiet flow go (see barrier): its row is taken
// now (nothing can change it any more: no packet of it is left and no
// message will come) and its state and path are let go, so that memory
// follows the flows in progress.
func (r *run) retire(f *nic.Flow) {
	i := f.ID
	if r.retired == nil {
		r.retired = make([]bool, len(r.specs))
	}
	row := r.flowRow(int(i), f, f.Finish)
	r.putFlow(int(i), &row)
	r.retired[i] = true
	// Its messages are complete too (retire waits for every one): with a
	// RowSink their rows are made now, with the flow's path, and their
	// state let go (without one, at the end, as Result's rows are kept
	// anyway).
	if r.cfg.RowSink != nil {
		path := r.paths[i]
		for _, m := range r.msgsOfFlow(int(i)) {
			mr := r.messageRow(int(m), path)
			r.putMessage(int(m), &mr)
			r.msgs[m] = nil
		}
	}
	r.flows[i], r.paths[i] = nil, nil
	r.held--
}

// build creates flows, NICs, switches and links. It fails when a flow has
// no route or could not finish within the simulator's clock even alone at
// its bottleneck rate.
func (r *run) build(ctx context.Context) error {
	topo, cfg := r.cfg.Topology, r.cfg
	cfg.NIC.TxStep = cfg.TimeStep
	// Set-up of a large network or trace takes seconds: it looks at ctx
	// every eventSlice items, as the run does every eventSlice events.
	stop := func(i int) error {
		if i%eventSlice != 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return &InterruptedError{Err: err, SetUp: true}
		}
		return nil
	}
	routes := topo.Routes()
	if err := stop(0); err != nil {
		return err
	}
	// tapOf is the packet tap of a partition's nodes.
	tapOf := func(i int) fabric.Tap {
		switch {
		case r.tap != nil && cfg.Observer != nil:
			return teeTap{r.tap, cfg.Observer} // one partition: see serialReason
		case r.tap != nil:
			return r.tap.forPart(i, len(r.parts), r.parts[i].sim)
		case cfg.Observer != nil:
			return cfg.Observer
		}
		return nil
	}
	// Flows: one per queue pair, numbered in order of first appearance.
	// Only their specifications are kept here; newFlow makes each one's
	// state at its first release.
	r.routes = routes
	byQP := map[int64]int32{}
	r.msgF = make([]int32, len(r.tr.Messages))
	r.msgs = make([]*nic.Message, len(r.tr.Messages))
	var bottleneck []units.BitsPerSec // per flow, for the limit check below
	for i := range r.tr.Messages {
		if err := stop(i); err != nil {
			return err
		}
		m := &r.tr.Messages[i]
		r.msgs[i] = &nic.Message{ID: m.ID, Index: int32(i), Bytes: units.Bytes(m.Bytes), FirstTx: -1, Delivered: -1, SenderDone: -1, Release: -1}
		if m.Src == m.Dst {
			r.msgF[i] = -1 // local: no flow, no network
			continue
		}
		fid, ok := int32(-1), false
		if m.FlowID >= 0 {
			fid, ok = byQP[m.FlowID]
		}
		if !ok {
			fid = int32(len(r.specs))
			h := splitmix.Next(cfg.Seed ^ splitmix.Next(uint64(fid)))
			bn, ok := routes.Bottleneck(m.Src, m.Dst, h)
			if !ok {
				return badInput{fmt.Errorf("message %d: topology %s has no route from host %d to host %d", m.ID, topo.Name, m.Src, m.Dst)}
			}
			r.specs = append(r.specs, flowSpec{src: m.Src, dst: m.Dst, hash: h, prio: uint8(m.Priority)})
			bottleneck = append(bottleneck, bn)
			if m.FlowID >= 0 {
				byQP[m.FlowID] = fid
			}
		}
		r.msgF[i] = fid
		r.specs[fid].size += units.Bytes(m.Bytes)
	}
	if cfg.CCBaseRTT == BaseRTTNS3Max && cfg.FlowCC == nil {
		r.maxRTT, _ = topology.NS3MaxRTT(cfg.Topology, cfg.NIC.MTUPayload)
	}
	nf := len(r.specs)
	if cfg.FlowCC != nil {
		if len(cfg.FlowCC) != nf {
			return badInput{fmt.Errorf("per-flow algorithm facts (FlowCC) for %d flows, the trace has %d", len(cfg.FlowCC), nf)}
		}
		for i, fc := range cfg.FlowCC {
			if fc.BaseRTT <= 0 || fc.Hops <= 0 {
				return badInput{fmt.Errorf("flow %d: algorithm base RTT %v and %d hops: want both positive", i, fc.BaseRTT, fc.Hops)}
			}
		}
	}
	r.flows = make([]*nic.Flow, nf)
	r.paths = make([][]topology.Hop, nf)
	r.sdone = make([]int32, nf)
	r.inEnding = make([]bool, nf)
	r.win.msgs = make([]int32, nf)
	r.win.done = make([]int32, nf)
	r.win.bytes = make([]int64, nf)
	for _, fid := range r.msgF {
		if fid >= 0 {
			r.win.msgs[fid]++
		}
	}
	for fid := range r.specs {
		sp := &r.specs[fid]
		if need := units.TxTime(sp.size, bottleneck[fid]); need > limits.MaxTime {
			return badInput{fmt.Errorf("flow %d (host %d -> %d, %d bytes) cannot finish within the simulator's clock: alone at its %v bottleneck it needs more than the limit of %s",
				fid, sp.src, sp.dst, sp.size, bottleneck[fid], limits.Describe(limits.MaxTime))}
		}
	}
	// Partitions.
	r.partition()
	// Nodes.
	r.nics = make([]*nic.NIC, topo.NumHosts)
	recv := make([]fabric.Receiver, len(topo.Nodes))
	for i := range topo.Nodes {
		if err := stop(i); err != nil {
			return err
		}
		n := &topo.Nodes[i]
		pt := r.parts[r.partOf[i]]
		if n.Kind == topology.Host {
			x := nic.New(pt.sim, &pt.pool, tapOf(int(r.partOf[i])), pt, &r.cfg.NIC, r.flows, n.ID)
			x.DeferPublish = len(r.parts) > 1
			r.nics[i] = x
			recv[i] = x
			continue
		}
		specs := make([]switchmodel.PortSpec, len(n.Ports))
		for j, p := range n.Ports {
			specs[j] = switchmodel.PortSpec{Rate: p.Rate, Delay: p.Delay}
		}
		sw := switchmodel.New(pt.sim, &pt.pool, routes, tapOf(int(r.partOf[i])), n.ID, cfg.Switch, specs)
		sw.OnDrop = pt.dropped
		r.sws = append(r.sws, sw)
		recv[i] = sw
	}
	// Links.
	si := 0
	connect := func(port *fabric.Port, from int32, p topology.Port) {
		to := recv[p.Peer]
		if cfg.PFCObserver != nil && topo.Nodes[from].Kind != topology.Host {
			to = pfcWatch{next: to, node: p.Peer, p: r.parts[r.partOf[p.Peer]]}
		}
		port.Connect(to, p.Peer, p.PeerPort, r.parts[r.partOf[p.Peer]].sim, &r.parts[r.partOf[from]].out)
		port.TxStep = cfg.TimeStep
	}
	for i := range topo.Nodes {
		if err := stop(i); err != nil {
			return err
		}
		n := &topo.Nodes[i]
		if n.Kind == topology.Host {
			p := n.Ports[0]
			x := r.nics[i]
			x.SetPort(fabric.NewPort(r.parts[r.partOf[i]].sim, n.ID, 0, p.Rate, p.Delay, x, nil, 0))
			connect(x.Port, n.ID, p)
			continue
		}
		sw := r.sws[si]
		si++
		for j, p := range n.Ports {
			connect(sw.Port(j).Port, n.ID, p)
		}
	}
	return nil
}

// msgIndex returns the function from a message id of a validated trace
// to its index: a slice lookup when the ids are dense (generators number
// messages from 0), else a map.
func msgIndex(msgs []trace.Message) func(int64) int32 {
	var maxID int64 = -1
	for i := range msgs {
		maxID = max(maxID, msgs[i].ID)
	}
	if maxID < int64(2*len(msgs)+64) {
		dense := make([]int32, maxID+1)
		for i := range msgs {
			dense[msgs[i].ID] = int32(i)
		}
		return func(id int64) int32 { return dense[id] }
	}
	m := make(map[int64]int32, len(msgs))
	for i := range msgs {
		m[msgs[i].ID] = int32(i)
	}
	return func(id int64) int32 { return m[id] }
}

// localTime is how long a same-host message takes (Config.LocalRate).
func (r *run) localTime(b units.Bytes) units.Time {
	if r.cfg.LocalRate <= 0 || b <= 0 {
		return 0
	}
	return units.TxTime(b, r.cfg.LocalRate)
}
