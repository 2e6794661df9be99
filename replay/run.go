package replay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Result is what a run produced.
type Result struct {
	Summary  metrics.Summary
	Flows    []v2.FlowRow
	Messages []v2.MessageRow
	Ports    []v2.PortRow
	// SimEnd is the simulated time of the last event, picoseconds.
	SimEnd units.Time
	// Events is the number of kernel events executed.
	Events uint64
	// DataPackets counts data packets transmitted by NICs (incl. retransmissions).
	DataPackets int64
	// PacketRows is the number of rows written to packets.parquet.
	PacketRows int64
	// PacketHops counts packet transmissions onto links, every kind (data,
	// ACK, CNP, PFC, ...) on every port of hosts and switches: the sum of
	// ports.parquet's tx_pkts, the unit of work that the replay's cost
	// grows with.
	PacketHops int64
	// PeakFlowsHeld is the largest number of flows whose state the run
	// held at once: started and not yet retired (a flow is retired when
	// its last message is complete and none of its packets is left in the
	// network). The run's memory follows it, not the number of flows.
	PeakFlowsHeld int
}

// run is one run's mutable state.
type run struct {
	cfg  *Config
	tr   *trace.Trace
	sim  *kernel.Sim
	id   kernel.HandlerID
	pool fabric.Pool
	tap  *packetTap
	nics []*nic.NIC
	sws  []*switchmodel.Switch
	// The flow table, indexed by flow id. A flow's nic.Flow and path are
	// made at its first release (newFlow) and dropped when it is retired
	// (flowQuiet): its row is then in rows. So the run holds the state of
	// the flows in progress, not of every flow of the trace.
	specs   []flowSpec
	flows   []*nic.Flow       // nil before the first release and once retired
	paths   [][]topology.Hop  // as flows
	rows    []v2.FlowRow      // rows of retired flows (nil until the first)
	retired []bool            // as rows
	sdone   []int32           // messages whose sender has seen completion, per flow
	routes  *topology.Routing // the topology's routes, for newFlow
	maxRTT  units.Time        // NS3MaxRTT, computed once when needed
	held    int               // flows started and not retired
	peak    int               // the most held at once
	msgs    []*nic.Message
	msgF    []int32 // message index -> flow index

	indep    []int32   // messages without dependencies, by (release, index)
	nextRel  int       // cursor in indep
	waiting  []int32   // unmet dependency count per message
	children [][]int32 // dependents per message

	flowMsgs [][]int32

	delivered, senderDone int
	checkErr              error

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
type concWindow struct {
	msgs     []int32       // trace messages per flow (released or not)
	done     []int32       // messages delivered per flow
	started  int           // flows that have started
	finished int           // flows whose every message is delivered
	open     bool          // the window has opened and not yet closed
	atStart  []units.Bytes // in-order bytes at the receiver when it opened
	bytes    []int64       // in-order bytes delivered inside it, per flow
}

// Event kinds the run schedules for itself.
const (
	evFeed    uint8 = 1 // release independent messages whose time has come
	evRelease uint8 = 2 // release one dependent message (arg = index)
	evCheck   uint8 = 3 // conservation check
	evLocal   uint8 = 4 // a same-host message completes (arg = index)
)

// Run replays tr under cfg. When outDir is not empty the run's files are
// written there (each to a temporary name, renamed when complete).
func Run(cfg Config, tr *trace.Trace, outDir string) (*Result, error) {
	return RunContext(context.Background(), cfg, tr, outDir)
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
	At  units.Time
	Err error
}

// Error says where the run stopped ("interrupted at simulated time 1.2ms").
func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted at simulated time %v", e.At)
}

// Unwrap returns the context's error (context.Canceled, ...).
func (e *InterruptedError) Unwrap() error { return e.Err }

