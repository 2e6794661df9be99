package arrowread

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v16/arrow"
	"github.com/apache/arrow/go/v16/arrow/array"
	"github.com/apache/arrow/go/v16/arrow/memory"
	"github.com/apache/arrow/go/v16/parquet"
	"github.com/apache/arrow/go/v16/parquet/pqarrow"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// randomRows fills n rows of T from a seeded generator: integers random
// and partly negative, floats random and finite (NaN would defeat
// DeepEqual), strings from a small set including "".
func randomRows[T any](n int, seed uint64) []T {
	rng := rand.New(rand.NewPCG(seed, 7))
	words := []string{v2.KindData, v2.KindAck, v2.KindNack, v2.KindCNP, v2.EventDrop, ""}
	rows := make([]T, n)
	for i := range rows {
		v := reflect.ValueOf(&rows[i]).Elem()
		for j := range v.NumField() {
			f := v.Field(j)
			switch f.Kind() {
			case reflect.Int64, reflect.Int32:
				f.SetInt(rng.Int64N(1<<31) - 1<<20)
			case reflect.Float64:
				f.SetFloat(rng.Float64() * 1e6)
			case reflect.Bool:
				f.SetBool(rng.IntN(2) == 0)
			case reflect.String:
				f.SetString(words[rng.IntN(len(words))])
			}
		}
	}
	return rows
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	t.Run("flows", func(t *testing.T) {
		roundTrip(t, filepath.Join(dir, runfolder.FlowsFile), randomRows[v2.FlowRow](3000, 1), ReadFlows)
	})
	t.Run("messages", func(t *testing.T) {
		roundTrip(t, filepath.Join(dir, runfolder.MessagesFile), randomRows[v2.MessageRow](3000, 2), ReadMessages)
	})
	t.Run("ports", func(t *testing.T) {
		roundTrip(t, filepath.Join(dir, runfolder.PortsFile), randomRows[v2.PortRow](100, 3), ReadPorts)
	})
	t.Run("packets", func(t *testing.T) {
		read := func(path string) ([]v2.PacketRow, error) {
			var rows []v2.PacketRow
			err := ScanPackets(path, func(r *v2.PacketRow) error {
				rows = append(rows, *r)
				return nil
			})
			return rows, err
		}
		// More rows than a row group and than a batch.
		roundTrip(t, filepath.Join(dir, runfolder.PacketsFile), randomRows[v2.PacketRow](70_000, 4), read)
	})
	t.Run("comparison", func(t *testing.T) {
		roundTrip(t, filepath.Join(dir, runfolder.ComparisonFile), randomRows[v2.ComparisonRow](50, 11), ReadComparison)
	})
	t.Run("empty", func(t *testing.T) {
		path := filepath.Join(dir, "empty.parquet")
		if err := output.WriteRows[v2.FlowRow](path, nil); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFlows(path)
		if err != nil || len(got) != 0 {
			t.Errorf("got %d rows, %v", len(got), err)
		}
	})
}

