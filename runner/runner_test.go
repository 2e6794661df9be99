package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/internal/replaytest"
	"github.com/ccreplay/ccreplay/internal/replaytest/star"
	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/nic"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
	"github.com/ccreplay/ccreplay/switchmodel"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// dcqcnOn is the trace/gen workload (generated with genSeed) on the
// topology spec under DCQCN's default preset, with the default switch and
// NIC and DCQCN's hints applied.
func dcqcnOn(t *testing.T, workload string, genSeed int64, topo string) (*replay.Config, *trace.Trace) {
	t.Helper()
	tr := replaytest.Workload(t, workload, genSeed)
	cfg := replay.Config{Topology: replaytest.Topology(t, topo, tr.Hosts), CC: star.Spec(t, "dcqcn", nil, dcqcn.Register),
		Switch: switchmodel.DefaultConfig(), NIC: nic.DefaultConfig()}
	cfg.ApplyCCHints()
	return &cfg, tr
}

// scenario is a 7-to-1 incast on a two-leaf leaf-spine under DCQCN, with
// every packet event logged.
func scenario(t *testing.T, seed uint64) *Scenario {
	t.Helper()
	cfg, tr := dcqcnOn(t, "incast:n=7,size=300KB,jitter=20us", 7, "leafspine:leaves=2,hosts=4,spines=1,uplinks=2,rate=100G,fabric=100G,delay=1us")
	cfg.Seed, cfg.Packets, cfg.CheckEvery = seed, replay.PacketsAll, 5*units.Microsecond
	return &Scenario{Config: cfg, Trace: tr, TraceName: "incast", Warnings: []string{"an input's warning"}}
}

func runToDir(t *testing.T, seed uint64, dir string) (*replay.Result, metrics.Summary) {
	t.Helper()
	res, man, err := Run(context.Background(), scenario(t, seed), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(man.Warnings) == 0 || man.Warnings[0] != "an input's warning" || !man.Complete {
		t.Errorf("manifest: warnings %q, complete %v", man.Warnings, man.Complete)
	}
	return res, man.Summary
}

// Same inputs and seed give byte-identical files (docs/ARCHITECTURE.md,
// "Determinism": a run is a pure function of its inputs); another seed changes the ECN draws.
func TestSameSeedByteIdenticalOutputs(t *testing.T) {
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	runToDir(t, 1, a)
	runToDir(t, 1, b)
	runToDir(t, 2, c)
	for _, f := range []string{runfolder.PacketsFile, runfolder.FlowsFile, runfolder.MessagesFile, runfolder.PortsFile, runfolder.SummaryFile} {
		x, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		y, _ := os.ReadFile(filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs with the same seed", f)
		}
	}
	x, _ := os.ReadFile(filepath.Join(a, runfolder.PacketsFile))
	z, _ := os.ReadFile(filepath.Join(c, runfolder.PacketsFile))
	if bytes.Equal(x, z) {
		t.Errorf("%s identical for seeds 1 and 2: the seed is not used", runfolder.PacketsFile)
	}
	entries, _ := os.ReadDir(a)
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".parquet" && e.Name() != runfolder.SummaryFile {
			t.Errorf("stray file %s left in the run folder", e.Name())
		}
	}
}

