package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// ncFlow says which messages of the workload one model flow carries.
type ncFlow struct {
	FlowID   int     `json:"flow_id"`
	Src      int32   `json:"src"`
	Bytes    int64   `json:"bytes"`
	Messages []int64 `json:"messages"`
}

// ncPath is what the workload and the topology give the model: the flows
// and the shared bottleneck.
type ncPath struct {
	Dst int32
	// Link is the bottleneck: the first link of rate C that every path
	// shares (its transmitting node and egress port).
	Link     topology.Hop
	C        units.BitsPerSec
	DeltaR   units.Time
	Flows    []netcalc.Flow
	Sources  []ncFlow
	Warnings []string
}

// netcalcPath maps a workload on a topology onto the model's single path
// server (Section III-A): every message must go to one destination with no
// dependency; messages sharing a queue pair become one flow (their bytes
// arrive in order), every other message a flow of its own, released at its
// release time at the sender's link rate. C is the slowest link every path
// shares (the receiver's link in an n-to-1 incast), ΔR twice the
// propagation delay of the path (the largest one when they differ). A
// workload the model cannot describe is an inputError.
func netcalcPath(tr *trace.Trace, topo *topology.Topology) (*ncPath, error) {
	if len(tr.Messages) == 0 {
		return nil, inputErrorf("netcalc: the workload has no messages")
	}
	p := &ncPath{Dst: tr.Messages[0].Dst}
	for i := range tr.Messages {
		m := &tr.Messages[i]
		switch {
		case m.Dst != p.Dst:
			return nil, inputErrorf("netcalc: no single bottleneck: messages go to host %d and host %d (the model has one path server; use an n-to-1 workload)", p.Dst, m.Dst)
		case len(m.Deps) > 0:
			return nil, inputErrorf("netcalc: message %d depends on other messages; the model has no dependencies between messages", m.ID)
		case m.Src == m.Dst:
			return nil, inputErrorf("netcalc: message %d stays on host %d; the model has only network flows", m.ID, m.Src)
		case m.Bytes <= 0:
			return nil, inputErrorf("netcalc: message %d has no bytes; the model needs at least one byte per message", m.ID)
		}
	}
	routes := topo.Routes()
	// Group messages into flows: one per queue pair, one per NoFlow message.
	byQP := map[int64]int{}
	var paths [][]topology.Hop
	for i := range tr.Messages {
		m := &tr.Messages[i]
		fi, ok := byQP[m.FlowID]
		if m.FlowID == trace.NoFlow || !ok {
			path := routes.Path(m.Src, m.Dst, uint64(m.ID))
			if len(path) == 0 {
				return nil, inputErrorf("netcalc: no route from host %d to host %d", m.Src, m.Dst)
			}
			fi = len(p.Flows)
			if m.FlowID != trace.NoFlow {
				byQP[m.FlowID] = fi
			}
			paths = append(paths, path)
			p.Flows = append(p.Flows, netcalc.Flow{InitRate: path[0].Rate})
			p.Sources = append(p.Sources, ncFlow{FlowID: fi, Src: m.Src})
		}
		f := &p.Flows[fi]
		f.Arrivals = append(f.Arrivals, netcalc.Arrival{Bytes: units.Bytes(m.Bytes), At: m.Release})
		p.Sources[fi].Bytes += m.Bytes
		p.Sources[fi].Messages = append(p.Sources[fi].Messages, m.ID)
	}
	// Queue-pair messages are sent one after the other: a later message's
	// bytes cannot arrive before the earlier ones were released.
	for fi := range p.Flows {
		a := p.Flows[fi].Arrivals
		for k := 1; k < len(a); k++ {
			a[k].At = max(a[k].At, a[k-1].At)
		}
	}
	if err := p.bottleneck(paths); err != nil {
		return nil, err
	}
	return p, nil
}

// bottleneck sets C to the slowest link on every path and ΔR, and refuses
// paths with a slower link of their own after the sender's.
func (p *ncPath) bottleneck(paths [][]topology.Hop) error {
	type link struct{ node, port int32 }
	count := map[link]int{}
	for _, path := range paths {
		for _, h := range path {
			count[link{h.Node, h.Port}]++
		}
	}
	for _, h := range paths[0] {
		if count[link{h.Node, h.Port}] == len(paths) && (p.C == 0 || h.Rate < p.C) {
			p.C, p.Link = h.Rate, h
		}
	}
	var rtts []units.Time
	for i, path := range paths {
		for _, h := range path[1:] {
			if count[link{h.Node, h.Port}] < len(paths) && h.Rate < p.C {
				return inputErrorf("netcalc: no single bottleneck: flow %d (from host %d) crosses a %v link slower than the shared %v one", i, p.Sources[i].Src, h.Rate, p.C)
			}
		}
		rtt := 2 * topology.PathOneWay(path)
		p.DeltaR = max(p.DeltaR, rtt)
		if !slices.Contains(rtts, rtt) {
			rtts = append(rtts, rtt)
		}
	}
	if len(rtts) > 1 {
		slices.Sort(rtts)
		p.Warnings = append(p.Warnings, fmt.Sprintf("paths have propagation round trips from %v to %v; the model has one ΔR and takes the largest", rtts[0], rtts[len(rtts)-1]))
	}
	return nil
}