// RunContext is Run that stops when ctx is done: it then returns an
// *InterruptedError (wrapping ctx.Err()) that says at which simulated
// time it stopped, and
// leaves no file in outDir (the per-packet log's temporary file is
// removed). The context is looked at every eventSlice events, so a run
// stops within milliseconds of a cancel.
func RunContext(ctx context.Context, cfg Config, tr *trace.Trace, outDir string) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, badInput{err}
	}
	if err := tr.Validate(); err != nil {
		return nil, badInput{err}
	}
	if tr.Hosts > cfg.Topology.NumHosts {
		return nil, badInput{fmt.Errorf("topology %s has %d hosts but the workload needs %d", cfg.Topology.Name, cfg.Topology.NumHosts, tr.Hosts)}
	}
	r := &run{cfg: &cfg, tr: tr, sim: kernel.NewSim(cfg.Seed)}
	r.id = r.sim.Register(r)
	if outDir != "" {
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return nil, fmt.Errorf("output folder: %w", err)
		}
	}
	if outDir != "" && cfg.Packets != PacketsNone && cfg.Packets != "" {
		st, err := output.NewStream[v2.PacketRow](filepath.Join(outDir, runfolder.PacketsFile), 8192)
		if err != nil {
			return nil, err
		}
		r.tap = &packetTap{out: st, all: cfg.Packets == PacketsAll}
	}
	if err := r.build(); err != nil {
		if r.tap != nil {
			r.tap.out.Abort()
		}
		return nil, err
	}
	r.schedule()
	res, err := r.execute(ctx)
	if q := cfg.QueueSampler; q != nil && q.Final != nil && err == nil {
		q.Final(res.SimEnd, r.sws)
	}
	if r.tap != nil {
		if err != nil {
			r.tap.out.Abort()
		} else if cerr := r.tap.out.Close(); cerr != nil {
			return nil, cerr
		}
		if err == nil {
			res.PacketRows = r.tap.rows
		}
	}
	if err != nil {
		return nil, err
	}
	if outDir != "" {
		if err := writeOutputs(outDir, res); err != nil {
			return nil, err
		}
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
	switch cfg.CCBaseRTT {
	case BaseRTTNS3Pair:
		f.CCBaseRTT = topology.NS3BaseRTT(path, cfg.NIC.MTUPayload)
	case BaseRTTNS3Max:
		if r.maxRTT == 0 {
			r.maxRTT, _ = topology.NS3MaxRTT(cfg.Topology, cfg.NIC.MTUPayload)
		}
		f.CCBaseRTT = r.maxRTT
	}
	f.Bottleneck = topology.PathBottleneck(path)
	f.Hops = len(path)
	r.flows[fid], r.paths[fid] = f, path
	return f
}

// flowQuiet implements nic.NIC.OnQuiet: a flow with nothing in the
// network whose every trace message is delivered and complete at the
// sender is retired. Its row is taken now (nothing can change it any
// more: no packet of it is left and no message will come) and its state
// and path are let go, so that memory follows the flows in progress.
func (r *run) flowQuiet(now units.Time, f *nic.Flow) {
	i := f.ID
	if r.win.done[i] != r.win.msgs[i] || r.sdone[i] != r.win.msgs[i] {
		return // more messages to come
	}
	if r.rows == nil {
		r.rows = make([]v2.FlowRow, len(r.specs))
		r.retired = make([]bool, len(r.specs))
	}
	r.rows[i] = r.flowRow(int(i), f, now)
	r.retired[i] = true
	r.flows[i], r.paths[i] = nil, nil
	r.held--
}

// dropped is every switch's OnDrop: the flow's drop count and its packets
// in the network; a drop can leave the flow quiet.
func (r *run) dropped(now units.Time, p *fabric.Packet) {
	f := r.flows[p.Flow]
	if p.Kind == fabric.Data {
		f.DroppedPkts++
	}
	f.PacketDropped()
	if f.Quiet() {
		r.flowQuiet(now, f)
	}
}

