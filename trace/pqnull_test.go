package trace_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v16/arrow"
	"github.com/apache/arrow/go/v16/arrow/array"
	"github.com/apache/arrow/go/v16/arrow/memory"
	arrowpq "github.com/apache/arrow/go/v16/parquet"
	"github.com/apache/arrow/go/v16/parquet/pqarrow"
	"github.com/parquet-go/parquet-go"

	"github.com/ccreplay/ccreplay/trace"
)

// optionalRowV2 is the version 2 schema with every column but deps
// declared optional, as a writer of nullable data makes it.
type optionalRowV2 struct {
	ID           *int64  `parquet:"id,optional"`
	Src          *int32  `parquet:"src,optional"`
	Dst          *int32  `parquet:"dst,optional"`
	Bytes        *int64  `parquet:"bytes,optional"`
	ReleaseNs    *int64  `parquet:"release_ns,optional"`
	FlowID       *int64  `parquet:"flow_id,optional"`
	CollectiveID *int64  `parquet:"collective_id,optional"`
	Deps         []int64 `parquet:"deps,list"`
	GapNs        *int64  `parquet:"gap_ns,optional"`
	Priority     *int32  `parquet:"priority,optional"`
	Iteration    *int64  `parquet:"iteration,optional"`
	SrcRank      *int32  `parquet:"src_rank,optional"`
	DstRank      *int32  `parquet:"dst_rank,optional"`
}

// optionalRows returns sampleTrace's messages as optionalRowV2 rows, every
// value present.
func optionalRows() []optionalRowV2 {
	var rows []optionalRowV2
	for _, m := range sampleTrace().Messages {
		rows = append(rows, optionalRowV2{&m.ID, &m.Src, &m.Dst, &m.Bytes, new(m.Release.Nanoseconds()), &m.FlowID, &m.CollectiveID,
			m.Deps, new(m.Gap.Nanoseconds()), &m.Priority, &m.Iteration, &m.SrcRank, &m.DstRank})
	}
	return rows
}

