package runconfig

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/hpccfmt"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/units"
)

// PFCFile and QlenFile are the names HPCCOutputs.Write gives the
// simulator's PAUSE log and queue-length monitor output in a run folder.
const (
	PFCFile  = "pfc.txt"
	QlenFile = "qlen.txt"
)

// HPCCOutputs records, during one run, what the simulator writes besides
// fct.txt when its config asks: the PAUSE log (PFC_OUTPUT_FILE) and the
// queue-length monitor (QLEN_MON_FILE), in third.cc's layouts.
type HPCCOutputs struct {
	topo *topology.Topology
	pfc  *bytes.Buffer
	qlen *qlenMonitor
}

// Outputs prepares the outputs h's config asks for and hooks them into
// cfg (cfg.PFCObserver, cfg.QueueSampler); call it once per run, after
// cfg is built. Nothing is hooked for an output the config does not ask
// for, so such a run costs the same as any other.
func (h *HPCC) Outputs(cfg *replay.Config) *HPCCOutputs {
	c := h.cfg
	o := &HPCCOutputs{topo: cfg.Topology}
	if c.Has("PFC_OUTPUT_FILE") {
		o.pfc = &bytes.Buffer{}
		cfg.PFCObserver = o.observePFC
	}
	stop := cfg.MaxTime
	if stop <= 0 {
		stop = c.SimulatorStopTime
	}
	if c.QlenMonFile != "" && c.QlenMonStart <= stop {
		q := &qlenMonitor{o: o, start: c.QlenMonStart, every: hpccfmt.QlenMonInterval, end: c.QlenMonEnd, stop: stop}
		o.qlen = q
		cfg.QueueSampler = &replay.QueueSampler{Start: q.start, Every: q.every, End: q.end, Sample: q.sample, Final: q.final}
	}
	return o
}

// nodeID is the simulator's id of topology node i: its name, which the
// hpcc: topology reader sets to the original id, else its index.
func (o *HPCCOutputs) nodeID(i int32) int64 {
	if id, err := strconv.ParseInt(o.topo.Nodes[i].Name, 10, 64); err == nil && id >= 0 {
		return id
	}
	return int64(i)
}

// observePFC writes one pfc.txt line as third.cc's get_pfc does when a
// device receives a PFC frame (QbbNetDevice::Receive fires QbbPfc):
// "time_ns node_id node_type ifindex type", node type 0 for a host and 1
// for a switch, ifindex the device index (a node's links in topology.txt
// order from 1; ccreplay's port + 1), type 1 PAUSE and 0 RESUME.
func (o *HPCCOutputs) observePFC(now units.Time, node, port int32, _ uint8, pause bool) {
	kind, typ := 0, 0
	if o.topo.Nodes[node].Kind == topology.Switch {
		kind = 1
	}
	if pause {
		typ = 1
	}
	fmt.Fprintf(o.pfc, "%d %d %d %d %d\n", now/units.Nanosecond, o.nodeID(node), kind, port+1, typ)
}

// Write writes dir/pfc.txt and dir/qlen.txt for the outputs the config
// asked for, each atomically; dir is the run's (staged) folder, never the
// path in the config, which may be a reference file.
func (o *HPCCOutputs) Write(dir string) error {
	if o.pfc != nil {
		if err := output.WriteFileAtomic(filepath.Join(dir, PFCFile), o.pfc.Bytes()); err != nil {
			return fmt.Errorf("pfc output: %w", err)
		}
	}
	if q := o.qlen; q != nil {
		if err := output.WriteFileAtomic(filepath.Join(dir, QlenFile), q.out.Bytes()); err != nil {
			return fmt.Errorf("qlen output: %w", err)
		}
	}
	return nil
}

// qlenMonitor is third.cc's monitor_buffer: from start, every 100 ns,
// until the first sample at or after end (and before the simulator's stop
// time), it adds each switch port's egress bytes (all classes but the
// control class 0, which SwitchMmu does not count) in whole KB to a
// histogram per port; at every sample whose time is a multiple of 100 ms
// it prints all histograms so far:
//
//	time: <ns>
//	<switch id> <ifindex> <count of 0 KB> <count of 1 KB> ...
//
// switches in ascending id, ports in ascending ifindex.
type qlenMonitor struct {
	o                       *HPCCOutputs
	start, every, end, stop units.Time
	taken                   int64 // samples taken so far, consecutive from start
	sws                     []*switchmodel.Switch
	order                   []int        // sws indices in ascending simulator id
	hist                    [][][]uint32 // [sws index][port][KB]
	// cur and pending are, per port, the KB of the latest samples and
	// how many of them are not yet in hist (added in bulk when the
	// queue changes or before a dump, so a sample costs a comparison).
	cur     [][]int
	pending [][]uint32
	out     bytes.Buffer
}

