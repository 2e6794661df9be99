package metrics

import (
	"reflect"
	"testing"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// deliver is a DATA deliver row of flow at t.
func deliver(flow, t int64, bytes int32) v2.PacketRow {
	return v2.PacketRow{TNs: t, Event: v2.EventDeliver, Kind: v2.KindData, FlowID: flow, Bytes: bytes}
}

// The FDCC thesis' fair-share join (Sec. 6.1, Fig. 6.2), hand-computed:
// flow 0 over [0, 3000] ns, flow 1 over [1000, 2000], flow 2 from 1000
// unfinished at the run's end 4000; flow 3 never started. Phases
// (0,1000] {0}, (1000,2000] {0,1,2}, (2000,3000] {0,2}, (3000,4000] {2}.
func TestPhases(t *testing.T) {
	flows := []v2.FlowRow{
		{FlowID: 2, StartNs: 1000, FinishNs: -1},
		{FlowID: 0, StartNs: 0, FinishNs: 3000},
		{FlowID: 1, StartNs: 1000, FinishNs: 2000},
		{FlowID: 3, StartNs: -1, FinishNs: -1},
	}
	acc := NewPhaseAccumulator(flows, 4000)
	for _, r := range []v2.PacketRow{
		deliver(0, 500, 1000),
		deliver(0, 1000, 1000), // at a boundary: the phase it ends
		{TNs: 900, Event: v2.EventDequeue, Kind: v2.KindData, FlowID: 0, Bytes: 1000}, // not a delivery
		{TNs: 950, Event: v2.EventDeliver, Kind: v2.KindAck, FlowID: 0, Bytes: 60},    // not data
		deliver(0, 1500, 500),
		deliver(1, 1500, 500),
		deliver(2, 1800, 500),
		deliver(1, 2000, 1000), // flow 1's last packet, at its finish
		deliver(2, 2500, 1000),
		deliver(1, 2500, 1000), // a duplicate after flow 1 finished: not counted
		deliver(0, 3000, 500),  // flow 0's last packet, at its finish
		deliver(2, 3500, 2000),
		deliver(2, 4500, 1000), // after the run's end: no phase
		deliver(3, 1500, 1000), // a flow that never started
	} {
		acc.Add(&r)
	}
	got := acc.Phases()
	want := []Phase{
		// 2000 B in 1000 ns = 16 Gb/s.
		{StartNs: 0, EndNs: 1000, JainIndex: 1, Flows: []PhaseFlow{{FlowID: 0, DeliveredBytes: 2000, RateBps: 16e9, Share: 1}}},
		// 500, 1500, 500 B: 4, 12, 4 Gb/s; Jain = 20^2 / (3 (16 + 144 + 16)) = 400/528.
		{StartNs: 1000, EndNs: 2000, JainIndex: 400.0 / 528, Flows: []PhaseFlow{
			{FlowID: 0, DeliveredBytes: 500, RateBps: 4e9, Share: 0.2},
			{FlowID: 1, DeliveredBytes: 1500, RateBps: 12e9, Share: 0.6},
			{FlowID: 2, DeliveredBytes: 500, RateBps: 4e9, Share: 0.2},
		}},
		// 500, 1000 B: 4, 8 Gb/s; Jain = 12^2 / (2 (16 + 64)) = 0.9.
		{StartNs: 2000, EndNs: 3000, JainIndex: 0.9, Flows: []PhaseFlow{
			{FlowID: 0, DeliveredBytes: 500, RateBps: 4e9, Share: 1.0 / 3},
			{FlowID: 2, DeliveredBytes: 1000, RateBps: 8e9, Share: 2.0 / 3},
		}},
		{StartNs: 3000, EndNs: 4000, JainIndex: 1, Flows: []PhaseFlow{{FlowID: 2, DeliveredBytes: 2000, RateBps: 16e9, Share: 1}}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d phases, want %d: %+v", len(got), len(want), got)
	}
	for k := range want {
		g, w := got[k], want[k]
		if g.StartNs != w.StartNs || g.EndNs != w.EndNs || !closeTo(g.JainIndex, w.JainIndex) || len(g.Flows) != len(w.Flows) {
			t.Errorf("phase %d: %+v, want %+v", k, g, w)
			continue
		}
		for i := range w.Flows {
			gf, wf := g.Flows[i], w.Flows[i]
			if gf.FlowID != wf.FlowID || gf.DeliveredBytes != wf.DeliveredBytes || !closeTo(gf.RateBps, wf.RateBps) || !closeTo(gf.Share, wf.Share) {
				t.Errorf("phase %d flow %d: %+v, want %+v", k, i, gf, wf)
			}
		}
	}
	// Phases does not consume the accumulator.
	if again := acc.Phases(); !reflect.DeepEqual(again, got) {
		t.Errorf("a second Phases() differs: %+v", again)
	}
}

// An interval with no active flow is not a phase; a phase whose flows
// delivered nothing has zero rates, shares and Jain index (no NaN).
func TestPhasesGapsAndSilence(t *testing.T) {
	flows := []v2.FlowRow{
		{FlowID: 0, StartNs: 0, FinishNs: 1000},
		{FlowID: 1, StartNs: 2000, FinishNs: 3000},
	}
	acc := NewPhaseAccumulator(flows, 3000)
	r := deliver(0, 1000, 1048)
	acc.Add(&r)
	got := acc.Phases()
	want := []Phase{
		{StartNs: 0, EndNs: 1000, JainIndex: 1, Flows: []PhaseFlow{{FlowID: 0, DeliveredBytes: 1048, RateBps: 8384e6, Share: 1}}},
		{StartNs: 2000, EndNs: 3000, Flows: []PhaseFlow{{FlowID: 1}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("phases %+v\nwant %+v", got, want)
	}
	if got := NewPhaseAccumulator(nil, 0).Phases(); len(got) != 0 {
		t.Errorf("no flows: %+v", got)
	}
}
