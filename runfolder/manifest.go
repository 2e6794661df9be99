package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/output"
)

// Manifest is summary.json: the run's inputs, versions and every metric.
// It holds no wall-clock value, so identical runs give identical files.
// Complete is written true as the last step of a run; readers refuse a
// folder whose manifest does not say so.
type Manifest struct {
	SchemaVersion string            `json:"schema_version"`
	Kind          string            `json:"kind"`
	Complete      bool              `json:"complete"`
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
	// Warnings are what the input readers reported and the user should
	// know (a truncated capture, a damaged record), one sentence each.
	Warnings []string `json:"warnings,omitempty"`
	// Mode is ModeEstimate for a folder written by ccreplay estimate,
	// whose flows are estimated by link simulations (Estimate holds the
	// method's settings); empty for a packet-level run.
	Mode     string        `json:"mode,omitempty"`
	Estimate *EstimateEcho `json:"estimate,omitempty"`
	// Collapse, when present, says that the run's links sat far below
	// their rates while its messages were transmitting (replay.CollapseCheck):
	// the congestion control's recovery, not the network, set its pace.
	// Its warning is among Warnings.
	Collapse *Collapse `json:"collapse,omitempty"`
	// Metrics is the run's metrics.Summary as JSON. The folder contract
	// does not know the metric set: the writer encodes it
	// (metrics.Summary.Encode) and a reader that needs the values
	// decodes it (metrics.DecodeSummary).
	Metrics json.RawMessage `json:"metrics"`
}

// ModeEstimate is Manifest.Mode of an estimate's folder.
const ModeEstimate = "estimate"

// EstimateEcho is the method and settings of an estimate (docs/ESTIMATE.md).
type EstimateEcho struct {
	Method         string   `json:"method"`                   // "link-decomposition" (Parsimon, Zhao et al., NSDI 2023)
	Tolerance      float64  `json:"tolerance"`                // clustering tolerance, relative; -1 = every link simulated (--no-cluster)
	PoolFlows      int      `json:"pool_flows"`               // about how many flows each cluster's link simulations carry together
	SimulateEvery  []string `json:"simulate_every,omitempty"` // link kinds whose every link is simulated (--simulate-every)
	Aggregate      string   `json:"aggregate"`                // own or sample
	Combine        string   `json:"combine"`                  // max or sum of a flow's delays along its path
	DrawSeed       uint64   `json:"draw_seed"`                // seed of the draws at links not simulated (--draw-seed; default: the run's seed)
	ReverseAcks    string   `json:"reverse_acks"`             // rate (the link slower by its reverse flows' mean ACK rate) or packets (those flows in its link network)
	SenderNICs     string   `json:"sender_nics"`              // shares (each sender carries the link's flows, paced to their shares of its NIC), alone (the link's flows at line rate) or shared (also its host's other flows running beside them); absent: alone
	FastFactor     int      `json:"fast_factor"`              // receivers' link rate over the downstream path's slowest
	BucketMinFlows int      `json:"bucket_min_flows"`         // least flows per size bucket of a link's delays
	BucketSpread   int      `json:"bucket_spread"`            // least largest/smallest flow size within a bucket
	Links          int      `json:"links"`                    // links carrying traffic
	LinksSimulated int      `json:"links_simulated"`          // link simulations run
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

// ErrIncomplete marks a folder that a reader must not use: no manifest,
// or a manifest that does not say complete (an interrupted or older run).
var ErrIncomplete = errors.New("incomplete run folder")

// ReadManifest reads dir's summary.json and checks that it is a complete
// run of this schema version. Errors name the file.
func ReadManifest(dir string) (*Manifest, error) {
	var m Manifest
	p, err := readManifestFile(dir, SummaryFile, "run", " (the run was interrupted, is still being written, or this is not a run folder)", &m)
	if err != nil {
		return nil, err
	}
	if m.SchemaVersion != Version && m.SchemaVersion != PreviousVersion {
		return nil, fmt.Errorf("%s: schema_version %q, want %q or %q", p, m.SchemaVersion, Version, PreviousVersion)
	}
	if m.Kind != KindRun || !m.Complete {
		return nil, fmt.Errorf("%s: %w: it does not say \"kind\": %q and \"complete\": true (written by an older ccreplay or never finished): run it again", p, ErrIncomplete, KindRun)
	}
	return &m, nil
}

// readManifestFile decodes dir's manifest file name (at most
// limits.MaxRunJSONBytes) into v and returns its path. A missing file is
// ErrIncomplete (followed by why), one that does not decode is not a what
// manifest; errors name the file.
func readManifestFile(dir, name, what, why string, v any) (string, error) {
	p := filepath.Join(dir, name)
	b, err := limits.ReadFile(p, "a "+name, limits.MaxRunJSONBytes, true)
	if errors.Is(err, os.ErrNotExist) {
		return p, fmt.Errorf("%s: %w: no %s%s", dir, ErrIncomplete, name, why)
	}
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return p, fmt.Errorf("%s: not a %s manifest: %s", p, what, limits.JSONError(err))
	}
	return p, nil
}

