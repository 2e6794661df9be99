package trace_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	pqformat "github.com/parquet-go/parquet-go/format"

	"github.com/ccreplay/ccreplay/trace"
)

// maxBombAlloc bounds what reading any of the files parquetBombs builds
// may allocate (each is under 1.1 MB).
const maxBombAlloc = 64 << 20

// sampleParquet returns sampleTrace as WriteParquet writes it: zstd,
// DATA_PAGE_V2 pages, id and release_ns DELTA_BINARY_PACKED.
func sampleParquet(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := trace.WriteParquet(&b, sampleTrace()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// dictParquet returns a zstd file of rowV2 rows, one per message of
// sampleTrace, with the sizes dictionary-encoded, as other writers make
// it.
func dictParquet(t testing.TB) []byte {
	t.Helper()
	tr := sampleTrace()
	var rows []rowV2
	for _, m := range tr.Messages {
		rows = append(rows, rowV2{rowV1{m.ID, m.Src, m.Dst, m.Bytes, m.Release.Nanoseconds(), m.FlowID, m.CollectiveID,
			m.Deps, m.Gap.Nanoseconds()}, m.Priority, m.Iteration, m.SrcRank, m.DstRank})
	}
	var b bytes.Buffer
	if err := parquet.Write(&b, rows, &parquet.StructTagOption{ColumnPath: []string{"Bytes"}, StructTag: `parquet:"bytes,dict"`}, parquet.Compression(&parquet.Zstd),
		parquet.KeyValueMetadata(trace.MetadataKey, trace.SchemaVersion), parquet.KeyValueMetadata(trace.HostsKey, "3")); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// edited takes file apart, lets edit change it and puts it back together.
func edited(t testing.TB, file []byte, edit func(p *pqParts)) []byte {
	t.Helper()
	p := splitParquet(t, file)
	edit(p)
	return p.join(t)
}

// zstdFrameClaiming returns a zstd frame whose header declares content of
// size bytes, with a window of 1 MB, and which holds one raw block of 12
// bytes.
func zstdFrameClaiming(size uint64) []byte {
	b := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xc0, 10 << 3} // magic; 8-byte content size; window 2^(10+10)
	b = binary.LittleEndian.AppendUint64(b, size)
	b = append(b, 12<<3|1, 0, 0) // last block, raw, 12 bytes
	return append(b, make([]byte, 12)...)
}

// footerOf returns a file of no data with md as its footer.
func footerOf(t testing.TB, md *pqformat.FileMetaData) []byte {
	t.Helper()
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), md)
	if err != nil {
		t.Fatal(err)
	}
	return parquetWithFooter([]byte("PAR1"), footer)
}

// nested returns a schema of depth groups nested one in the other around
// one INT64 leaf.
func nested(depth int) []pqformat.SchemaElement {
	els := []pqformat.SchemaElement{{Name: "root"}}
	els[0].NumChildren.Valid, els[0].NumChildren.V = true, 1
	for i := range depth {
		e := pqformat.SchemaElement{Name: "g"}
		e.NumChildren.Valid, e.NumChildren.V = true, 1
		if i == depth-1 {
			e = pqformat.SchemaElement{Name: "id"}
			e.Type.Valid, e.Type.V = true, pqformat.Int64
		}
		els = append(els, e)
	}
	return els
}

// parquetBomb is a small file whose footer or page headers claim what its
// bytes cannot hold, with the words ReadParquet's error must contain.
type parquetBomb struct {
	name, want string
	data       []byte
}

