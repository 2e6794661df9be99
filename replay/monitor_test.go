package replay

import (
	"reflect"
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/units"
)

// The PFC observer sees every PAUSE where it arrives: per (node, port)
// as many as that port counts received, RESUMEs after PAUSEs, and a run
// with an observer has the same results as one without.
func TestPFCObserver(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=8,size=1MB", 1)
	cfg := baseConfig(t, replaytest.Topology(t, "", tr.Hosts), "linerate")
	cfg.Switch.BufferBytes = 2 * units.MB
	plain := mustRun(t, cfg, tr, "")
	type key struct{ node, port int32 }
	pauses := map[key]int64{}
	paused := map[key]bool{}
	last := units.Time(0)
	cfg.PFCObserver = func(now units.Time, node, port int32, prio uint8, pause bool) {
		if now < last {
			t.Fatalf("PFC frames out of time order: %v after %v", now, last)
		}
		last = now
		k := key{node, port}
		if pause {
			pauses[k]++
		} else if !paused[k] {
			t.Errorf("RESUME at node %d port %d before any PAUSE", node, port)
		}
		paused[k] = pause
		if prio != 3 {
			t.Errorf("frame for class %d, want the data class 3", prio)
		}
	}
	res := mustRun(t, cfg, tr, "")
	var n int64
	for _, p := range res.Ports {
		if got := pauses[key{p.Node, p.Port}]; got != p.PausesReceived {
			t.Errorf("node %d port %d: observed %d PAUSE, the port counts %d", p.Node, p.Port, got, p.PausesReceived)
		}
		n += p.PausesReceived
	}
	if n == 0 {
		t.Fatal("no PAUSE in the run")
	}
	if !reflect.DeepEqual(res.Flows, plain.Flows) || !reflect.DeepEqual(res.Ports, plain.Ports) {
		t.Error("observing PFC changed the run")
	}
}

// The sampler runs at Start, then every Every until the first sample at
// or after End (the HPCC simulator's monitor_buffer), sees what the
// switch queues hold, and stops with the run.
func TestQueueSampler(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=4,size=200KB", 1)
	cfg := baseConfig(t, replaytest.Topology(t, "", tr.Hosts), "linerate")
	var times []units.Time
	var peak units.Bytes
	cfg.QueueSampler = &QueueSampler{Start: 3 * units.Microsecond, Every: 250 * units.Nanosecond, End: 20 * units.Microsecond,
		Sample: func(now units.Time, sws []*switchmodel.Switch) {
			times = append(times, now)
			if len(sws) != 1 || sws[0].NumPorts() != tr.Hosts {
				t.Fatalf("switches %d", len(sws))
			}
			for j := 0; j < sws[0].NumPorts(); j++ {
				peak = max(peak, sws[0].Port(j).QueueBytes(3))
			}
		}}
	plain := cfg
	plain.QueueSampler = nil
	base := mustRun(t, plain, tr, "")
	res := mustRun(t, cfg, tr, "")
	if !reflect.DeepEqual(res.Flows, base.Flows) || !reflect.DeepEqual(res.Ports, base.Ports) {
		t.Error("sampling changed the run")
	}
	want := 1 + int((20*units.Microsecond-3*units.Microsecond)/(250*units.Nanosecond))
	if len(times) != want || times[0] != 3*units.Microsecond || times[len(times)-1] != 20*units.Microsecond {
		t.Fatalf("%d samples from %v to %v, want %d from 3us to 20us", len(times), times[0], times[len(times)-1], want)
	}
	var qmax int64
	for _, p := range res.Ports {
		qmax = max(qmax, p.QLenMaxBytes)
	}
	if peak == 0 || int64(peak) > qmax {
		t.Errorf("sampled peak %d B, port maximum %d B", peak, qmax)
	}

	// A window past the end of the run: no sample, same results.
	times = nil
	cfg.QueueSampler.Start, cfg.QueueSampler.End = units.Second, units.Second
	late := mustRun(t, cfg, tr, "")
	if len(times) != 0 || !reflect.DeepEqual(late.Flows, res.Flows) {
		t.Errorf("late window: %d samples", len(times))
	}
	cfg.QueueSampler.Every = 0
	if err := cfg.Validate(); err == nil {
		t.Error("a sampler period of 0 passed Validate")
	}
}

var _ fabric.Receiver = pfcWatch{}
