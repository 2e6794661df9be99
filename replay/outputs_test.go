package replay

import (
	"bytes"
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

func runToDir(t *testing.T, seed uint64, dir string) *Result {
	t.Helper()
	tr := mustGen(t, "incast:n=7,size=300KB,jitter=20us", 7)
	cfg := baseConfig(t, mustTopo(t, "leafspine:leaves=2,hosts=4,spines=1,uplinks=2,rate=100G,fabric=100G,delay=1us", tr.Hosts), "dcqcn")
	cfg.Seed = seed
	cfg.Packets = PacketsAll
	res := mustRun(t, cfg, tr, dir)
	man := NewManifest(&cfg, "incast", res)
	if err := WriteManifest(dir, &man); err != nil {
		t.Fatal(err)
	}
	return res
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
		t.Errorf("packets.parquet identical for seeds 1 and 2: the seed is not used")
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
	res := runToDir(t, 1, dir)
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
	if !reflect.DeepEqual(got, res.Summary) {
		t.Fatalf("metrics from Parquet differ from the in-run summary:\n got %+v\nwant %+v", got, res.Summary)
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
		t.Fatalf("packets.parquet: %d sender dequeues, %d deliveries, %d control rows; want %d, %d, > 0", dataDeq, deliver, ctrl, res.DataPackets, res.DataPackets)
	}
}
