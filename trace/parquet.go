package trace

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	pqformat "github.com/parquet-go/parquet-go/format"
)

// checkCodecs refuses column chunks compressed with a codec whose
// parquet-go v0.32.0 decoder cannot bound its output on corrupt input: its
// LZ4 decoder doubles its buffer for as long as the block fails to decode,
// which on a corrupt page means until memory runs out (found by
// FuzzReadParquet). Traces ccreplay writes use zstd.
func checkCodecs(md *pqformat.FileMetaData) error {
	for g, rg := range md.RowGroups {
		for _, c := range rg.Columns {
			switch codec := c.MetaData.Codec; codec {
			case pqformat.Uncompressed, pqformat.Snappy, pqformat.Gzip, pqformat.Zstd:
			default:
				return fmt.Errorf("row group %d column %q: compression codec %s is not supported (use zstd, snappy, gzip or none)",
					g, strings.Join(c.MetaData.PathInSchema, "."), codec)
			}
		}
	}
	return nil
}

// ReadParquet reads and validates a Parquet trace of size bytes (see
// parquetRow in schema.go for the columns). A file whose MetadataKey names
// SchemaVersion or SchemaVersionV1 is read with that version's columns;
// another version is refused; a file without the key is read as version 2
// when it has all of its columns, else as version 1. Errors are
// *ParseError values with the 1-based row number where one applies.
func ReadParquet(r io.ReaderAt, size int64) (t *Trace, err error) {
	defer func() {
		// NB: parquet-go may panic on a corrupt file; a reader of
		// user-supplied files must return an error instead.
		if p := recover(); p != nil {
			t, err = nil, &ParseError{Err: fmt.Errorf("corrupt Parquet file: %v", p)}
		}
	}()
	if err := checkParquetFooter(r, size); err != nil {
		return nil, &ParseError{Err: fmt.Errorf("not a readable Parquet file: %w", err)}
	}
	f, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, &ParseError{Err: fmt.Errorf("not a readable Parquet file: %w", err)}
	}
	if err := checkCodecs(f.Metadata()); err != nil {
		return nil, &ParseError{Err: err}
	}
	have := make(map[string]bool)
	for _, c := range f.Schema().Fields() {
		have[c.Name()] = true
	}
	missing := func(cols []string) string {
		for _, c := range cols {
			if !have[c] {
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

	// NB: the row count comes from the file; trust it only so far.
	t.Messages = make([]Message, 0, min(max(f.NumRows(), 0), 1<<20))
	if version == SchemaVersionV1 {
		err = readRows(f, t, func(r *parquetRowV1) (Message, error) { v2 := r.v2(); return rowToMessage(&v2) })
	} else {
		err = readRows(f, t, rowToMessage)
	}
	if err != nil {
		return nil, err
	}
	if len(t.Messages) == 0 {
		t.Messages = nil // as the other readers leave it
	}
	return finish(t, locator{})
}

// readRows appends the messages of f's rows, read as R, to t.Messages.
func readRows[R any](f *parquet.File, t *Trace, conv func(*R) (Message, error)) error {
	rd := parquet.NewGenericReader[R](f)
	defer rd.Close()
	buf := make([]R, 1024)
	for {
		n, err := rd.Read(buf)
		for k := range buf[:n] {
			m, err := conv(&buf[k])
			if err != nil {
				return &ParseError{Row: len(t.Messages) + 1, Err: err}
			}
			t.Messages = append(t.Messages, m)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &ParseError{Row: len(t.Messages) + 1, Err: err}
		}
	}
}

// rowToMessage checks one row's values and converts it.
func rowToMessage(r *parquetRow) (Message, error) {
	for _, c := range []struct {
		f field
		v int64
	}{
		{fieldID, r.ID}, {fieldSrc, int64(r.Src)}, {fieldDst, int64(r.Dst)}, {fieldBytes, r.Bytes},
		{fieldRelease, r.ReleaseNs}, {fieldFlow, r.FlowID}, {fieldColl, r.CollectiveID}, {fieldGap, r.GapNs},
		{fieldPrio, int64(r.Priority)}, {fieldIter, r.Iteration}, {fieldSrcRank, int64(r.SrcRank)}, {fieldDstRank, int64(r.DstRank)},
	} {
		if err := c.f.check(c.v, strconv.FormatInt(c.v, 10)); err != nil {
			return Message{}, err
		}
	}
	var deps []int64
	if len(r.Deps) > 0 {
		// NB: copied, because the reader may reuse the slice.
		deps = append(make([]int64, 0, len(r.Deps)), r.Deps...)
	}
	for _, d := range deps {
		if err := fieldDep.check(d, strconv.FormatInt(d, 10)); err != nil {
			return Message{}, err
		}
	}
	return Message{
		ID: r.ID, Src: r.Src, Dst: r.Dst, Bytes: r.Bytes,
		Release: nsToTime(r.ReleaseNs), FlowID: r.FlowID, CollectiveID: r.CollectiveID,
		Deps: deps, Gap: nsToTime(r.GapNs),
		Priority: r.Priority, Iteration: r.Iteration, SrcRank: r.SrcRank, DstRank: r.DstRank,
	}, nil
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
