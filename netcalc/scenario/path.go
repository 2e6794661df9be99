package scenario

import (
	"fmt"
	"slices"

	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// Flow says which messages of the workload one model flow carries
// (summary.json's "flows").
type Flow struct {
	FlowID   int     `json:"flow_id"`
	Src      int32   `json:"src"`
	Bytes    int64   `json:"bytes"`
	Messages []int64 `json:"messages"`
}

// Path is what the workload and the topology give the model: the flows
// and the shared bottleneck.
type Path struct {
	// Dst is the host every message goes to.
	Dst int32
	// Link is the bottleneck: the first link of rate C that every path
	// shares (its transmitting node and egress port).
	Link topology.Hop
	// C is the bottleneck's rate in bit/s, DeltaR ΔR in picoseconds.
	C      units.BitsPerSec
	DeltaR units.Time
	// Flows are the model's flows, Sources the messages each carries.
	Flows    []netcalc.Flow
	Sources  []Flow
	Warnings []string
}

// MapWorkload maps a workload on a topology onto the model's single path
// server (Section III-A): every message must go to one destination with
// no dependency; messages sharing a queue pair become one flow (their
// bytes arrive in order), every other message a flow of its own,
// released at its release time at the sender's link rate. C is the
// slowest link every path shares (the receiver's link in an n-to-1
// incast), ΔR twice the propagation delay of the path (the largest one
// when they differ). A workload the model cannot describe is an input
// error.
func MapWorkload(tr *trace.Trace, topo *topology.Topology) (*Path, error) {
	if len(tr.Messages) == 0 {
		return nil, inputErrorf("netcalc: the workload has no messages")
	}
	p := &Path{Dst: tr.Messages[0].Dst}
	if err := p.check(tr.Messages); err != nil {
		return nil, err
	}
	paths, err := p.group(tr.Messages, topo.Routes())
	if err != nil {
		return nil, err
	}
	if err := p.bottleneck(paths); err != nil {
		return nil, err
	}
	return p, nil
}

// check refuses the messages the model cannot describe.
func (p *Path) check(msgs []trace.Message) error {
	for i := range msgs {
		m := &msgs[i]
		switch {
		case m.Dst != p.Dst:
			return inputErrorf("netcalc: no single bottleneck: messages go to host %d and host %d (the model has one path server; use an n-to-1 workload)", p.Dst, m.Dst)
		case len(m.Deps) > 0:
			return inputErrorf("netcalc: message %d depends on other messages; the model has no dependencies between messages", m.ID)
		case m.Src == m.Dst:
			return inputErrorf("netcalc: message %d stays on host %d; the model has only network flows", m.ID, m.Src)
		case m.Bytes <= 0:
			return inputErrorf("netcalc: message %d has no bytes; the model needs at least one byte per message", m.ID)
		}
	}
	return nil
}

// group makes the flows, one per queue pair and one per NoFlow message,
// and returns each flow's route.
func (p *Path) group(msgs []trace.Message, routes *topology.Routing) ([][]topology.Hop, error) {
	byQP := map[int64]int{}
	var paths [][]topology.Hop
	for i := range msgs {
		m := &msgs[i]
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
			p.Sources = append(p.Sources, Flow{FlowID: fi, Src: m.Src})
		}
		f := &p.Flows[fi]
		f.Arrivals = append(f.Arrivals, netcalc.Arrival{Bytes: units.Bytes(m.Bytes), At: m.Release})
		p.Sources[fi].Bytes += m.Bytes
		p.Sources[fi].Messages = append(p.Sources[fi].Messages, m.ID)
	}
	// NB: queue-pair messages are sent one after the other: a later
	// message's bytes cannot arrive before the earlier ones were released.
	for fi := range p.Flows {
		a := p.Flows[fi].Arrivals
		for k := 1; k < len(a); k++ {
			a[k].At = max(a[k].At, a[k-1].At)
		}
	}
	return paths, nil
}

// bottleneck sets C to the slowest link on every path and ΔR, and refuses
// paths with a slower link of their own after the sender's.
func (p *Path) bottleneck(paths [][]topology.Hop) error {
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
