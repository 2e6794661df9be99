package runconfig

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"

	"github.com/ccreplay/ccreplay/hpccfmt"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
)

// HPCC is an HPCC ns-3 simulator scenario read from its config.txt
// (ccreplay run --hpcc-config).
type HPCC struct {
	path string
	cfg  *hpccfmt.Config
	// Flows is the scenario's FLOW_FILE as read, nil when the workload
	// came from elsewhere.
	Flows *hpccfmt.FlowFile
}

func loadHPCCConfig(path string) (*HPCC, error) {
	f, err := limits.Open(path, "an HPCC config", limits.MaxConfigBytes, false)
	if err != nil {
		return nil, inputErrorf("hpcc config: %v", err)
	}
	defer f.Close()
	c, err := hpccfmt.ParseConfig(f.Reader, path)
	if err != nil {
		return nil, inputError(err)
	}
	if err := c.Unsupported(); err != nil {
		return nil, inputError(err)
	}
	return &HPCC{path: path, cfg: c}, nil
}

// file resolves one of the config's file keys relative to the config.
func (h *HPCC) file(key, p string) (string, error) {
	if p == "" {
		return "", inputErrorf("%s: %s is not set", h.path, key)
	}
	return hpccfmt.ResolvePath(h.path, p), nil
}

// hostMapper maps the simulator's node ids to the topology's hosts (the
// hpcc: topology reader keeps each node's original id as its name).
func hostMapper(topo *topology.Topology) hpccfmt.HostMapper {
	idx := topo.NameIndex()
	return func(id int) (int32, error) {
		i, ok := idx[strconv.Itoa(id)]
		if !ok || topo.Nodes[i].Kind != topology.Host {
			return 0, fmt.Errorf("node %d is not a host of topology %s", id, topo.Name)
		}
		return i, nil
	}
}

// loadFlows reads the config's FLOW_FILE onto topo.
func (h *HPCC) loadFlows(topo *topology.Topology) (*trace.Trace, string, error) {
	path, err := h.file("FLOW_FILE", h.cfg.FlowFile)
	if err != nil {
		return nil, "", err
	}
	f, err := limits.Open(path, "an HPCC flow file", limits.MaxTableBytes, false)
	if err != nil {
		return nil, "", inputErrorf("hpcc flows: %v", err)
	}
	defer f.Close()
	ff, err := hpccfmt.ReadFlows(f.Reader, path, hostMapper(topo))
	if err != nil {
		return nil, "", inputError(err)
	}
	for i := range ff.Trace.Messages {
		// The simulator's priority group becomes the data class (its
		// sample's pg 3 is ccreplay's default class 3).
		if pg := ff.Flows[i].Priority; pg >= 1 && pg <= int(trace.MaxPriority) {
			ff.Trace.Messages[i].Priority = int32(pg)
		}
	}
	if err := h.checkFlows(ff, path); err != nil {
		return nil, "", err
	}
	ff.Trace.Hosts = topo.NumHosts
	h.Flows = ff
	return ff.Trace, path, nil
}

// apply sets the network from the config: switch buffer, ECN per link
// rate (unless the algorithm's parameters carry kmin/kmax), PFC threshold
// mode, packet payload, ACK interval and the stop time.
func (h *HPCC) apply(cfg *replay.Config, params map[string]string) {
	c := h.cfg
	if c.Has("BUFFER_SIZE") {
		cfg.Switch.BufferBytes = c.BufferSize
	}
	if c.Has("ENABLE_QCN") {
		cfg.Switch.ECN.Enabled = c.EnableQCN
	}
	if _, ok := params["kmin"]; !ok && len(c.ECNTable()) > 0 {
		cfg.Switch.ECN.PerRate = nil
		for _, e := range c.ECNTable() {
			cfg.Switch.ECN.PerRate = append(cfg.Switch.ECN.PerRate, switchmodel.ECNRate{Rate: e.Rate, KminBytes: e.Kmin, KmaxBytes: e.Kmax, Pmax: e.Pmax})
		}
	}
	// USE_DYNAMIC_PFC_THRESHOLD is not read here: the simulator's threshold
	// is dynamic whatever it says (see applyMMU).
	applyMMU(cfg)
	if c.Has("PACKET_PAYLOAD_SIZE") {
		cfg.NIC.MTUPayload = c.PacketPayloadSize
	}
	if c.Has("L2_ACK_INTERVAL") {
		// 1..PACKET_PAYLOAD_SIZE bytes is an ACK per packet in the
		// simulator (RdmaHw::ReceiveUdp resets the milestone to the
		// interval on every packet); other values are refused
		// (hpccfmt.Config.Unsupported, CheckFlowACKs).
		cfg.NIC.AckEvery = 1
	}
	if c.Has("SIMULATOR_STOP_TIME") && cfg.MaxTime == 0 {
		cfg.MaxTime = c.SimulatorStopTime
	}
}

// IgnoredNote says which of the simulator's outputs the config asks for
// that a run does not write (its binary packet trace), or "". Keys
// third.cc does not read are warnings (Warnings).
func (h *HPCC) IgnoredNote() string {
	c := h.cfg
	if !c.EnableTrace || c.TraceOutputFile == "" {
		return ""
	}
	return "hpcc config: TRACE_OUTPUT_FILE " + c.TraceOutputFile + " (the simulator's binary packet trace) is not written; --packets all writes every packet event to " + runfolder.PacketsFile
}

// WriteFCT writes fct.txt as the simulator does for the flows of res
// whose sender has the ACK of their last byte (third.cc qp_finish): src
// and dst as the simulator's node ids (from the hpcc: topology's node
// names when there are such, else ccreplay's host ids), source ports per
// host pair in flow order (hpccfmt.SourcePorts), start in whole ns, FCT
// from start to that ACK at the sender (whole ns, truncated), the flow's
// standalone FCT (flows.parquet standalone_fct_ns, the simulator's
// formula), one line per flow in order of completion at the sender, ties
// in flow order. Flows the sender never saw completed are left out, as
// the simulator leaves them out.
func WriteFCT(path string, topo *topology.Topology, tr *trace.Trace, ff *hpccfmt.FlowFile, res *replay.Result) error {
	nodeID := func(host int32) int {
		if id, err := strconv.Atoi(topo.Nodes[host].Name); err == nil {
			return id
		}
		return int(host)
	}
	sports := hpccfmt.SourcePorts(tr)
	var rows []hpccfmt.FCTRow
	var done []int64
	for i, m := range res.Messages {
		if m.SenderDoneNs < 0 || m.FlowID < 0 {
			continue
		}
		f := res.Flows[m.FlowID]
		dport := hpccfmt.DefaultDPort
		if ff != nil && i < len(ff.Flows) {
			dport = ff.Flows[i].DPort
		}
		rows = append(rows, hpccfmt.FCTRow{
			Src: nodeID(m.Src), Dst: nodeID(m.Dst), SPort: sports[i], DPort: dport, Size: m.SizeBytes,
			StartNs: m.ReleaseNs, FCTNs: m.SenderDoneNs - m.ReleaseNs, StandaloneNs: f.StandaloneNs,
		})
		done = append(done, m.SenderDoneNs)
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return done[order[a]] < done[order[b]] })
	sorted := make([]hpccfmt.FCTRow, len(rows))
	for i, j := range order {
		sorted[i] = rows[j]
	}
	var buf bytes.Buffer
	if err := hpccfmt.WriteFCT(&buf, sorted); err != nil {
		return fmt.Errorf("fct output: %w", err)
	}
	return output.WriteFileAtomic(path, buf.Bytes())
}
