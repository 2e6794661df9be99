package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// maxFooterBytes bounds the Parquet footer this reader accepts, bytes. A
// trace of a million messages in one row group has a footer of a few KB.
const maxFooterBytes = 16 << 20

// checkParquetFooter walks the Thrift compact-protocol footer of a Parquet
// file without building anything and rejects one whose lengths cannot be
// true: a list, set, map or string that claims more elements or bytes than
// the footer has left. parquet-go allocates what such lengths claim before
// it finds out (tens of GB from a 3 KB file: see FuzzReadParquet), so the
// check has to come before parquet.OpenFile.
//
// Parquet file layout: "PAR1" ... footer, 4-byte little-endian footer
// length, "PAR1". Every element of a Thrift collection takes at least one
// byte in the compact protocol, which is the bound used here.
func checkParquetFooter(r io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("%d bytes is too short for a Parquet file", size)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("reading the footer length: %w", err)
	}
	if string(tail[4:]) != "PAR1" {
		return errors.New("no PAR1 magic at the end of the file")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 || n > maxFooterBytes {
		return fmt.Errorf("footer length %d does not fit a %d-byte file", n, size)
	}
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-8-n); err != nil {
		return fmt.Errorf("reading the footer: %w", err)
	}
	w := thriftWalker{b: buf}
	if err := w.structure(0); err != nil {
		return fmt.Errorf("corrupt footer at byte %d of %d: %w", w.off, n, err)
	}
	return nil
}

// thriftWalker reads Thrift compact protocol values only to check their
// lengths against the bytes that remain.
type thriftWalker struct {
	b   []byte
	off int
}

// Thrift compact protocol type codes.
const (
	tcStop   = 0
	tcTrue   = 1
	tcFalse  = 2
	tcByte   = 3
	tcI16    = 4
	tcI32    = 5
	tcI64    = 6
	tcDouble = 7
	tcBinary = 8
	tcList   = 9
	tcSet    = 10
	tcMap    = 11
	tcStruct = 12
	tcUUID   = 13
)

// maxThriftDepth bounds struct nesting (the Parquet footer nests 5 deep).
const maxThriftDepth = 32

var errShort = errors.New("value runs past the end of the footer")

func (w *thriftWalker) left() int { return len(w.b) - w.off }

func (w *thriftWalker) byte1() (byte, error) {
	if w.off >= len(w.b) {
		return 0, errShort
	}
	c := w.b[w.off]
	w.off++
	return c, nil
}

func (w *thriftWalker) varint() (uint64, error) {
	v, k := binary.Uvarint(w.b[w.off:])
	if k <= 0 {
		return 0, errors.New("bad varint")
	}
	w.off += k
	return v, nil
}

func (w *thriftWalker) skip(n uint64) error {
	if n > uint64(w.left()) {
		return errShort
	}
	w.off += int(n)
	return nil
}

// count reads a collection's element count and checks it against the
// bytes left (each element takes at least one byte).
func (w *thriftWalker) count(n uint64) (int, error) {
	if n > uint64(w.left()) {
		return 0, fmt.Errorf("collection of %d elements in %d remaining bytes", n, w.left())
	}
	return int(n), nil
}

func (w *thriftWalker) structure(depth int) error {
	if depth > maxThriftDepth {
		return errors.New("structs nested too deep")
	}
	for {
		h, err := w.byte1()
		if err != nil {
			return err
		}
		typ := h & 0x0f
		if typ == tcStop {
			return nil
		}
		if h>>4 == 0 { // long form: the field id follows as a zigzag varint
			if _, err := w.varint(); err != nil {
				return err
			}
		}
		if err := w.value(typ, depth, false); err != nil {
			return err
		}
	}
}

// value skips one value of type typ; inCollection is true for list, set and
// map elements, where booleans take a byte of their own.
func (w *thriftWalker) value(typ byte, depth int, inCollection bool) error {
	switch typ {
	case tcTrue, tcFalse:
		if inCollection {
			return w.skip(1)
		}
		return nil
	case tcByte:
		return w.skip(1)
	case tcI16, tcI32, tcI64:
		_, err := w.varint()
		return err
	case tcDouble:
		return w.skip(8)
	case tcUUID:
		return w.skip(16)
	case tcBinary:
		n, err := w.varint()
		if err != nil {
			return err
		}
		return w.skip(n)
	case tcList, tcSet:
		h, err := w.byte1()
		if err != nil {
			return err
		}
		size := uint64(h >> 4)
		if size == 15 {
			if size, err = w.varint(); err != nil {
				return err
			}
		}
		n, err := w.count(size)
		if err != nil {
			return err
		}
		for range n {
			if err := w.value(h&0x0f, depth+1, true); err != nil {
				return err
			}
		}
		return nil
	case tcMap:
		size, err := w.varint()
		if err != nil {
			return err
		}
		n, err := w.count(size)
		if err != nil || n == 0 {
			return err
		}
		kv, err := w.byte1()
		if err != nil {
			return err
		}
		for range n {
			if err := w.value(kv>>4, depth+1, true); err != nil {
				return err
			}
			if err := w.value(kv&0x0f, depth+1, true); err != nil {
				return err
			}
		}
		return nil
	case tcStruct:
		return w.structure(depth + 1)
	}
	return fmt.Errorf("unknown Thrift type %d", typ)
}
