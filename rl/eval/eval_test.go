package eval

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/cca/linerate"
	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/internal/replaytest/star"
	"github.com/ccreplay/ccreplay/rl/scenario"
	"github.com/ccreplay/ccreplay/units"
)

// spec builds name from a registry of line rate and DCQCN.
func spec(t *testing.T, name string) cca.Spec {
	t.Helper()
	return star.Spec(t, name, nil, linerate.Register, dcqcn.Register)
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestMeterByHand feeds the meter a hand-made event sequence and checks
// each definition of RL-CC (Tessler 2022), Table 1 (SU, FR = min*100/max,
// QL, DR) and the goodput of RL-CC-NIC (Fuhrer 2023), Table III
// (retransmissions excluded).
func TestMeterByHand(t *testing.T) {
	sc, err := scenario.ManyToOne(2, scenario.Options{Rate: 100 * units.Gbps}, 1)
	if err != nil {
		t.Fatal(err)
	}
	us := units.Microsecond
	m := newMeter(sc, 10*us) // window [10us, 20us)
	sw := int32(sc.Topology.NumHosts)
	rx := int32(sc.Hosts)
	data := func(flow int32, psn int64, sent, enq units.Time) *fabric.Packet {
		return &fabric.Packet{Kind: fabric.Data, Flow: flow, PSN: psn, Dst: rx, Size: 1048, Payload: 1000, SentAt: sent, EnqAt: enq}
	}
	// Before the window: counted for in-order tracking only.
	m.Deliver(5*us, rx, data(0, 0, 4*us, 4*us))
	m.Dequeue(5*us, sw, 2, data(0, 0, 4*us, 4*us))
	// In the window: flow 0 gets PSN 1 and 2, flow 1 PSN 0, then a
	// duplicate of flow 1's PSN 0 and an out-of-order PSN 5.
	m.Deliver(12*us, rx, data(0, 1, 10*us, 11*us))
	m.Deliver(13*us, rx, data(0, 2, 11*us, 12*us))
	m.Deliver(14*us, rx, data(1, 0, 12*us, 12*us))
	m.Deliver(15*us, rx, data(1, 0, 12*us, 12*us))
	m.Deliver(16*us, rx, data(1, 5, 12*us, 12*us))
	// Two bottleneck dequeues with 1 us and 3 us of queueing; a host NIC
	// dequeue and an ACK that must not count.
	m.Dequeue(12*us, sw, 2, data(0, 1, 10*us, 11*us))
	m.Dequeue(15*us, sw, 2, data(1, 0, 12*us, 12*us))
	m.Dequeue(15*us, 0, 0, data(0, 3, 15*us, 15*us))
	m.Dequeue(15*us, sw, 0, &fabric.Packet{Kind: fabric.Ack, Flow: 0, Dst: 0, Size: 60, EnqAt: 0})
	// One drop in the window, one before.
	m.Drop(9*us, sw, 2, data(1, 1, 8*us, 9*us))
	m.Drop(17*us, sw, 2, data(1, 1, 16*us, 17*us))

	r := m.result("test", sc, 20*us)
	win := 10e-6 // seconds
	// SU: 2 x 1048 B x 8 / (100 Gb/s x 10 us) = 1.6768 %.
	if want := 100 * 2 * 1048 * 8 / (100e9 * win); !near(r.SU, want, 1e-9) {
		t.Errorf("SU = %v, want %v", r.SU, want)
	}
	// QL: mean of 1 us and 3 us.
	if !near(r.QL, 2, 1e-12) {
		t.Errorf("QL = %v us, want 2", r.QL)
	}
	// DR: one 1048 B packet in 10 us = 0.8384 Gbit/s.
	if want := 1048 * 8 / win / 1e9; !near(r.DR, want, 1e-12) || r.DropPkts != 1 {
		t.Errorf("DR = %v Gbit/s (%d pkts), want %v (1)", r.DR, r.DropPkts, want)
	}
	// Goodput: 3 in-order payloads (2 of flow 0, 1 of flow 1) = 3000 B.
	if want := 3000 * 8 / (100e9 * win); !near(r.Goodput, want, 1e-12) {
		t.Errorf("goodput = %v, want %v", r.Goodput, want)
	}
	// FR: min/max of 1000 B and 2000 B = 50.
	if !near(r.FR, 50, 1e-12) {
		t.Errorf("FR = %v, want 50", r.FR)
	}
	// Shares: fair share is 100 Gb/s / 2 x 10 us = 62500 B.
	if !near(r.ShareMin, 1000.0/62500, 1e-12) || !near(r.ShareMax, 2000.0/62500, 1e-12) {
		t.Errorf("shares %v-%v", r.ShareMin, r.ShareMax)
	}
	// Jain: (1000+2000)^2 / (2 (1000^2 + 2000^2)) = 0.9.
	if !near(r.Jain, 0.9, 1e-12) {
		t.Errorf("Jain = %v, want 0.9", r.Jain)
	}
	// Latency: the 5 packets delivered in the window took 2, 2, 2, 3, 4 us.
	if !near(r.Latency, 13.0/5, 1e-12) {
		t.Errorf("latency = %v us, want 2.6", r.Latency)
	}
}

// TestLineRatePhysics: 4 uncontrolled flows into one 100 Gb/s link. With
// PFC the link is fully used and goodput is payload/wire = 1000/1048 of it;
// without, the excess 3 x 100 Gb/s is dropped at the switch.
func TestLineRatePhysics(t *testing.T) {
	lr := spec(t, "linerate")
	o := Options{Duration: 400 * units.Microsecond, Warmup: 200 * units.Microsecond, Seed: 1}
	r, err := ManyToOne(lr, 4, o)
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.SU, 100, 0.5) || r.DR != 0 || !near(r.Goodput, 1000.0/1048, 0.005) {
		t.Fatalf("lossless line rate: SU %v DR %v goodput %v, want 100, 0, 0.954", r.SU, r.DR, r.Goodput)
	}
	if r.Latency < 2 { // at least the 2 x 1 us of propagation
		t.Fatalf("latency %v us below the propagation delay", r.Latency)
	}
	o.Lossy = true
	r, err = ManyToOne(lr, 4, o)
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.SU, 100, 0.5) || r.DR < 250 || r.DR > 300.5 || r.DropPkts == 0 {
		t.Fatalf("lossy line rate: SU %v DR %v Gbit/s, want 100 and about 300", r.SU, r.DR)
	}
	if r.Goodput >= r.SU/100 {
		t.Fatalf("goodput %v not below utilisation %v with drops", r.Goodput, r.SU/100)
	}
}

