package replay

import (
	"fmt"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"sort"
	"strings"

	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// The collapse check: a run whose messages were transmitting while every
// link they crossed sat far below its rate, for most of the time they
// were transmitting, was held back by its congestion control's recovery
// (rates cut to near the floor and raised slowly), not by the network.
const (
	// collapseUtil is the utilization under which a link counts as far
	// below its capacity.
	collapseUtil = 0.2
	// collapseShare is the share of the transmitting time that must be
	// spent with every link below collapseUtil.
	collapseShare = 0.5
	// collapseRTTs is the least collapsed time, in the largest base RTT
	// of the run's transmitting messages: a few RTTs of ramp-up are not a
	// collapse.
	collapseRTTs = 20
)

// recoveryKeys are the algorithm parameters that set how fast a rate comes
// back after cuts, in the order a warning names them (each algorithm has
// some of them).
var recoveryKeys = []string{"increase_timer", "byte_counter", "fast_recovery", "ai_rate", "hai_rate", "ai_ref_rate",
	"delta", "hai_factor", "ai", "w_ai", "ai_flows", "min_rate"}

// MessageSpan is what CollapseCheck needs of a message row. A run whose
// rows were streamed (Config.RowSink) has no Result.Messages: whoever
// took its rows keeps these instead (Result.MessageSpans), 32 bytes a
// message.
type MessageSpan struct {
	FlowID, FirstTxNs, FinishNs, SizeBytes int64
}

// SpanOf is a message row's MessageSpan.
func SpanOf(m *v2.MessageRow) MessageSpan {
	return MessageSpan{FlowID: m.FlowID, FirstTxNs: m.FirstTxNs, FinishNs: m.FinishNs, SizeBytes: m.SizeBytes}
}

// CollapseCheck looks for a collapse in a finished run (res) of tr under
// cfg and returns what it found, or nil. It estimates each message's
// sending rate from its rows (payload over the time from its first packet
// to its last delivery, less the path's latency), spreads it evenly over
// that time, and sums the rates of the messages on each link of their
// paths (FlowPaths): a link's estimated utilization at each moment. The
// run collapsed when, for at least half of the time some message was
// transmitting, no link reached 20 % of its rate, that time is at least
// 20 base RTTs, and the busiest port's data over its rate times the
// transmitting time (its mean utilization, from ports.parquet) is under
// 20 % too. Messages whose whole time is latency (no transmission left
// after the path's lower bound) do not count.
func CollapseCheck(cfg *Config, tr *trace.Trace, res *Result) (*runfolder.Collapse, error) {
	spans := res.MessageSpans
	if res.Messages != nil {
		spans = make([]MessageSpan, len(res.Messages))
		for i := range res.Messages {
			spans[i] = SpanOf(&res.Messages[i])
		}
	}
	if tr == nil || len(spans) == 0 {
		return nil, nil
	}
	flows, err := FlowPaths(cfg, tr)
	if err != nil {
		return nil, err
	}
	// Links by (node, port), each with its rate.
	type linkKey struct{ node, port int32 }
	links := map[linkKey]int{}
	var rates []units.BitsPerSec
	linkOf := func(h topology.Hop) int {
		k := linkKey{h.Node, h.Port}
		if i, ok := links[k]; ok {
			return i
		}
		links[k] = len(rates)
		rates = append(rates, h.Rate)
		return len(rates) - 1
	}
	paths := make([][]int, len(flows))
	var maxRTT units.Time
	for i, f := range flows {
		for _, h := range f.Path {
			paths[i] = append(paths[i], linkOf(h))
		}
	}
	wire := float64(cfg.NIC.MTUPayload+cfg.NIC.HeaderBytes) / float64(max(cfg.NIC.MTUPayload, 1))
	type event struct {
		t     units.Time
		flow  int
		rate  int64 // wire bits per second, + at the start, - at the end
		start bool
	}
	var evs []event
	for i := range spans {
		m := &spans[i]
		if m.FlowID < 0 || int(m.FlowID) >= len(flows) || m.FinishNs < 0 || m.FirstTxNs < 0 || m.SizeBytes <= 0 {
			continue
		}
		f := &flows[m.FlowID]
		b := units.Bytes(m.SizeBytes)
		bottleneck := f.Path[0].Rate
		var rtt units.Time
		for _, h := range f.Path {
			bottleneck = min(bottleneck, h.Rate)
			rtt += 2 * h.Delay
		}
		// The path's latency: its lower bound less the serialization of
		// the whole message at the bottleneck.
		ser := units.Time(float64(b) * wire * 8 / float64(bottleneck) * float64(units.Second))
		lat := topology.IdealOneWay(f.Path, b, cfg.NIC.MTUPayload, cfg.NIC.HeaderBytes) - ser
		t0, t1 := units.Nanos(m.FirstTxNs), units.Nanos(m.FinishNs)-lat
		if t1-t0 <= ser {
			continue // as fast as the path allows: latency, not rate
		}
		rate := int64(float64(b) * wire * 8 / (t1 - t0).Seconds())
		maxRTT = max(maxRTT, rtt)
		evs = append(evs, event{t0, int(m.FlowID), rate, true}, event{t1, int(m.FlowID), -rate, false})
	}
	if len(evs) == 0 {
		return nil, nil
	}
	// Ends before starts at the same time: a message that ends as the
	// next starts leaves no overlap.
	sort.SliceStable(evs, func(i, j int) bool {
		if evs[i].t != evs[j].t {
			return evs[i].t < evs[j].t
		}
		return !evs[i].start && evs[j].start
	})
	load := make([]int64, len(rates))
	hot := 0 // links at or above collapseUtil of their rate
	active := 0
	var busy, collapsed units.Time
	for i, e := range evs {
		if i > 0 && active > 0 {
			d := e.t - evs[i-1].t
			busy += d
			if hot == 0 {
				collapsed += d
			}
		}
		if e.start {
			active++
		} else {
			active--
		}
		for _, l := range paths[e.flow] {
			thr := int64(collapseUtil * float64(rates[l]))
			was := load[l] >= thr
			load[l] += e.rate
			now := load[l] >= thr
			switch {
			case now && !was:
				hot++
			case was && !now:
				hot--
			}
		}
	}
	if busy <= 0 || float64(collapsed) < collapseShare*float64(busy) || collapsed < collapseRTTs*maxRTT {
		return nil, nil
	}
	c := &runfolder.Collapse{
		ActiveNs: busy.Nanoseconds(), CollapsedNs: collapsed.Nanoseconds(),
		Threshold: collapseUtil,
	}
	c.Link, c.LinkRateBps, c.Utilization = busiestPort(res, busy)
	if c.Utilization >= collapseUtil {
		// The bottleneck carried its share on average: a slow tail, not a
		// collapse of the whole run.
		return nil, nil
	}
	for _, k := range recoveryKeys {
		if v, ok := cfg.CC.Params[k]; ok && !(k == "ai_ref_rate" && v == "off") {
			c.Recovery = append(c.Recovery, runfolder.Param{Key: k, Value: v})
		}
	}
	return c, nil
}

// busiestPort is the egress port that sent the most data bytes of the run
// (ports.parquet's tx_data_bytes), its rate, and its utilization over
// busy: the bottleneck a collapse warning names.
func busiestPort(res *Result, busy units.Time) (string, int64, float64) {
	best := -1
	for i := range res.Ports {
		p := &res.Ports[i]
		if p.RateBps > 0 && (best < 0 || p.TxDataBytes > res.Ports[best].TxDataBytes) {
			best = i
		}
	}
	if best < 0 || busy <= 0 {
		return "", 0, 0
	}
	p := &res.Ports[best]
	kind := "host"
	if p.IsSwitch {
		kind = "switch"
	}
	return fmt.Sprintf("%s %d port %d", kind, p.Node, p.Port), p.RateBps, float64(p.TxDataBytes) * 8 / (float64(p.RateBps) * busy.Seconds())
}

// CollapseWarning is the one-line warning of a collapse c.
func CollapseWarning(cfg *Config, c *runfolder.Collapse) string {
	var rec []string
	for _, p := range c.Recovery {
		rec = append(rec, p.Key+"="+p.Value)
	}
	return fmt.Sprintf("congestion-control collapse: for %v of the %v that messages were transmitting, no link carried %.0f %% of its rate (busiest link, %s: %.1f %% of %s on average); %s recovers at %s",
		units.Nanos(c.CollapsedNs), units.Nanos(c.ActiveNs), c.Threshold*100, c.Link, c.Utilization*100,
		units.FormatRate(units.BitsPerSec(c.LinkRateBps)), cfg.CC.Name, strings.Join(rec, ", "))
}
