package metrics

import (
	"cmp"
	"slices"
	"sort"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// Phase is one interval of a run between two consecutive flow events (a
// flow's start_ns or finish_ns), with the flows active over all of it and
// how they shared the network: the FDCC thesis' fair-share join (Sec. 6.1,
// Fig. 6.2: 4 flows join a link one every 35 ms, and each join or finish
// changes every flow's fair share).
//
// A phase is (StartNs, EndNs]: a packet delivered at t belongs to the
// phase with StartNs < t <= EndNs, so a flow's last packet (delivered at
// its finish_ns) counts in its last phase.
type Phase struct {
	StartNs int64 `json:"start_ns"`
	EndNs   int64 `json:"end_ns"`
	// JainIndex = (Σ x)^2 / (n Σ x^2) over the active flows' RateBps; 0
	// when none delivered anything in the phase.
	JainIndex float64 `json:"jain_index"`
	// Flows are the active flows, by flow_id: started at or before StartNs
	// and not finished before EndNs.
	Flows []PhaseFlow `json:"flows"`
}

// PhaseFlow is one active flow of a Phase.
type PhaseFlow struct {
	FlowID int64 `json:"flow_id"`
	// DeliveredBytes are the wire bytes (payload and headers) of the
	// flow's data packets delivered to its receiver in the phase,
	// go-back-N duplicates included: its throughput, not its goodput.
	DeliveredBytes int64 `json:"delivered_bytes"`
	// RateBps = DeliveredBytes*8 / (EndNs - StartNs), bit/s.
	RateBps float64 `json:"rate_bps"`
	// Share = DeliveredBytes / Σ DeliveredBytes of the phase's flows, in
	// [0, 1]; 0 when the phase delivered nothing.
	Share float64 `json:"share"`
}

// PhaseAccumulator splits a run into Phases from its flow rows, then
// counts the delivered data packets of packets.parquet into them one row
// at a time. Memory is one counter per (phase, active flow), set by the
// flow rows, whatever the number of packet rows. NB: per-phase throughput
// needs the delivery times of packets; the flow rows alone (size_bytes
// over the flow's life) cannot say how a flow's bytes spread over the
// phases of its life.
type PhaseAccumulator struct {
	// bounds are the distinct flow event times, ascending; interval k is
	// (bounds[k], bounds[k+1]].
	bounds []int64
	// slot[k] is interval k's index in phases, -1 when no flow is active
	// in it (it is left out).
	slot   []int
	phases []Phase
}

// NewPhaseAccumulator makes the phases of a run from its flow rows: the
// boundaries are every start_ns of a started flow, every finish_ns of a
// finished flow and, when a started flow did not finish, endNs (the run's
// end, sim_duration_ns), at which such a flow stops being counted.
// Intervals in which no flow is active are left out.
func NewPhaseAccumulator(flows []v2.FlowRow, endNs int64) *PhaseAccumulator {
	var bounds []int64
	for i := range flows {
		f := &flows[i]
		if f.StartNs < 0 {
			continue // never started
		}
		bounds = append(bounds, f.StartNs)
		if finished(f.FinishNs) {
			bounds = append(bounds, f.FinishNs)
		} else if endNs > f.StartNs {
			bounds = append(bounds, endNs)
		}
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	a := &PhaseAccumulator{bounds: bounds}
	for k := 0; k+1 < len(bounds); k++ {
		from, to := bounds[k], bounds[k+1]
		var active []PhaseFlow
		for i := range flows {
			f := &flows[i]
			end := f.FinishNs
			if !finished(end) {
				end = endNs
			}
			if f.StartNs >= 0 && f.StartNs <= from && end >= to {
				active = append(active, PhaseFlow{FlowID: f.FlowID})
			}
		}
		if len(active) == 0 {
			a.slot = append(a.slot, -1)
			continue
		}
		slices.SortFunc(active, func(x, y PhaseFlow) int { return cmp.Compare(x.FlowID, y.FlowID) })
		a.slot = append(a.slot, len(a.phases))
		a.phases = append(a.phases, Phase{StartNs: from, EndNs: to, Flows: active})
	}
	return a
}

// Add counts one packets.parquet row: a DATA deliver row adds its bytes to
// its flow in the phase holding its t_ns, when the flow is active there;
// every other row is ignored.
func (a *PhaseAccumulator) Add(r *v2.PacketRow) {
	if r.Event != v2.EventDeliver || r.Kind != v2.KindData {
		return
	}
	// The first bound >= t ends the interval (bounds[i-1], bounds[i]].
	i := sort.Search(len(a.bounds), func(i int) bool { return a.bounds[i] >= r.TNs })
	if i == 0 || i == len(a.bounds) || a.slot[i-1] < 0 {
		return
	}
	fs := a.phases[a.slot[i-1]].Flows
	j := sort.Search(len(fs), func(j int) bool { return fs[j].FlowID >= r.FlowID })
	if j < len(fs) && fs[j].FlowID == r.FlowID {
		fs[j].DeliveredBytes += int64(r.Bytes)
	}
}

// Phases returns the phases with their rates, shares and Jain indices,
// in time order. The accumulator stays usable.
func (a *PhaseAccumulator) Phases() []Phase {
	out := make([]Phase, len(a.phases))
	for k, p := range a.phases {
		p.Flows = slices.Clone(p.Flows)
		dur := float64(p.EndNs - p.StartNs)
		var total int64
		rates := make([]float64, len(p.Flows))
		for i := range p.Flows {
			total += p.Flows[i].DeliveredBytes
		}
		for i := range p.Flows {
			f := &p.Flows[i]
			f.RateBps = ratio(float64(f.DeliveredBytes)*8e9, dur)
			f.Share = ratio(float64(f.DeliveredBytes), float64(total))
			rates[i] = f.RateBps
		}
		p.JainIndex = jainIndex(rates)
		out[k] = p
	}
	return out
}
