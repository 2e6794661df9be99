package replay

import (
	"path/filepath"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/output"
	v1 "github.com/ccreplay/ccreplay/schema/v1"
	"github.com/ccreplay/ccreplay/version"
)

// Manifest is summary.json: the run's inputs, versions and every metric.
// It holds no wall-clock value, so identical runs give identical files.
type Manifest struct {
	SchemaVersion string            `json:"schema_version"`
	Tool          string            `json:"tool"`
	Trace         string            `json:"trace"`
	Seed          uint64            `json:"seed"`
	CCA           string            `json:"cca"`
	CCAParams     map[string]string `json:"cca_params"`
	Topology      string            `json:"topology"`
	Packets       string            `json:"packets"`
	Config        ConfigEcho        `json:"config"`
	SimEndNs      int64             `json:"sim_end_ns"`
	Events        uint64            `json:"events"`
	DataPackets   int64             `json:"data_packets"`
	PacketRows    int64             `json:"packet_rows"`
	Files         []string          `json:"files"`
	Metrics       metrics.Summary   `json:"metrics"`
}

// ConfigEcho repeats the network settings with units in the names.
type ConfigEcho struct {
	BufferBytes     int64         `json:"switch_buffer_bytes"`
	ECN             bool          `json:"ecn"`
	KminBytes       int64         `json:"ecn_kmin_bytes"`
	KmaxBytes       int64         `json:"ecn_kmax_bytes"`
	Pmax            float64       `json:"ecn_pmax"`
	ECNRefRateBps   int64         `json:"ecn_ref_rate_bps"`
	ECNPerRate      []ECNRateEcho `json:"ecn_per_rate,omitempty"`
	PFC             bool          `json:"pfc"`
	PFCMode         string        `json:"pfc_mode"`
	INT             bool          `json:"int"`
	MTUPayloadBytes int64         `json:"mtu_payload_bytes"`
	HeaderBytes     int64         `json:"header_bytes"`
	AckEvery        int           `json:"ack_every_pkts"`
	CNPIntervalNs   int64         `json:"cnp_interval_ns"`
	RTONs           int64         `json:"rto_ns"`
	WindowBytes     int64         `json:"window_bytes"`
	WindowBDP       bool          `json:"window_bdp"`
	MaxTimeNs       int64         `json:"max_time_ns"`
	LocalRateBps    int64         `json:"local_rate_bps"`
}

// ECNRateEcho is one per-rate ECN entry of ConfigEcho.
type ECNRateEcho struct {
	RateBps   int64   `json:"rate_bps"`
	KminBytes int64   `json:"kmin_bytes"`
	KmaxBytes int64   `json:"kmax_bytes"`
	Pmax      float64 `json:"pmax"`
}

// NewManifest describes a finished run; traceName names its input.
func NewManifest(cfg *Config, traceName string, res *Result) Manifest {
	files := []string{FlowsFile, MessagesFile, PortsFile, SummaryFile}
	if cfg.Packets != PacketsNone && cfg.Packets != "" {
		files = append([]string{PacketsFile}, files...)
	}
	var perRate []ECNRateEcho
	for _, r := range cfg.Switch.ECN.PerRate {
		perRate = append(perRate, ECNRateEcho{int64(r.Rate), int64(r.KminBytes), int64(r.KmaxBytes), r.Pmax})
	}
	return Manifest{
		SchemaVersion: v1.Version, Tool: "ccreplay " + version.Version, Trace: traceName,
		Seed: cfg.Seed, CCA: cfg.CC.Name, CCAParams: cfg.CC.Params,
		Topology: cfg.Topology.Name, Packets: string(cfg.Packets),
		Config: ConfigEcho{
			BufferBytes: int64(cfg.Switch.BufferBytes), ECN: cfg.Switch.ECN.Enabled,
			KminBytes: int64(cfg.Switch.ECN.KminBytes), KmaxBytes: int64(cfg.Switch.ECN.KmaxBytes),
			Pmax: cfg.Switch.ECN.Pmax, ECNRefRateBps: int64(cfg.Switch.ECN.RefRate), ECNPerRate: perRate,
			PFC: cfg.Switch.PFC.Enabled, PFCMode: string(cfg.Switch.PFC.Mode), INT: cfg.Switch.INT,
			MTUPayloadBytes: int64(cfg.NIC.MTUPayload), HeaderBytes: int64(cfg.NIC.HeaderBytes),
			AckEvery: cfg.NIC.AckEvery, CNPIntervalNs: cfg.NIC.CNPInterval.Nanoseconds(),
			RTONs: cfg.NIC.RTO.Nanoseconds(), WindowBytes: int64(cfg.NIC.Window), WindowBDP: cfg.NIC.WindowBDP,
			MaxTimeNs: cfg.MaxTime.Nanoseconds(), LocalRateBps: int64(cfg.LocalRate),
		},
		SimEndNs: res.SimEnd.Nanoseconds(), Events: res.Events, DataPackets: res.DataPackets,
		PacketRows: res.PacketRows, Files: files, Metrics: res.Summary,
	}
}

func writeOutputs(dir string, res *Result) error {
	if err := output.WriteRows(filepath.Join(dir, FlowsFile), res.Flows); err != nil {
		return err
	}
	if err := output.WriteRows(filepath.Join(dir, MessagesFile), res.Messages); err != nil {
		return err
	}
	return output.WriteRows(filepath.Join(dir, PortsFile), res.Ports)
}

// WriteManifest writes summary.json atomically into dir.
func WriteManifest(dir string, m Manifest) error {
	return output.WriteJSONAtomic(filepath.Join(dir, SummaryFile), m)
}
