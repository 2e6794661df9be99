package dumpi

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// DecodeError is a problem found while reading a DUMPI file: a bad magic
// number, an offset outside the file, a truncated or impossible record.
// It prints on one line as "file: record N: message", or "file: message"
// for problems outside the stream of records.
type DecodeError struct {
	// File is the file's name as given to Open or NewFile.
	File string
	// Record is the 0-based index of the record in the file's stream, or
	// -1 for a problem in the header, footer, index or another section.
	Record int64
	// Offset is the byte offset in the file where the problem was found.
	Offset int64
	// Msg says what is wrong, e.g. "truncated MPI_Isend arguments".
	Msg string
}

// Error formats e on one line.
func (e *DecodeError) Error() string {
	if e.Record < 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: record %d: %s", e.File, e.Record, e.Msg)
}

// errShort is the sticky error of a byteReader that ran past its region.
var errShort = errors.New("short read")

// byteReader reads big-endian values from a region [off, end) of a file
// through a buffer. Errors are sticky: after one, every read returns zero
// and err stays set, so decoders check once per record.
type byteReader struct {
	r   *bufio.Reader
	off int64 // file offset of the next byte
	end int64 // file offset where the region ends
	err error
	buf [8]byte
}

// newByteReader reads r's bytes from off to end.
func newByteReader(r io.ReaderAt, off, end int64) *byteReader {
	if end < off {
		end = off
	}
	size := int(min(max(end-off, 16), 64<<10))
	return &byteReader{r: bufio.NewReaderSize(io.NewSectionReader(r, off, end-off), size), off: off, end: end}
}

// remaining is the number of bytes left in the region.
func (b *byteReader) remaining() int64 { return b.end - b.off }

// fill reads n <= 8 bytes into b.buf.
func (b *byteReader) fill(n int) bool {
	if b.err != nil {
		return false
	}
	if b.remaining() < int64(n) {
		b.err = errShort
		return false
	}
	if _, err := io.ReadFull(b.r, b.buf[:n]); err != nil {
		b.err = errShort
		if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			b.err = err
		}
		return false
	}
	b.off += int64(n)
	return true
}

// u8, u16, u32 and i32 read big-endian integers.
func (b *byteReader) u8() uint8 {
	if !b.fill(1) {
		return 0
	}
	return b.buf[0]
}

func (b *byteReader) u16() uint16 {
	if !b.fill(2) {
		return 0
	}
	return uint16(b.buf[0])<<8 | uint16(b.buf[1])
}

func (b *byteReader) u32() uint32 {
	if !b.fill(4) {
		return 0
	}
	return uint32(b.buf[0])<<24 | uint32(b.buf[1])<<16 | uint32(b.buf[2])<<8 | uint32(b.buf[3])
}

func (b *byteReader) i32() int32 { return int32(b.u32()) }

// u64 reads DUMPI's 64-bit value: the high 32 bits first.
func (b *byteReader) u64() uint64 {
	hi := b.u32()
	lo := b.u32()
	return uint64(hi)<<32 | uint64(lo)
}

// bytes reads n bytes into a new slice.
func (b *byteReader) bytes(n int64) []byte {
	if b.err != nil {
		return nil
	}
	if n < 0 || b.remaining() < n {
		b.err = errShort
		return nil
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(b.r, p); err != nil {
		b.err = errShort
		return nil
	}
	b.off += n
	return p
}

// count reads a 32-bit element count of an array whose elements take at
// least elem bytes each, rejecting counts the region cannot hold (so a
// corrupt count never allocates gigabytes). A negative count reads as 0,
// as DUMPI's own reader does.
func (b *byteReader) count(elem int64) int {
	n := int64(b.i32())
	if b.err != nil || n <= 0 {
		return 0
	}
	if n*elem > b.remaining() {
		b.err = errShort
		return 0
	}
	return int(n)
}

// str16 reads a string with a 16-bit length (header strings, labels).
func (b *byteReader) str16() string { return string(b.bytes(int64(b.u16()))) }

// str32 reads a string with a 32-bit length (MPI string arguments).
func (b *byteReader) str32() string {
	n := int64(b.i32())
	if n < 0 {
		n = 0
	}
	return string(b.bytes(n))
}
