package trace_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v16/arrow"
	"github.com/apache/arrow/go/v16/arrow/array"
	"github.com/apache/arrow/go/v16/arrow/memory"
	"github.com/apache/arrow/go/v16/parquet/file"
	"github.com/apache/arrow/go/v16/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"

	"github.com/ccreplay/ccreplay/trace"
)

// TestParquetSeenByArrow reads a written trace with Apache Arrow, as a
// Python or DuckDB user would, and checks the column names and types, the
// values and the version metadata.
func TestParquetSeenByArrow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	if err := trace.WriteFile(path, sampleTrace()); err != nil {
		t.Fatal(err)
	}
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	kv := pf.MetaData().KeyValueMetadata()
	if v := kv.FindValue(trace.MetadataKey); v == nil || *v != trace.SchemaVersion {
		t.Errorf("metadata %s = %v, want %q", trace.MetadataKey, v, trace.SchemaVersion)
	}
	for key, want := range map[string]string{trace.HostsKey: "3", trace.PPNKey: "2", trace.RanksKey: "0;0;1;1"} {
		if v := kv.FindValue(key); v == nil || *v != want {
			t.Errorf("metadata %s = %v, want %q", key, v, want)
		}
	}

	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	wantTypes := []struct {
		name string
		id   arrow.Type
	}{
		{"id", arrow.INT64}, {"src", arrow.INT32}, {"dst", arrow.INT32}, {"bytes", arrow.INT64},
		{"release_ns", arrow.INT64}, {"flow_id", arrow.INT64}, {"collective_id", arrow.INT64},
		{"deps", arrow.LIST}, {"gap_ns", arrow.INT64},
		{"priority", arrow.INT32}, {"iteration", arrow.INT64}, {"src_rank", arrow.INT32}, {"dst_rank", arrow.INT32},
	}
	fields := tbl.Schema().Fields()
	if len(fields) != len(wantTypes) {
		t.Fatalf("arrow schema %v, want %d columns", tbl.Schema(), len(wantTypes))
	}
	for i, w := range wantTypes {
		if fields[i].Name != w.name || fields[i].Type.ID() != w.id || fields[i].Nullable {
			t.Errorf("column %d is %v, want non-null %s %v", i, fields[i], w.name, w.id)
		}
	}
	if lt, ok := fields[7].Type.(*arrow.ListType); !ok || lt.Elem().ID() != arrow.INT64 {
		t.Errorf("deps is %v, want list<int64>", fields[7].Type)
	}
	if tbl.NumRows() != 5 {
		t.Fatalf("%d rows, want 5", tbl.NumRows())
	}

	release := tbl.Column(4).Data().Chunk(0).(*array.Int64)
	for i, want := range []int64{0, 0, 0, 10000, 1500} {
		if release.Value(i) != want {
			t.Errorf("release_ns[%d] = %d, want %d", i, release.Value(i), want)
		}
	}
	srcRank := tbl.Column(11).Data().Chunk(0).(*array.Int32)
	for i, want := range []int32{0, 0, -1, 3, -1} {
		if srcRank.Value(i) != want {
			t.Errorf("src_rank[%d] = %d, want %d", i, srcRank.Value(i), want)
		}
	}
	deps := tbl.Column(7).Data().Chunk(0).(*array.List)
	vals := deps.ListValues().(*array.Int64)
	offs := deps.Offsets()
	for i, want := range [][]int64{{}, {}, {0, 1}, {2}, {}} {
		got := vals.Int64Values()[offs[i]:offs[i+1]]
		if len(got) != len(want) || (len(want) > 0 && got[0] != want[0]) || (len(want) > 1 && got[1] != want[1]) {
			t.Errorf("deps[%d] = %v, want %v", i, got, want)
		}
	}
}

// otherRow is a Parquet row type that is not quite a trace, for error
// tests.
type otherRow struct {
	ID    int64 `parquet:"id"`
	Src   int32 `parquet:"src"`
	Dst   int32 `parquet:"dst"`
	Bytes int64 `parquet:"bytes"`
}

func TestReadParquetErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	parquetOf := func(rows []otherRow, opts ...parquet.WriterOption) []byte {
		var b bytes.Buffer
		if err := parquet.Write(&b, rows, opts...); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	good, err := os.ReadFile(filepath.Join("testdata", "sample_v2.parquet"))
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name string
		data []byte
		want string // after "<path>: "
	}{
		{"not parquet", []byte("id,src\n"), "not a readable Parquet file: "},
		{"truncated", good[:len(good)-10], "not a readable Parquet file: "},
		{"other version", parquetOf([]otherRow{{0, 0, 1, 1}}, parquet.KeyValueMetadata(trace.MetadataKey, "ccreplay.trace.v9")),
			`metadata ccreplay.trace.schema is "ccreplay.trace.v9"; this reader knows "ccreplay.trace.v2" and "ccreplay.trace.v1"`},
		{"bad hosts", parquetOf([]otherRow{{0, 0, 1, 1}}, parquet.KeyValueMetadata(trace.HostsKey, "many")),
			`metadata ccreplay.trace.hosts: hosts "many" is not an integer`},
		{"missing columns", parquetOf([]otherRow{{0, 0, 1, 1}}), `missing column "release_ns" (ccreplay.trace.v1 wants ` + trace.CSVHeaderV1 + `)`},
		{"v2 missing columns", parquetOf([]otherRow{{0, 0, 1, 1}}, parquet.KeyValueMetadata(trace.MetadataKey, trace.SchemaVersion)),
			`missing column "release_ns" (ccreplay.trace.v2 wants ` + trace.CSVHeader + `)`},
		{"bad ppn", parquetOf([]otherRow{{0, 0, 1, 1}}, parquet.KeyValueMetadata(trace.PPNKey, "-2")),
			`metadata ccreplay.trace.ppn: ppn "-2" must be >= 0 (0 = not an MPI job)`},
		{"bad ranks", parquetOf([]otherRow{{0, 0, 1, 1}}, parquet.KeyValueMetadata(trace.RanksKey, "0;a")),
			`metadata ccreplay.trace.ranks: ranks "a" is not an integer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := write(tc.name+".parquet", tc.data)
			_, err := trace.ReadFile(p)
			want := p + ": " + tc.want
			if err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
				t.Errorf("ReadFile() = %v\nwant prefix %s", err, want)
			}
		})
	}
}

// rowV1 mirrors the v1 Parquet schema, to write files the trace writer
// would refuse.
type rowV1 struct {
	ID           int64   `parquet:"id"`
	Src          int32   `parquet:"src"`
	Dst          int32   `parquet:"dst"`
	Bytes        int64   `parquet:"bytes"`
	ReleaseNs    int64   `parquet:"release_ns"`
	FlowID       int64   `parquet:"flow_id"`
	CollectiveID int64   `parquet:"collective_id"`
	Deps         []int64 `parquet:"deps,list"`
	GapNs        int64   `parquet:"gap_ns"`
}

// rowV2 mirrors the v2 Parquet schema: the v1 columns (parquet-go
// flattens the embedded struct), then the four v2 added.
type rowV2 struct {
	rowV1
	Priority  int32 `parquet:"priority"`
	Iteration int64 `parquet:"iteration"`
	SrcRank   int32 `parquet:"src_rank"`
	DstRank   int32 `parquet:"dst_rank"`
}

// okRowV2 is a valid v2 row with the given id: one byte from host 0 to 1,
// no flow, collective, iteration or ranks.
func okRowV2(id int64) rowV2 {
	return rowV2{rowV1: rowV1{ID: id, Src: 0, Dst: 1, Bytes: 1, FlowID: -1, CollectiveID: -1}, Iteration: -1, SrcRank: -1, DstRank: -1}
}

// readRows writes rows to a Parquet file with opts and reads it back as a
// trace.
func readRows[R any](t *testing.T, rows []R, opts ...parquet.WriterOption) (*trace.Trace, error) {
	t.Helper()
	var b bytes.Buffer
	if err := parquet.Write(&b, rows, opts...); err != nil {
		t.Fatal(err)
	}
	return trace.ReadParquet(bytes.NewReader(b.Bytes()), int64(b.Len()))
}

func TestReadParquetV2RowErrors(t *testing.T) {
	ok := okRowV2
	with := func(f func(r *rowV2)) rowV2 { r := ok(1); f(&r); return r }
	mpi := []parquet.WriterOption{parquet.KeyValueMetadata(trace.PPNKey, "1"), parquet.KeyValueMetadata(trace.RanksKey, "0;1")}
	for _, tc := range []struct {
		name string
		rows []rowV2
		meta []parquet.WriterOption // with the version key, in addition
		want string
	}{
		{"priority", []rowV2{ok(0), with(func(r *rowV2) { r.Priority = -1 })}, nil, "row 2: priority -1 must be >= 0 (0 = the NIC's default data class)"},
		{"iteration", []rowV2{with(func(r *rowV2) { r.Iteration = -5 })}, nil, "row 1: iteration -5 must be >= -1 (-1 = none)"},
		{"rank host", []rowV2{with(func(r *rowV2) { r.SrcRank, r.DstRank = 1, 0 })}, mpi, "row 1: message 1: src_rank 1 runs on host 1, not on src 0"},
		{"no version key", []rowV2{with(func(r *rowV2) { r.SrcRank, r.DstRank = 0, 1 })}, mpi, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.meta
			if tc.name != "no version key" {
				opts = append(opts, parquet.KeyValueMetadata(trace.MetadataKey, trace.SchemaVersion))
			}
			got, err := readRows(t, tc.rows, opts...)
			if tc.want == "" {
				// Without the key, a file with every v2 column is read as v2.
				if err != nil || got.PPN != 1 || got.Messages[0].SrcRank != 0 || got.Messages[0].DstRank != 1 {
					t.Errorf("ReadParquet() = %+v, %v", got, err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Errorf("ReadParquet() = %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestReadParquetRowErrors(t *testing.T) {
	ok := func(id int64) rowV1 { return rowV1{ID: id, Src: 0, Dst: 1, Bytes: 1, FlowID: -1, CollectiveID: -1} }
	for _, tc := range []struct {
		name  string
		hosts string
		rows  []rowV1
		want  string
	}{
		{"negative bytes", "", []rowV1{ok(0), {ID: 1, Src: 0, Dst: 1, Bytes: -5, FlowID: -1, CollectiveID: -1}}, "row 2: bytes -5 must be >= 0"},
		{"negative dep", "", []rowV1{ok(0), ok(1), {ID: 2, Src: 0, Dst: 1, FlowID: -1, CollectiveID: -1, Deps: []int64{0, -1}}}, "row 3: deps -1 must be >= 0"},
		{"host range", "2", []rowV1{ok(0), ok(1), {ID: 2, Src: 0, Dst: 3, FlowID: -1, CollectiveID: -1}}, "row 3: message 2: dst 3 is not a host (hosts are 0..1)"},
		{"duplicate", "", []rowV1{ok(0), ok(1), ok(0)}, "row 3: message 0: id 0 is also used at row 1"},
		{"inferred hosts", "0", []rowV1{ok(0), {ID: 1, Src: 6, Dst: 2, FlowID: -1, CollectiveID: -1, Deps: []int64{0}}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := []parquet.WriterOption{parquet.KeyValueMetadata(trace.MetadataKey, trace.SchemaVersionV1)}
			if tc.hosts != "" {
				opts = append(opts, parquet.KeyValueMetadata(trace.HostsKey, tc.hosts))
			}
			got, err := readRows(t, tc.rows, opts...)
			if tc.want == "" {
				if err != nil || got.Hosts != 7 || got.Messages[1].Deps[0] != 0 || got.Messages[1].Iteration != -1 || got.Messages[1].SrcRank != -1 {
					t.Errorf("ReadParquet() = %+v, %v; want 7 hosts", got, err)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Errorf("ReadParquet() = %v\nwant %s", err, tc.want)
			}
		})
	}
}