// ncParam is one --cca-param of a model CC.
type ncParam struct {
	name, kind, doc string // kind: rate, size, duration or float
	ccs             []netcalc.CCKind
	set             func(c *netcalc.Config, v any)
}

var (
	rateCCs = []netcalc.CCKind{netcalc.AIMDRate, netcalc.DCQCN}
	ecnCCs  = []netcalc.CCKind{netcalc.DCQCN}
)

// ecn returns the Config's ECN parameters, DCQCNECN first.
func ecn(c *netcalc.Config) *netcalc.ECNParams {
	if c.ECN == nil {
		e := netcalc.DCQCNECN()
		c.ECN = &e
	}
	return c.ECN
}

// ncParams are the --cca-param keys, by model CC.
var ncParams = []ncParam{
	{"init_rate", "rate", "r_o, the sending rate at start (default: the sender's link rate)", []netcalc.CCKind{netcalc.LineRate, netcalc.AIMDRate, netcalc.DCQCN},
		func(c *netcalc.Config, v any) {
			for i := range c.Flows {
				c.Flows[i].InitRate = v.(units.BitsPerSec)
			}
		}},
	{"alpha", "rate", "additive increase α per ai_every", rateCCs, func(c *netcalc.Config, v any) { c.AIMD.Alpha = v.(units.BitsPerSec) }},
	{"beta", "float", "multiplicative decrease β in (0,1)", append(slices.Clone(rateCCs), netcalc.AIMDWindow), func(c *netcalc.Config, v any) {
		c.AIMD.Beta, c.Window.Beta = v.(float64), v.(float64)
	}},
	{"timeout", "duration", "τ_o (0 disables timeouts)", append(slices.Clone(rateCCs), netcalc.AIMDWindow), func(c *netcalc.Config, v any) {
		c.AIMD.Timeout, c.Window.Timeout = v.(units.Time), v.(units.Time)
		if c.CC == netcalc.DCQCN && v.(units.Time) == 0 {
			// netcalc's DCQCN reads 0 as 3 ms: a timeout past the horizon never fires.
			c.AIMD.Timeout = c.Horizon + c.Dt
		}
	}},
	{"ai_every", "duration", "Δτ_ai, the time without a cut before an increase", rateCCs, func(c *netcalc.Config, v any) { c.AIMD.IncreaseEvery = v.(units.Time) }},
	{"max_rate", "rate", "rate cap (dcqcn default: r_o; aimd-rate: none)", rateCCs, func(c *netcalc.Config, v any) { c.AIMD.MaxRate = v.(units.BitsPerSec) }},
	{"kmin", "size", "RED K_min of the bottleneck backlog", ecnCCs, func(c *netcalc.Config, v any) { ecn(c).KMin = v.(units.Bytes) }},
	{"kmax", "size", "RED K_max", ecnCCs, func(c *netcalc.Config, v any) { ecn(c).KMax = v.(units.Bytes) }},
	{"pmax", "float", "RED P_max in (0,1]", ecnCCs, func(c *netcalc.Config, v any) { ecn(c).PMax = v.(float64) }},
	{"ecn_gap", "duration", "Δτ_ecn, least time between two CNPs to one flow", ecnCCs, func(c *netcalc.Config, v any) { ecn(c).Gap = v.(units.Time) }},
	{"imax", "size", "packet size I_max (marks per admitted byte; vegas: additive step)", append(slices.Clone(ecnCCs), netcalc.Vegas), func(c *netcalc.Config, v any) {
		if c.CC == netcalc.Vegas {
			c.Vegas.IMax = v.(units.Bytes)
			return
		}
		ecn(c).IMax = v.(units.Bytes)
	}},
	{"w_alpha", "size", "additive increase α per flight", []netcalc.CCKind{netcalc.AIMDWindow}, func(c *netcalc.Config, v any) { c.Window.Alpha = v.(units.Bytes) }},
	{"w0", "size", "initial window W_o", []netcalc.CCKind{netcalc.AIMDWindow, netcalc.Vegas}, func(c *netcalc.Config, v any) {
		c.Window.W0, c.Vegas.W0 = v.(units.Bytes), v.(units.Bytes)
	}},
	{"threshold", "size", "initial slow-start threshold w_tho", []netcalc.CCKind{netcalc.AIMDWindow}, func(c *netcalc.Config, v any) { c.Window.Threshold = v.(units.Bytes) }},
	{"low", "size", "w_low (Vegas' α)", []netcalc.CCKind{netcalc.Vegas}, func(c *netcalc.Config, v any) { c.Vegas.Low = v.(units.Bytes) }},
	{"high", "size", "w_high (Vegas' β)", []netcalc.CCKind{netcalc.Vegas}, func(c *netcalc.Config, v any) { c.Vegas.High = v.(units.Bytes) }},
	{"gamma", "size", "γ, the slow-start exit threshold", []netcalc.CCKind{netcalc.Vegas}, func(c *netcalc.Config, v any) { c.Vegas.Gamma = v.(units.Bytes) }},
}

