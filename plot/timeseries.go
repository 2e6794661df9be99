package plot

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Names of the views over time.
const (
	QueueName = "queue_time"
	RateName  = "rate_time"
)

// Defaults of TimeOptions.
const (
	DefaultBins     = 200
	DefaultRateBins = 50
	DefaultTopPorts = 4
	DefaultTopFlows = 8
	// MaxPanels bounds the panels of the rate view (one per run).
	MaxPanels = 8
)

// TimeOptions tunes the views over time.
type TimeOptions struct {
	// Bins is the number of time bins over the longest run, count
	// (DefaultBins when <= 0). Every run of a figure uses the same bins.
	Bins int
	// RateBins is the number of time bins of the rate view, count
	// (DefaultRateBins when <= 0): Bins/RateBins adjacent bins (rounded
	// down, at least 1) are merged, so that a bin of a packet-derived rate
	// holds several packets of a flow sharing a link with others.
	RateBins int
	// TopPorts is the number of switch ports in the queue view, those
	// with the largest qlen_max_bytes over the runs (DefaultTopPorts when
	// <= 0).
	TopPorts int
	// TopFlows is the number of flows per run in the rate view, the
	// largest by size_bytes (DefaultTopFlows when <= 0).
	TopFlows int
}

func (o TimeOptions) withDefaults() TimeOptions {
	if o.Bins <= 0 {
		o.Bins = DefaultBins
	}
	if o.RateBins <= 0 {
		o.RateBins = DefaultRateBins
	}
	if o.TopPorts <= 0 {
		o.TopPorts = DefaultTopPorts
	}
	if o.TopFlows <= 0 {
		o.TopFlows = DefaultTopFlows
	}
	return o
}

// PortKey names an egress port: a node and its port index.
type PortKey struct {
	Node, Port int32
}

func (k PortKey) String() string { return fmt.Sprintf("switch %d port %d", k.Node, k.Port) }

// timeAxis is the bins shared by the runs of a figure.
type timeAxis struct {
	bins    int
	widthNs int64 // ceil(longest run / bins), >= 1 ns
}

func newTimeAxis(runs []*Run, bins int) timeAxis {
	var end int64
	for _, r := range runs {
		end = max(end, r.EndNs())
	}
	return timeAxis{bins: bins, widthNs: max(1, (end+int64(bins)-1)/int64(bins))}
}

// coarsen merges k adjacent bins.
func (a timeAxis) coarsen(k int) timeAxis {
	return timeAxis{bins: (a.bins + k - 1) / k, widthNs: a.widthNs * int64(k)}
}

// bin is the bin of time t (ns), clamped to the axis.
func (a timeAxis) bin(t int64) int { return int(min(max(t, 0)/a.widthNs, int64(a.bins-1))) }

// msFrom is the length of an axis from which it is drawn in milliseconds
// rather than microseconds, ns (10 ms).
const msFrom = 10_000_000

// unit is the axis' time unit: its size in ns and its name.
func (a timeAxis) unit() (float64, string) {
	if int64(a.bins)*a.widthNs > msFrom {
		return 1e6, "ms"
	}
	return 1e3, "us"
}

// label is the x label of a time axis.
func (a timeAxis) label() string {
	_, name := a.unit()
	return "time (" + name + ")"
}

// center is the middle of bin b in the axis' unit (us, or ms beyond
// 10 ms).
func (a timeAxis) center(b int) float64 {
	div, _ := a.unit()
	return (float64(b) + 0.5) * float64(a.widthNs) / div
}

// packetBins is what one pass over a run's packets.parquet yields.
type packetBins struct {
	key string // axis, ports and flows it was computed for
	// queue is, per selected port, the largest qdepth_enq_bytes seen by a
	// packet enqueued in each bin (-1: no packet arrived).
	queue map[PortKey][]int64
	// sent is, per selected flow, the wire bytes of its DATA packets that
	// left the source host's NIC in each bin.
	sent map[int64][]int64
}