// lastIndex is the index of the simulator's last sample: the first at or
// after end, and before stop (a sample exactly at stop runs only when it
// is the first: the stop event is scheduled after the first sample, ahead
// of later ones); -1 when there is none.
func (q *qlenMonitor) lastIndex() int64 {
	k := int64(0)
	if q.end > q.start {
		k = int64((q.end - q.start + q.every - 1) / q.every)
	}
	switch {
	case q.start > q.stop:
		return -1
	case q.start == q.stop:
		return 0
	}
	return min(k, int64((q.stop-q.start-1)/q.every))
}

func (q *qlenMonitor) at(k int64) units.Time { return q.start + units.Time(k)*q.every }

func (q *qlenMonitor) bind(sws []*switchmodel.Switch) {
	if q.sws != nil {
		return
	}
	q.sws = sws
	q.hist = make([][][]uint32, len(sws))
	q.cur = make([][]int, len(sws))
	q.pending = make([][]uint32, len(sws))
	for i, sw := range sws {
		q.hist[i] = make([][]uint32, sw.NumPorts())
		q.cur[i] = make([]int, sw.NumPorts())
		q.pending[i] = make([]uint32, sw.NumPorts())
		q.order = append(q.order, i)
	}
	sort.SliceStable(q.order, func(a, b int) bool {
		return q.o.nodeID(q.sws[q.order[a]].ID()) < q.o.nodeID(q.sws[q.order[b]].ID())
	})
}

// add counts n samples of the switches' current queues.
func (q *qlenMonitor) add(n uint32) {
	for i, sw := range q.sws {
		cur, pend := q.cur[i], q.pending[i]
		for j := range cur {
			e := sw.Port(j)
			kb := int((e.Bytes() - e.QueueBytes(fabric.ControlPrio)) / 1000)
			if kb != cur[j] {
				q.flush(i, j)
				cur[j] = kb
			}
			pend[j] += n
		}
	}
}

// flush moves port (i, j)'s pending samples into its histogram.
func (q *qlenMonitor) flush(i, j int) {
	n := q.pending[i][j]
	if n == 0 {
		return
	}
	kb, h := q.cur[i][j], q.hist[i][j]
	if len(h) <= kb {
		h = append(h, make([]uint32, kb+1-len(h))...)
	}
	h[kb] += n
	q.hist[i][j], q.pending[i][j] = h, 0
}

func (q *qlenMonitor) dump(now units.Time) {
	for i := range q.hist {
		for j := range q.hist[i] {
			q.flush(i, j)
		}
	}
	fmt.Fprintf(&q.out, "time: %d\n", now/units.Nanosecond)
	for _, i := range q.order {
		id := q.o.nodeID(q.sws[i].ID())
		for j, h := range q.hist[i] {
			fmt.Fprintf(&q.out, "%d %d", id, j+1)
			for _, c := range h {
				fmt.Fprintf(&q.out, " %d", c)
			}
			q.out.WriteByte('\n')
		}
	}
}

// sample is one of the replay's samples.
func (q *qlenMonitor) sample(now units.Time, sws []*switchmodel.Switch) {
	q.bind(sws)
	if q.taken > q.lastIndex() {
		return
	}
	q.taken++
	q.add(1)
	if now%hpccfmt.QlenDumpInterval == 0 {
		q.dump(now)
	}
}

// final takes the samples the simulator would still take after the
// replay ended (it ends when the last flow completes, the simulator at its
// stop time): the queues no longer change, so each such sample counts
// them as they are at the end, and only the dump times matter.
func (q *qlenMonitor) final(_ units.Time, sws []*switchmodel.Switch) {
	q.bind(sws)
	last := q.lastIndex()
	if q.taken > last {
		return
	}
	from, to := q.at(q.taken), q.at(last)
	d := hpccfmt.QlenDumpInterval
	for m := (from + d - 1) / d * d; m <= to; m += d {
		if (m-q.start)%q.every != 0 {
			continue
		}
		k := int64((m - q.start) / q.every)
		q.add(uint32(k - q.taken + 1))
		q.taken = k + 1
		q.dump(m)
	}
}
