package trace

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccreplay/ccreplay/internal/staging"
	"github.com/ccreplay/ccreplay/limits"
)

// format is one trace file format, chosen by file extension.
type format struct {
	ext     string
	what    string // for size errors: "a CSV trace"
	regular bool   // the reader seeks: a pipe or device is refused
	read    func(in *limits.Input) (*Trace, error)
	write   func(w io.Writer, t *Trace) error
}

var formats = []format{
	{".parquet", "a Parquet trace", true, func(in *limits.Input) (*Trace, error) { return ReadParquet(in.File, in.Size) }, WriteParquet},
	{".csv", "a CSV trace", false, func(in *limits.Input) (*Trace, error) {
		return ReadCSV(bufio.NewReaderSize(in.Reader, 1<<16))
	}, WriteCSV},
	{".jsonl", "a JSON Lines trace", false, func(in *limits.Input) (*Trace, error) {
		return ReadJSONL(bufio.NewReaderSize(in.Reader, 1<<16))
	}, WriteJSONL},
}

// formatOf returns the format for path's extension (case-insensitive).
func formatOf(path string) (format, error) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, f := range formats {
		if f.ext == ext {
			return f, nil
		}
	}
	if ext == "" {
		return format{}, fmt.Errorf("%s: no file extension (want .parquet, .csv or .jsonl)", path)
	}
	return format{}, fmt.Errorf("%s: unknown trace format %q (want .parquet, .csv or .jsonl)", path, ext)
}

// ReadFile reads and validates a trace, choosing the format by extension:
// .parquet, .csv or .jsonl. A host count of 0 (or none) in the file is
// inferred with InferHosts. Errors name the file and the line or row. A
// file larger than limits.MaxTextTraceBytes, a Parquet file that is not
// a regular file and a line longer than limits.MaxTraceLineBytes are
// refused.
func ReadFile(path string) (*Trace, error) {
	fm, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	in, err := limits.Open(path, fm.what, limits.MaxTextTraceBytes, fm.regular)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	t, err := fm.read(in)
	if err != nil {
		return nil, withFile(path, err)
	}
	return t, nil
}

// WriteFile validates t and writes it to path in the format its extension
// names (.parquet, .csv or .jsonl). The file appears atomically: it is
// written to a temporary file in the same directory, synced and renamed,
// so a reader never sees a partial trace.
func WriteFile(path string, t *Trace) error {
	fm, err := formatOf(path)
	if err != nil {
		return err
	}
	return withFile(path, writeAtomic(path, func(w io.Writer) error { return fm.write(w, t) }))
}

// writeAtomic writes path through a temporary file in the same directory
// that is renamed over path only when write succeeded.
func writeAtomic(path string, write func(w io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	staging.Clean(dir, "."+base) // what writers killed before the rename left
	tmp, err := os.CreateTemp(dir, staging.Prefix("."+base)+"*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<16)
	if err = write(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