// The Parquet files read back with Apache Arrow (a second implementation)
// equal the in-run records, and the metrics recomputed from them equal the
// in-run summary exactly.
func TestParquetReadBackWithArrowRecomputesSummary(t *testing.T) {
	dir := t.TempDir()
	res, sum := runToDir(t, 1, dir)
	flows, err := arrowread.ReadFlows(filepath.Join(dir, runfolder.FlowsFile))
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := arrowread.ReadMessages(filepath.Join(dir, runfolder.MessagesFile))
	if err != nil {
		t.Fatal(err)
	}
	ports, err := arrowread.ReadPorts(filepath.Join(dir, runfolder.PortsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(flows, res.Flows) || !reflect.DeepEqual(msgs, res.Messages) || !reflect.DeepEqual(ports, res.Ports) {
		t.Fatal("rows read back with Arrow differ from the run's records")
	}
	got := metrics.Compute(flows, msgs, ports, metrics.Options{})
	if !reflect.DeepEqual(got, sum) {
		t.Fatalf("metrics from Parquet differ from the run's %s:\n got %+v\nwant %+v", runfolder.SummaryFile, got, sum)
	}
	// packets.parquet: every data packet sent has a NIC dequeue row, every
	// delivered one a deliver row, and control packets appear at level all.
	var dataDeq, deliver, ctrl int64
	err = arrowread.ScanPackets(filepath.Join(dir, runfolder.PacketsFile), func(p *v2.PacketRow) error {
		switch {
		case p.Kind == v2.KindData && p.Event == v2.EventDequeue && p.Node == p.Src:
			dataDeq++
		case p.Kind == v2.KindData && p.Event == v2.EventDeliver:
			deliver++
		case p.Kind != v2.KindData:
			ctrl++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if dataDeq != res.DataPackets || deliver != res.DataPackets || ctrl == 0 {
		t.Fatalf("%s: %d sender dequeues, %d deliveries, %d control rows; want %d, %d, > 0", runfolder.PacketsFile, dataDeq, deliver, ctrl, res.DataPackets, res.DataPackets)
	}
}

// A cancelled run leaves no file in its folder, not even the packet
// log's temporary one, and no summary.json; an extra writer's error
// leaves no summary.json either.
func TestCancelLeavesNoFile(t *testing.T) {
	sc := scenario(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	sc.Trace = replaytest.Workload(t, "incast:n=7,size=20MB", 1)
	cfg := *sc.Config
	calls := 0
	cfg.Progress = func(now units.Time, delivered, total int) {
		if calls++; calls == 2 {
			cancel()
		}
	}
	sc.Config = &cfg
	dir := t.TempDir()
	_, _, err := Run(ctx, sc, dir, nil)
	var ie *replay.InterruptedError
	if !errors.As(err, &ie) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want an interrupted run", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left %d files in the folder: %v", len(ents), ents[0].Name())
	}

	dir = t.TempDir()
	boom := errors.New("boom")
	var seen []string
	_, _, err = Run(context.Background(), scenario(t, 1), dir, func(d string, res *replay.Result, man *Manifest) error {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			seen = append(seen, e.Name())
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the extra writer's", err)
	}
	if want := []string{runfolder.FlowsFile, runfolder.MessagesFile, runfolder.PacketsFile, runfolder.PortsFile}; !slices.Equal(seen, want) {
		t.Errorf("extra saw %v, want the replay's files %v", seen, want)
	}
	if _, err := os.Stat(filepath.Join(dir, runfolder.SummaryFile)); !os.IsNotExist(err) {
		t.Errorf("%s written after a failure: %v", runfolder.SummaryFile, err)
	}
}

// The scenario's configuration is not changed by Run (it gives the
// replay its own copy with the packet sink).
func TestRunLeavesConfigAlone(t *testing.T) {
	sc := scenario(t, 1)
	if _, _, err := Run(context.Background(), sc, t.TempDir(), nil); err != nil {
		t.Fatal(err)
	}
	if sc.Config.PacketSink != nil {
		t.Error("Run left its packet sink in the caller's configuration")
	}
}

// A run with StreamRows writes the same files and summary as one that
// keeps its rows (flows.parquet in flow id order although flows finish in
// another, messages.parquet in trace order, the same metrics), on one
// partition and on two, and its Result holds no rows.
func TestStreamRowsSameFiles(t *testing.T) {
	defer func(n int) { StreamRowsMin = n }(StreamRowsMin)
	StreamRowsMin = 0
	for _, threads := range []int{1, 2} {
		cfg, tr := websearch(t, threads)
		kept, streamed := t.TempDir(), t.TempDir()
		res, _, err := Run(context.Background(), &Scenario{Config: cfg, Trace: tr, TraceName: "ws"}, kept, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The flows finish out of id order: rows wait for earlier ones.
		inOrder := true
		for i := 1; i < len(res.Flows); i++ {
			inOrder = inOrder && res.Flows[i].FinishNs >= res.Flows[i-1].FinishNs
		}
		if inOrder || len(res.Flows) < 20 {
			t.Fatalf("the test wants flows finishing out of id order (%d flows)", len(res.Flows))
		}
		var seen int
		sres, _, err := Run(context.Background(), &Scenario{Config: cfg, Trace: tr, TraceName: "ws", StreamRows: true,
			OnMessage: func(m *v2.MessageRow) {
				if m.MsgID != res.Messages[seen].MsgID {
					t.Errorf("message row %d: id %d, want %d", seen, m.MsgID, res.Messages[seen].MsgID)
				}
				seen++
			}}, streamed, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sres.Flows != nil || sres.Messages != nil || seen != len(res.Messages) {
			t.Errorf("threads %d: streamed Result holds %d flow and %d message rows; OnMessage saw %d of %d",
				threads, len(sres.Flows), len(sres.Messages), seen, len(res.Messages))
		}
		var km, sm Manifest
		if kw, sw := CheckCollapse(cfg, tr, res, &km), CheckCollapse(cfg, tr, sres, &sm); kw != sw || !reflect.DeepEqual(km.Collapse, sm.Collapse) {
			t.Errorf("threads %d: collapse check %q streamed, %q kept", threads, sw, kw)
		}
		if sres.DataPackets != res.DataPackets {
			t.Errorf("threads %d: data packets %d streamed, %d kept", threads, sres.DataPackets, res.DataPackets)
		}
		for _, f := range []string{runfolder.FlowsFile, runfolder.MessagesFile, runfolder.PortsFile, runfolder.SummaryFile} {
			x, err := os.ReadFile(filepath.Join(kept, f))
			if err != nil {
				t.Fatal(err)
			}
			y, err := os.ReadFile(filepath.Join(streamed, f))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(x, y) {
				t.Errorf("threads %d: %s differs between a streamed and a kept run", threads, f)
			}
		}
	}
}

// websearch is WebSearch flows at 80 % load for 1 ms on a leaf-spine of 8
// hosts under DCQCN: about a hundred flows, which finish out of order.
func websearch(t *testing.T, threads int) (*replay.Config, *trace.Trace) {
	t.Helper()
	cfg, tr := dcqcnOn(t, "cdf:dist=websearch,hosts=8,bw=100G,load=0.8,duration=1ms", 3, "leafspine:leaves=2,hosts=4,spines=2,uplinks=1,rate=100G,fabric=100G,delay=1us")
	cfg.Seed, cfg.Packets, cfg.Threads = 5, replay.PacketsNone, threads
	return cfg, tr
}

// A streamed run interrupted after its first rows were written leaves no
// row file (nor any other).
func TestStreamRowsInterruptedLeavesNothing(t *testing.T) {
	defer func(n int) { StreamRowsMin = n }(StreamRowsMin)
	StreamRowsMin = 0
	cfg, tr := websearch(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows := 0
	sc := &Scenario{Config: cfg, Trace: tr, StreamRows: true, OnMessage: func(*v2.MessageRow) {
		rows++
		cancel() // the replay stops within its window
	}}
	dir := t.TempDir()
	if _, _, err := Run(ctx, sc, dir, nil); !errors.Is(err, context.Canceled) || rows == 0 {
		t.Fatalf("got %v after %d rows; want the run interrupted after its first row", err, rows)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Errorf("left %d entries, first %s", len(ents), ents[0].Name())
	}
}

// Below StreamRowsMin messages the rows are kept, and OnMessage still gets
// every message row, in trace order, after the run.
func TestStreamRowsSmallTraceKept(t *testing.T) {
	cfg, tr := websearch(t, 1)
	if len(tr.Messages) >= StreamRowsMin {
		t.Fatalf("%d messages: the test wants fewer than %d", len(tr.Messages), StreamRowsMin)
	}
	var ids []int64
	res, _, err := Run(context.Background(), &Scenario{Config: cfg, Trace: tr, StreamRows: true,
		OnMessage: func(m *v2.MessageRow) { ids = append(ids, m.MsgID) }}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Messages) != len(tr.Messages) || len(ids) != len(tr.Messages) {
		t.Fatalf("%d message rows kept, %d given to OnMessage, want %d", len(res.Messages), len(ids), len(tr.Messages))
	}
	for i, id := range ids {
		if id != res.Messages[i].MsgID {
			t.Fatalf("OnMessage row %d: id %d, want %d", i, id, res.Messages[i].MsgID)
		}
	}
}
