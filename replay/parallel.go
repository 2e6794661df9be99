package replay

import (
	"context"
	"fmt"
	"sort"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/kernel"
	"github.com/ccreplay/ccreplay/limits"

	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

// DefaultWindow is the window of a topology with a link of zero delay,
// which runs on one partition: any window gives a correct run there.
const DefaultWindow = units.Microsecond

// part is one partition of a run: its Sim and packet pool, the packets its
// ports sent to other partitions during the window (out), and what its
// events did to the run's shared state, which the barrier takes up. It is
// the nic.Hooks and the switches' OnDrop of its nodes.
type part struct {
	r    *run
	sim  *kernel.Sim
	pool fabric.Pool
	out  fabric.Outbox

	delivered, senderDone int
	lastDone              units.Time // the latest completion seen (-1 none)
	made                  int        // flows made (newFlow) in the window
	released              []int32    // flows with a release in the window (PublishMessages)
	complete              []int32    // flows delivered, or complete at the sender, in the window
	drops                 []drop
	starts, finishes      []mark   // flows started; flows whose every message is delivered
	rx                    []rxMark // in-order bytes, while the concurrency window is undecided
	pfc                   []pfcFrame
}

// mark is an instant of the run's event order: an event's time and key,
// and the flow it concerns.
type mark struct {
	at   units.Time
	key  kernel.Key
	flow int32
}

// before orders marks as the kernel orders events.
func (m mark) before(o mark) bool {
	return m.at < o.at || (m.at == o.at && m.key.Less(o.key))
}

type rxMark struct {
	mark
	b units.Bytes
}

type drop struct {
	flow int32
	data bool
}

// here is the mark of the event being run.
func (p *part) here(now units.Time, flow int32) mark {
	return mark{at: now, key: p.sim.CurrentKey(), flow: flow}
}

// Delivered implements nic.Hooks: count m and release its dependents.
func (p *part) Delivered(now units.Time, f *nic.Flow, m *nic.Message) {
	r := p.r
	p.delivered++
	p.lastDone = max(p.lastDone, now)
	if f != nil {
		w := &r.win
		w.done[f.ID]++
		if w.done[f.ID] == w.msgs[f.ID] {
			p.finishes = append(p.finishes, p.here(now, f.ID))
			p.complete = append(p.complete, f.ID)
		}
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
				r.release(p, now, c)
			} else {
				p.sim.Schedule(at, r.feeds[tm.Src].id, evRelease, c)
			}
		}
	}
}

// SenderDone implements nic.Hooks.
func (p *part) SenderDone(now units.Time, f *nic.Flow, m *nic.Message) {
	p.senderDone++
	p.lastDone = max(p.lastDone, now)
	if f != nil {
		r := p.r
		r.sdone[f.ID]++
		if r.sdone[f.ID] == r.win.msgs[f.ID] {
			p.complete = append(p.complete, f.ID)
		}
	}
}

// dropped is every switch's OnDrop: the drop is counted on its flow at
// the barrier (the flow's counts belong to its two NICs' partitions).
func (p *part) dropped(now units.Time, pk *fabric.Packet) {
	p.drops = append(p.drops, drop{flow: pk.Flow, data: pk.Kind == fabric.Data})
}

// inOrder is the NICs' OnInOrder while the concurrency window is
// undecided.
func (p *part) inOrder(now units.Time, f *nic.Flow, b units.Bytes) {
	p.rx = append(p.rx, rxMark{p.here(now, f.ID), b})
}

// feeder releases one host's messages: those without dependencies at
// their release times, dependent ones when scheduled, and completes its
// same-host messages. Its events are its host's, so their order does not
// depend on the partition.
type feeder struct {
	r     *run
	p     *part
	id    kernel.HandlerID
	indep []int32 // the host's messages without dependencies, by (release, index)
	next  int
}