// scanPackets bins r's packets.parquet once for both views; the result is
// cached on r for the same axis, ports and flows.
func (r *Run) scanPackets(ax timeAxis, ports []PortKey, flows []int64) (*packetBins, error) {
	key := fmt.Sprint(ax, ports, flows)
	if r.bins != nil && r.bins.key == key {
		return r.bins, nil
	}
	pb := &packetBins{key: key, queue: map[PortKey][]int64{}, sent: map[int64][]int64{}}
	for _, k := range ports {
		q := make([]int64, ax.bins)
		for i := range q {
			q[i] = -1
		}
		pb.queue[k] = q
	}
	for _, f := range flows {
		pb.sent[f] = make([]int64, ax.bins)
	}
	hosts := map[int32]bool{}
	for _, p := range r.Ports {
		if !p.IsSwitch {
			hosts[p.Node] = true
		}
	}
	err := arrowread.ScanPackets(r.Packets, func(p *v2.PacketRow) error {
		if p.Event != v2.EventDequeue {
			return nil
		}
		if q, ok := pb.queue[PortKey{p.Node, p.Port}]; ok {
			// The depth was sampled when the packet was enqueued.
			b := ax.bin(p.TNs - p.QueueDelayNs)
			q[b] = max(q[b], p.QDepthBytes)
		}
		if p.Kind == v2.KindData && hosts[p.Node] {
			if s, ok := pb.sent[p.FlowID]; ok {
				s[ax.bin(p.TNs)] += int64(p.Bytes)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.bins = pb
	return pb, nil
}

// topPorts are the k most congested switch ports over the runs, by
// qlen_max_bytes (ties by node, then port). A port counts as congested
// when its largest queue reached both two full data packets (MTU payload
// plus header bytes, from summary.json) and 5% of the largest queue of
// any port: ports that only ever held an ACK or two are left out.
func topPorts(runs []*Run, k int) ([]PortKey, map[PortKey]int64) {
	peak := map[PortKey]int64{}
	var keys []PortKey
	var pkt, top int64
	for _, r := range runs {
		pkt = max(pkt, r.Manifest.Config.MTUPayloadBytes+r.Manifest.Config.HeaderBytes)
		for _, p := range r.Ports {
			if !p.IsSwitch || p.QLenMaxBytes <= 0 {
				continue
			}
			pk := PortKey{p.Node, p.Port}
			if _, ok := peak[pk]; !ok {
				keys = append(keys, pk)
			}
			peak[pk] = max(peak[pk], p.QLenMaxBytes)
			top = max(top, p.QLenMaxBytes)
		}
	}
	keys = slices.DeleteFunc(keys, func(pk PortKey) bool {
		return peak[pk] < 2*pkt || peak[pk]*20 < top
	})
	slices.SortFunc(keys, func(a, b PortKey) int {
		return cmp.Or(cmp.Compare(peak[b], peak[a]), cmp.Compare(a.Node, b.Node), cmp.Compare(a.Port, b.Port))
	})
	return keys[:min(k, len(keys))], peak
}

// topFlows are the k largest flows of r by size_bytes (ties by flow id).
func topFlows(r *Run, k int) []v2.FlowRow {
	fs := slices.Clone(r.Flows)
	slices.SortFunc(fs, func(a, b v2.FlowRow) int {
		return cmp.Or(cmp.Compare(b.SizeBytes, a.SizeBytes), cmp.Compare(a.FlowID, b.FlowID))
	})
	return fs[:min(k, len(fs))]
}

func flowIDs(fs []v2.FlowRow) []int64 {
	ids := make([]int64, len(fs))
	for i := range fs {
		ids[i] = fs[i].FlowID
	}
	return ids
}

// QueueOverTime is the egress queue length over time of the most
// congested switch ports: the opt.TopPorts ports with the largest
// qlen_max_bytes (ports.parquet) over the runs, one panel per port, one
// curve per run that has packets.parquet. Time is cut into opt.Bins equal
// bins over the longest run; a bin's value is the largest
// qdepth_enq_bytes of the packets enqueued at that port during the bin
// (their dequeue row's t_ns - queue_delay_ns), 0 when none arrived. x =
// bin centre in us (ms when the longest run exceeds 10 ms), y = queue in KB (1 KB = 1000 bytes), so every value
// is >= 0. It needs packets.parquet (`--packets data` or `all`).
func QueueOverTime(runs []*Run, opt TimeOptions) (Figure, error) {
	opt = opt.withDefaults()
	fig := Figure{
		Name:      QueueName,
		Title:     "Egress queue length of the most congested switch ports",
		YLabel:    "queue length (KB)",
		XFromZero: true,
		YFromZero: true,
	}
	var with []*Run
	for _, r := range runs {
		if r.Packets == "" {
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: no "+runfolder.PacketsFile+", left out (run with --packets data)", r.Label))
			continue
		}
		with = append(with, r)
	}
	if len(with) == 0 {
		return Figure{}, skipf(QueueName, "no run has "+runfolder.PacketsFile+"; run ccreplay run/compare with --packets data")
	}
	ports, peak := topPorts(with, opt.TopPorts)
	if len(ports) == 0 {
		return Figure{}, skipf(QueueName, "no switch port was congested (no qlen_max_bytes reached two data packets)")
	}
	ax := newTimeAxis(with, opt.Bins)
	fig.XLabel = ax.label()
	fig.Panels = make([]Panel, len(ports))
	for i, pk := range ports {
		fig.Panels[i].Title = fmt.Sprintf("%s (max %s)", pk, formatBytes(peak[pk]))
	}
	for _, r := range with {
		pb, err := r.scanPackets(ax, ports, flowIDs(topFlows(r, opt.TopFlows)))
		if err != nil {
			return Figure{}, err
		}
		last := ax.bin(r.EndNs())
		for i, pk := range ports {
			q := pb.queue[pk]
			s := Series{Label: r.Label + " " + pk.String(), Colour: r.Group, Dash: r.Variant}
			for b := 0; b <= last; b++ {
				s.X = append(s.X, ax.center(b))
				s.Y = append(s.Y, float64(max(q[b], 0))/1e3)
			}
			p := &fig.Panels[i]
			p.Series = append(p.Series, s)
			p.Legend = append(p.Legend, Key{Label: r.Label, Colour: r.Group, Dash: r.Variant})
		}
	}
	return fig, nil
}

// RateOverTime is the sending rate over time of the largest flows: one
// panel per run (at most MaxPanels), one curve per flow among the run's
// opt.TopFlows largest by size_bytes, over opt.RateBins bins (merged bins
// of QueueOverTime's), from the flow's start_ns to its finish_ns (the run's end when
// unfinished). The source is, per run:
//
//   - decisions.parquet when the run has it: the algorithm's rate
//     new_rate_bps, which holds from a decision's t_ns until the flow's
//     next decision; a bin's value is its time-weighted mean over the part
//     of the bin after the flow's first decision;
//   - otherwise packets.parquet: the wire bytes (headers and
//     retransmissions included) of the flow's DATA packets leaving the
//     source host's NIC in the bin, x 8 / bin width.
//
// y in Gb/s (10^9 bit/s), x = bin centre in us (ms beyond 10 ms); the
// panels share both axes. A run with neither file is
// left out with a note; the panel title says which source was used.
func RateOverTime(runs []*Run, opt TimeOptions) (Figure, error) {
	opt = opt.withDefaults()
	fig := Figure{
		Name:      RateName,
		YLabel:    "sending rate (Gb/s)",
		XFromZero: true,
		YFromZero: true,
		ShareY:    true,
	}
	var with []*Run
	for _, r := range runs {
		switch {
		case r.Packets == "" && r.Decisions == "":
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: neither "+runfolder.DecisionsFile+" nor "+runfolder.PacketsFile+", left out (run with --packets data)", r.Label))
		case len(with) == MaxPanels:
			fig.Notes = append(fig.Notes, fmt.Sprintf("%s: left out, the rate view shows at most %d runs", r.Label, MaxPanels))
		default:
			with = append(with, r)
		}
	}
	if len(with) == 0 {
		return Figure{}, skipf(RateName, "no run has "+runfolder.DecisionsFile+" or "+runfolder.PacketsFile+"; run ccreplay run/compare with --packets data")
	}
	ax := newTimeAxis(with, opt.Bins)
	k := max(1, opt.Bins/opt.RateBins)
	rax := ax.coarsen(k)
	fig.XLabel = rax.label()
	ports, _ := topPorts(with, opt.TopPorts)
	source := make([]string, len(with))
	for i, r := range with {
		source[i] = runfolder.PacketsFile
		if r.Decisions != "" {
			source[i] = DecisionsFile
		}
	}
	mixed := slices.Compact(slices.Sorted(slices.Values(source)))
	for ri, r := range with {
		flows := topFlows(r, opt.TopFlows)
		panel := Panel{Title: r.Label}
		if len(r.Flows) > len(flows) {
			panel.Title += fmt.Sprintf(", largest %d of %d flows", len(flows), len(r.Flows))
		}
		if len(mixed) > 1 {
			panel.Title += " (" + source[ri] + ")"
		}
		var rates [][]float64 // per flow, per bin
		var cover [][]bool    // whether the bin has a value
		if r.Decisions != "" {
			var err error
			if rates, cover, err = decisionRates(r, rax, flows); err != nil {
				return Figure{}, err
			}
		} else {
			pb, err := r.scanPackets(ax, ports, flowIDs(flows))
			if err != nil {
				return Figure{}, err
			}
			rates, cover = packetRates(r, rax, k, flows, pb)
		}
		for i, f := range flows {
			s := Series{Label: fmt.Sprintf("%s flow %d", r.Label, f.FlowID), Colour: i}
			for b := range rax.bins {
				if cover[i][b] {
					s.X = append(s.X, rax.center(b))
					s.Y = append(s.Y, rates[i][b]/1e9)
				}
			}
			if len(s.X) == 0 {
				continue
			}
			panel.Series = append(panel.Series, s)
			panel.Legend = append(panel.Legend, Key{Label: fmt.Sprintf("flow %d (%s)", f.FlowID, formatBytes(f.SizeBytes)), Colour: i})
		}
		fig.Panels = append(fig.Panels, panel)
	}
	fig.Title = "Sending rate per flow (from " + strings.Join(mixed, " and ") + ")"
	fig.Notes = append(fig.Notes, "rate source: "+strings.Join(mixed, " and "))
	return fig, nil
}

// flowSpan is the bins a flow was active in: from its start to its finish
// (the run's end when unfinished).
func flowSpan(r *Run, ax timeAxis, f *v2.FlowRow) (endNs int64, first, last int) {
	endNs = f.FinishNs
	if endNs < 0 {
		endNs = r.EndNs()
	}
	return endNs, ax.bin(f.StartNs), ax.bin(endNs)
}

// packetRates turns first-hop bytes per bin into bit/s over each flow's
// active bins of ax, whose bins are k bins of the scan's.
func packetRates(r *Run, ax timeAxis, k int, flows []v2.FlowRow, pb *packetBins) ([][]float64, [][]bool) {
	rates := make([][]float64, len(flows))
	cover := make([][]bool, len(flows))
	for i := range flows {
		rates[i] = make([]float64, ax.bins)
		cover[i] = make([]bool, ax.bins)
		_, first, last := flowSpan(r, ax, &flows[i])
		sent := make([]int64, ax.bins)
		for b, v := range pb.sent[flows[i].FlowID] {
			sent[b/k] += v
		}
		for b := first; b <= last; b++ {
			rates[i][b] = float64(sent[b]) * 8 * 1e9 / float64(ax.widthNs)
			cover[i][b] = true
		}
	}
	return rates, cover
}

// decisionRates is the time-weighted mean of each flow's decided rate per
// bin, from its first decision to the end of its span.
func decisionRates(r *Run, ax timeAxis, flows []v2.FlowRow) ([][]float64, [][]bool, error) {
	want := map[int64]bool{}
	for _, f := range flows {
		want[f.FlowID] = true
	}
	ds, err := readDecisions(r.Decisions, want)
	if err != nil {
		return nil, nil, err
	}
	rates := make([][]float64, len(flows))
	cover := make([][]bool, len(flows))
	for i := range flows {
		sum := make([]float64, ax.bins)
		covered := make([]int64, ax.bins)
		endNs, _, _ := flowSpan(r, ax, &flows[i])
		d := ds[flows[i].FlowID]
		slices.SortStableFunc(d, func(a, b decision) int { return cmp.Compare(a.tNs, b.tNs) })
		for k := range d {
			from, to := max(d[k].tNs, 0), endNs
			if k+1 < len(d) {
				to = min(to, d[k+1].tNs)
			}
			// Spread [from, to) over the bins it overlaps.
			for t := from; t < to; {
				b := ax.bin(t)
				binEnd := int64(b+1) * ax.widthNs
				if b == ax.bins-1 {
					binEnd = max(binEnd, to)
				}
				step := min(to, binEnd) - t
				sum[b] += d[k].rateBps * float64(step)
				covered[b] += step
				t += step
			}
		}
		rates[i] = make([]float64, ax.bins)
		cover[i] = make([]bool, ax.bins)
		for b := range ax.bins {
			if covered[b] > 0 {
				rates[i][b] = sum[b] / float64(covered[b])
				cover[i][b] = true
			}
		}
	}
	return rates, cover, nil
}
