package arrowread

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v16/arrow/memory"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// simPacket is row i of a synthetic packet log shaped like a run's: a
// host sends, two switch hops, the destination delivers, an ACK returns,
// with queue delays up to ~65 us and one CE mark in 7 deliveries.
func simPacket(i int64) v2.PacketRow {
	flow := i / 5 % 64
	r := v2.PacketRow{TNs: i * 20, Kind: v2.KindData, FlowID: flow, Src: int32(flow % 16), Dst: 16,
		PSN: i / 5, Bytes: 1048, Prio: 3}
	switch i % 5 {
	case 0:
		r.Event, r.Node = v2.EventDequeue, r.Src
	case 1, 2:
		r.Event, r.Node, r.Port = v2.EventDequeue, 17+int32(i%5), int32(flow%4)
		r.QueueDelayNs, r.QDepthBytes = (i*7919)%65536, (i*104729)%(1<<20)
	case 3:
		r.Event, r.Node, r.Port, r.CE = v2.EventDeliver, r.Dst, -1, i%7 == 3
	case 4:
		r.Event, r.Kind, r.Node, r.Bytes = v2.EventDequeue, v2.KindAck, r.Dst, 60
	}
	return r
}

// TestScanPacketStats checks the streamed statistics against the same
// accumulator fed from memory, and that scanning with the accumulator
// keeps the live heap flat (the issue: "memory must not grow with the
// file"): 300k rows would hold 33 MiB as structs.
func TestScanPacketStats(t *testing.T) {
	const n = 300_000
	path := filepath.Join(t.TempDir(), runfolder.PacketsFile)
	streamPackets(t, path, n, simPacket)

	want := metrics.NewPacketAccumulator()
	for i := range int64(n) {
		r := simPacket(i)
		if err := want.Add(&r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ScanPacketStats(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want.Stats()) {
		t.Errorf("streamed stats differ:\n got %+v\nwant %+v", got, want.Stats())
	}
	if got.Rows != n || got.DataSentPkts != n/5 || got.SwitchQueueDelayNs.N != 2*n/5 {
		t.Errorf("counts: %+v", got)
	}
	if rows, err := NumRows(path); rows != n || err != nil {
		t.Errorf("NumRows: %d, %v", rows, err)
	}

	live := func() int64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	base := live()
	acc := metrics.NewPacketAccumulator()
	var rows, peak int64
	err = scan(path, packetsTable, packetCols, memory.DefaultAllocator, func(r *v2.PacketRow) error {
		if rows%25_000 == 12_345 {
			peak = max(peak, live()-base)
		}
		rows++
		return acc.Add(r)
	})
	if err != nil || rows != n {
		t.Fatalf("scanned %d rows: %v", rows, err)
	}
	t.Logf("live heap grew by at most %.2f MiB while accumulating %d rows", float64(peak)/(1<<20), n)
	if limit := int64(12 << 20); peak > limit {
		t.Errorf("live heap grew by %d B, want < %d", peak, limit)
	}
}

// A damaged page whose file footer is intact makes arrow v16 panic inside
// its Snappy decoder; the reader returns an error naming the file instead.
func TestCorruptPageIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), runfolder.PacketsFile)
	streamPackets(t, path, 100_000, simPacket)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 5000; i < 5200; i++ {
		b[i] ^= 0x5a
	}
	os.WriteFile(path, b, 0o644)
	_, err = ScanPacketStats(path)
	if err == nil || !strings.HasPrefix(err.Error(), "arrowread: "+path+": ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("corrupt page: %v", err)
	}
	// A damaged footer too.
	copy(b[len(b)-200:], bytes.Repeat([]byte{0xff}, 150))
	os.WriteFile(path, b, 0o644)
	if _, err := NumRows(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("corrupt footer: %v", err)
	}
}

// Recompute on a folder written with output.WriteRows equals
// metrics.Compute over the rows, and a missing packets.parquet is fine.
func TestRecompute(t *testing.T) {
	dir := t.TempDir()
	flows := randomRows[v2.FlowRow](500, 21)
	msgs := randomRows[v2.MessageRow](700, 22)
	ports := randomRows[v2.PortRow](40, 23)
	for _, err := range []error{
		output.WriteRows(filepath.Join(dir, runfolder.FlowsFile), flows),
		output.WriteRows(filepath.Join(dir, runfolder.MessagesFile), msgs),
		output.WriteRows(filepath.Join(dir, runfolder.PortsFile), ports),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := runfolder.Write(dir, &runfolder.Manifest{CCA: "dcqcn", Seed: 1}); err != nil {
		t.Fatal(err)
	}
	rf, err := runfolder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Recompute(rf, RecomputeOptions{Buckets: 7})
	if err != nil {
		t.Fatal(err)
	}
	want := metrics.Compute(flows, msgs, ports, metrics.Options{Buckets: 7})
	if !reflect.DeepEqual(rec.Summary, want) || rec.Packets != nil || len(rec.Rows.Flows) != 500 {
		t.Errorf("recomputed %+v", rec)
	}
	streamPackets(t, filepath.Join(dir, runfolder.PacketsFile), 1000, simPacket)
	if rec, err = Recompute(rf, RecomputeOptions{}); err != nil || rec.Packets == nil || rec.Packets.Rows != 1000 {
		t.Errorf("with packets: %+v, %v", rec, err)
	}
	if rec, err = Recompute(rf, RecomputeOptions{SkipPackets: true}); err != nil || rec.Packets != nil {
		t.Errorf("skip packets: %+v, %v", rec, err)
	}
	os.Remove(filepath.Join(dir, runfolder.PortsFile))
	if _, err := Recompute(rf, RecomputeOptions{}); err == nil || !strings.Contains(err.Error(), runfolder.PortsFile) {
		t.Errorf("missing "+runfolder.PortsFile+": %v", err)
	}
}
