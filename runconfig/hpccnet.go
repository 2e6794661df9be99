package runconfig

import (
	"fmt"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/hpccfmt"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// The simulator's fixed switch MMU settings (switch-mmu.cc, the SwitchMmu
// constructor): each ingress queue's private reserve and how far below
// the threshold it must fall before RESUME.
const (
	ns3Reserve      = 4 * 1024
	ns3ResumeOffset = 3 * 1024
)

// applyMMU gives the switches the simulator's PFC: always the dynamic
// threshold (QbbNetDevice never reads USE_DYNAMIC_PFC_THRESHOLD's
// m_dynamicth; SwitchMmu::GetPfcThreshold is (buffer - headroom - reserve
// - shared used) >> pfc_a_shift), the MMU's reserve and resume offset,
// and, where every switch port of the topology agrees, third.cc's
// headroom (3 x rate x delay per port) and threshold shift (1/8, halved
// per doubling of the port rate above the NICs'). A topology whose ports
// disagree keeps ccreplay's per-port headroom and the divisor the
// configuration has (ccreplay has one divisor per switch model).
func applyMMU(cfg *replay.Config) {
	p := &cfg.Switch.PFC
	p.Enabled, p.Mode = true, switchmodel.PFCDynamic
	p.ReserveBytes, p.ResumeOffsetBytes = ns3Reserve, ns3ResumeOffset
	if cfg.Topology == nil {
		return
	}
	hdrm, shift, ok := ns3PortSettings(cfg.Topology)
	if !ok {
		return
	}
	if hdrm > 0 {
		p.HeadroomBytes = hdrm
	}
	p.Divisor = 1 << shift
}

// ns3PortSettings returns the headroom and PFC threshold shift third.cc
// gives every switch port, and whether all ports have the same.
func ns3PortSettings(t *topology.Topology) (units.Bytes, uint, bool) {
	if t.NumHosts == 0 || len(t.Nodes[0].Ports) == 0 {
		return 0, 0, false
	}
	// get_nic_rate: the rate of the first host's link.
	nic := uint64(t.Nodes[0].Ports[0].Rate)
	first := true
	var hdrm units.Bytes
	var shift uint
	for i := t.NumHosts; i < len(t.Nodes); i++ {
		for _, pt := range t.Nodes[i].Ports {
			rate, delayNs := uint64(pt.Rate), uint64(pt.Delay/units.Nanosecond)
			if delayNs != 0 && rate > ^uint64(0)/delayNs {
				return 0, 0, false
			}
			h := units.Bytes(rate * delayNs / 8 / 1_000_000_000 * 3)
			s := uint(3)
			for r := rate; r > nic && s > 0; r /= 2 {
				s--
			}
			if first {
				hdrm, shift, first = h, s, false
			} else if h != hdrm || s != shift {
				return 0, 0, false
			}
		}
	}
	return hdrm, shift, !first
}

// checkFlows refuses what the simulator would not do with these flows and
// this topology: a flow it never acknowledges (hpccfmt
// CheckFlowACKs) and a switch port whose rate the ECN maps leave out.
func (h *HPCC) checkFlows(ff *hpccfmt.FlowFile, path string) error {
	sizes := make([]int64, len(ff.Trace.Messages))
	lines := make([]int, len(ff.Flows))
	for i, m := range ff.Trace.Messages {
		sizes[i] = m.Bytes
	}
	for i, f := range ff.Flows {
		lines[i] = f.Line
	}
	if err := h.cfg.CheckFlowACKs(sizes, path, lines); err != nil {
		return inputError(err)
	}
	return nil
}

// checkQCN refuses ENABLE_QCN 0 under an algorithm that reacts to ECN
// marks, at the key's line, as replay.Config.Validate refuses a run that
// takes an algorithm's signal away (the simulator would run it with no
// mark ever set: DCQCN and DCTCP then never slow down).
func (h *HPCC) checkQCN(specs []cca.Spec) error {
	c := h.cfg
	if !c.Has("ENABLE_QCN") || c.EnableQCN {
		return nil
	}
	for _, s := range specs {
		if s.ECN != nil {
			return inputError(&trace.ParseError{File: c.Name, Line: c.Line("ENABLE_QCN"), Err: fmt.Errorf(
				"ENABLE_QCN %s: %s reacts to ECN marks, which the switches would then never set; ccreplay refuses a run without its algorithm's signal (set 1, or pick an algorithm that does not use ECN)",
				c.Raw["ENABLE_QCN"], s.Name)})
		}
	}
	return nil
}

// checkECNRates refuses a topology with a switch port whose rate the ECN
// maps do not list, when the config gives maps and marks: third.cc
// asserts "must set kmin for each link speed" (and its optimized build,
// with asserts off, marks nearly every packet of such a port instead),
// where ccreplay would scale or fall back to the algorithm's thresholds.
func (h *HPCC) checkECNRates(t *topology.Topology) error {
	c := h.cfg
	if !c.EnableQCN || len(c.ECNTable()) == 0 {
		return nil
	}
	for i := t.NumHosts; i < len(t.Nodes); i++ {
		n := &t.Nodes[i]
		for j, pt := range n.Ports {
			if _, ok := c.ECNFor(pt.Rate); ok {
				continue
			}
			return inputError(&trace.ParseError{File: c.Name, Line: c.Line("KMIN_MAP"), Err: fmt.Errorf(
				"KMIN_MAP, KMAX_MAP and PMAX_MAP have no entry for %d bps, the rate of switch %s port %d of %s: the simulator needs one for every switch port's rate (third.cc asserts it)",
				int64(pt.Rate), n.Name, j+1, t.Name)})
		}
	}
	return nil
}
