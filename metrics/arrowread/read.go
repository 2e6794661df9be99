// Package arrowread reads ccreplay's Parquet outputs back with Apache Arrow
// (parquet/file + parquet/pqarrow). It is the second implementation that
// proves the files are readable outside parquet-go, which wrote them, so it
// must not import parquet-go.
//
// Every reader checks the file's key/value metadata (v2.MetadataKey must be
// v2.Version) and that each column of the row type exists with the expected
// Arrow type (int64, int32, float64, bool, or string / dictionary of
// string), then streams record batches of batchSize rows: memory follows
// the row group and the batch, not the file.
package arrowread

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow/go/v16/arrow"
	"github.com/apache/arrow/go/v16/arrow/memory"
	"github.com/apache/arrow/go/v16/parquet"
	"github.com/apache/arrow/go/v16/parquet/file"
	"github.com/apache/arrow/go/v16/parquet/metadata"
	"github.com/apache/arrow/go/v16/parquet/pqarrow"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/runfolder"
	v1 "github.com/ccreplay/ccreplay/schema/v1"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// batchSize is the number of rows per Arrow record batch.
const batchSize = 8192

// table is a kind of Parquet file the readers take: what it is called in
// errors and the largest file it may be (docs/LIMITS.md). Each is read at
// offsets, so it must be a regular file.
type table struct {
	what string
	max  int64
}

// The tables read here; every one but packets.parquet holds a few rows per
// flow, message, port or link of a run within the limits.
var (
	flowsTable      = table{"a run's " + runfolder.FlowsFile, limits.MaxRunParquetBytes}
	messagesTable   = table{"a run's " + runfolder.MessagesFile, limits.MaxRunParquetBytes}
	portsTable      = table{"a run's " + runfolder.PortsFile, limits.MaxRunParquetBytes}
	packetsTable    = table{"a run's " + runfolder.PacketsFile, limits.MaxPacketsParquetBytes}
	linksTable      = table{"an estimate's " + runfolder.LinksFile, limits.MaxRunParquetBytes}
	comparisonTable = table{"a comparison's " + runfolder.ComparisonFile, limits.MaxRunParquetBytes}
)

// open opens path as a file of kind t: a regular file of at most t.max
// bytes (a named pipe is refused without waiting for a writer).
func (t table) open(path string) (*limits.Input, error) {
	in, err := limits.Open(path, t.what, t.max, true)
	if err != nil {
		return nil, fmt.Errorf("arrowread: %w", err)
	}
	return in, nil
}

// ReadFlows reads flows.parquet (nil when it has no rows).
func ReadFlows(path string) ([]v2.FlowRow, error) { return readAll(path, flowsTable, flowCols) }

// ReadMessages reads messages.parquet (nil when it has no rows).
func ReadMessages(path string) ([]v2.MessageRow, error) {
	return readAll(path, messagesTable, messageCols)
}

// ReadPorts reads ports.parquet (nil when it has no rows).
func ReadPorts(path string) ([]v2.PortRow, error) { return readAll(path, portsTable, portCols) }

// ReadLinks reads links.parquet of `ccreplay estimate` (nil when it has
// no rows).
func ReadLinks(path string) ([]v2.LinkRow, error) { return readAll(path, linksTable, linkCols) }

// ReadComparison reads comparison.parquet of `ccreplay compare` (nil when
// it has no rows).
func ReadComparison(path string) ([]v2.ComparisonRow, error) {
	return readAll(path, comparisonTable, comparisonCols)
}

// ScanPackets calls fn for every row of packets.parquet, in file order,
// without holding the file's rows in memory. The row passed to fn is reused:
// fn must copy it to keep it. An error from fn stops the scan and is
// returned as is.
func ScanPackets(path string, fn func(*v2.PacketRow) error) error {
	return scan(path, packetsTable, packetCols, memory.DefaultAllocator, fn)
}

// NumRows returns the number of rows of a run's packets.parquet (or any
// other ccreplay Parquet file within its bound) from its footer alone,
// after the same schema version check as the readers.
func NumRows(path string) (int64, error) {
	f, err := packetsTable.open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	pf, err := openParquet(path, f)
	if err != nil {
		return 0, errorf(path, "not a Parquet file: %v", err)
	}
	defer pf.Close()
	if _, err := checkVersion(path, pf); err != nil {
		return 0, err
	}
	return pf.NumRows(), nil
}

// readAll collects every row of a file.
func readAll[T any](path string, t table, cols []col[T]) ([]T, error) {
	var rows []T
	err := scan(path, t, cols, memory.DefaultAllocator, func(r *T) error {
		rows = append(rows, *r)
		return nil
	})
	return rows, err
}

// errorf formats the one-line error of a file.
func errorf(path, format string, args ...any) error {
	return fmt.Errorf("arrowread: %s: "+format, append([]any{path}, args...)...)
}

