package trace

import (
	"fmt"
	"io"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// ReadParquet reads and validates a Parquet trace of size bytes (see
// parquetRow in schema.go for the columns). A file whose MetadataKey names
// another schema version is refused; one without the key is accepted when
// it has the expected columns. Errors are *ParseError values with the
// 1-based row number where one applies.
func ReadParquet(r io.ReaderAt, size int64) (t *Trace, err error) {
	defer func() {
		// NB: parquet-go may panic on a corrupt file; a reader of
		// user-supplied files must return an error instead.
		if p := recover(); p != nil {
			t, err = nil, &ParseError{Err: fmt.Errorf("corrupt Parquet file: %v", p)}
		}
	}()
	f, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, &ParseError{Err: fmt.Errorf("not a readable Parquet file: %w", err)}
	}
	if v, ok := f.Lookup(MetadataKey); ok && v != SchemaVersion {
		return nil, &ParseError{Err: fmt.Errorf("metadata %s is %q; this reader knows %q", MetadataKey, v, SchemaVersion)}
	}
	t = &Trace{}
	if v, ok := f.Lookup(HostsKey); ok {
		h, err := fieldHosts.parse(v)
		if err != nil {
			return nil, &ParseError{Err: fmt.Errorf("metadata %s: %w", HostsKey, err)}
		}
		t.Hosts = int(h)
	}
	have := make(map[string]bool)
	for _, c := range f.Schema().Fields() {
		have[c.Name()] = true
	}
	for _, c := range csvColumns {
		if !have[c] {
			return nil, &ParseError{Err: fmt.Errorf("missing column %q (want %s)", c, CSVHeader)}
		}
	}

	rd := parquet.NewGenericReader[parquetRow](f)
	defer rd.Close()
	// NB: the row count comes from the file; trust it only so far.
	t.Messages = make([]Message, 0, min(max(f.NumRows(), 0), 1<<20))
	buf := make([]parquetRow, 1024)
	for {
		n, err := rd.Read(buf)
		for k := range buf[:n] {
			m, err := rowToMessage(&buf[k])
			if err != nil {
				return nil, &ParseError{Row: len(t.Messages) + 1, Err: err}
			}
			t.Messages = append(t.Messages, m)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &ParseError{Row: len(t.Messages) + 1, Err: err}
		}
	}
	return finish(t, locator{})
}

// rowToMessage checks one row's values and converts it.
func rowToMessage(r *parquetRow) (Message, error) {
	for _, c := range []struct {
		f field
		v int64
	}{
		{fieldID, r.ID}, {fieldSrc, int64(r.Src)}, {fieldDst, int64(r.Dst)}, {fieldBytes, r.Bytes},
		{fieldRelease, r.ReleaseNs}, {fieldFlow, r.FlowID}, {fieldColl, r.CollectiveID}, {fieldGap, r.GapNs},
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
	}, nil
}

// WriteParquet validates t and writes it as a Parquet file with schema
// SchemaVersion (zstd-compressed, at most 131072 rows per row group),
// recording SchemaVersion and Hosts in the key/value metadata. Release
// times and gaps must be whole nanoseconds.
func WriteParquet(w io.Writer, t *Trace) error {
	if err := checkForWrite(t); err != nil {
		return err
	}
	pw := parquet.NewGenericWriter[parquetRow](w,
		parquet.KeyValueMetadata(MetadataKey, SchemaVersion),
		parquet.KeyValueMetadata(HostsKey, strconv.Itoa(t.Hosts)),
		parquet.MaxRowsPerRowGroup(rowsPerRowGroup),
		parquet.Compression(&parquet.Zstd),
	)
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
