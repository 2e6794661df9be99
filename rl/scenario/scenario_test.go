package scenario

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca"
	"github.com/ccreplay/ccreplay/cca/linerate"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/units"
)

// TestManyToOneShape: N flows from distinct senders into host N through
// one switch (RL-CC, Tessler 2022, Section 8, "Many-to-one"); flow counts of
// RL-CC (Tessler 2022), Table 6, take its hosts x flows-per-host.
func TestManyToOneShape(t *testing.T) {
	for _, tc := range []struct{ flows, hosts, perHost int }{
		{2, 2, 1}, {4, 4, 1}, {8, 8, 1}, {128, 64, 2}, {2048, 64, 32},
	} {
		s, err := ManyToOne(tc.flows, Options{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if s.Flows != tc.flows || s.Hosts != tc.hosts || len(s.Trace.Messages) != tc.flows || s.Topology.NumHosts != tc.hosts+1 {
			t.Fatalf("%d flows: %d hosts, %d messages, topology %s", tc.flows, s.Hosts, len(s.Trace.Messages), s.Topology.Name)
		}
		senders := map[int32]int{}
		for _, m := range s.Trace.Messages {
			if m.Dst != int32(tc.hosts) || m.Release != 0 {
				t.Fatalf("message %+v: want dst %d released at 0", m, tc.hosts)
			}
			senders[m.Src]++
		}
		if len(senders) != tc.hosts || senders[0] != tc.perHost {
			t.Fatalf("%d flows: %d senders with %d flows each, want %d x %d", tc.flows, len(senders), senders[0], tc.hosts, tc.perHost)
		}
		// Long flows: one flow alone at 100 Gb/s for 5 ms sends 62.5 MB.
		if b := s.Trace.Messages[0].Bytes; b < int64(125*units.MB) || s.Duration != 5*units.Millisecond || s.Rate != 100*units.Gbps {
			t.Fatalf("flow of %d bytes, duration %v, rate %v", b, s.Duration, s.Rate)
		}
		if !s.Switch.PFC.Enabled {
			t.Fatal("default scenario is lossy")
		}
	}
}

// TestOptions: lossy mode, jitter from the seed, explicit per-host and
// the errors.
func TestOptions(t *testing.T) {
	a, err := ManyToOne(8, Options{Lossy: true, Jitter: 10 * units.Microsecond, PerHost: 4, BufferBytes: units.MB}, 7)
	if err != nil {
		t.Fatal(err)
	}
	if a.Switch.PFC.Enabled || a.Switch.BufferBytes != units.MB || a.Hosts != 2 {
		t.Fatalf("lossy 8 flows, 4 per host: PFC %v, buffer %d, hosts %d", a.Switch.PFC.Enabled, a.Switch.BufferBytes, a.Hosts)
	}
	b, _ := ManyToOne(8, Options{Lossy: true, Jitter: 10 * units.Microsecond, PerHost: 4, BufferBytes: units.MB}, 7)
	c, _ := ManyToOne(8, Options{Lossy: true, Jitter: 10 * units.Microsecond, PerHost: 4, BufferBytes: units.MB}, 8)
	if !reflect.DeepEqual(a.Trace, b.Trace) || reflect.DeepEqual(a.Trace, c.Trace) {
		t.Fatal("start times are not a function of the seed")
	}
	for _, m := range a.Trace.Messages {
		if m.Release < 0 || m.Release >= 10*units.Microsecond {
			t.Fatalf("release %v outside the jitter window", m.Release)
		}
	}
	for _, bad := range []struct {
		flows int
		o     Options
		want  string
	}{
		{0, Options{}, "flows must be in 1..8192"},
		{6, Options{PerHost: 4}, "not a multiple"},
		{4, Options{Jitter: 1500}, "whole nanoseconds"},
		{4, Options{Duration: -1}, "must not be negative"},
	} {
		_, err := ManyToOne(bad.flows, bad.o, 1)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ManyToOne(%d, %+v): %v, want %q", bad.flows, bad.o, err, bad.want)
		}
	}
}

// TestRunStopsAtDuration: Config stops the replay at Duration, and two
// line-rate flows keep the receiver's 100 Gb/s link busy meanwhile.
func TestRunStopsAtDuration(t *testing.T) {
	s, err := ManyToOne(2, Options{Duration: 200 * units.Microsecond}, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := cca.NewRegistry()
	linerate.Register(r)
	spec, err := r.Build("linerate", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := s.Config(spec, 1)
	if cfg.MaxTime != s.Duration || cfg.Packets != "none" {
		t.Fatalf("config: max time %v, packets %q", cfg.MaxTime, cfg.Packets)
	}
	res, err := s.Run(spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.SimEnd > s.Duration || metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).FlowsFinished != 0 {
		t.Fatalf("ran to %v with %d flows finished; want to stop by %v with none", res.SimEnd, metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).FlowsFinished, s.Duration)
	}
	var rx int64
	for _, p := range res.Ports {
		if p.IsSwitch && p.PeerNode == int32(s.Hosts) {
			rx = p.TxDataBytes
		}
	}
	// 200 us at 100 Gb/s is 2.5 MB on the wire; the first packet arrives
	// after about 2 us.
	if util := float64(rx) * 8 / (100e9 * 200e-6); util < 0.95 || util > 1 {
		t.Fatalf("receiver link utilization %.3f", util)
	}
}

// TestStartRates: log-uniform draws in [lo, 1] (all 1 for lo = 1), and
// within decades of 1/N for StartRatesAround; the same seed repeats.
func TestStartRates(t *testing.T) {
	r := StartRates(1000, 0.01, 4)
	below := 0
	for _, v := range r {
		if v < 0.01 || v > 1 {
			t.Fatalf("rate %v outside [0.01, 1]", v)
		}
		if v < 0.1 {
			below++
		}
	}
	// log-uniform over two decades: half the draws below 0.1.
	if below < 430 || below > 570 {
		t.Fatalf("%d of 1000 draws below 0.1, want about 500", below)
	}
	if !reflect.DeepEqual(r, StartRates(1000, 0.01, 4)) || reflect.DeepEqual(r, StartRates(1000, 0.01, 5)) {
		t.Fatal("draws do not follow the seed")
	}
	for _, v := range StartRates(5, 1, 4) {
		if v != 1 {
			t.Fatalf("lo = 1: rate %v", v)
		}
	}
	for _, v := range StartRatesAround(1000, 1, 4) {
		if v < 0.1/1000 || v > 10.0/1000 {
			t.Fatalf("rate %v not within a decade of 1/1000", v)
		}
	}
	for _, v := range StartRatesAround(4, 2, 4) {
		if v > 1 {
			t.Fatalf("rate %v above line rate", v)
		}
	}
}
