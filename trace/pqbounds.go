package trace

import (
	"fmt"
	"math"

	"github.com/ccreplay/ccreplay/limits"
)

// What ReadParquet accepts, beyond the limits package, so that the memory
// reading a file takes is bounded by a multiple of the file's size plus a
// constant, whatever its footer and page headers claim (FuzzReadParquet
// checks 64 MB plus 64 KB a byte). parquet-go allocates what a file claims
// before it finds out whether the claim is true (a 3.5 KB file declaring
// 2^31 values in a page header asks for 16 GB), so every claim is checked
// against these bounds first; see readParquetFooter, checkLayout and
// checkPages.
const (
	// maxRowsPerByte bounds the rows of a file, and the entries of its
	// deps column, by the file's size. The most compressible trace
	// ccreplay writes (a million identical messages with consecutive ids)
	// holds 16 rows a byte.
	maxRowsPerByte = 64

	// maxPageExpansion and pageAllowance bound the size a compressed page
	// declares (and decompresses to): at most maxPageExpansion times its
	// compressed size, or pageAllowance, whichever is larger. The pages
	// of a column of 131072 equal values that ccreplay writes expand
	// about 2000 times, within the allowance.
	maxPageExpansion = 1000
	pageAllowance    = 8 << 20

	// maxSchemaDepth bounds the nesting of a file's schema; a trace's is 3
	// deep (deps, its list, the element).
	maxSchemaDepth = 16
)

// maxPageBytes returns the largest size a page of compressed bytes may
// declare or decompress to.
func maxPageBytes(compressed int64) int64 {
	return max(maxPageExpansion*compressed, pageAllowance)
}

// checkRowCount checks a row count that a file of size bytes claims;
// what names the claim in errors.
func checkRowCount(what string, rows, size int64) error {
	switch {
	case rows < 0:
		return fmt.Errorf("%s %d is negative", what, rows)
	case rows > limits.MaxMessages:
		return fmt.Errorf("%s %d is beyond the limit of %d messages in one trace", what, rows, int64(limits.MaxMessages))
	case rows > maxRows(size):
		return fmt.Errorf("%s %d is more than a %d-byte file can hold (at most %d a byte)", what, rows, size, maxRowsPerByte)
	}
	return nil
}

// maxRows is the number of rows (or deps entries) a file of size bytes
// may hold.
func maxRows(size int64) int64 {
	return maxRowsPerByte * min(max(size, 0), math.MaxInt64/maxRowsPerByte)
}