// Handle runs the feeder's events.
func (fd *feeder) Handle(now units.Time, kind uint8, arg int32) {
	r := fd.r
	switch kind {
	case evFeed:
		for fd.next < len(fd.indep) && r.tr.Messages[fd.indep[fd.next]].Release <= now {
			r.release(fd.p, now, fd.indep[fd.next])
			fd.next++
		}
		if fd.next < len(fd.indep) {
			fd.p.sim.Schedule(r.tr.Messages[fd.indep[fd.next]].Release, fd.id, evFeed, 0)
		}
	case evRelease:
		r.release(fd.p, now, arg)
	case evLocal:
		r.localDone(fd.p, now, r.msgs[arg])
	}
}

// schedule prepares message releases: each host's independent messages
// in release order through its feeder, dependent ones when their last
// dependency is delivered.
func (r *run) schedule() {
	idx := msgIndex(r.tr.Messages)
	r.waiting = make([]int32, len(r.tr.Messages))
	r.children = make([][]int32, len(r.tr.Messages))
	var indep []int32
	for i := range r.tr.Messages {
		m := &r.tr.Messages[i]
		r.waiting[i] = int32(len(m.Deps))
		for _, d := range m.Deps {
			p := idx(d)
			r.children[p] = append(r.children[p], int32(i))
		}
		if len(m.Deps) == 0 {
			indep = append(indep, int32(i))
		}
	}
	sort.SliceStable(indep, func(a, b int) bool {
		return r.tr.Messages[indep[a]].Release < r.tr.Messages[indep[b]].Release
	})
	for _, i := range indep {
		fd := r.feeds[r.tr.Messages[i].Src]
		fd.indep = append(fd.indep, i)
	}
	for _, fd := range r.feeds {
		if len(fd.indep) > 0 {
			fd.p.sim.Schedule(r.tr.Messages[fd.indep[0]].Release, fd.id, evFeed, 0)
		}
	}
	r.nextCheck = r.cfg.CheckEvery
	r.win.logging = len(r.specs) > 0
	for _, x := range r.nics {
		if r.win.logging {
			x.OnInOrder = r.parts[r.partOf[x.Host()]].inOrder
		}
	}
	r.sampleAt = units.Never
	if q := r.cfg.QueueSampler; q != nil {
		r.sampleAt = q.Start
	}
}

func (r *run) release(p *part, now units.Time, i int32) {
	if r.msgF[i] < 0 {
		m := r.msgs[i]
		m.Release, m.FirstTx = now, now
		if d := r.localTime(m.Bytes); d > 0 {
			p.sim.Schedule(limits.AddTime(now, d), r.feeds[r.tr.Messages[i].Src].id, evLocal, i)
		} else {
			r.localDone(p, now, m)
		}
		return
	}
	fid := r.msgF[i]
	f := r.flows[fid]
	if f == nil {
		f = r.newFlow(fid)
		p.made++
	}
	first := f.Start < 0
	r.nics[f.Src].Release(now, f, r.msgs[i])
	if len(r.parts) > 1 {
		p.released = append(p.released, fid)
	}
	if first {
		p.starts = append(p.starts, p.here(now, fid))
	}
}

func (r *run) localDone(p *part, now units.Time, m *nic.Message) {
	m.Delivered, m.SenderDone = now, now
	p.Delivered(now, nil, m)
	p.SenderDone(now, nil, m)
}

func (r *run) done() bool {
	return r.delivered == len(r.msgs) && r.senderDone == len(r.msgs)
}

