package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ccreplay/ccreplay/internal/replaytest"

	"github.com/ccreplay/ccreplay/fabric"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/units"
)

// flowTap records the flow count each data packet's hop carries where it
// leaves a switch (the hop was stamped just before the tap sees it).
type flowTap struct {
	hosts int32
	// per data packet dequeued at a switch, in order: its flow, whether it
	// is its message's last, and the Flows of the hop it was stamped.
	flow  []int32
	last  []bool
	flows []int32
}

func (f *flowTap) Dequeue(_ units.Time, node, _ int32, p *fabric.Packet) {
	if node < f.hosts || p.Kind != fabric.Data || p.Tel == nil {
		return
	}
	f.flow = append(f.flow, p.Flow)
	f.last = append(f.last, p.Last)
	f.flows = append(f.flows, p.Tel.Hops[p.Tel.N-1].Flows)
}
func (*flowTap) Deliver(units.Time, int32, *fabric.Packet)     {}
func (*flowTap) Drop(units.Time, int32, int32, *fabric.Packet) {}

// End to end, FDCC (Zhang 2023) Section 4.2 and Algorithm 2: an algorithm
// whose Spec asks for the flow counter gets it from every switch, and N
// flows of a 4-to-1 incast through the star's one switch are counted N at
// the bottleneck port while all are active: from the moment the last of
// them has a packet through until the first message's Last packet leaves.
// Then the count falls, to 0 on the very last packet.
func TestFlowCounterEndToEndIncast(t *testing.T) {
	const n = 4
	tr := replaytest.Workload(t, "incast:n=4,size=200KB", 1)
	topo := replaytest.Topology(t, "", tr.Hosts)
	cfg := baseConfig(t, topo, "linerate")
	cfg.CC.NeedsFlowCounter = true
	cfg.ApplyCCHints()
	if !cfg.Switch.INT || !cfg.Switch.FlowCounter {
		t.Fatalf("NeedsFlowCounter set switch INT %v, FlowCounter %v; want both on", cfg.Switch.INT, cfg.Switch.FlowCounter)
	}
	tap := &flowTap{hosts: int32(topo.NumHosts)}
	cfg.Observer = tap
	res := mustRun(t, cfg, tr, "")
	allFinished(t, res)
	if metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).DropsPkts != 0 {
		t.Fatalf("%d packets dropped: the count would see resends", metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{}).DropsPkts)
	}
	seen := map[int32]bool{}
	window, peak := 0, int32(0)
	for i, f := range tap.flow {
		seen[f] = true
		if tap.last[i] {
			break
		}
		if len(seen) == n {
			window++
			if tap.flows[i] != n {
				t.Fatalf("packet %d (flow %d) with all %d flows active stamped Flows %d", i, f, n, tap.flows[i])
			}
		}
	}
	for _, c := range tap.flows {
		peak = max(peak, c)
	}
	if window < 100 || peak != n {
		t.Errorf("%d packets crossed with all flows active, peak count %d; want at least 100 and %d", window, peak, n)
	}
	if last := tap.flows[len(tap.flows)-1]; last != 0 {
		t.Errorf("the run's last data packet stamped Flows %d, want 0", last)
	}
	t.Logf("%d data packets, %d with all %d flows counted", len(tap.flows), window, n)
}

// Counting flows observes and changes nothing else: a run with the
// counter on writes the same bytes as the same run with INT alone.
func TestFlowCounterLeavesOutputsIdentical(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=7,size=300KB,jitter=20us", 7)
	topo := replaytest.Topology(t, "leafspine:leaves=2,hosts=4,spines=1,uplinks=2,rate=100G,fabric=100G,delay=1us", tr.Hosts)
	dirs := [2]string{t.TempDir(), t.TempDir()}
	var sums [2]metrics.Summary
	for i, on := range []bool{false, true} {
		cfg := baseConfig(t, topo, "dcqcn")
		cfg.Packets = PacketsAll
		cfg.Switch.INT = true
		cfg.CC.NeedsFlowCounter = on
		cfg.ApplyCCHints()
		if cfg.Switch.FlowCounter != on {
			t.Fatalf("NeedsFlowCounter %v gave switch FlowCounter %v", on, cfg.Switch.FlowCounter)
		}
		res := mustRun(t, cfg, tr, dirs[i])
		sums[i] = metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{})
	}
	if !reflect.DeepEqual(sums[0], sums[1]) {
		t.Errorf("metrics differ with the flow counter on")
	}
	for _, f := range []string{runfolder.PacketsFile, runfolder.FlowsFile, runfolder.MessagesFile, runfolder.PortsFile} {
		x, err := os.ReadFile(filepath.Join(dirs[0], f))
		if err != nil {
			t.Fatal(err)
		}
		y, _ := os.ReadFile(filepath.Join(dirs[1], f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs with the flow counter on", f)
		}
	}
}

// An algorithm that reads the flow count refuses a network whose switches
// stamp no INT, as one that reads INT does.
func TestFlowCounterNeedsINTSignal(t *testing.T) {
	tr := replaytest.Workload(t, "incast:n=2,size=10KB", 1)
	cfg := baseConfig(t, replaytest.Topology(t, "", tr.Hosts), "linerate")
	cfg.CC.NeedsFlowCounter = true
	cfg.ApplyCCHints()
	cfg.Switch.INT = false // a user's switch.int: false
	if err := cfg.Validate(); err == nil {
		t.Fatal("flow counter without INT: no error")
	}
	cfg.Switch.INT, cfg.Switch.FlowCounter = true, false
	if err := cfg.Validate(); err == nil {
		t.Fatal("NeedsFlowCounter with the switches' counter off: no error")
	}
}