// ncCCs are the --cca values, in help order.
var ncCCs = []netcalc.CCKind{netcalc.LineRate, netcalc.DCQCN, netcalc.AIMDRate, netcalc.AIMDWindow, netcalc.Vegas}

// ncDefaults sets the parameters of a CC that the package leaves to the
// caller: aimd-rate takes Section IV-B's (Fig. 6) values, aimd-window
// proposals of this command (the paper gives none); dcqcn and vegas keep
// the package's defaults (Section V-B / Table II, ns-3 TcpVegas).
func ncDefaults(c *netcalc.Config) {
	switch c.CC {
	case netcalc.AIMDRate:
		c.AIMD = netcalc.AIMDParams{Alpha: 100 * units.Mbps, Beta: 0.8, Timeout: 100 * units.Microsecond,
			IncreaseEvery: 30 * units.Microsecond}
	case netcalc.AIMDWindow:
		c.Window = netcalc.WindowParams{Alpha: 1000, Beta: 0.5, Timeout: units.Millisecond, W0: 10 * units.KB,
			Threshold: 100 * units.KB}
	}
}

// applyNCParams applies KEY=VALUE overrides; an unknown or misplaced key,
// or a bad value, is an inputError.
func applyNCParams(c *netcalc.Config, kvs []string) error {
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return usageErrorf("--cca-param %q: want KEY=VALUE", kv)
		}
		i := slices.IndexFunc(ncParams, func(p ncParam) bool { return p.name == k && slices.Contains(p.ccs, c.CC) })
		if i < 0 {
			return inputErrorf("--cca-param %s: unknown parameter of %s (known: %s)", k, c.CC, strings.Join(ncParamNames(c.CC), ", "))
		}
		p := ncParams[i]
		var val any
		var err error
		switch p.kind {
		case "rate":
			val, err = units.ParseRate(v)
		case "size":
			val, err = units.ParseSize(v)
		case "duration":
			val, err = units.ParseDuration(v)
		default:
			val, err = units.ParseFloat(v)
		}
		if err != nil {
			return inputErrorf("--cca-param %s: %v", k, err)
		}
		p.set(c, val)
	}
	return nil
}

// ncParamNames lists the parameter names of cc, sorted.
func ncParamNames(cc netcalc.CCKind) []string {
	var names []string
	for _, p := range ncParams {
		if slices.Contains(p.ccs, cc) {
			names = append(names, p.name)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		names = []string{"none"}
	}
	return names
}

// ncParamHelp documents the parameters for --help.
func ncParamHelp() string {
	var b strings.Builder
	b.WriteString("Model congestion controls (--cca) and their --cca-param keys:\n")
	docs := map[netcalc.CCKind]string{
		netcalc.LineRate:   "no congestion control: every flow sends at r_o (with --pfc on: the paper's PFC case)",
		netcalc.DCQCN:      "Algorithm 1 with ECN/CNPs, Section V-B and Table II defaults (α 5Mbps per 55us, β 0.75, τ_o 3ms, K_min/K_max 5KB/200KB, P_max 0.01, Δτ_ecn 50us)",
		netcalc.AIMDRate:   "Algorithm 1, timeouts only; defaults of Section IV-B (α 100Mbps per 30us, β 0.8, τ_o 100us)",
		netcalc.AIMDWindow: "Algorithm 2; defaults proposed here (α 1000B per flight, β 0.5, τ_o 1ms, W_o 10KB, w_tho 100KB)",
		netcalc.Vegas:      "Algorithm 3, no timeouts; ns-3 TcpVegas defaults (W_o 15000B, low/high/γ 3000/6000/1500B, I_max 1500B)",
	}
	for _, cc := range ncCCs {
		fmt.Fprintf(&b, "  %-12s %s\n", cc, docs[cc])
		fmt.Fprintf(&b, "  %-12s keys: %s\n", "", strings.Join(ncParamNames(cc), ", "))
	}
	b.WriteString("Keys (units as in the rest of the CLI: 5Mbps, 200KB, 55us):\n")
	for _, p := range ncParams {
		fmt.Fprintf(&b, "  %-10s %-8s %s\n", p.name, p.kind, p.doc)
	}
	return b.String()
}