// splitmix64 mixes the seed and a flow id into the flow's ECMP hash.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// build creates flows, NICs, switches and links. It fails when a flow has
// no route or could not finish within the simulator's clock even alone at
// its bottleneck rate.
func (r *run) build() error {
	topo, cfg := r.cfg.Topology, r.cfg
	cfg.NIC.TxStep = cfg.TimeStep
	routes := topo.Routes()
	var tap fabric.Tap
	switch {
	case r.tap != nil && cfg.Observer != nil:
		tap = teeTap{r.tap, cfg.Observer}
	case r.tap != nil:
		tap = r.tap
	case cfg.Observer != nil:
		tap = cfg.Observer
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
			h := splitmix64(cfg.Seed ^ splitmix64(uint64(fid)))
			path := routes.Path(m.Src, m.Dst, h)
			if len(path) == 0 {
				return badInput{fmt.Errorf("message %d: topology %s has no route from host %d to host %d", m.ID, topo.Name, m.Src, m.Dst)}
			}
			r.specs = append(r.specs, flowSpec{src: m.Src, dst: m.Dst, hash: h, prio: uint8(m.Priority)})
			bottleneck = append(bottleneck, topology.PathBottleneck(path))
			if m.FlowID >= 0 {
				byQP[m.FlowID] = fid
			}
		}
		r.msgF[i] = fid
		r.specs[fid].size += units.Bytes(m.Bytes)
	}
	nf := len(r.specs)
	r.flows = make([]*nic.Flow, nf)
	r.paths = make([][]topology.Hop, nf)
	r.sdone = make([]int32, nf)
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
	// Nodes.
	r.nics = make([]*nic.NIC, topo.NumHosts)
	recv := make([]fabric.Receiver, len(topo.Nodes))
	for i := range topo.Nodes {
		n := &topo.Nodes[i]
		if n.Kind == topology.Host {
			x := nic.New(r.sim, &r.pool, tap, r, &r.cfg.NIC, r.flows, n.ID)
			x.OnQuiet = r.flowQuiet
			r.nics[i] = x
			recv[i] = x
			continue
		}
		specs := make([]switchmodel.PortSpec, len(n.Ports))
		for j, p := range n.Ports {
			specs[j] = switchmodel.PortSpec{Rate: p.Rate, Delay: p.Delay}
		}
		sw := switchmodel.New(r.sim, &r.pool, routes, tap, n.ID, cfg.Switch, specs)
		sw.OnDrop = r.dropped
		r.sws = append(r.sws, sw)
		recv[i] = sw
	}
	// Links.
	si := 0
	for i := range topo.Nodes {
		n := &topo.Nodes[i]
		if n.Kind == topology.Host {
			p := n.Ports[0]
			x := r.nics[i]
			x.SetPort(fabric.NewPort(r.sim, n.ID, 0, p.Rate, p.Delay, x, recv[p.Peer], p.PeerPort))
			x.Port.TxStep = cfg.TimeStep
			continue
		}
		sw := r.sws[si]
		si++
		for j, p := range n.Ports {
			to := recv[p.Peer]
			if cfg.PFCObserver != nil {
				to = pfcWatch{next: to, node: p.Peer, obs: cfg.PFCObserver}
			}
			sw.Port(j).Port.SetPeer(to, p.PeerPort)
			sw.Port(j).Port.TxStep = cfg.TimeStep
		}
	}
	return nil
}

