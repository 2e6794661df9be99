package runconfig

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/hpccfmt"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
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
	f, err := os.Open(path)
	if err != nil {
		return nil, inputErrorf("hpcc config: %v", err)
	}
	defer f.Close()
	c, err := hpccfmt.ParseConfig(f, path)
	if err != nil {
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
	f, err := os.Open(path)
	if err != nil {
		return nil, "", inputErrorf("hpcc flows: %v", err)
	}
	defer f.Close()
	ff, err := hpccfmt.ReadFlows(f, path, hostMapper(topo))
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
	if c.Has("USE_DYNAMIC_PFC_THRESHOLD") {
		cfg.Switch.PFC.Mode = switchmodel.PFCStatic
		if c.UseDynamicPFCThreshold {
			cfg.Switch.PFC.Mode = switchmodel.PFCDynamic
		}
	}
	if c.Has("PACKET_PAYLOAD_SIZE") {
		cfg.NIC.MTUPayload = c.PacketPayloadSize
	}
	if c.Has("L2_ACK_INTERVAL") && c.L2AckInterval > 0 {
		// The simulator counts the ACK interval in bytes of payload; one
		// payload's worth or less is an ACK per packet.
		cfg.NIC.AckEvery = int(max(1, (c.L2AckInterval+cfg.NIC.MTUPayload-1)/cfg.NIC.MTUPayload))
	}
	if c.Has("SIMULATOR_STOP_TIME") && cfg.MaxTime == 0 {
		cfg.MaxTime = c.SimulatorStopTime
	}
}

// IgnoredNote lists the config keys ccreplay does not use.
func (h *HPCC) IgnoredNote() string {
	if len(h.cfg.Ignored) == 0 {
		return ""
	}
	keys := append([]string(nil), h.cfg.Ignored...)
	sort.Strings(keys)
	return "hpcc config: ignored keys: " + strings.Join(keys, " ")
}

// WriteFCT writes fct.txt in the simulator's layout for the finished
// flows of res: src and dst as the simulator's node ids (from the hpcc:
// topology's node names when there are such, else ccreplay's host ids).
func WriteFCT(path string, topo *topology.Topology, tr *trace.Trace, ff *hpccfmt.FlowFile, res *replay.Result) error {
	nodeID := func(host int32) int {
		if id, err := strconv.Atoi(topo.Nodes[host].Name); err == nil {
			return id
		}
		return int(host)
	}
	sports := hpccfmt.SourcePorts(tr)
	var rows []hpccfmt.FCTRow
	for i, m := range res.Messages {
		if m.FinishNs < 0 || m.FlowID < 0 {
			continue
		}
		f := res.Flows[m.FlowID]
		dport := hpccfmt.DefaultDPort
		if ff != nil && i < len(ff.Flows) {
			dport = ff.Flows[i].DPort
		}
		rows = append(rows, hpccfmt.FCTRow{
			Src: nodeID(m.Src), Dst: nodeID(m.Dst), SPort: sports[i], DPort: dport, Size: m.SizeBytes,
			StartNs: m.ReleaseNs, FCTNs: m.MCTNs, StandaloneNs: f.StandaloneNs,
		})
	}
	var buf bytes.Buffer
	if err := hpccfmt.WriteFCT(&buf, rows); err != nil {
		return fmt.Errorf("fct output: %w", err)
	}
	return output.WriteFileAtomic(path, buf.Bytes())
}
