package output

import (
	"errors"
	"fmt"

	"github.com/parquet-go/parquet-go"

	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// MaxRowsPerRowGroup bounds the rows of one Parquet row group. parquet-go
// keeps a whole row group in memory until it is flushed (its default is
// unbounded), and readers stream one row group's column
// chunks at a time, so this bounds the memory of both sides.
const MaxRowsPerRowGroup = 64 << 10

// DefaultBatch is the Stream batch size, rows, used when NewStream gets
// batch <= 0.
const DefaultBatch = 4096

// writerOptions are the parquet-go options of every file: schema version
// metadata, bounded row groups, Snappy pages.
//
// NB: Snappy rather than ZSTD because packets.parquet is written on the
// simulator's hot path: on noisy packet rows ZSTD took ~63% of the writer's
// CPU and made Append ~1.7x slower (450 vs 260 ns/row) for files ~30%
// smaller. CreatedBy stays parquet-go's default ("github.com/parquet-go/
// parquet-go version X"), which readers use to work around writer bugs; it
// depends only on the library version, so files stay byte-identical.
func writerOptions() []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.KeyValueMetadata(v2.MetadataKey, v2.Version),
		parquet.MaxRowsPerRowGroup(MaxRowsPerRowGroup),
		parquet.Compression(&parquet.Snappy),
	}
}

// WriteRows writes rows to the Parquet file path atomically: into
// "<path>.tmp-<pid>.<start>-<random>" in the same directory, then footer, fsync, rename.
// On error no file is left behind (an existing file at path is untouched).
// The same rows always give byte-identical files.
func WriteRows[T any](path string, rows []T) error {
	s, err := NewStream[T](path, 1)
	if err != nil {
		return err
	}
	if _, err := s.w.Write(rows); err != nil {
		s.Abort()
		return fmt.Errorf("output: %s: %w", path, err)
	}
	s.rows = int64(len(rows))
	return s.Close()
}

// Stream writes a large Parquet file row by row (packets.parquet). Append
// buffers rows in a slice allocated once and hands a full batch to a
// goroutine of the Stream's own, which encodes and compresses it while
// the caller (the simulation) goes on filling the next batch: the
// encoding is off the caller's goroutine and, with two cores or more, in
// parallel with it. Batches reach the Parquet writer whole and in order,
// so the file is byte-identical to one written synchronously. Appending
// does not allocate per row; an error of the writer is remembered and
// returned by Close, so the hot path checks nothing. The file appears at
// its path only when Close succeeds.
//
// A Stream is not safe for concurrent use.
type Stream[T any] struct {
	t    *tempFile
	w    *parquet.GenericWriter[T]
	buf  []T   // pending rows; cap(buf) is the batch size
	rows int64 // rows appended
	err  error // first error; the writer goroutine's is taken on Close
	done bool  // Close or Abort was called

	// The writer goroutine, started by the first full batch: it writes
	// the batches sent on full, in order, and returns each on free for
	// reuse; werr is its first error, read once wdone is closed.
	full  chan []T
	free  chan []T
	wdone chan struct{}
	werr  error
}

// streamBuffers is the number of batches a Stream holds: one being filled,
// the others queued or being written. Three lets the simulation run a
// whole batch ahead of the encoder without waiting.
const streamBuffers = 3

// errDone is remembered when rows are appended after Close or Abort.
var errDone = errors.New("output: append to a closed stream")

// NewStream starts writing path through a temporary file. batch is the
// number of rows buffered before they are handed to the Parquet writer
// (DefaultBatch when batch <= 0).
func NewStream[T any](path string, batch int) (*Stream[T], error) {
	if batch <= 0 {
		batch = DefaultBatch
	}
	t, err := createTemp(path)
	if err != nil {
		return nil, err
	}
	return &Stream[T]{
		t:   t,
		w:   parquet.NewGenericWriter[T](t, rowOptions[T]()...),
		buf: make([]T, 0, batch),
	}, nil
}

// SchemaNamer is a row type that names the root element of its files'
// Parquet schema, which parquet-go otherwise takes from the Go type's
// name. Row types that moved into schema/v2 keep the name their files
// had, so that the files stay byte-identical.
type SchemaNamer interface {
	ParquetSchemaName() string
}

// rowOptions are writerOptions plus, for a SchemaNamer, T's schema under
// its name (the columns are T's: the writer keeps its direct path).
func rowOptions[T any]() []parquet.WriterOption {
	opts := writerOptions()
	var zero T
	if n, ok := any(zero).(SchemaNamer); ok {
		opts = append(opts, parquet.NewSchema(n.ParquetSchemaName(), parquet.SchemaOf(zero)))
	}
	return opts
}

// Append adds one row. It never fails: a write error is kept and returned
// by Close.
func (s *Stream[T]) Append(row T) {
	s.buf = append(s.buf, row)
	s.rows++
	if len(s.buf) == cap(s.buf) {
		s.flush()
	}
}

// flush hands the buffered rows to the writer goroutine (started here the
// first time) and takes an empty batch to fill next.
func (s *Stream[T]) flush() {
	if s.err == nil && s.done {
		s.err = errDone
	}
	if s.err != nil || len(s.buf) == 0 {
		// NB: the slots keep their old values (and string references)
		// until overwritten; clearing them would cost a pass over the batch.
		s.buf = s.buf[:0]
		return
	}
	if s.full == nil {
		s.start()
	}
	s.full <- s.buf
	s.buf = <-s.free
}

// start launches the writer goroutine with streamBuffers-1 spare batches.
func (s *Stream[T]) start() {
	s.full = make(chan []T, streamBuffers)
	s.free = make(chan []T, streamBuffers)
	s.wdone = make(chan struct{})
	for i := 1; i < streamBuffers; i++ {
		s.free <- make([]T, 0, cap(s.buf))
	}
	go func() {
		defer close(s.wdone)
		for b := range s.full {
			if s.werr == nil {
				if _, err := s.w.Write(b); err != nil {
					s.werr = fmt.Errorf("output: %s: %w", s.t.path, err)
				}
			}
			s.free <- b[:0]
		}
	}()
}

// stop waits for the writer goroutine to write every batch sent to it and
// end, and keeps its error.
func (s *Stream[T]) stop() {
	if s.full == nil {
		return
	}
	close(s.full)
	<-s.wdone
	s.full = nil
	if s.err == nil {
		s.err = s.werr
	}
}

// Rows returns the number of rows appended so far. After a successful Close
// they are all in the file.
func (s *Stream[T]) Rows() int64 { return s.rows }

// Close writes the remaining rows and the footer, syncs the file and renames
// it to its final path. It returns the first error met since NewStream; on
// error the temporary file is removed and nothing appears at the path.
// Calling Close again returns an error.
func (s *Stream[T]) Close() error {
	if s.done {
		return errDone
	}
	s.flush()
	s.stop()
	s.done = true
	if s.err != nil {
		s.t.abort()
		return s.err
	}
	if err := s.w.Close(); err != nil {
		s.t.abort()
		return fmt.Errorf("output: %s: %w", s.t.path, err)
	}
	return s.t.commit()
}

// Abort discards the file: the temporary file is removed and nothing
// appears at the path. It does nothing after Close, so `defer s.Abort()`
// is safe next to an explicit Close.
func (s *Stream[T]) Abort() {
	if s.done {
		return
	}
	s.stop()
	s.done = true
	s.t.abort()
}
