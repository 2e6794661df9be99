package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	pqformat "github.com/parquet-go/parquet-go/format"
)

// maxFooterBytes bounds the Parquet footer this reader accepts, bytes. A
// trace of a million messages in one row group has a footer of a few KB.
const maxFooterBytes = 16 << 20

// maxFooterExpansion bounds the memory decoding a footer may take, as a
// multiple of its size (plus footerAllowance). By thriftWalker's estimate,
// which errs high, the footers ccreplay and Apache Arrow write cost 15 to
// 30 times their size.
const (
	maxFooterExpansion = 64
	footerAllowance    = 1 << 20
)

// readParquetFooter reads and decodes the footer of a Parquet file of
// size bytes and returns it with its length. It first walks the Thrift
// compact-protocol bytes without building anything and rejects a footer
// whose lengths cannot be true (a list, set, map or string that claims
// more elements or bytes than the footer has left) or whose decoding would
// take more than maxFooterExpansion times its size: parquet-go allocates
// what such lengths claim before it finds out (tens of GB from a 3 KB
// file: see FuzzReadParquet), so the walk has to come before any decoding.
//
// Parquet file layout: "PAR1" ... footer, 4-byte little-endian footer
// length, "PAR1". Every element of a Thrift collection takes at least one
// byte in the compact protocol.
func readParquetFooter(r io.ReaderAt, size int64) (*pqformat.FileMetaData, int64, error) {
	if size < 12 {
		return nil, 0, fmt.Errorf("%d bytes is too short for a Parquet file", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, 0, fmt.Errorf("reading the footer length: %w", err)
	}
	if string(tail[4:]) != "PAR1" {
		return nil, 0, errors.New("no PAR1 magic at the end of the file")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 || n > maxFooterBytes {
		return nil, 0, fmt.Errorf("footer length %d does not fit a %d-byte file", n, size)
	}
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-8-n); err != nil {
		return nil, 0, fmt.Errorf("reading the footer: %w", err)
	}
	w := thriftWalker{b: buf}
	if err := w.structure(0); err != nil {
		return nil, 0, fmt.Errorf("corrupt footer at byte %d of %d: %w", w.off, n, err)
	}
	if limit := maxFooterExpansion*n + footerAllowance; w.cost > limit {
		return nil, 0, fmt.Errorf("the %d-byte footer would take about %d bytes to decode, more than %d (%d times its size plus %d)",
			n, w.cost, limit, maxFooterExpansion, footerAllowance)
	}
	md := new(pqformat.FileMetaData)
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), buf, md); err != nil {
		return nil, 0, fmt.Errorf("corrupt footer: %w", err)
	}
	return md, n, nil
}