// scan checks the file, of kind t, against cols and calls fn for every row.
func scan[T any](path string, t table, cols []col[T], mem memory.Allocator, fn func(*T) error) error {
	f, err := t.open(path)
	if err != nil {
		return err
	}
	defer f.Close()

	// NB: a buffered stream reads pages through a small buffer instead of
	// loading each whole column chunk.
	props := parquet.NewReaderProperties(mem)
	props.BufferedStreamEnabled = true
	pf, err := openParquet(path, f, file.WithReadProps(props))
	if err != nil {
		return errorf(path, "not a Parquet file: %v", err)
	}
	defer pf.Close()
	version, err := checkVersion(path, pf)
	if err != nil {
		return err
	}
	// Columns the file's version lacks, and late version 2 columns the
	// file lacks, are filled instead of read.
	sch := pf.MetaData().Schema
	var fills []func(*T)
	kept := make([]col[T], 0, len(cols))
	for _, c := range cols {
		if (version < 2 && c.since >= 2) || (c.late && sch.ColumnIndexByName(c.name) < 0) {
			fills = append(fills, c.fill)
			continue
		}
		kept = append(kept, c)
	}
	cols = kept

	// Leaf column indices in the order of cols; strings are read as
	// dictionaries so that each batch decodes a handful of distinct values.
	leaves := make([]int, len(cols))
	aprops := pqarrow.ArrowReadProperties{BatchSize: batchSize}
	for k, c := range cols {
		leaves[k] = sch.ColumnIndexByName(c.name)
		if leaves[k] < 0 {
			return errorf(path, "missing column %q (%s)", c.name, typeName(c.typ))
		}
		if c.typ == arrow.STRING {
			aprops.SetReadDict(leaves[k], true)
		}
	}
	fr, err := pqarrow.NewFileReader(pf, aprops, mem)
	if err != nil {
		return errorf(path, "%v", err)
	}
	asch, err := fr.Schema()
	if err != nil {
		return errorf(path, "%v", err)
	}
	for _, c := range cols {
		if err := checkType(path, asch, c.name, c.typ); err != nil {
			return err
		}
	}
	if pf.NumRows() == 0 {
		return nil
	}
	if err := CheckChunks(pf, leaves); err != nil {
		return errorf(path, "%v", err)
	}

	rr, err := fr.GetRecordReader(context.Background(), leaves, nil)
	if err != nil {
		return errorf(path, "%v", err)
	}
	defer rr.Release()

	views := make([]view, len(cols))
	in := newInterner()
	var row T
	for {
		more, err := next(path, rr)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		rec := rr.Record()
		for k := range cols {
			if err := views[k].load(rec.Column(k), in); err != nil {
				return errorf(path, "column %q: %v", cols[k].name, err)
			}
		}
		for i := range int(rec.NumRows()) {
			for k := range cols {
				cols[k].set(&row, &views[k], i)
			}
			for _, fill := range fills {
				fill(&row)
			}
			if err := fn(&row); err != nil {
				return err
			}
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return errorf(path, "%v", err)
	}
	return nil
}

// next advances rr to the next record batch. NB: arrow v16 panics on some
// corrupt pages (e.g. "snappy: corrupt input" from a damaged file whose
// footer is intact); that becomes an error naming the file, since a bad
// input file must not crash the caller.
func next(path string, rr interface{ Next() bool }) (more bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			more, err = false, errorf(path, "corrupt data: %v", p)
		}
	}()
	return rr.Next(), nil
}

// CheckChunks reads the metadata of every row group's chunk of the leaf
// columns given. NB: arrow v16 decodes a chunk's metadata only when a
// column reader of pqarrow's GetRecordReader needs it, in a goroutine of
// its own, where a chunk whose metadata is damaged (a footer FuzzReadDecisions
// built: the chunk has no metadata, a nil dereference) panics beyond the
// reach of any recover of the caller. Decoding it here first, in the
// caller's goroutine, makes that an error naming the row group and column.
func CheckChunks(pf *file.Reader, leaves []int) error {
	md := pf.MetaData()
	for g := range pf.NumRowGroups() {
		rg := md.RowGroup(g)
		for _, leaf := range leaves {
			if err := chunkMeta(rg, leaf); err != nil {
				return fmt.Errorf("row group %d, column %q: corrupt metadata: %v", g, md.Schema.Column(leaf).Name(), err)
			}
		}
	}
	return nil
}

// chunkMeta decodes one chunk's metadata, a panic made an error.
func chunkMeta(rg *metadata.RowGroupMetaData, leaf int) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	_, err = rg.ColumnChunk(leaf)
	return err
}

// openParquet is file.NewParquetReader with a panic on a damaged footer
// turned into an error.
func openParquet(path string, f parquet.ReaderAtSeeker, opts ...file.ReadOption) (pf *file.Reader, err error) {
	defer func() {
		if p := recover(); p != nil {
			pf, err = nil, fmt.Errorf("%v", p)
		}
	}()
	return file.NewParquetReader(f, opts...)
}

// checkVersion requires a schema version this package reads in the
// key/value metadata (Versions) and returns it: 1 or 2.
func checkVersion(path string, pf *file.Reader) (int, error) {
	v := pf.MetaData().KeyValueMetadata().FindValue(v2.MetadataKey)
	switch {
	case v == nil:
		return 0, errorf(path, "no %q key/value metadata (want %q)", v2.MetadataKey, v2.Version)
	case *v == v2.Version:
		return 2, nil
	case *v == v1.Version:
		return 1, nil
	}
	return 0, errorf(path, "schema version %q, want %q or %q", *v, v2.Version, v1.Version)
}

// Versions are the schema versions the readers accept, newest first.
var Versions = []string{v2.Version, v1.Version}

// checkType requires column name to have Arrow type want; a string column
// may also be a dictionary of strings.
func checkType(path string, sch *arrow.Schema, name string, want arrow.Type) error {
	idx := sch.FieldIndices(name)
	if len(idx) == 0 {
		return errorf(path, "missing column %q (%s)", name, typeName(want))
	}
	dt := sch.Field(idx[0]).Type
	got := dt.ID()
	if d, ok := dt.(*arrow.DictionaryType); ok && want == arrow.STRING {
		got = d.ValueType.ID()
	}
	if got != want {
		return errorf(path, "column %q is %s, want %s", name, dt, typeName(want))
	}
	return nil
}

// typeName names an expected Arrow type in errors.
func typeName(t arrow.Type) string {
	if t == arrow.STRING {
		return "utf8 or dictionary<utf8>"
	}
	return strings.ToLower(t.String())
}