// partition sets the run's window, picks its number of partitions
// (Config.Threads, or one when something of the run is shared by every
// node: see serialReason) and places the nodes, one Sim each.
func (r *run) partition() {
	topo := r.cfg.Topology
	r.window = units.Never
	for i := range topo.Nodes {
		for _, p := range topo.Nodes[i].Ports {
			r.window = min(r.window, p.Delay)
		}
	}
	n := max(r.cfg.Threads, 1)
	if r.window <= 0 || r.window == units.Never {
		r.window = DefaultWindow
		if n > 1 {
			r.serialWhy = "a link has no propagation delay"
		}
	}
	if n > 1 && r.serialWhy == "" {
		r.serialWhy = r.serialReason()
	}
	if n > 1 && r.serialWhy == "" {
		r.hostsWhy = r.crossHostDep()
		if r.hostsWhy != "" && topo.NumHosts == len(topo.Nodes) {
			r.serialWhy, r.hostsWhy = r.hostsWhy, "" // nothing to split off the hosts
		}
	}
	if r.serialWhy != "" {
		n = 1
	}
	if r.hostsWhy == "" {
		n = min(n, max(topo.NumHosts, 1))
	}
	r.partOf = partitionNodes(topo, n, r.hostsWhy != "")
	r.g = kernel.NewGroup(n, r.cfg.Seed)
	r.parts = make([]*part, n)
	for i := range r.parts {
		r.parts[i] = &part{r: r, sim: r.g.Sims[i], lastDone: -1}
	}
	r.feeds = make([]*feeder, topo.NumHosts)
	for h := range r.feeds {
		p := r.parts[r.partOf[h]]
		fd := &feeder{r: r, p: p}
		fd.id = p.sim.RegisterAt(fd, int32(h))
		r.feeds[h] = fd
	}
}

// serialReason says why the run cannot be split among partitions, or "".
// What it names is shared by every node and touched at any instant: a
// packet observer that sees the whole network, or algorithm wrappers.
// (PFC frames, queue samples and packets.parquet's rows are taken up at
// barriers: see monitor.go and packetTap.merge.)
func (r *run) serialReason() string {
	c := r.cfg
	switch {
	case c.Observer != nil:
		return "a packet observer sees every node"
	case c.WrapCC != nil:
		return "the algorithms are wrapped (a decision recorder)"
	}
	return ""
}

// crossHostDep names a message released by a delivery at another host,
// or is "". Such a release follows the delivery at once, with no link
// delay for a window to cover, so the two hosts must share a partition:
// the run then puts every host in the first partition and splits the
// switches (partitionNodes). MPI collectives are of this kind.
func (r *run) crossHostDep() string {
	idx := msgIndex(r.tr.Messages)
	for i := range r.tr.Messages {
		m := &r.tr.Messages[i]
		for _, d := range m.Deps {
			if at := r.tr.Messages[idx(d)].Dst; at != m.Src {
				return fmt.Sprintf("message %d at host %d depends on message %d, delivered at host %d", m.ID, m.Src, d, at)
			}
		}
	}
	return ""
}