// writeOptional writes rows with sampleTrace's metadata.
func writeOptional(t testing.TB, rows []optionalRowV2) []byte {
	t.Helper()
	tr := sampleTrace()
	var b bytes.Buffer
	if err := parquet.Write(&b, rows, parquet.KeyValueMetadata(trace.MetadataKey, trace.SchemaVersion),
		parquet.KeyValueMetadata(trace.HostsKey, strconv.Itoa(tr.Hosts)), parquet.KeyValueMetadata(trace.PPNKey, strconv.Itoa(tr.PPN)),
		parquet.KeyValueMetadata(trace.RanksKey, "0;0;1;1")); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestParquetNullInRequiredColumn checks that a null in a column a message
// cannot do without is an error naming the column and the row, in every
// such column, where it used to read as 0.
func TestParquetNullInRequiredColumn(t *testing.T) {
	for _, c := range []struct {
		column string
		row    int // 1-based
		clear  func(r *optionalRowV2)
	}{
		{"id", 1, func(r *optionalRowV2) { r.ID = nil }},
		{"src", 2, func(r *optionalRowV2) { r.Src = nil }},
		{"dst", 5, func(r *optionalRowV2) { r.Dst = nil }},
		{"bytes", 4, func(r *optionalRowV2) { r.Bytes = nil }},
		{"release_ns", 3, func(r *optionalRowV2) { r.ReleaseNs = nil }},
		{"flow_id", 2, func(r *optionalRowV2) { r.FlowID = nil }},
		{"collective_id", 2, func(r *optionalRowV2) { r.CollectiveID = nil }},
		{"gap_ns", 3, func(r *optionalRowV2) { r.GapNs = nil }},
	} {
		t.Run(c.column, func(t *testing.T) {
			rows := optionalRows()
			c.clear(&rows[c.row-1])
			path := filepath.Join(t.TempDir(), "trace.parquet")
			if err := os.WriteFile(path, writeOptional(t, rows), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := trace.ReadFile(path)
			want := path + ": row " + strconv.Itoa(c.row) + ": column " + c.column + " is null (required)"
			if err == nil || err.Error() != want {
				t.Errorf("ReadFile() = %v\nwant %s", err, want)
			}
		})
	}
}

// TestParquetNullsFirstInRowOrder checks that of several nulls the error
// names the first row's, and in that row the first column's.
func TestParquetNullsFirstInRowOrder(t *testing.T) {
	rows := optionalRows()
	rows[1].Dst, rows[3].ID, rows[1].GapNs = nil, nil, nil
	data := writeOptional(t, rows)
	_, err := trace.ReadParquet(bytes.NewReader(data), int64(len(data)))
	if want := "row 2: column dst is null (required)"; err == nil || err.Error() != want {
		t.Errorf("ReadParquet() = %v, want %s", err, want)
	}
}

// TestParquetOptionalColumnsRead checks that columns declared optional but
// holding no null read as required ones do, and that a null in a column
// version 2 added reads as the default a version 1 file gets.
func TestParquetOptionalColumnsRead(t *testing.T) {
	rows := optionalRows()
	data := writeOptional(t, rows)
	got, err := trace.ReadParquet(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if want := sampleTrace(); !reflect.DeepEqual(got, want) {
		t.Fatalf("read\n%+v\nwant\n%+v", got, want)
	}

	rows[0].Priority, rows[0].Iteration, rows[0].SrcRank, rows[0].DstRank = nil, nil, nil, nil
	data = writeOptional(t, rows)
	got, err = trace.ReadParquet(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	m := got.Messages[0]
	if m.Priority != 0 || m.Iteration != trace.NoIteration || m.SrcRank != trace.NoRank || m.DstRank != trace.NoRank {
		t.Errorf("nulls read as priority %d, iteration %d, ranks %d, %d; want 0, -1, -1, -1", m.Priority, m.Iteration, m.SrcRank, m.DstRank)
	}
}

// arrowDepsFile writes a version 1 trace of three messages with Arrow,
// whose nullable deps column holds deps[i] for message i: nil is a null
// list, and a nil element a null id.
func arrowDepsFile(t testing.TB, deps [][]*int64) []byte {
	t.Helper()
	fields := []arrow.Field{{Name: "deps", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true}}
	for _, name := range strings.Split(trace.CSVHeaderV1, ",") {
		if name != "deps" {
			fields = append(fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64, Nullable: true})
		}
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i, d := range deps {
		lb := b.Field(0).(*array.ListBuilder)
		if d == nil {
			lb.AppendNull()
		} else {
			lb.Append(true)
			for _, x := range d {
				if x == nil {
					lb.ValueBuilder().(*array.Int64Builder).AppendNull()
				} else {
					lb.ValueBuilder().(*array.Int64Builder).Append(*x)
				}
			}
		}
		// id, src, dst, bytes, release_ns, flow_id, collective_id, gap_ns
		for k, v := range []int64{int64(i), 0, 1, 10, 0, -1, -1, 0} {
			b.Field(1 + k).(*array.Int64Builder).Append(v)
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	var out bytes.Buffer
	w, err := pqarrow.NewFileWriter(schema, &out, arrowpq.NewWriterProperties(), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestParquetNullDeps checks that a null deps list reads as no deps and a
// null id in one is an error naming the row.
func TestParquetNullDeps(t *testing.T) {
	zero, one := int64(0), int64(1)
	data := arrowDepsFile(t, [][]*int64{nil, {&zero}, {&zero, &one}})
	got, err := trace.ReadParquet(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if d := [][]int64{got.Messages[0].Deps, got.Messages[1].Deps, got.Messages[2].Deps}; !reflect.DeepEqual(d, [][]int64{nil, {0}, {0, 1}}) {
		t.Errorf("deps %v, want [[] [0] [0 1]]", d)
	}

	data = arrowDepsFile(t, [][]*int64{{}, {&zero}, {&zero, nil}})
	_, err = trace.ReadParquet(bytes.NewReader(data), int64(len(data)))
	if want := "row 3: column deps holds a null id (required)"; err == nil || err.Error() != want {
		t.Errorf("ReadParquet() = %v, want %s", err, want)
	}
}
