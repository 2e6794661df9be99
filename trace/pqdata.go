package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	pqformat "github.com/parquet-go/parquet-go/format"
)

// This file checks the decompressed data of a page against what
// parquet-go v0.32.0 allocates when it decodes it. Besides the counts in
// the page header, it trusts counts inside the data: each run of the
// RLE/bit-packed hybrid encoding of levels and dictionary indices (up to
// 2^31 values from a 6-byte run), and the value count in the header of
// DELTA_BINARY_PACKED data. So those are walked here, mirroring how
// parquet-go reads them, and bounded by the page's num_values.

// rleValues returns how many values the RLE/bit-packed hybrid runs in b
// claim at bit width bw, as parquet-go decodes them (a run of count 0 is
// a header alone), checking that every run fits b and that the total
// stays within want values plus the padding of bit-packed runs (up to 7
// values each: Arrow pads a bit-packed run that an RLE run follows). When
// below >= 0, the first want values must also be less than below:
// dictionary indices, which parquet-go looks up unchecked and panics on.
func rleValues(b []byte, bw uint, want, below int64) (int64, error) {
	var n, limit int64 = 0, want
	for i := 0; i < len(b); {
		u, k := binary.Uvarint(b[i:])
		if k <= 0 {
			return 0, errors.New("bad RLE run header")
		}
		i += k
		count := u >> 1
		if count == 0 {
			continue
		}
		values, size := count, uint64(bw+7)/8
		if u&1 == 1 { // bit-packed: count groups of 8 values, bw bytes each
			values, size = 8*min(count, 1<<40), min(count, 1<<40)*uint64(bw)
			limit += 7
		}
		if values > uint64(limit-n) {
			return 0, fmt.Errorf("RLE runs claim more than the %d values of the page", want)
		}
		if size > uint64(len(b)-i) {
			return 0, errors.New("an RLE run runs past the end of its data")
		}
		if below >= 0 {
			run := b[i : i+int(size)]
			for j := int64(0); j < int64(values) && n+j < want; j++ {
				if v := runValue(run, u&1 == 1, j, bw); v >= uint64(below) {
					return 0, fmt.Errorf("index %d is not in the dictionary of %d values", v, below)
				}
				if u&1 == 0 { // an RLE run repeats one value
					break
				}
			}
		}
		i += int(size)
		n += int64(values)
	}
	return n, nil
}

// runValue returns value j of an RLE run (whose value is its bytes, little
// endian, as parquet-go reads it) or of a bit-packed run (least
// significant bit first).
func runValue(run []byte, bitPacked bool, j int64, bw uint) uint64 {
	var x uint64
	if !bitPacked {
		for k := len(run) - 1; k >= 0; k-- {
			x = x<<8 | uint64(run[k])
		}
		return x
	}
	bit := uint64(j) * uint64(bw)
	for k := uint64(0); k < 8 && bit/8+k < uint64(len(run)); k++ {
		x |= uint64(run[bit/8+k]) << (8 * k)
	}
	return x >> (bit % 8) & (1<<bw - 1)
}

// levelWidth is the bit width of levels up to max.
func levelWidth(max int) uint { return uint(bits.Len(uint(max))) }

// checkLevelsV1 checks the repetition or definition levels at the start
// of a DATA_PAGE's data (a 4-byte length, then the levels, as parquet-go
// reads them whatever the encoding) and returns the data after them.
func checkLevelsV1(data []byte, enc pqformat.Encoding, max int, entries int64) ([]byte, error) {
	if len(data) < 4 {
		return nil, errors.New("levels run past the end of the page")
	}
	n := uint64(binary.LittleEndian.Uint32(data))
	if n > uint64(len(data)-4) {
		return nil, errors.New("levels run past the end of the page")
	}
	levels, rest := data[4:4+n], data[4+n:]
	switch enc {
	case pqformat.RLE:
		if _, err := rleValues(levels, levelWidth(max), entries, -1); err != nil {
			return nil, fmt.Errorf("levels: %w", err)
		}
	case pqformat.BitPacked: // at most 8 levels a byte
	default:
		return nil, fmt.Errorf("level encoding %s is not supported", enc)
	}
	return rest, nil
}

// checkValues checks the values section of a data page of column c:
// entries levels, of which nonNull are values if known (else -1), encoded
// with enc; dict is the number of values of the chunk's dictionary, or -1
// if it has no dictionary page.
func checkValues(c *pqColumn, values []byte, enc pqformat.Encoding, entries, nonNull, dict int64) error {
	switch enc {
	case pqformat.Plain:
		if nonNull >= 0 {
			if need := nonNull * typeWidth(c.typ); need > int64(len(values)) {
				return fmt.Errorf("%d PLAIN values need %d bytes, the page holds %d", nonNull, need, len(values))
			}
		}
	//lint:ignore SA1019 PLAIN_DICTIONARY is deprecated for writers only; files from older writers (v1 data pages) still use it, and readers must accept it.
	case pqformat.PlainDictionary, pqformat.RLEDictionary:
		if dict < 0 {
			return errors.New("dictionary-encoded page in a column chunk without a dictionary page")
		}
		if len(values) == 0 {
			return nil
		}
		if bw := values[0]; bw > 32 {
			return fmt.Errorf("dictionary index bit width %d is more than 32", bw)
		}
		if _, err := rleValues(values[1:], uint(values[0]), entries, dict); err != nil {
			return fmt.Errorf("dictionary indices: %w", err)
		}
	case pqformat.DeltaBinaryPacked:
		// block size, mini-blocks per block, total values, first value
		var total uint64
		for k := range 4 {
			u, n := binary.Uvarint(values)
			if n <= 0 {
				return errors.New("bad DELTA_BINARY_PACKED header")
			}
			values = values[n:]
			if k == 2 {
				total = u
			}
		}
		if total > uint64(entries) {
			return fmt.Errorf("DELTA_BINARY_PACKED data claims %d values, more than the page's %d", total, entries)
		}
	case pqformat.ByteStreamSplit: // decodes to as many bytes as it has
	default:
		return fmt.Errorf("value encoding %s is not supported for an integer column", enc)
	}
	return nil
}

// typeWidth is the size of a PLAIN value of an integer column.
func typeWidth(t pqformat.Type) int64 {
	if t == pqformat.Int32 {
		return 4
	}
	return 8
}