// partitionNodes places the topology's nodes in n partitions: hosts in n
// blocks of consecutive hosts (all in the first when hostsTogether), then
// the switches layer by layer (by hops from the nearest host), each in the
// partition most of its placed neighbours are in unless that partition
// already holds its share of the layer's work, else in the one with the
// most of its share left. A node's work is the sum of its ports' rates
// (the packets it can handle); sharing each layer evenly spreads every
// tier of a tree over the partitions. With hostsTogether, the first
// partition's share of every layer is cut by the hosts' work, so that the
// partitions' totals stay close. Any placement gives the same outputs;
// this one keeps most links inside a partition on trees and the
// partitions' work close.
func partitionNodes(t *topology.Topology, n int, hostsTogether bool) []int32 {
	part := make([]int32, len(t.Nodes))
	if n <= 1 {
		return part
	}
	weight := func(i int) int {
		w := 0
		for _, p := range t.Nodes[i].Ports {
			w += int(max(p.Rate/units.Gbps, 1))
		}
		return w
	}
	valid := func(y int32) bool { return y >= 0 && int(y) < len(t.Nodes) }
	// Layers: hosts, then breadth first; unreachable nodes last.
	dist := make([]int, len(t.Nodes))
	for i := range dist {
		dist[i] = -1
	}
	var order []int
	var hosts []int
	for i := range t.Nodes {
		if t.Nodes[i].Kind == topology.Host {
			hosts = append(hosts, i)
			dist[i] = 0
			order = append(order, i)
		}
	}
	for head := 0; head < len(order); head++ {
		x := order[head]
		for _, p := range t.Nodes[x].Ports {
			if y := p.Peer; valid(y) && dist[y] < 0 {
				dist[y] = dist[x] + 1
				order = append(order, int(y))
			}
		}
	}
	last := 0
	for _, x := range order {
		last = max(last, dist[x])
	}
	for i := range t.Nodes {
		if dist[i] < 0 {
			dist[i] = last + 1
			order = append(order, i)
		}
	}
	for i := range part {
		part[i] = -1
	}
	// caps: each partition's part of the switches' work (equal, unless
	// the hosts' work all falls on the first).
	caps := make([]int, n)
	for p := range caps {
		caps[p] = 1
	}
	if hostsTogether {
		total, hostW := 0, 0
		for i := range t.Nodes {
			total += weight(i)
			if t.Nodes[i].Kind == topology.Host {
				hostW += weight(i)
			}
		}
		for p := range caps {
			caps[p] = total / n
		}
		caps[0] = max(total/n-hostW, 0)
	}
	sumCaps := 0
	for _, c := range caps {
		sumCaps += c
	}
	for k, h := range hosts {
		part[h] = 0
		if !hostsTogether {
			part[h] = int32(k * n / len(hosts))
		}
	}
	votes := make([]int, n)
	load := make([]int, n)
	share := make([]int, n)
	for lo := len(hosts); lo < len(order); {
		hi := lo
		total := 0
		for hi < len(order) && dist[order[hi]] == dist[order[lo]] {
			total += weight(order[hi])
			hi++
		}
		for p := range share {
			share[p] = total*caps[p]/sumCaps + total*caps[p]/(20*sumCaps) + 1
		}
		clear(load)
		for _, x := range order[lo:hi] {
			clear(votes)
			for _, p := range t.Nodes[x].Ports {
				if y := p.Peer; valid(y) && part[y] >= 0 {
					votes[part[y]]++
				}
			}
			best := -1
			for p := range votes {
				if votes[p] == 0 || load[p]+weight(x) > share[p] {
					continue
				}
				if best < 0 || votes[p] > votes[best] || (votes[p] == votes[best] && load[p] < load[best]) {
					best = p
				}
			}
			if best < 0 {
				best = 0
				for p := range load {
					if share[p]-load[p] > share[best]-load[best] {
						best = p
					}
				}
			}
			part[x] = int32(best)
			load[best] += weight(x)
		}
		lo = hi
	}
	if !hostsTogether {
		rebalanceHosts(t, part, hosts, n, weight)
	}
	return part
}

// A host's port costs hostCostNum/hostCostDen times a switch port's work
// (rebalanceHosts): on the ns-3 reference's 16-host star, one partition
// holding the switch and one the hosts ran 205 k events per switch port
// at 83 ns each and 267 k per host at 94 ns (the NICs' acknowledgements
// and congestion control).
const hostCostNum, hostCostDen = 3, 2

// rebalanceHosts moves the boundaries of the host blocks so that every
// partition's work, switches included, is close to an nth of the whole,
// a host's port counting hostCostNum/hostCostDen switch ports: on a star,
// whose one switch has as much port rate as all its hosts, the switch's
// partition gets few hosts (3 of 16 at 2 partitions). The blocks stay
// consecutive and in order. Where the switches already split evenly (each
// tier of a tree), the blocks do not move.
func rebalanceHosts(t *topology.Topology, part []int32, hosts []int, n int, weight func(int) int) {
	hostWork := func(h int) int { return weight(h) * hostCostNum / hostCostDen }
	swLoad := make([]int, n)
	total, hostTotal := 0, 0
	for i := range t.Nodes {
		if t.Nodes[i].Kind == topology.Host {
			hostTotal += hostWork(i)
		} else {
			swLoad[part[i]] += weight(i)
		}
	}
	total += hostTotal
	for _, w := range swLoad {
		total += w
	}
	if hostTotal == 0 {
		return
	}
	caps := make([]int, n)
	sumCaps := 0
	for p := range caps {
		caps[p] = max(total/n-swLoad[p], 0)
		sumCaps += caps[p]
	}
	if sumCaps == 0 {
		return
	}
	// Host k goes to the partition whose share of the hosts' work (caps,
	// scaled to hostTotal) holds the midpoint of k's own.
	cum := 0
	p, edge := 0, caps[0]*hostTotal
	for _, h := range hosts {
		w := hostWork(h)
		mid := (2*cum + w) * sumCaps // twice the midpoint, scaled
		for p < n-1 && mid >= 2*edge {
			p++
			edge += caps[p] * hostTotal
		}
		part[h] = int32(p)
		cum += w
	}
}

