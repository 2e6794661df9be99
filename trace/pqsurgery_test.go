package trace_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	pqformat "github.com/parquet-go/parquet-go/format"
)

// This file takes Parquet files apart and puts them back together, so
// that tests can build files whose footer or page headers claim what
// their bytes cannot hold. It uses parquet-go's Thrift codec, not the
// reader's own checks.

// pqPage is one page of a column chunk: its header and its bytes as
// stored (compressed).
type pqPage struct {
	h         pqformat.PageHeader
	rawHeader []byte // written instead of h when set
	body      []byte
}

// pqParts is a Parquet file taken apart: its footer and the pages of each
// column chunk, [row group][column].
type pqParts struct {
	md    pqformat.FileMetaData
	pages [][][]*pqPage
}

// splitParquet takes a well-formed Parquet file apart.
func splitParquet(t testing.TB, data []byte) *pqParts {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	p := &pqParts{}
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), data[len(data)-8-n:len(data)-8], &p.md); err != nil {
		t.Fatal(err)
	}
	for _, rg := range p.md.RowGroups {
		var cols [][]*pqPage
		for _, cc := range rg.Columns {
			start := cc.MetaData.DataPageOffset
			if cc.MetaData.DictionaryPageOffset != 0 {
				start = cc.MetaData.DictionaryPageOffset
			}
			var pages []*pqPage
			for off, end := start, start+cc.MetaData.TotalCompressedSize; off < end; {
				r := new(thrift.CompactProtocol).NewReaderFromBytes(data[off:end])
				pg := &pqPage{}
				if err := thrift.NewDecoder(r).Decode(&pg.h); err != nil {
					t.Fatal(err)
				}
				body := off + int64(r.BytesRead())
				pg.body = append([]byte(nil), data[body:body+int64(pg.h.CompressedPageSize)]...)
				pages = append(pages, pg)
				off = body + int64(pg.h.CompressedPageSize)
			}
			cols = append(cols, pages)
		}
		p.pages = append(p.pages, cols)
	}
	return p
}

// column returns the index of the column chunk whose path starts with
// name.
func (p *pqParts) column(t testing.TB, name string) int {
	t.Helper()
	for i, cc := range p.md.RowGroups[0].Columns {
		if cc.MetaData.PathInSchema[0] == name {
			return i
		}
	}
	t.Fatalf("no column %q", name)
	return -1
}

// page returns page k of column name in row group 0.
func (p *pqParts) page(t testing.TB, name string, k int) *pqPage {
	t.Helper()
	return p.pages[0][p.column(t, name)][k]
}

// join puts the file back together, laying the pages out anew and
// updating the footer's offsets and sizes to match. The page headers are
// written as they are but for their checksums, which are recomputed; the
// page index is dropped.
func (p *pqParts) join(t testing.TB) []byte {
	t.Helper()
	out := []byte("PAR1")
	for g := range p.md.RowGroups {
		rg := &p.md.RowGroups[g]
		rgStart := int64(len(out))
		for c := range rg.Columns {
			cc := &rg.Columns[c]
			start := int64(len(out))
			cc.MetaData.DictionaryPageOffset, cc.MetaData.DataPageOffset = 0, start
			var uncompressed int64
			for k, pg := range p.pages[g][c] {
				if k == 0 && pg.h.Type == pqformat.DictionaryPage {
					cc.MetaData.DictionaryPageOffset = start
				} else if k == 1 && cc.MetaData.DictionaryPageOffset != 0 {
					cc.MetaData.DataPageOffset = int64(len(out))
				}
				if pg.h.CRC != 0 { // as a writer would, for the body as it is now
					pg.h.CRC = int32(crc32.ChecksumIEEE(pg.body))
				}
				h, err := thrift.Marshal(new(thrift.CompactProtocol), &pg.h)
				if err != nil {
					t.Fatal(err)
				}
				if pg.rawHeader != nil {
					h = pg.rawHeader
				}
				out = append(append(out, h...), pg.body...)
				uncompressed += int64(len(h)) + int64(pg.h.UncompressedPageSize)
			}
			cc.FileOffset = start
			cc.MetaData.TotalCompressedSize = int64(len(out)) - start
			cc.MetaData.TotalUncompressedSize = uncompressed
			cc.ColumnIndexOffset, cc.ColumnIndexLength, cc.OffsetIndexOffset, cc.OffsetIndexLength = 0, 0, 0, 0
		}
		rg.FileOffset, rg.TotalCompressedSize = rgStart, int64(len(out))-rgStart
	}
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &p.md)
	if err != nil {
		t.Fatal(err)
	}
	return parquetWithFooter(out, footer)
}

// parquetWithFooter ends data with footer, its length and the magic.
func parquetWithFooter(data, footer []byte) []byte {
	out := append(append([]byte(nil), data...), footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// zstdPlain returns the decompressed bytes of a zstd page body.
func zstdPlain(t testing.TB, body []byte) []byte {
	t.Helper()
	d, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	plain, err := d.DecodeAll(body, nil)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

// setV2Body sets the levels and values of a DATA_PAGE_V2 of a zstd file,
// compressing the values, and the sizes its header gives.
func setV2Body(t testing.TB, pg *pqPage, rep, def, values []byte) {
	t.Helper()
	e, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	levels := append(append([]byte(nil), rep...), def...)
	pg.body = append(levels, e.EncodeAll(values, nil)...)
	pg.h.UncompressedPageSize = int32(len(levels) + len(values))
	pg.h.CompressedPageSize = int32(len(pg.body))
	pg.h.DataPageHeaderV2.V.RepetitionLevelsByteLength = int32(len(rep))
	pg.h.DataPageHeaderV2.V.DefinitionLevelsByteLength = int32(len(def))
}

// v2Body returns the levels and decompressed values of a DATA_PAGE_V2 of
// a zstd file.
func v2Body(t testing.TB, pg *pqPage) (rep, def, values []byte) {
	t.Helper()
	r := int(pg.h.DataPageHeaderV2.V.RepetitionLevelsByteLength)
	d := int(pg.h.DataPageHeaderV2.V.DefinitionLevelsByteLength)
	return pg.body[:r], pg.body[r : r+d], zstdPlain(t, pg.body[r+d:])
}

// compact builds Thrift compact-protocol bytes by hand, for footers that
// parquet-go's encoder would not write.
type compact struct{ bytes.Buffer }

// field writes a field header with a delta of 1..15 from the previous id.
func (c *compact) field(delta, typ byte) *compact { c.WriteByte(delta<<4 | typ); return c }

// list writes a list header of n elements of type typ.
func (c *compact) list(n int, typ byte) *compact {
	c.WriteByte(0xf0 | typ)
	c.Write(binary.AppendUvarint(nil, uint64(n)))
	return c
}

// stop ends a struct.
func (c *compact) stop() *compact { c.WriteByte(0); return c }
