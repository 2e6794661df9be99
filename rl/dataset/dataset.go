// Package dataset records reward datasets: decisions.parquet, one row per
// congestion-control decision of every flow of a run (schema
// v1.DecisionRow, documented in docs/DATASETS.md).
//
// A Recorder wraps each flow's cca.Algorithm through replay.Config.WrapCC.
// The wrapper forwards every call unchanged, so a run with the recorder is
// the run without it (tested byte for byte on flows.parquet); it watches
// the algorithm's inputs (ACKs with their RTT, ECN echo, INT stack and
// acknowledged bytes; CNPs; NACKs; timeouts; message completions) and its
// outputs (Rate, Window).
//
// A decision is an event after which the algorithm's rate or window
// differs from its values at the flow's previous row, at least one
// decision interval (default: the flow's base RTT) after that row; changes
// inside an interval are coalesced into the next row. The observation
// columns aggregate the events since the previous row.
//
// Rows are streamed to a temporary Parquet file in the order the
// simulation emits them (time, then the kernel's deterministic event
// order). next_row, done and the n-step return need the flow's future
// rows, so Close makes a backward pass over a small side file (12 bytes a
// row, on disk) and a forward pass that copies the rows into
// decisions.parquet: memory stays bounded by the number of flows and the
// batch size, not by the number of rows.
package dataset

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/rl/reward"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/topology"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// FileName is the dataset's file name inside the output folder.
const FileName = runfolder.DecisionsFile

// Reward names accepted by ParseRewards, in the order of the columns.
// Every reading of FDCC's reward (rl/reward.FDCCReadings) is a name too.
const (
	RewardDolce        = "dolce"         // reward_dolce: Dolce-RC (Ye 2023), Eq. 4
	RewardDolcePlus    = "dolceplus"     // reward_dolceplus: Dolce-RC (Ye 2023), Eq. 5
	RewardRLCC         = "rlcc"          // reward_rlcc: RL-CC-NIC (Fuhrer 2023), Eq. 1
	RewardRLCCBetaFree = "rlcc-betafree" // reward_rlcc_betafree: RL-CC (Tessler 2022), Section 4
	RewardFDCC         = "fdcc"          // reward_fdcc and return_fdcc_nstep: FDCC (Zhang 2023), Algorithm 1, THROUGHPUT over the fair share
	RewardFDCCLiteral  = "fdcc-literal"  // the same columns: FDCC (Zhang 2023), Algorithm 1 as printed
	RewardFDCCLink     = "fdcc-link"     // the same columns: FDCC (Zhang 2023), Algorithm 1 with the link's throughput in the first term
)

// RewardNames lists the known reward names: the four single-column ones,
// then every reading of FDCC's reward in rl/reward.FDCCReadings' order.
func RewardNames() []string {
	out := []string{RewardDolce, RewardDolcePlus, RewardRLCC, RewardRLCCBetaFree}
	for _, r := range reward.FDCCReadings {
		out = append(out, string(r))
	}
	return out
}

// Rewards selects the reward columns to compute; the others hold NaN.
type Rewards struct {
	Dolce, DolcePlus, RLCC, RLCCBetaFree bool
	// FDCC is the reading of FDCC (Zhang 2023), Algorithm 1, that fills
	// reward_fdcc and return_fdcc_nstep (one of rl/reward.FDCCReadings;
	// "": neither column). The readings share the columns, so a dataset
	// has at most one.
	FDCC reward.FDCCReward
}

// AnyFDCC reports whether one of FDCC's readings fills reward_fdcc.
func (r Rewards) AnyFDCC() bool { return r.FDCC != "" }

// All selects every reward ("all"): FDCC in ccreplay's reading.
func All() Rewards {
	return Rewards{Dolce: true, DolcePlus: true, RLCC: true, RLCCBetaFree: true, FDCC: reward.FDCCNormalised}
}

// ParseRewards parses a comma-separated list of reward names ("all" for
// every one, FDCC in the reading the list names or else in ccreplay's).
// An unknown name, or two readings of FDCC's reward, is an error.
func ParseRewards(s string) (Rewards, error) {
	var r Rewards
	all := false
	for _, name := range strings.Split(s, ",") {
		switch name = strings.TrimSpace(name); name {
		case RewardDolce:
			r.Dolce = true
		case RewardDolcePlus:
			r.DolcePlus = true
		case RewardRLCC:
			r.RLCC = true
		case RewardRLCCBetaFree:
			r.RLCCBetaFree = true
		case "all":
			all = true
		case "":
		default:
			f := reward.FDCCReward(name)
			if !f.Known() {
				return r, fmt.Errorf("unknown reward %q (known: %s, all)", name, strings.Join(RewardNames(), ", "))
			}
			if r.FDCC != "" && r.FDCC != f {
				return r, fmt.Errorf("%s and %s both fill reward_fdcc: give one (\"all\" means %s)", r.FDCC, f, RewardFDCC)
			}
			r.FDCC = f
		}
	}
	if all {
		f := r.FDCC
		r = All()
		if f != "" {
			r.FDCC = f
		}
	}
	return r, nil
}