// barrier takes up, between two windows, what the partitions did to the
// run's shared state, in an order that does not depend on how the nodes
// are split. It reports whether every message is complete.
func (r *run) barrier(stop units.Time) bool {
	for _, p := range r.parts {
		p.out.Deliver()
	}
	if r.tap != nil {
		r.tap.merge()
	}
	for _, p := range r.parts {
		for _, fid := range p.released {
			r.flows[fid].PublishMessages()
		}
		p.released = p.released[:0]
		r.delivered += p.delivered
		r.senderDone += p.senderDone
		p.delivered, p.senderDone = 0, 0
		r.endAt = max(r.endAt, p.lastDone)
		for _, d := range p.drops {
			f := r.flows[d.flow]
			if d.data {
				f.DroppedPkts++
			}
			f.PacketDropped()
		}
		p.drops = p.drops[:0]
		r.held += p.made
		p.made = 0
	}
	r.peak = max(r.peak, r.held)
	r.windowBarrier()
	if r.cfg.PFCObserver != nil {
		r.pfcBarrier()
	}
	// Flows delivered and complete at the sender are retired once quiet
	// (nic.Flow.Quiet): most at once, the others (a CNP or an RTT answer
	// still on its way) at a later barrier.
	for _, p := range r.parts {
		for _, fid := range p.complete {
			if r.win.done[fid] == r.win.msgs[fid] && r.sdone[fid] == r.win.msgs[fid] && !r.inEnding[fid] {
				r.inEnding[fid] = true
				r.ending = append(r.ending, fid)
			}
		}
		p.complete = p.complete[:0]
	}
	kept := r.ending[:0]
	for _, fid := range r.ending {
		if f := r.flows[fid]; f.Quiet() {
			r.retire(f)
		} else {
			kept = append(kept, fid)
		}
	}
	r.ending = kept
	if r.cfg.CheckEvery > 0 && stop > r.nextCheck {
		if err := r.checkConservation(); err != nil {
			r.checkErr = fmt.Errorf("at %v: %w", r.lastEvent(), err)
		}
		for r.nextCheck < stop {
			r.nextCheck = limits.AddTime(r.nextCheck, r.cfg.CheckEvery)
		}
	}
	return r.done()
}

// windowBarrier follows the concurrency window through the window just
// run: the flows that started and finished in it, in the run's order.
func (r *run) windowBarrier() {
	w := &r.win
	evs := r.winEvs[:0]
	for _, p := range r.parts {
		for _, m := range p.starts {
			evs = append(evs, winEvent{m, true})
		}
		for _, m := range p.finishes {
			evs = append(evs, winEvent{m, false})
		}
		p.starts, p.finishes = p.starts[:0], p.finishes[:0]
	}
	if len(evs) > 0 {
		// Stable: marks are equal only within one event, hence one part.
		sort.SliceStable(evs, func(a, b int) bool { return evs[a].m.before(evs[b].m) })
		for _, e := range evs {
			if e.start {
				w.started++
				if w.started == len(r.flows) && w.finished == 0 {
					w.open = true
					w.atStart = r.rxAt(e.m)
				}
				continue
			}
			w.finished++
			if w.finished == 1 && w.open {
				w.open = false
				at := r.rxAt(e.m)
				for i := range at {
					w.bytes[i] = int64(at[i] - w.atStart[i])
				}
			}
		}
	}
	r.winEvs = evs[:0]
	for _, p := range r.parts {
		p.rx = p.rx[:0]
	}
	if w.logging && w.finished > 0 {
		w.logging = false
		for _, x := range r.nics {
			x.OnInOrder = nil
		}
	}
}

