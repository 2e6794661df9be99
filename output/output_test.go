package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// samplePackets returns n deterministic, plausibly noisy packet rows (so
// that the benchmark does not measure a file of repeated values).
func samplePackets(n int) []v2.PacketRow {
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]v2.PacketRow, n)
	kinds := []string{v2.KindData, v2.KindData, v2.KindData, v2.KindAck, v2.KindCNP}
	events := []string{v2.EventDequeue, v2.EventDequeue, v2.EventDeliver, v2.EventDrop}
	var t int64
	for i := range rows {
		t += rng.Int64N(20)
		flow := rng.Int64N(256)
		rows[i] = v2.PacketRow{
			TNs:          t,
			Event:        events[rng.IntN(len(events))],
			Kind:         kinds[rng.IntN(len(kinds))],
			Node:         rng.Int32N(64),
			Port:         rng.Int32N(33) - 1,
			Prio:         rng.Int32N(2),
			FlowID:       flow,
			Src:          int32(flow % 32),
			Dst:          int32(flow%32+7) % 32,
			PSN:          int64(i) / 256,
			Bytes:        1048 - rng.Int32N(2)*984,
			CE:           rng.IntN(10) == 0,
			QDepthBytes:  rng.Int64N(1 << 20),
			QueueDelayNs: rng.Int64N(10_000),
		}
	}
	return rows
}

// noTemps fails if dir holds any temporary file.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// streamOf starts a Stream of packet rows to path, handing batch rows at
// a time to the writer, and appends rows to it.
func streamOf(t *testing.T, path string, batch int, rows []v2.PacketRow) *Stream[v2.PacketRow] {
	t.Helper()
	s, err := NewStream[v2.PacketRow](path, batch)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		s.Append(r)
	}
	return s
}

// nothingLeft fails if path exists or its folder dir holds a temporary
// file, after what happened ("after Abort").
func nothingLeft(t *testing.T, dir, path, after string) {
	t.Helper()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s exists %s", path, after)
	}
	noTemps(t, dir)
}

func TestWriteRowsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "packet-rows.parquet")
	want := samplePackets(150_000) // > MaxRowsPerRowGroup: several row groups
	if err := WriteRows(path, want); err != nil {
		t.Fatal(err)
	}
	got, version := testfiles.ParquetRows[v2.PacketRow](t, path, v2.MetadataKey)
	if version != v2.Version {
		t.Errorf("metadata %s = %q, want %q", v2.MetadataKey, version, v2.Version)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("rows read back differ from rows written")
	}
	f, _ := os.Open(path)
	defer f.Close()
	st, _ := f.Stat()
	if st.Mode().Perm() != fileMode {
		t.Errorf("mode %v, want %v", st.Mode().Perm(), os.FileMode(fileMode))
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	for i, rg := range pf.RowGroups() {
		if rg.NumRows() > MaxRowsPerRowGroup {
			t.Errorf("row group %d has %d rows, more than %d", i, rg.NumRows(), MaxRowsPerRowGroup)
		}
	}
	if len(pf.RowGroups()) != 3 {
		t.Errorf("%d row groups, want 3", len(pf.RowGroups()))
	}
	noTemps(t, dir)
}

func TestWriteRowsDeterministic(t *testing.T) {
	dir := t.TempDir()
	rows := samplePackets(70_000)
	a, b := filepath.Join(dir, "a.parquet"), filepath.Join(dir, "b.parquet")
	if err := WriteRows(a, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteRows(b, rows); err != nil {
		t.Fatal(err)
	}
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if !bytes.Equal(ba, bb) {
		t.Error("same rows gave different bytes")
	}
	// The same holds for a Stream fed the same rows in the same batches.
	for _, p := range []string{a, b} {
		if err := streamOf(t, p, 1000, rows).Close(); err != nil {
			t.Fatal(err)
		}
	}
	ba, _ = os.ReadFile(a)
	bb, _ = os.ReadFile(b)
	if !bytes.Equal(ba, bb) {
		t.Error("same streamed rows gave different bytes")
	}
}

func TestWriteRowsEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "flow-rows.parquet")
	if err := WriteRows[v2.FlowRow](path, nil); err != nil {
		t.Fatal(err)
	}
	got, version := testfiles.ParquetRows[v2.FlowRow](t, path, v2.MetadataKey)
	if len(got) != 0 || version != v2.Version {
		t.Errorf("got %d rows, version %q", len(got), version)
	}
}

func TestWriteRowsBadDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "flow-rows.parquet")
	if err := WriteRows(path, []v2.FlowRow{{}}); err == nil {
		t.Fatal("want an error for a missing directory")
	}
}

func TestStreamAppearsOnlyOnClose(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "packet-rows.parquet")
	want := samplePackets(1234)
	s := streamOf(t, path, 100, want)
	defer s.Abort() // a no-op after Close
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s exists before Close (err=%v)", path, err)
	}
	if s.Rows() != int64(len(want)) {
		t.Errorf("Rows() = %d, want %d", s.Rows(), len(want))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := testfiles.ParquetRows[v2.PacketRow](t, path, v2.MetadataKey)
	if !reflect.DeepEqual(got, want) {
		t.Error("streamed rows differ")
	}
	noTemps(t, dir)
	if err := s.Close(); err == nil {
		t.Error("second Close: want an error")
	}
}

func TestStreamAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "packet-rows.parquet")
	s := streamOf(t, path, 10, samplePackets(25))
	s.Abort()
	s.Append(v2.PacketRow{}) // remembered, not written
	if err := s.Close(); err == nil {
		t.Error("Close after Abort: want an error")
	}
	nothingLeft(t, dir, path, "after Abort")
}

// TestStreamWriteErrorReturnedByClose checks that a failing write is kept
// and reported once, by Close, and that no file appears.
func TestStreamWriteErrorReturnedByClose(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "packet-rows.parquet")
	s, err := NewStream[v2.PacketRow](path, 10)
	if err != nil {
		t.Fatal(err)
	}
	s.t.f.Close() // every later write fails
	for _, r := range samplePackets(100_000) {
		s.Append(r)
	}
	if err := s.Close(); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Close = %v, want an error naming %s", err, path)
	}
	nothingLeft(t, dir, path, "after a failed write")
}

func TestWriteJSONAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "doc.json")
	v := map[string]any{"b": 1, "a": []int{1, 2}}
	if err := WriteJSONAtomic(path, v); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": 1\n}\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var back map[string]any
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSONAtomic(path, func() {}); err == nil {
		t.Error("want an error for an unencodable value")
	}
	if got2, _ := os.ReadFile(path); !bytes.Equal(got, got2) {
		t.Error("a failed write changed the existing file")
	}
	noTemps(t, dir)
}

// BenchmarkStreamAppend reports the cost of one packet row, including its
// share of encoding, compression and file writes.
func BenchmarkStreamAppend(b *testing.B) {
	rows := samplePackets(1 << 16)
	path := filepath.Join(b.TempDir(), "packet-rows.parquet")
	s, err := NewStream[v2.PacketRow](path, DefaultBatch)
	if err != nil {
		b.Fatal(err)
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Append(rows[i&(len(rows)-1)])
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	runtime.ReadMemStats(&m1)
	st, _ := os.Stat(path)
	b.ReportMetric(float64(st.Size())/float64(b.N), "B/row-on-disk")
	// allocs/op rounds down to 0; this shows the amortized share exactly.
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(b.N), "allocs/row")
}

// TestWriteFileAtomic: the bytes arrive under the final name, no temporary
// file is left beside them, and a missing folder is an error.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fig.png")
	if err := WriteFileAtomic(path, []byte("payload")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "payload" {
		t.Fatalf("read back %q, %v", got, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d entries in the folder, want only the file", len(ents))
	}
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "x"), []byte("x")); err == nil {
		t.Fatal("no error for a missing folder")
	}
}