// Names lists the selected rewards in column order (FDCC's by the name of
// its reading).
func (r Rewards) Names() []string {
	var out []string
	for i, on := range []bool{r.Dolce, r.DolcePlus, r.RLCC, r.RLCCBetaFree} {
		if on {
			out = append(out, RewardNames()[i])
		}
	}
	if r.FDCC != "" {
		out = append(out, string(r.FDCC))
	}
	return out
}

// IntervalBaseRTT, as Config.Interval, makes each flow's decision interval
// its path's base RTT.
const IntervalBaseRTT units.Time = -1

// FlowMeta is what the recorder knows of a flow besides its algorithm.
type FlowMeta struct {
	Src, Dst int32
	// SizeBytes is the payload of all the flow's messages, bytes; the flow
	// stops counting toward flows_to_dst once that many bytes are acked.
	SizeBytes int64
	// DstRate is the receiver's link rate, bits per second (0: the
	// sender's line rate is used to normalise goodput).
	DstRate units.BitsPerSec
}

// Flows returns the FlowMeta of every flow of tr, indexed by the flow id
// replay.Run gives it (replay.NumberFlows: queue pairs in order of first
// appearance; messages between endpoints on the same host have no flow), with receiver link
// rates from topo (nil: unknown).
func Flows(tr *trace.Trace, topo *topology.Topology) []FlowMeta {
	flowOf, first := replay.NumberFlows(tr.Messages)
	out := make([]FlowMeta, len(first))
	for fid, i := range first {
		m := &tr.Messages[i]
		out[fid] = FlowMeta{Src: m.Src, Dst: m.Dst}
		if topo != nil && int(m.Dst) < len(topo.Nodes) && len(topo.Nodes[m.Dst].Ports) > 0 {
			out[fid].DstRate = topo.Nodes[m.Dst].Ports[0].Rate
		}
	}
	for i, fid := range flowOf {
		if fid >= 0 {
			out[fid].SizeBytes += tr.Messages[i].Bytes
		}
	}
	return out
}

// Config is what a Recorder needs besides the run.
type Config struct {
	// RunID and CCA fill the run_id and cca columns.
	RunID, CCA string
	// Flows describes the run's flows by id (see Flows); a flow beyond it
	// gets src = dst = -1 and flows_to_dst = -1.
	Flows []FlowMeta
	// Interval is the minimum time between two rows of a flow,
	// picoseconds: IntervalBaseRTT (or any negative value) for the flow's
	// base RTT, 0 for a row at every change of rate or window.
	Interval units.Time
	// Rewards selects the reward columns.
	Rewards Rewards
	// Target and Beta are RL-CC's inflation target (> 0, dimensionless)
	// and congestion tolerance (>= 0, an RTT inflation), used as given;
	// RL-CC-NIC (Fuhrer 2023) uses reward.RLCCTarget and reward.RLCCBeta.
	Target, Beta float64
	// Gamma is the discount of return_fdcc_nstep, in [0, 1], used as
	// given (DefaultGamma is the CLI's default); NStep its number of steps
	// (<= 0: to the end of the flow).
	Gamma float64
	NStep int
	// DolcePlusArms is K, the Dolce-RC+ arm count used to map a rate to
	// an arm index (0: reward.DolcePlusArms).
	DolcePlusArms int
	// Batch is the number of rows per write batch (0: output.DefaultBatch).
	Batch int
}

// Default discounting of return_fdcc_nstep. FDCC (Zhang 2023) gives no
// values.
const (
	DefaultGamma = 0.99
	DefaultNStep = 5
)

func (c *Config) validate() error {
	c.DolcePlusArms = cmp.Or(c.DolcePlusArms, reward.DolcePlusArms)
	switch {
	case !(c.Target > 0) || math.IsInf(c.Target, 0):
		return fmt.Errorf("dataset: rlcc target must be a finite number > 0, got %v", c.Target)
	case !(c.Beta >= 0) || math.IsInf(c.Beta, 0):
		return fmt.Errorf("dataset: rlcc beta must be a finite number >= 0, got %v", c.Beta)
	case !(c.Gamma >= 0 && c.Gamma <= 1):
		return fmt.Errorf("dataset: gamma must be in [0, 1], got %v", c.Gamma)
	case c.DolcePlusArms < 1 || c.DolcePlusArms > 62:
		return fmt.Errorf("dataset: dolceplus arms must be in [1, 62], got %d", c.DolcePlusArms)
	}
	return nil
}
