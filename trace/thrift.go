package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// thriftWalker reads Thrift compact protocol values in a byte slice
// without building anything, checking every length against the bytes that
// remain, so that it is safe on any input. Walking a struct also adds up
// cost, an upper bound on the memory parquet-go's Thrift decoder would
// allocate for what was walked (see structCost).
type thriftWalker struct {
	b    []byte
	off  int
	cost int64
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

// Decoding costs, bytes, charged by thriftWalker. parquet-go decodes a
// list by allocating all of its elements at once, before it finds out
// whether they are there, so an element that takes one byte on the wire
// may cost the size of the largest Parquet format struct in memory
// (format.ColumnChunk, 560 bytes in parquet-go v0.32.0).
const (
	structCost  = 640 // a struct element of a list
	unionCost   = 64  // a struct elsewhere (a union's member is allocated)
	elementCost = 16  // any other element of a list, set or map
)

var errShort = errors.New("value runs past the end")

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
	if k == 0 {
		return 0, errShort
	}
	if k < 0 {
		return 0, errors.New("bad varint")
	}
	w.off += k
	return v, nil
}

// i32 reads a zigzag varint that must fit an int32.
func (w *thriftWalker) i32() (int32, error) {
	u, err := w.varint()
	if err != nil {
		return 0, err
	}
	v := int64(u>>1) ^ -int64(u&1)
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, fmt.Errorf("i32 value %d out of range", v)
	}
	return int32(v), nil
}

func (w *thriftWalker) skip(n uint64) error {
	if n > uint64(w.left()) {
		return errShort
	}
	w.off += int(n)
	return nil
}

// count checks a collection's element count against the bytes left (each
// element takes at least one byte) and charges its decoding cost.
func (w *thriftWalker) count(n uint64, each int64) (int, error) {
	if n > uint64(w.left()) {
		return 0, fmt.Errorf("collection of %d elements in %d remaining bytes: %w", n, w.left(), errShort)
	}
	w.cost += int64(n) * each
	return int(n), nil
}

// structure skips a struct.
func (w *thriftWalker) structure(depth int) error {
	return w.fields(depth, func(int16, byte) (bool, error) { return false, nil })
}

// fields walks the fields of a struct, calling f with each field's id and
// type. f either reads the value itself (with i32, or fields for a nested
// struct; a boolean's value is its type, tcTrue or tcFalse) and returns
// true, or returns false to have the value skipped. A field given twice is
// seen twice, the last one winning for a reader that keeps values, as in
// parquet-go's decoder.
func (w *thriftWalker) fields(depth int, f func(id int16, typ byte) (bool, error)) error {
	if depth > maxThriftDepth {
		return errors.New("structs nested too deep")
	}
	var id int16
	for {
		h, err := w.byte1()
		if err != nil {
			return err
		}
		typ := h & 0x0f
		if typ == tcStop {
			return nil
		}
		if delta := int16(h >> 4); delta != 0 {
			id += delta
		} else { // long form: the field id follows as a zigzag varint
			u, err := w.varint()
			if err != nil {
				return err
			}
			id = int16(int64(u>>1) ^ -int64(u&1))
		}
		done, err := f(id, typ)
		if err != nil {
			return err
		}
		if !done {
			if err := w.value(typ, depth, false); err != nil {
				return err
			}
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
		if err := w.skip(n); err != nil {
			return err
		}
		w.cost += int64(n)
		return nil
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
		each := int64(elementCost)
		if h&0x0f == tcStruct {
			each = structCost
		}
		n, err := w.count(size, each)
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
		n, err := w.count(size, 2*structCost)
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
		if !inCollection {
			w.cost += unionCost
		}
		return w.structure(depth + 1)
	}
	return fmt.Errorf("unknown Thrift type %d", typ)
}