func roundTrip[T any](t *testing.T, path string, want []T, read func(string) ([]T, error)) {
	t.Helper()
	if err := output.WriteRows(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d rows, wrote %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// TestColumnsMatchSchema checks that each reader expects exactly the
// columns of the parquet tags of its row type, with the Arrow type of the
// Go field.
func TestColumnsMatchSchema(t *testing.T) {
	check(t, reflect.TypeFor[v2.PacketRow](), names(packetCols))
	check(t, reflect.TypeFor[v2.FlowRow](), names(flowCols))
	check(t, reflect.TypeFor[v2.MessageRow](), names(messageCols))
	check(t, reflect.TypeFor[v2.PortRow](), names(portCols))
	check(t, reflect.TypeFor[v2.ComparisonRow](), names(comparisonCols))
}

func names[T any](cols []col[T]) map[string]arrow.Type {
	m := make(map[string]arrow.Type)
	for _, c := range cols {
		m[c.name] = c.typ
	}
	return m
}

func check(t *testing.T, typ reflect.Type, got map[string]arrow.Type) {
	t.Helper()
	kinds := map[reflect.Kind]arrow.Type{
		reflect.Int64: arrow.INT64, reflect.Int32: arrow.INT32, reflect.Float64: arrow.FLOAT64,
		reflect.Bool: arrow.BOOL, reflect.String: arrow.STRING,
	}
	for i := range typ.NumField() {
		f := typ.Field(i)
		name := strings.Split(f.Tag.Get("parquet"), ",")[0]
		want, ok := kinds[f.Type.Kind()]
		if !ok {
			t.Errorf("%s.%s: unsupported kind %s", typ.Name(), f.Name, f.Type.Kind())
		}
		if got[name] != want {
			t.Errorf("%s.%s: reader expects column %q as %v, want %v", typ.Name(), f.Name, name, got[name], want)
		}
	}
	if len(got) != typ.NumField() {
		t.Errorf("%s: reader expects %d columns, the type has %d", typ.Name(), len(got), typ.NumField())
	}
}

// writeArrowFile writes a one-row Parquet file with Arrow's own writer, with
// the given fields (zero values) and, unless version is nil, the schema
// version metadata.
func writeArrowFile(t *testing.T, path string, fields []arrow.Field, version *string) {
	t.Helper()
	var md arrow.Metadata
	if version != nil {
		md = arrow.NewMetadata([]string{v2.MetadataKey}, []string{*version})
	}
	sch := arrow.NewSchema(fields, &md)
	mem := memory.DefaultAllocator
	cols := make([]arrow.Array, len(fields))
	for i, f := range fields {
		b := array.NewBuilder(mem, f.Type)
		b.AppendEmptyValue()
		cols[i] = b.NewArray()
		b.Release()
	}
	rec := array.NewRecord(sch, cols, 1)
	defer rec.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pqarrow.NewFileWriter(sch, f, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil { // also closes f
		t.Fatal(err)
	}
}

// arrowFields are the Arrow fields of cols, strings as plain utf8.
func arrowFields[T any](cols []col[T]) []arrow.Field {
	types := map[arrow.Type]arrow.DataType{
		arrow.INT64: arrow.PrimitiveTypes.Int64, arrow.INT32: arrow.PrimitiveTypes.Int32,
		arrow.FLOAT64: arrow.PrimitiveTypes.Float64, arrow.BOOL: arrow.FixedWidthTypes.Boolean,
		arrow.STRING: arrow.BinaryTypes.String,
	}
	var fs []arrow.Field
	for _, c := range cols {
		fs = append(fs, arrow.Field{Name: c.name, Type: types[c.typ]})
	}
	return fs
}

func portFields() []arrow.Field { return arrowFields(portCols) }

func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	good, old := v2.Version, "ccreplay.v0"

	// A file from another writer (Arrow's) with the right schema reads.
	path := filepath.Join(dir, "arrow-written.parquet")
	writeArrowFile(t, path, portFields(), &good)
	if rows, err := ReadPorts(path); err != nil || len(rows) != 1 || rows[0] != (v2.PortRow{}) {
		t.Fatalf("arrow-written "+runfolder.PortsFile+": %v, %+v", err, rows)
	}

	path = filepath.Join(dir, "arrow-packets.parquet")
	writeArrowFile(t, path, arrowFields(packetCols), &good)
	n := 0
	err := ScanPackets(path, func(r *v2.PacketRow) error {
		if n++; *r != (v2.PacketRow{}) {
			t.Errorf("arrow-written "+runfolder.PacketsFile+": %+v", *r)
		}
		return nil
	})
	if err != nil || n != 1 {
		t.Errorf("arrow-written "+runfolder.PacketsFile+": %d rows, %v", n, err)
	}

	retyped := portFields()
	retyped[5].Type = arrow.PrimitiveTypes.Int32 // sim_duration_ns
	cases := []struct {
		name    string
		fields  []arrow.Field
		version *string
		want    string
	}{
		{"wrong-version", portFields(), &old, `schema version "ccreplay.v0", want "ccreplay.v2" or "ccreplay.v1"`},
		{"no-version", portFields(), nil, `no "ccreplay.schema" key/value metadata (want "ccreplay.v2")`},
		{"missing-column", portFields()[1:], &good, `missing column "node" (int32)`},
		{"wrong-type", retyped, &good, `column "sim_duration_ns" is int32, want int64`},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name+".parquet")
		writeArrowFile(t, path, c.fields, c.version)
		_, err := ReadPorts(path)
		want := "arrowread: " + path + ": " + c.want
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, want)
		}
	}

	// Not Parquet at all, and a missing file.
	junk := filepath.Join(dir, "junk.parquet")
	os.WriteFile(junk, []byte("not parquet"), 0o644)
	if _, err := ReadFlows(junk); err == nil || !strings.Contains(err.Error(), junk+": not a Parquet file") {
		t.Errorf("junk: %v", err)
	}
	if _, err := ReadFlows(filepath.Join(dir, "nope.parquet")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	// A ports file is not a flows file.
	if _, err := ReadFlows(filepath.Join(dir, "arrow-written.parquet")); err == nil ||
		!strings.Contains(err.Error(), `missing column "flow_id" (int64)`) {
		t.Errorf("ports read as flows: %v", err)
	}
}