// TestDeterministic: a run's figures are a function of its inputs.
func TestDeterministic(t *testing.T) {
	d := spec(t, "dcqcn")
	o := Options{Duration: 300 * units.Microsecond, Seed: 3}
	a, err := ManyToOne(d, 8, o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ManyToOne(d, 8, o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("two runs differ:\n%+v\n%+v", a, b)
	}
}

func TestOptionsRejected(t *testing.T) {
	lr := spec(t, "linerate")
	for _, c := range []struct {
		o    Options
		n    int
		want string
	}{
		{Options{Duration: units.Millisecond, Warmup: 2 * units.Millisecond}, 4, "warmup"},
		{Options{Duration: -1}, 4, "duration"},
		{Options{}, 0, "flows must be in"},
	} {
		if _, err := ManyToOne(lr, c.n, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v n=%d: err %v, want %q", c.o, c.n, err, c.want)
		}
	}
	if _, err := Compare(nil, []int{4}, Options{}, nil); err == nil {
		t.Error("Compare with no entries succeeded")
	}
}

func TestCompareAndTables(t *testing.T) {
	lr := spec(t, "linerate")
	var seen int
	rows, err := Compare([]Entry{{Label: "a", Spec: lr}, {Label: "b", Spec: lr}}, []int{2, 3},
		Options{Duration: 200 * units.Microsecond}, func(Result) { seen++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || seen != 4 || rows[0].Label != "a" || rows[1].Flows != 3 || rows[2].Label != "b" {
		t.Fatalf("rows %+v", rows)
	}
	var b bytes.Buffer
	if err := WriteTable1(&b, rows); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{"2 to 1", "3 to 1", "SU", "FR", "QL", "DR", "share", "\na ", "\nb "} {
		if !strings.Contains(out, s) {
			t.Errorf("Table 1 lacks %q:\n%s", s, out)
		}
	}
	b.Reset()
	if err := WriteTableIII(&b, rows); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "GP") || !strings.Contains(out, "Latency") || strings.Count(out, "\n") != 4 {
		t.Errorf("Table III:\n%s", out)
	}
}

// TestFairest: the run of smallest FR among the flow counts, the same
// Result ManyToOne gives for that count; no flow counts is an error.
func TestFairest(t *testing.T) {
	s := spec(t, "dcqcn")
	o := Options{Duration: 2 * units.Millisecond}
	want := Result{FR: math.Inf(1)}
	for _, n := range []int{2, 3, 5} {
		r, err := ManyToOne(s, n, o)
		if err != nil {
			t.Fatal(err)
		}
		if r.FR < want.FR {
			want = r
		}
	}
	got, err := Fairest(s, []int{2, 3, 5}, o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Fairest = %+v, want %+v", got, want)
	}
	if _, err := Fairest(s, nil, o); err == nil {
		t.Fatal("no flow counts accepted")
	}
}

// The window and fabric names the tables' titles print.
func TestWindowAndFabricNames(t *testing.T) {
	if w := (Options{Duration: 10 * units.Millisecond}).Window(); w != "5ms..10ms" {
		t.Errorf("default window %q, want 5ms..10ms (the second half)", w)
	}
	if w := (Options{Duration: 4 * units.Millisecond, Warmup: units.Millisecond}).Window(); w != "1ms..4ms" {
		t.Errorf("window %q, want 1ms..4ms", w)
	}
	if FabricName(true) != "lossy" || FabricName(false) != "lossless" {
		t.Error("fabric names")
	}
}
