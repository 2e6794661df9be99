package otf2

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Low-level decoding: the buffer primitives of the format (spec: "Buffer
// encoding"; reference library: OTF2_Buffer.c).
//
// Integers of 32 and 64 bits are stored compressed: one length byte n,
// then the n low-order bytes of the value in the byte order of the chunk.
// n = 0 is the value 0; n = 0xff is "undefined" (all bits set); a signed
// value is its two's-complement bit pattern, so negative values take all
// their bytes. Timestamps, chunk-header event numbers, anchor-file fields
// and doubles are stored in full (8 bytes, the chunk's byte order).
// Strings are NUL-terminated. A record is a type byte, then (for all but a
// few event records, see singletonEvent) a length byte, or 0xff and an
// 8-byte length, then that many bytes of attributes; readers skip
// attributes they do not know, which is how later versions extend
// records.

// DecodeError is a malformed OTF2 file: the file, where, and what.
type DecodeError struct {
	// File is the path of the file.
	File string
	// Kind names what the file's records are: "event" or "definition".
	Kind string
	// Record is the 1-based number of the record in the file, or 0 when
	// the error is not in a record.
	Record int64
	// Offset is the byte offset in the file.
	Offset int64
	// Msg says what is wrong.
	Msg string
}

// Error returns one line: "traces/0.evt: event 123 (offset 4567):
// truncated MpiSend".
func (e *DecodeError) Error() string {
	if e.Record > 0 {
		kind := e.Kind
		if kind == "" {
			kind = "record"
		}
		return fmt.Sprintf("%s: %s %d (offset %d): %s", e.File, kind, e.Record, e.Offset, e.Msg)
	}
	return fmt.Sprintf("%s: offset %d: %s", e.File, e.Offset, e.Msg)
}

// Byte-order marks of a chunk header.
const (
	bigEndian    = 0x23
	littleEndian = 0x42
)

// Buffer-level record types (spec: "Buffer encoding"; OTF2_Buffer.h).
const (
	recEndOfChunk  = 0
	recEndOfBuffer = 1
	recEndOfFile   = 2
	recChunkHeader = 3
	recTimestamp   = 5 // in event files only
	recAttrList    = 6 // in event files only
)

// undef32 and undef64 are OTF2's undefined values.
const (
	undef32 = math.MaxUint32
	undef64 = math.MaxUint64
)

// decodeFail records the first failure of an rbuf (a read past the end of
// its region, a bad length); callers turn it into a DecodeError.
type decodeFail struct{ msg string }

// rbuf reads one region of a file (a chunk, or a record inside it).
type rbuf struct {
	b   []byte // the whole file
	pos int    // next byte
	end int    // end of the region
	big bool   // big-endian chunk
	err *decodeFail
}

func (r *rbuf) fail(msg string) {
	if r.err == nil {
		r.err = &decodeFail{msg}
	}
	r.pos = r.end
}

func (r *rbuf) left() int { return r.end - r.pos }

func (r *rbuf) order() binary.ByteOrder {
	if r.big {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

func (r *rbuf) u8() uint8 {
	if r.pos >= r.end {
		r.fail("truncated")
		return 0
	}
	v := r.b[r.pos]
	r.pos++
	return v
}

// full reads n bytes as they are, or fails and returns nil.
func (r *rbuf) full(n int) []byte {
	if r.left() < n {
		r.fail("truncated")
		return nil
	}
	r.pos += n
	return r.b[r.pos-n : r.pos]
}

// full64 reads an uncompressed 64-bit value.
func (r *rbuf) full64() uint64 {
	if p := r.full(8); p != nil {
		return r.order().Uint64(p)
	}
	return 0
}

// full32 reads an uncompressed 32-bit value.
func (r *rbuf) full32() uint32 {
	if p := r.full(4); p != nil {
		return r.order().Uint32(p)
	}
	return 0
}

// comp reads a compressed integer of at most max bytes.
func (r *rbuf) comp(maxLen int) uint64 {
	n := int(r.u8())
	if r.err != nil {
		return 0
	}
	switch {
	case n == 0:
		return 0
	case n == 0xff:
		if maxLen == 4 {
			return undef32
		}
		return undef64
	case n > maxLen:
		r.fail(fmt.Sprintf("invalid compressed-integer length %d", n))
		return 0
	}
	p := r.full(n)
	if p == nil {
		return 0
	}
	var v uint64
	if r.big {
		for _, c := range p {
			v = v<<8 | uint64(c)
		}
	} else {
		for i := n - 1; i >= 0; i-- {
			v = v<<8 | uint64(p[i])
		}
	}
	return v
}

func (r *rbuf) u32() uint32 { return uint32(r.comp(4)) }
func (r *rbuf) u64() uint64 { return r.comp(8) }
func (r *rbuf) i64() int64  { return int64(r.comp(8)) }

func (r *rbuf) f64() float64 { return math.Float64frombits(r.full64()) }

// str reads a NUL-terminated string.
func (r *rbuf) str() string {
	for i := r.pos; i < r.end; i++ {
		if r.b[i] == 0 {
			s := string(r.b[r.pos:i])
			r.pos = i + 1
			return s
		}
	}
	r.fail("unterminated string")
	return ""
}

// recordLen reads a record's length prefix and returns the end of the
// record, checked against the region.
func (r *rbuf) recordLen() int {
	n := uint64(r.u8())
	if n == 0xff {
		n = r.full64()
	}
	if r.err != nil {
		return r.pos
	}
	if n > uint64(r.left()) {
		r.fail(fmt.Sprintf("record length %d runs past the end of its chunk", n))
		return r.pos
	}
	return r.pos + int(n)
}

// sub returns a reader for the bytes [r.pos, end).
func (r *rbuf) sub(end int) *rbuf {
	return &rbuf{b: r.b, pos: r.pos, end: end, big: r.big}
}