// TestView checks the decoding of both string layouts and the null check.
func TestView(t *testing.T) {
	mem := memory.DefaultAllocator
	in := newInterner()

	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"DATA", "ACK", "DATA"}, nil)
	plain := sb.NewStringArray()
	defer plain.Release()
	var v view
	if err := v.load(plain, in); err != nil {
		t.Fatal(err)
	}
	if a, b, c := v.str(0), v.str(1), v.str(2); a != "DATA" || b != "ACK" || c != "DATA" {
		t.Errorf("plain: %q %q %q", a, b, c)
	}

	db := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{
		IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	for _, s := range []string{"CNP", "DATA", "CNP"} {
		db.AppendString(s)
	}
	dict := db.NewArray()
	defer dict.Release()
	if err := v.load(dict, in); err != nil {
		t.Fatal(err)
	}
	if a, b, c := v.str(0), v.str(1), v.str(2); a != "CNP" || b != "DATA" || c != "CNP" {
		t.Errorf("dictionary: %q %q %q", a, b, c)
	}
	if len(in.m) != 3 {
		t.Errorf("interned %d strings, want 3", len(in.m))
	}

	ib := array.NewInt64Builder(mem)
	ib.AppendValues([]int64{1, 0}, []bool{true, false})
	nulls := ib.NewArray()
	defer nulls.Release()
	if err := v.load(nulls, in); err == nil || err.Error() != "1 of 2 values are null" {
		t.Errorf("nulls: %v", err)
	}
}

func TestScanStopsOnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), runfolder.PacketsFile)
	if err := output.WriteRows(path, randomRows[v2.PacketRow](20_000, 5)); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	n := 0
	err := ScanPackets(path, func(*v2.PacketRow) error {
		if n++; n == 10_000 {
			return stop
		}
		return nil
	})
	if err != stop || n != 10_000 {
		t.Errorf("err %v after %d rows, want stop after 10000", err, n)
	}
}

// streamPackets streams the packet rows row(0), ..., row(n-1) to path as
// a run writes packets.parquet.
func streamPackets(tb testing.TB, path string, n int64, row func(i int64) v2.PacketRow) {
	tb.Helper()
	s, err := output.NewStream[v2.PacketRow](path, 0)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		s.Append(row(i))
	}
	if err := s.Close(); err != nil {
		tb.Fatal(err)
	}
}

// randomPackets gives row i of a log of random packet rows (a cycle of
// 2^14) whose t_ns and psn are i.
func randomPackets() func(i int64) v2.PacketRow {
	src := randomRows[v2.PacketRow](1<<14, 6)
	return func(i int64) v2.PacketRow {
		r := src[i&(int64(len(src))-1)]
		r.TNs, r.PSN = i, i
		return r
	}
}

