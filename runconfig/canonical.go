package runconfig

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/switchmodel"
)

// Canonical is one run's configuration fully resolved, in a form that
// serialises deterministically (JSON, map keys sorted): two runs with
// equal Canonical values are the same run, so a sweep can name a point by
// its Hash and skip a point whose folder holds a run of the same hash.
// Every value is the effective one (defaults and presets applied), not
// what the user typed.
type Canonical struct {
	// Workload is the trace file or the generator spec; WorkloadSHA256 the
	// SHA-256 of the trace file's bytes ("" for a generator: the spec and
	// the seed determine it).
	Workload       string `json:"workload"`
	WorkloadSHA256 string `json:"workload_sha256,omitempty"`
	// Topology is the topology's name (its spec as resolved).
	Topology string `json:"topology"`
	// CCA is the algorithm as resolved ("dcqcn:zhu2015") and CCAParams
	// every parameter's effective value.
	CCA       string            `json:"cca"`
	CCAParams map[string]string `json:"cca_params"`
	Seed      uint64            `json:"seed"`
	Packets   string            `json:"packets"`
	// MaxTimeNs and CheckNs are the stop time and the conservation check
	// period, ns (0 = none).
	MaxTimeNs int64 `json:"max_time_ns"`
	CheckNs   int64 `json:"check_ns"`
	// Switch and NIC are the network models' configurations.
	Switch switchmodel.Config `json:"switch"`
	NIC    nic.Config         `json:"nic"`
	// LocalRateBps is the same-host copy rate, bit/s (0 = instant).
	LocalRateBps int64 `json:"local_rate_bps"`
	// PPN is the MPI processes per node of an application trace (DUMPI,
	// OTF2, Chakra; 0 otherwise) and ComputeScale the factor on its
	// compute gaps (0 when 1 or not an application trace).
	PPN          int     `json:"ppn,omitempty"`
	ComputeScale float64 `json:"compute_scale,omitempty"`
}

// Canonical describes the run cfg (built by st.Config) resolves to. A trace
// file is hashed (read once more from disk).
func (st *Setup) Canonical(cfg *replay.Config) (Canonical, error) {
	c := Canonical{
		Workload: st.TraceName, Topology: cfg.Topology.Name, CCA: cfg.CC.Name, CCAParams: cfg.CC.Params,
		Seed: cfg.Seed, Packets: string(cfg.Packets), MaxTimeNs: cfg.MaxTime.Nanoseconds(),
		CheckNs: cfg.CheckEvery.Nanoseconds(), Switch: cfg.Switch, NIC: cfg.NIC, LocalRateBps: int64(cfg.LocalRate),
	}
	if AppFormatOf(st.Req.Trace) != "" {
		c.PPN = st.Req.PPN
		if s := st.Req.ComputeScale; s != 0 && s != 1 {
			c.ComputeScale = s
		}
	}
	if st.Req.Trace != "" || st.HPCC != nil {
		sum, err := fileSHA256(st.TraceName)
		if err != nil {
			return c, fmt.Errorf("hashing the workload: %w", err)
		}
		c.WorkloadSHA256 = sum
	}
	return c, nil
}

// JSON is c as indented JSON, the form Hash digests.
func (c Canonical) JSON() ([]byte, error) { return json.MarshalIndent(c, "", "  ") }

// Hash is the hex SHA-256 of c's JSON: the identity of a run.
func (c Canonical) Hash() (string, error) {
	b, err := c.JSON()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// fileSHA256 is the hex SHA-256 of the regular file path's bytes. A file
// that is not regular (a named pipe: refused at once, not waited on) or
// larger than any input may be is an error naming it.
func fileSHA256(path string) (string, error) {
	in, err := limits.Open(path, "a hashed workload file", limits.MaxHashedFileBytes, true)
	if err != nil {
		return "", err
	}
	defer in.Close()
	h := sha256.New()
	if _, err := io.Copy(h, in.Reader); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