type winEvent struct {
	m     mark
	start bool
}

// rxAt is every flow's in-order bytes at the instant of m, an event of the
// window just run: its bytes now less those logged after m.
func (r *run) rxAt(m mark) []units.Bytes {
	at := make([]units.Bytes, len(r.flows))
	for _, p := range r.parts {
		for _, x := range p.rx {
			if m.before(x.mark) {
				at[x.flow] -= x.b
			}
		}
	}
	for i, f := range r.flows {
		at[i] += f.RxBytes(r.cfg.NIC.MTUPayload)
	}
	return at
}

// closeWindow ends a window still open at the end of the run.
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

// lastEvent is the time of the last event run in any partition.
func (r *run) lastEvent() units.Time {
	var t units.Time
	for _, s := range r.g.Sims {
		t = max(t, s.Now())
	}
	return t
}

// step runs one window and its barrier: false when no event is left
// before until, every message is complete or the run failed.
func (r *run) step(until units.Time) bool {
	next := r.g.NextAt()
	if r.sampleAt != units.Never {
		r.sampleBarrier(next, until)
	}
	if next == units.Never || next > until {
		return false
	}
	stop := limits.AddTime(next, r.window)
	if until != units.Never && stop > until {
		stop = until + 1
	}
	if r.sampleAt < stop {
		stop = r.sampleAt // the window ends at the next sample (sampleBarrier)
	}
	r.g.RunWindow(stop)
	if r.g.Err() != nil || r.intr.Load() {
		return false // an interrupted window is not finished: no barrier
	}
	done := r.barrier(stop)
	return !done && r.checkErr == nil
}

func (r *run) execute(ctx context.Context) (*Result, error) {
	until := units.Never
	if r.cfg.MaxTime > 0 {
		until = r.cfg.MaxTime
	}
	// NB: windows start at the next event, so an idle gap of any length
	// between two events costs one window, not one per window length.
	var seen uint64
	for r.step(until) {
		if ev := r.g.Events(); ev-seen >= eventSlice {
			seen = ev
			if r.cfg.Progress != nil {
				r.cfg.Progress(r.lastEvent(), r.delivered, len(r.msgs))
			}
			if err := ctx.Err(); err != nil {
				return nil, &InterruptedError{At: r.lastEvent(), Err: err}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, &InterruptedError{At: r.lastEvent(), Err: err}
	}
	if r.cfg.Progress != nil {
		r.cfg.Progress(r.lastEvent(), r.delivered, len(r.msgs))
	}
	last := r.lastEvent()
	if err := r.g.Err(); err != nil {
		return nil, badInput{err}
	}
	if r.checkErr != nil {
		return nil, r.checkErr
	}
	if err := r.checkConservation(); err != nil {
		return nil, fmt.Errorf("at end %v: %w", last, err)
	}
	end := last
	if r.done() {
		end = r.endAt // the last completion; the last window ran a little past it
	}
	r.closeWindow() // no flow finished: the window ends with the run
	res := &Result{SimEnd: end, Events: r.g.Events(), PeakFlowsHeld: r.peak, Partitions: len(r.parts), SerialWhy: r.serialWhy, HostsWhy: r.hostsWhy}
	if err := r.endRows(last); err != nil {
		return nil, err
	}
	res.Flows, res.Messages = r.resFlows, r.resMsgs
	res.DataPackets = r.dataPkts
	res.Ports = r.portRows(last)
	for i := range res.Ports {
		res.PacketHops += res.Ports[i].TxPkts
	}
	return res, nil
}