// TestScanPacketsMemory scans 200k rows and checks that the live heap
// does not grow with the file: the rows alone would take
// 200k * 112 B = 21 MiB; a scan holds one row group's pages and one batch.
func TestScanPacketsMemory(t *testing.T) {
	const n = 200_000
	path := filepath.Join(t.TempDir(), runfolder.PacketsFile)
	streamPackets(t, path, n, randomPackets())

	// Arrow's buffers are all released at the end.
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	live := func() int64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC() // sync.Pool victims (the writer's buffers) go in the second
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	base := live()
	var rows, sumPSN, peak int64
	err := scan(path, packetsTable, packetCols, mem, func(r *v2.PacketRow) error {
		if rows%20_000 == 10_000 {
			peak = max(peak, live()-base)
		}
		rows++
		sumPSN += r.PSN
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows != n || sumPSN != n*(n-1)/2 {
		t.Fatalf("scanned %d rows (psn sum %d)", rows, sumPSN)
	}
	t.Logf("live heap grew by at most %.2f MiB while scanning %d rows", float64(peak)/(1<<20), n)
	if limit := int64(12 << 20); peak > limit {
		t.Errorf("live heap grew by %d B while scanning, want < %d", peak, limit)
	}
	// NB: arrow v16's deltaBitPackDecoder.initBlock never releases one
	// 64 B buffer per delta-encoded column chunk (t_ns and queue_delay_ns,
	// in each row group); the Go GC reclaims it. Everything else must be
	// released.
	rowGroups := (n + output.MaxRowsPerRowGroup - 1) / output.MaxRowsPerRowGroup
	if got, allowed := mem.CurrentAlloc(), 64*2*rowGroups; got > allowed {
		t.Errorf("%d B of Arrow memory still allocated after the scan, want <= %d", got, allowed)
	}
}

// TestComputeFromParquet checks that the summary of the rows read back
// with Arrow equals the summary of the rows written, bit for bit.
func TestComputeFromParquet(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(8, 9))
	flows := make([]v2.FlowRow, 2000)
	for i := range flows {
		size := 1000 + rng.Int64N(1<<20)
		start := rng.Int64N(1e6)
		fct := 1000 + rng.Int64N(1e6)
		f := v2.FlowRow{FlowID: int64(i), SizeBytes: size, StartNs: start, FinishNs: start + fct,
			FCTNs: fct, IdealFCTNs: fct / 3, Slowdown: 3 * rng.Float64() * math.Pi,
			DataPktsSent: size / 1000, CEPkts: rng.Int64N(10), CNPs: rng.Int64N(5)}
		if i%17 == 0 {
			f.FinishNs, f.FCTNs, f.Slowdown = -1, -1, 0
		}
		flows[i] = f
	}
	msgs := make([]v2.MessageRow, 3000)
	for i := range msgs {
		rel := rng.Int64N(1e6)
		mct := 500 + rng.Int64N(1e5)
		msgs[i] = v2.MessageRow{MsgID: int64(i), CollectiveID: int64(i%40) - 1,
			ReleaseNs: rel, FinishNs: rel + mct, MCTNs: mct}
	}
	ports := randomRows[v2.PortRow](64, 10)
	for i := range ports {
		ports[i].SimDurationNs = 2e6
		ports[i].RateBps = 100e9
	}

	fp, mp, pp := filepath.Join(dir, runfolder.FlowsFile), filepath.Join(dir, runfolder.MessagesFile), filepath.Join(dir, runfolder.PortsFile)
	for _, err := range []error{output.WriteRows(fp, flows), output.WriteRows(mp, msgs), output.WriteRows(pp, ports)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	flows2, err1 := ReadFlows(fp)
	msgs2, err2 := ReadMessages(mp)
	ports2, err3 := ReadPorts(pp)
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	want := metrics.Compute(flows, msgs, ports, metrics.Options{})
	got := metrics.Compute(flows2, msgs2, ports2, metrics.Options{})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summary from Parquet differs:\n got %+v\nwant %+v", got, want)
	}
	if want.FlowsFinished == 0 || want.Collectives == 0 || len(want.Buckets) != 10 {
		t.Errorf("fixture too thin: %+v", want)
	}
}

// BenchmarkScanPackets reports the cost of reading one packet row back.
func BenchmarkScanPackets(b *testing.B) {
	const n = 200_000
	path := filepath.Join(b.TempDir(), runfolder.PacketsFile)
	streamPackets(b, path, n, randomPackets())
	b.ReportAllocs()
	b.ResetTimer()
	var rows int64
	for range b.N {
		if err := ScanPackets(path, func(*v2.PacketRow) error { rows++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows), "ns/row")
}

// pfc_paused_ns came to version 2 after files of that version were
// written: a version 2 flows.parquet without it reads it as unknown (-1)
// (and a links.parquet without reverse_flows as 0),
// while a column every version 2 file has is still required.
func TestLateV2Column(t *testing.T) {
	dir := t.TempDir()
	good := v2.Version
	without := func(name string) []arrow.Field {
		var fs []arrow.Field
		for _, f := range arrowFields(flowCols) {
			if f.Name != name {
				fs = append(fs, f)
			}
		}
		return fs
	}
	path := filepath.Join(dir, "before-pfc-paused.parquet")
	writeArrowFile(t, path, without("pfc_paused_ns"), &good)
	rows, err := ReadFlows(path)
	if err != nil || len(rows) != 1 || rows[0] != (v2.FlowRow{PFCPausedNs: -1}) {
		t.Errorf("v2 "+runfolder.FlowsFile+" without pfc_paused_ns: %v, %+v", err, rows)
	}
	path = filepath.Join(dir, "no-concurrent.parquet")
	writeArrowFile(t, path, without("concurrent_bytes"), &good)
	if _, err := ReadFlows(path); err == nil || !strings.Contains(err.Error(), `missing column "concurrent_bytes" (int64)`) {
		t.Errorf("v2 "+runfolder.FlowsFile+" without concurrent_bytes: %v", err)
	}
	// reverse_flows came to links.parquet with estimate --reverse-acks,
	// sender_flows with --sender-nics: an estimate written before them
	// carried neither (0).
	var links []arrow.Field
	for _, f := range arrowFields(linkCols) {
		if f.Name != "reverse_flows" && f.Name != "sender_flows" {
			links = append(links, f)
		}
	}
	path = filepath.Join(dir, "before-reverse-flows.parquet")
	writeArrowFile(t, path, links, &good)
	if rows, err := ReadLinks(path); err != nil || len(rows) != 1 || rows[0] != (v2.LinkRow{}) {
		t.Errorf("v2 "+runfolder.LinksFile+" without reverse_flows and sender_flows: %v, %+v", err, rows)
	}
	path = filepath.Join(dir, "all.parquet")
	writeArrowFile(t, path, arrowFields(flowCols), &good)
	if rows, err := ReadFlows(path); err != nil || len(rows) != 1 || rows[0] != (v2.FlowRow{}) {
		t.Errorf("v2 "+runfolder.FlowsFile+" with every column: %v, %+v", err, rows)
	}
}
