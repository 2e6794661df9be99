package trace

import (
	"fmt"
	"io"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// ReadParquet reads and validates a Parquet trace of size bytes (see
// parquetRow in schema.go for the columns). A file whose MetadataKey names
// SchemaVersion or SchemaVersionV1 is read with that version's columns;
// another version is refused; a file without the key is read as version 2
// when it has all of its columns, else as version 1. Other columns are
// ignored (never decoded). The trace columns must be INT32 or INT64 (deps
// a list of them); they may be declared optional, but a null is an error
// except in the columns version 2 added (priority, iteration, src_rank,
// dst_rank), where it reads as the default a version 1 file gets, and in
// deps, where a null list is an empty one.
//
// Before decoding anything, ReadParquet checks every length and count the
// file claims against what it can hold (pqbounds.go), so that reading any
// file takes memory bounded by a multiple of its size plus a constant.
// Errors are *ParseError values with the 1-based row number where one
// applies.
func ReadParquet(r io.ReaderAt, size int64) (t *Trace, err error) {
	defer func() {
		// NB: parquet-go may panic on a corrupt file; a reader of
		// user-supplied files must return an error instead.
		if p := recover(); p != nil {
			t, err = nil, &ParseError{Err: fmt.Errorf("corrupt Parquet file: %v", p)}
		}
	}()
	unreadable := func(err error) error {
		return &ParseError{Err: fmt.Errorf("not a readable Parquet file: %w", err)}
	}
	md, footerLen, err := readParquetFooter(r, size)
	if err != nil {
		return nil, unreadable(err)
	}
	schema, err := checkLayout(md, size)
	if err != nil {
		return nil, unreadable(err)
	}
	// NB: the page index and bloom filters are not needed to read every
	// row, and their lengths are more claims to check.
	f, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, unreadable(err)
	}
	missing := func(cols []string) string {
		for _, c := range cols {
			if _, ok := schema.fields[c]; !ok {
				return c
			}
		}
		return ""
	}
	version, ok := f.Lookup(MetadataKey)
	switch {
	case !ok && missing(csvColumns) == "":
		version = SchemaVersion
	case !ok:
		version = SchemaVersionV1
	case version != SchemaVersion && version != SchemaVersionV1:
		return nil, &ParseError{Err: fmt.Errorf("metadata %s is %q; this reader knows %q and %q",
			MetadataKey, version, SchemaVersion, SchemaVersionV1)}
	}
	t = &Trace{}
	for _, kv := range []struct {
		key string
		f   field
		set func(int64)
	}{
		{HostsKey, fieldHosts, func(v int64) { t.Hosts = int(v) }},
		{PPNKey, fieldPPN, func(v int64) { t.PPN = int(v) }},
	} {
		if v, ok := f.Lookup(kv.key); ok {
			x, err := kv.f.parse(v)
			if err != nil {
				return nil, &ParseError{Err: fmt.Errorf("metadata %s: %w", kv.key, err)}
			}
			kv.set(x)
		}
	}
	if v, ok := f.Lookup(RanksKey); ok {
		ranks, err := parseList(fieldRank, v)
		if err != nil {
			return nil, &ParseError{Err: fmt.Errorf("metadata %s: %w", RanksKey, err)}
		}
		for _, h := range ranks {
			t.Ranks = append(t.Ranks, int32(h))
		}
	}

	cols, header := csvColumns, CSVHeader
	if version == SchemaVersionV1 {
		cols, header = csvColumnsV1, CSVHeaderV1
	}
	if c := missing(cols); c != "" {
		return nil, &ParseError{Err: fmt.Errorf("missing column %q (%s wants %s)", c, version, header)}
	}
	columns, err := findColumns(schema, version)
	if err == nil {
		err = checkColumnTypes(f, columns)
	}
	if err != nil {
		return nil, &ParseError{Err: err}
	}
	if err := checkPages(r, size, footerLen, md, columns); err != nil {
		return nil, unreadable(err)
	}
	var rows int64
	for _, rg := range md.RowGroups {
		rows += rg.NumRows // checkLayout bounded the sum
	}
	t.Messages = make([]Message, 0, rows)
	if err := readColumns(f, columns, t); err != nil {
		return nil, err
	}
	if len(t.Messages) == 0 {
		t.Messages = nil // as the other readers leave it
	}
	return finish(t, locator{})
}

// WriteParquet validates t and writes it as a Parquet file with schema
// SchemaVersion (zstd-compressed, at most 131072 rows per row group),
// recording SchemaVersion, Hosts and, for an MPI job, PPN and Ranks in the
// key/value metadata. Release times and gaps must be whole nanoseconds.
func WriteParquet(w io.Writer, t *Trace) error {
	if err := checkForWrite(t); err != nil {
		return err
	}
	opts := []parquet.WriterOption{
		parquet.KeyValueMetadata(MetadataKey, SchemaVersion),
		parquet.KeyValueMetadata(HostsKey, strconv.Itoa(t.Hosts)),
		parquet.MaxRowsPerRowGroup(rowsPerRowGroup),
		parquet.Compression(&parquet.Zstd),
	}
	if len(t.Ranks) > 0 {
		opts = append(opts,
			parquet.KeyValueMetadata(PPNKey, strconv.Itoa(t.PPN)),
			parquet.KeyValueMetadata(RanksKey, joinInts(t.Ranks, ';')))
	}
	pw := parquet.NewGenericWriter[parquetRow](w, opts...)
	buf := make([]parquetRow, 0, 4096)
	flush := func() error {
		_, err := pw.Write(buf)
		buf = buf[:0]
		return err
	}
	for i := range t.Messages {
		m := &t.Messages[i]
		buf = append(buf, parquetRow{
			ID: m.ID, Src: m.Src, Dst: m.Dst, Bytes: m.Bytes,
			ReleaseNs: m.Release.Nanoseconds(), FlowID: m.FlowID, CollectiveID: m.CollectiveID,
			Deps: m.Deps, GapNs: m.Gap.Nanoseconds(),
			Priority: m.Priority, Iteration: m.Iteration, SrcRank: m.SrcRank, DstRank: m.DstRank,
		})
		if len(buf) == cap(buf) {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	// NB: the footer, with the metadata, is written on Close.
	return pw.Close()
}
