package trace

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/lz4"
)

// parquetWith wraps a footer body in the Parquet file layout:
// "PAR1" footer <4-byte little-endian length> "PAR1".
func parquetWith(footer []byte) []byte {
	b := append([]byte("PAR1"), footer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
	return append(b, "PAR1"...)
}

// TestParquetHostileFiles feeds ReadParquet files built to make a reader
// allocate what they claim; each must fail with a one-line error before
// parquet-go decodes anything.
func TestParquetHostileFiles(t *testing.T) {
	var lz4File bytes.Buffer
	w := parquet.NewGenericWriter[parquetRow](&lz4File, parquet.Compression(&lz4.Codec{}))
	if _, err := w.Write([]parquetRow{{ID: 1, Src: 0, Dst: 1, Bytes: 1000, FlowID: -1, CollectiveID: -1}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, want string
		data       []byte
	}{
		// Field 1 (delta 1) of type list (9); element type i32 (5), size 15
		// = "varint follows": 10^9 elements in a 4-byte footer.
		{"list longer than the footer", "collection of 1000000000 elements", parquetWith(append([]byte{0x19, 0xf5}, binary.AppendUvarint(nil, 1e9)...))},
		// Field 1 of type binary (8) claiming 2^40 bytes.
		{"string longer than the footer", "runs past the end", parquetWith(append([]byte{0x18}, binary.AppendUvarint(nil, 1<<40)...))},
		{"footer longer than the file", "does not fit", append([]byte("PAR1\xff\xff\xff\x7f"), "PAR1"...)},
		{"no magic", "no PAR1 magic", []byte("PAR1 this is not parquet at all")},
		{"structs nested without end", "nested too deep", parquetWith(bytes.Repeat([]byte{0x1c}, 100))},
		{"LZ4 column chunks", "codec LZ4_RAW is not supported", lz4File.Bytes()},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := ReadParquet(bytes.NewReader(c.data), int64(len(c.data)))
			if err == nil || tr != nil {
				t.Fatalf("ReadParquet accepted it (trace %v, err %v)", tr, err)
			}
			if msg := err.Error(); !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q: want one line containing %q", msg, c.want)
			}
		})
	}
}

// TestParquetFooterWalkAcceptsOwnFiles checks the walk on files this
// package writes (every Thrift type the footer uses).
func TestParquetFooterWalkAcceptsOwnFiles(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteParquet(&buf, &Trace{Hosts: 2, Messages: []Message{{ID: 1, Src: 0, Dst: 1, Bytes: 10, FlowID: -1, CollectiveID: -1}}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := readParquetFooter(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil {
		t.Fatal(err)
	}
}