// schedule prepares message releases: independent messages in release
// order through one feeder event, dependent ones when their last
// dependency is delivered.
func (r *run) schedule() {
	idx := msgIndex(r.tr.Messages)
	r.waiting = make([]int32, len(r.tr.Messages))
	r.children = make([][]int32, len(r.tr.Messages))
	for i := range r.tr.Messages {
		m := &r.tr.Messages[i]
		r.waiting[i] = int32(len(m.Deps))
		for _, d := range m.Deps {
			p := idx(d)
			r.children[p] = append(r.children[p], int32(i))
		}
		if len(m.Deps) == 0 {
			r.indep = append(r.indep, int32(i))
		}
	}
	sort.SliceStable(r.indep, func(a, b int) bool {
		return r.tr.Messages[r.indep[a]].Release < r.tr.Messages[r.indep[b]].Release
	})
	if len(r.indep) > 0 {
		r.sim.Schedule(r.tr.Messages[r.indep[0]].Release, r.id, evFeed, 0)
	}
	if r.cfg.CheckEvery > 0 {
		r.sim.Schedule(r.cfg.CheckEvery, r.id, evCheck, 0)
	}
	if q := r.cfg.QueueSampler; q != nil {
		r.startSampler(q)
	}
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

func (r *run) release(now units.Time, i int32) {
	if r.msgF[i] < 0 {
		m := r.msgs[i]
		m.Release, m.FirstTx = now, now
		if d := r.localTime(m.Bytes); d > 0 {
			r.sim.Schedule(limits.AddTime(now, d), r.id, evLocal, i)
		} else {
			r.localDone(now, m)
		}
		return
	}
	f := r.flows[r.msgF[i]]
	if f == nil {
		f = r.newFlow(r.msgF[i])
		r.held++
		r.peak = max(r.peak, r.held)
	}
	first := f.Start < 0
	r.nics[f.Src].Release(now, f, r.msgs[i])
	if first {
		r.flowStarted()
	}
}

// flowStarted counts a flow's first release; the last one opens the
// concurrency window unless a flow has already finished.
func (r *run) flowStarted() {
	w := &r.win
	w.started++
	if w.started < len(r.flows) || w.finished > 0 {
		return
	}
	w.open = true
	w.atStart = make([]units.Bytes, len(r.flows))
	for i, f := range r.flows {
		w.atStart[i] = f.RxBytes(r.cfg.NIC.MTUPayload)
	}
}

// flowDelivered counts a delivered message of flow fid; the first flow to
// deliver all its messages closes the concurrency window.
func (r *run) flowDelivered(fid int32) {
	w := &r.win
	w.done[fid]++
	if w.done[fid] != w.msgs[fid] {
		return
	}
	w.finished++
	if w.finished == 1 {
		r.closeWindow()
	}
}

// closeWindow takes every flow's in-order bytes delivered since the
// window opened (nothing when it never opened).
func (r *run) closeWindow() {
	w := &r.win
	if !w.open {
		return
	}
	w.open = false
	for i, f := range r.flows {
		w.bytes[i] = int64(f.RxBytes(r.cfg.NIC.MTUPayload) - w.atStart[i])
	}
}

// localTime is how long a same-host message takes (Config.LocalRate).
func (r *run) localTime(b units.Bytes) units.Time {
	if r.cfg.LocalRate <= 0 || b <= 0 {
		return 0
	}
	return units.TxTime(b, r.cfg.LocalRate)
}

func (r *run) localDone(now units.Time, m *nic.Message) {
	m.Delivered, m.SenderDone = now, now
	r.Delivered(now, nil, m)
	r.SenderDone(now, nil, m)
}

// Handle runs the replay's own events.
func (r *run) Handle(now units.Time, kind uint8, arg int32) {
	switch kind {
	case evFeed:
		for r.nextRel < len(r.indep) && r.tr.Messages[r.indep[r.nextRel]].Release <= now {
			r.release(now, r.indep[r.nextRel])
			r.nextRel++
		}
		if r.nextRel < len(r.indep) {
			r.sim.Schedule(r.tr.Messages[r.indep[r.nextRel]].Release, r.id, evFeed, 0)
		}
	case evRelease:
		r.release(now, arg)
	case evLocal:
		r.localDone(now, r.msgs[arg])
	case evCheck:
		if err := r.checkConservation(); err != nil {
			r.checkErr = fmt.Errorf("at %v: %w", now, err)
			r.sim.Stop()
			return
		}
		if !r.done() {
			r.sim.Schedule(limits.AddTime(now, r.cfg.CheckEvery), r.id, evCheck, 0)
		}
	}
}

func (r *run) done() bool {
	return r.delivered == len(r.msgs) && r.senderDone == len(r.msgs)
}

// Delivered implements nic.Hooks: release the dependents of m.
func (r *run) Delivered(now units.Time, f *nic.Flow, m *nic.Message) {
	r.delivered++
	if f != nil {
		r.flowDelivered(f.ID)
	}
	for _, c := range r.children[m.Index] {
		r.waiting[c]--
		if r.waiting[c] == 0 {
			tm := &r.tr.Messages[c]
			at := limits.AddTime(now, tm.Gap)
			if at < tm.Release {
				at = tm.Release
			}
			if at == now {
				r.release(now, c)
			} else {
				r.sim.Schedule(at, r.id, evRelease, c)
			}
		}
	}
	if r.done() {
		r.sim.Stop()
	}
}

// SenderDone implements nic.Hooks.
func (r *run) SenderDone(now units.Time, f *nic.Flow, m *nic.Message) {
	r.senderDone++
	if f != nil {
		r.sdone[f.ID]++
	}
	if r.done() {
		r.sim.Stop()
	}
}

func (r *run) execute(ctx context.Context) (*Result, error) {
	until := units.Never
	if r.cfg.MaxTime > 0 {
		until = r.cfg.MaxTime
	}
	// NB: the loop slices the run by event count, never by simulated
	// time, so an idle gap of any length between two events costs nothing
	// (stepping the clock by a fixed amount hung on long gaps).
	for {
		n := r.sim.RunBudget(until, eventSlice)
		if r.cfg.Progress != nil {
			r.cfg.Progress(r.sim.Now(), r.delivered, len(r.msgs))
		}
		if n < eventSlice || r.sim.Stopped() {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, &InterruptedError{At: r.sim.Now(), Err: err}
		}
	}
	end := r.sim.Now()
	if err := r.sim.Err(); err != nil {
		return nil, badInput{err}
	}
	if r.checkErr != nil {
		return nil, r.checkErr
	}
	if err := r.checkConservation(); err != nil {
		return nil, fmt.Errorf("at end %v: %w", end, err)
	}
	r.closeWindow() // no flow finished: the window ends with the run
	res := &Result{SimEnd: end, Events: r.sim.Events, PeakFlowsHeld: r.peak}
	res.Flows = r.flowRows(end)
	res.Messages = r.messageRows()
	res.Ports = r.portRows(end)
	for i := range res.Flows {
		res.DataPackets += res.Flows[i].DataPktsSent
	}
	for i := range res.Ports {
		res.PacketHops += res.Ports[i].TxPkts
	}
	res.Summary = metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{})
	return res, nil
}
