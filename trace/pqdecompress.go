package trace

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	pqformat "github.com/parquet-go/parquet-go/format"
)

// pageDecompressor undoes the compression of one page at a time, never
// producing more than the page declares. parquet-go's decoders grow their
// output for as long as the input asks (a zstd frame may claim a
// terabyte; a gzip stream expands a thousand times), so checkPages
// decompresses every page this way before parquet-go sees it: a page that
// comes to more than it declares is refused, and parquet-go, decoding the
// same bytes, then never allocates more than the declared size.
type pageDecompressor struct {
	buf []byte
	gz  *gzip.Reader
}

// zstdPageDecoder decodes zstd into a buffer's spare capacity and no
// further (WithDecodeAllCapLimit), refusing a frame whose declared content
// size does not fit before allocating anything for it.
var zstdPageDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true), zstd.WithDecoderMaxMemory(1<<31))
})

// errPageTooBig says that a page decompresses to more than it declares.
var errPageTooBig = errors.New("the page decompresses to more bytes than it declares")

// decompress returns src decompressed with codec (uncompressed, snappy,
// gzip or zstd), or errPageTooBig if that comes to more than limit bytes.
// The result is valid until the next call.
func (d *pageDecompressor) decompress(codec pqformat.CompressionCodec, src []byte, limit int) ([]byte, error) {
	if cap(d.buf) < limit {
		d.buf = make([]byte, limit)
	}
	switch codec {
	case pqformat.Uncompressed:
		return src, nil
	case pqformat.Zstd:
		dec, err := zstdPageDecoder()
		if err != nil {
			return nil, err
		}
		out, err := dec.DecodeAll(src, d.buf[:0:limit])
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) || len(out) > limit {
			return nil, errPageTooBig
		}
		if err != nil {
			return nil, fmt.Errorf("corrupt zstd data: %w", err)
		}
		return out, nil
	case pqformat.Snappy:
		n, err := snappy.DecodedLen(src)
		if err != nil {
			return nil, fmt.Errorf("corrupt snappy data: %w", err)
		}
		if n > limit {
			return nil, errPageTooBig
		}
		out, err := snappy.Decode(d.buf[:limit], src)
		if err != nil {
			return nil, fmt.Errorf("corrupt snappy data: %w", err)
		}
		return out, nil
	case pqformat.Gzip:
		var err error
		if d.gz == nil {
			d.gz, err = gzip.NewReader(bytes.NewReader(src))
		} else {
			err = d.gz.Reset(bytes.NewReader(src))
		}
		if err != nil {
			return nil, fmt.Errorf("corrupt gzip data: %w", err)
		}
		if cap(d.buf) < limit+1 {
			d.buf = make([]byte, limit+1)
		}
		n, err := io.ReadFull(d.gz, d.buf[:limit+1])
		switch {
		case err == nil:
			return nil, errPageTooBig
		case err != io.EOF && err != io.ErrUnexpectedEOF:
			return nil, fmt.Errorf("corrupt gzip data: %w", err)
		}
		return d.buf[:n], nil
	}
	return nil, fmt.Errorf("compression codec %s is not supported (use zstd, snappy, gzip or none)", codec)
}