// Write sets m's version, kind and completeness marker and writes it into
// dir as summary.json, atomically: call it last, when every other file of
// the run is in place.
func Write(dir string, m *Manifest) error {
	m.SchemaVersion, m.Kind, m.Complete = Version, KindRun, true
	return output.WriteJSONAtomic(filepath.Join(dir, SummaryFile), m)
}

// Collection is comparison.json, the manifest of a folder of runs.
type Collection struct {
	SchemaVersion string `json:"schema_version"`
	Kind          string `json:"kind"`
	Complete      bool   `json:"complete"`
	Tool          string `json:"tool"`
	Trace         string `json:"trace"`
	Topology      string `json:"topology"`
	// Runs are the run folders, relative to the collection, slash-separated.
	Runs []string `json:"runs"`
	// NetworkDifferences lists, for a comparison, the network settings
	// (switch and NIC) whose value differs between its algorithms' runs:
	// the settings their presets bring. Absent when every algorithm ran on
	// the same network.
	NetworkDifferences []SettingDiff `json:"network_differences,omitempty"`
	// SameNetwork is the algorithm whose network settings every run of a
	// comparison took (compare --same-network), or absent.
	SameNetwork string `json:"same_network,omitempty"`
}

// SettingDiff is one setting that differs between the runs of a
// collection, with its value in each.
type SettingDiff struct {
	// Setting is the run.yaml key (switch.ecn.kmin, nic.cnp_interval) or
	// switch.Field / nic.Field for a setting run.yaml does not name.
	Setting string `json:"setting"`
	// Values maps each algorithm, as its run folders name it (cca=NAME),
	// to its value ("-":
	// the run has no such setting, e.g. thresholds with marking off).
	Values map[string]string `json:"values"`
}

// WriteCollection writes c into dir as comparison.json, atomically, with
// Kind and Complete set.
func WriteCollection(dir string, c *Collection) error {
	c.SchemaVersion, c.Kind, c.Complete = Version, KindComparison, true
	return output.WriteJSONAtomic(filepath.Join(dir, CollectionFile), c)
}

// Collapse describes a run whose links sat far below their rates for most
// of the time its messages were transmitting (replay.CollapseCheck).
type Collapse struct {
	// ActiveNs is the time some message was transmitting, ns.
	ActiveNs int64 `json:"active_ns"`
	// CollapsedNs is the part of ActiveNs in which no link carried
	// Threshold of its rate, ns.
	CollapsedNs int64 `json:"collapsed_ns"`
	// Threshold is the utilization, in [0, 1], under which a link counts
	// as far below its rate.
	Threshold float64 `json:"threshold"`
	// Link is the egress port that sent the most data ("switch 8 port
	// 0"), LinkRateBps its rate, bit/s, and Utilization its data bits
	// over its rate times ActiveNs.
	Link        string  `json:"link"`
	LinkRateBps int64   `json:"link_rate_bps"`
	Utilization float64 `json:"utilization"`
	// Recovery are the algorithm's parameters that set how fast a rate
	// comes back after cuts (increase timer, additive increase, minimum
	// rate, ...), with their values as summary.json's cca_params has them.
	Recovery []Param `json:"recovery_params"`
}

// Param is one algorithm parameter and its value.
type Param struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}