// parquetBombs builds files that made parquet-go v0.32.0 allocate
// gigabytes (or exhaust memory) before ReadParquet checked the claims, and
// some that made it panic (a dictionary index beyond the dictionary, an
// integer column annotated as a map).
func parquetBombs(t testing.TB) []parquetBomb {
	sample, dict := sampleParquet(t), dictParquet(t)
	return []parquetBomb{
		{"delta page num_values", "num_values 2147483647 makes more values than the row group's 5 rows",
			edited(t, sample, func(p *pqParts) { p.page(t, "id", 0).h.DataPageHeaderV2.V.NumValues = math.MaxInt32 })},
		{"list page num_values", "num_values 2147483647: column deps has more entries than a file of this size can hold",
			edited(t, sample, func(p *pqParts) { p.page(t, "deps", 0).h.DataPageHeaderV2.V.NumValues = math.MaxInt32 })},
		{"uncompressed_page_size", "uncompressed_page_size 2147483647 is more than",
			edited(t, sample, func(p *pqParts) { p.page(t, "src", 0).h.UncompressedPageSize = math.MaxInt32 })},
		{"compressed_page_size", "run past the end of its column chunk",
			edited(t, sample, func(p *pqParts) { p.page(t, "bytes", 0).h.CompressedPageSize = 1 << 30 })},
		{"dictionary num_values", "a dictionary of 50000000 values needs 400000000 bytes",
			edited(t, dict, func(p *pqParts) { p.page(t, "bytes", 0).h.DictionaryPageHeader.V.NumValues = 50_000_000 })},
		{"dictionary index run", "dictionary indices: RLE runs claim more than the 5 values of the page",
			edited(t, dict, func(p *pqParts) {
				pg := p.page(t, "bytes", 1)
				rep, def, _ := v2Body(t, pg)
				run := append([]byte{1}, binary.AppendUvarint(nil, math.MaxInt32<<1)...) // bit width 1, one RLE run
				setV2Body(t, pg, rep, def, append(run, 1))
			})},
		{"dictionary index beyond the dictionary", "dictionary indices: index 6 is not in the dictionary of 4 values",
			edited(t, dict, func(p *pqParts) {
				pg := p.page(t, "bytes", 1)
				rep, def, _ := v2Body(t, pg)
				setV2Body(t, pg, rep, def, []byte{3, 5 << 1, 6}) // bit width 3, an RLE run of five 6s
			})},
		{"integer column annotated as a map", "column bytes is annotated MAP, which is not an integer type of its Parquet type INT64",
			edited(t, sample, func(p *pqParts) {
				for i := range p.md.Schema {
					if p.md.Schema[i].Name == "bytes" {
						p.md.Schema[i].LogicalType.Value = &pqformat.MapType{}
					}
				}
			})},
		{"delta value count", "DELTA_BINARY_PACKED data claims 2147483647 values, more than the page's 5",
			edited(t, sample, func(p *pqParts) {
				pg := p.page(t, "id", 0)
				rep, def, values := v2Body(t, pg)
				// block size, mini-blocks, total values, first value, ...
				var fields [][]byte
				for range 3 {
					_, n := binary.Uvarint(values)
					fields, values = append(fields, values[:n]), values[n:]
				}
				fields[2] = binary.AppendUvarint(nil, math.MaxInt32)
				setV2Body(t, pg, rep, def, append(bytes.Join(fields, nil), values...))
			})},
		{"repetition level run", "repetition levels: RLE runs claim more than the 6 values of the page",
			edited(t, sample, func(p *pqParts) {
				pg := p.page(t, "deps", 0)
				_, def, values := v2Body(t, pg)
				setV2Body(t, pg, append(binary.AppendUvarint(nil, 1<<30<<1), 0), def, values)
			})},
		{"zstd frame content size", "the page decompresses to more bytes than it declares",
			edited(t, sample, func(p *pqParts) {
				pg := p.page(t, "src", 0)
				pg.body = zstdFrameClaiming(32 << 30)
				pg.h.CompressedPageSize = int32(len(pg.body))
			})},
		{"page header string", "page header runs past the end of its column chunk",
			edited(t, sample, func(p *pqParts) {
				// NB: an unknown binary field claiming 2 GB, appended by
				// hand after the header's last field (id 8).
				pg := p.page(t, "gap_ns", 0)
				h, err := thrift.Marshal(new(thrift.CompactProtocol), &pg.h)
				if err != nil {
					t.Fatal(err)
				}
				raw := append(h[:len(h)-1], 7<<4|8)
				raw = binary.AppendUvarint(raw, math.MaxInt32)
				pg.rawHeader = append(raw, 0)
			})},
		{"row group rows", "row group 0's row count 2147483647 is more than a",
			edited(t, sample, func(p *pqParts) { p.md.RowGroups[0].NumRows = math.MaxInt32 })},
		{"file rows", "the file's row count 1099511627776 is beyond the limit of 2147483647 messages",
			edited(t, sample, func(p *pqParts) { p.md.NumRows = 1 << 40 })},
		{"footer of empty structs", "would take about",
			func() []byte {
				// FileMetaData{row_groups: [RowGroup{columns: 2^20 empty ColumnChunks}]}
				var c compact
				c.field(4, 9).list(1, 12).field(1, 9).list(1<<20, 12)
				c.Write(make([]byte, 1<<20))
				c.stop().stop()
				return parquetWithFooter([]byte("PAR1"), c.Bytes())
			}()},
		{"schema nested deep", "nested more than 16 deep", footerOf(t, &pqformat.FileMetaData{Version: 1, Schema: nested(20)})},
		{"schema nested very deep", "", footerOf(t, &pqformat.FileMetaData{Version: 1, Schema: nested(100_000)})},
		{"row groups times columns", "row group 0 has 1 column chunks for 2000 columns",
			func() []byte {
				md := &pqformat.FileMetaData{Version: 1, Schema: nested(1), RowGroups: make([]pqformat.RowGroup, 20_000),
					CreatedBy: strings.Repeat("x", 300_000)}
				for g := range md.RowGroups {
					md.RowGroups[g].Columns = []pqformat.ColumnChunk{{MetaData: pqformat.ColumnMetaData{Type: pqformat.Int64, PathInSchema: []string{"id"}}}}
				}
				md.Schema[0].NumChildren.V = 2000
				for i := range 1999 {
					leaf := md.Schema[1]
					leaf.Name = fmt.Sprint("c", i)
					md.Schema = append(md.Schema, leaf)
				}
				return footerOf(t, md)
			}()},
	}
}

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc
// counts every allocation, whether collected since or not).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestParquetBombs reads files whose footer, page headers or page data
// claim far more than their bytes hold (num_values 2^31-1, a 2 GB page, a
// dictionary of 50 million values, RLE runs of 2^31 values, a zstd frame
// declaring a terabyte, ...) and checks that each is refused with a
// one-line error before anything near the claim is allocated: at most
// maxBombAlloc.
func TestParquetBombs(t *testing.T) {
	for _, b := range parquetBombs(t) {
		t.Run(b.name, func(t *testing.T) {
			var tr *trace.Trace
			var err error
			n := allocated(func() { tr, err = trace.ReadParquet(bytes.NewReader(b.data), int64(len(b.data))) })
			if n > maxBombAlloc {
				t.Errorf("reading the %d-byte file allocated %d MB, more than %d MB", len(b.data), n>>20, maxBombAlloc>>20)
			}
			if err == nil || tr != nil {
				t.Fatalf("ReadParquet accepted a %d-byte bomb", len(b.data))
			}
			if msg := err.Error(); !strings.Contains(msg, b.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want one line containing %q", msg, b.want)
			}
		})
	}
}

// TestParquetBombBaseFilesRead checks that the files the bombs are made
// from read, so that each bomb fails for what was changed in it.
func TestParquetBombBaseFilesRead(t *testing.T) {
	for name, data := range map[string][]byte{"sample": sampleParquet(t), "dictionary": dictParquet(t)} {
		for _, file := range [][]byte{data, edited(t, data, func(*pqParts) {})} {
			tr, err := trace.ReadParquet(bytes.NewReader(file), int64(len(file)))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if want := sampleTrace(); len(tr.Messages) != len(want.Messages) || tr.Messages[2].Deps[1] != 1 {
				t.Errorf("%s: read %+v", name, tr)
			}
		}
	}
}
