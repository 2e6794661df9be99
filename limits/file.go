package limits

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strconv"
	"strings"
)

// Largest input files, by kind (docs/LIMITS.md, "Input files"). A reader
// opens its file with Open or ReadFile and the bound of its kind, so that
// no input (a huge file, a link to /dev/zero) is read without end.
const (
	// MaxTextTraceBytes bounds a CSV or JSON Lines trace: 2^31 messages
	// of 32 bytes each.
	MaxTextTraceBytes int64 = 64 << 30
	// MaxTraceLineBytes bounds one line of a CSV or JSON Lines trace
	// (a message with a long deps list, a "# ranks=" directive of a
	// million ranks).
	MaxTraceLineBytes = 64 << 20
	// MaxConfigBytes bounds a YAML file: --config, a sweep spec. About
	// 70,000 keys; the configurations ccreplay writes take a few KB.
	MaxConfigBytes int64 = 1 << 20
	// MaxRunJSONBytes bounds a JSON file of a run folder, summary.json or
	// manifest.json.
	MaxRunJSONBytes int64 = 64 << 20
	// MaxSweepJSONBytes bounds a sweep's sweep.json: 2.6 KB for each of
	// its at most 10^5 points (sweep.MaxPoints; a one-axis sweep's entry
	// takes about 270 bytes, each axis more adds its folder part and value).
	MaxSweepJSONBytes int64 = 256 << 20
	// MaxPolicyBytes bounds a policy or model file (--cca-param policy=).
	MaxPolicyBytes int64 = 256 << 20
	// MaxChakraBytes bounds a Chakra .et file (compressed or not; its
	// gzip stream may inflate to 4 GiB, checked by its reader).
	MaxChakraBytes int64 = 4 << 30
	// MaxOTF2AnchorBytes bounds an OTF2 anchor (.otf2) file, a header
	// and a few properties.
	MaxOTF2AnchorBytes int64 = 1 << 20
	// MaxOTF2FileBytes bounds one other file of an OTF2 archive (.def,
	// .evt), read whole into memory.
	MaxOTF2FileBytes int64 = 64 << 30
	// MaxTableBytes bounds a line-based table read whole: an ns-3
	// fct.txt, a host list, a DUMPI meta file.
	MaxTableBytes int64 = 16 << 30
	// MaxTableLineBytes bounds one line of such a table.
	MaxTableLineBytes = 1 << 20
	// MaxRunParquetBytes bounds a Parquet table of a run folder other
	// than packets.parquet (flows, messages, ports, decisions; an
	// estimate's links, a comparison's comparison.parquet), read at
	// offsets: as a Parquet trace.
	MaxRunParquetBytes int64 = 64 << 30
	// MaxPacketsParquetBytes bounds a run's packets.parquet, read at
	// offsets and streamed: about 10^11 rows of 11 bytes (the size a
	// row takes compressed in ccreplay's files).
	MaxPacketsParquetBytes int64 = 1 << 40
	// MaxDUMPIBytes bounds one rank's DUMPI .bin file, read at offsets
	// (a record takes 20 to 100 bytes: about a billion calls).
	MaxDUMPIBytes int64 = 64 << 30
	// MaxOSUReportBytes bounds an OSU benchmark's latency report (a line
	// per message size, a few KB).
	MaxOSUReportBytes int64 = 1 << 20
	// MaxOSUReportLineBytes bounds one line of an OSU report (its lines
	// take under 100 bytes).
	MaxOSUReportLineBytes = 64 << 10
	// MaxHashedFileBytes bounds a file read only to hash it (the trace,
	// topology or configuration file that identifies a run or a sweep
	// point): the largest bound of any input kind above.
	MaxHashedFileBytes int64 = 64 << 30
	// MaxCaptureBytes bounds a packet capture file (pcap or pcapng,
	// compressed or not), read as a stream.
	MaxCaptureBytes int64 = 64 << 30
	// MaxCaptureInflatedBytes bounds a gzip-compressed capture's
	// decompressed size.
	MaxCaptureInflatedBytes int64 = 64 << 30
	// MaxCaptureInflateFloor is the decompressed size up to which a
	// gzip-compressed capture may inflate at any ratio.
	MaxCaptureInflateFloor int64 = 64 << 20
	// MaxCaptureInflateRatio bounds how many times a gzip-compressed
	// capture may inflate past MaxCaptureInflateFloor (deflate reaches
	// 1,032 on a run of zeros).
	MaxCaptureInflateRatio = 250
)

// FileError says what is wrong with an input file as a whole: it is not
// a regular file where one is needed, or it is larger than its kind may
// be. Its message names the file.
type FileError struct {
	Path string
	Msg  string
}

func (e *FileError) Error() string { return e.Path + ": " + e.Msg }

// SizeString formats a byte count for messages: "64 GiB", "1 MiB",
// "1000 bytes".
func SizeString(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// kindOf names a file mode for "not a regular file" messages.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// Input is an input file opened by Open: Reader reads it, failing with a
// *TooLargeError past the bound.
type Input struct {
	*os.File
	// Size is the file's size for a regular file, -1 for a stream.
	Size int64
	// Reader reads the file, at most the bound of its kind.
	Reader io.Reader
}

// TooLargeError is returned by an Input's Reader (and ReadFile) when a
// stream runs past its bound. It does not name the file: readers add it.
type TooLargeError struct {
	What string
	Max  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("more than %s, the limit of %s", SizeString(e.Max), e.What)
}

// Open opens path, an input of kind what ("a CSV trace") of at most max
// bytes. A folder is refused; so is any other file that is not regular
// (a device, a pipe, a socket) when regular is set, because the format
// needs to seek or to know its size. A regular file larger than max is
// refused at once; a stream read through Input.Reader fails after max
// bytes.
func Open(path, what string, max int64, regular bool) (*Input, error) {
	var f *os.File
	var err error
	if regular {
		// NB: opened without waiting: a named pipe with no writer would
		// block a plain open for ever; it is refused at once below.
		f, err = openNoWait(path)
	} else {
		f, err = os.Open(path)
	}
	if err != nil {
		return nil, err
	}
	in, err := check(f, path, what, max, regular)
	if err != nil {
		f.Close()
		return nil, err
	}
	return in, nil
}

func check(f *os.File, path, what string, max int64, regular bool) (*Input, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	m := st.Mode()
	switch {
	case m.IsRegular():
		if st.Size() > max {
			return nil, &FileError{path, fmt.Sprintf("%d bytes, more than %s, the limit of %s (docs/LIMITS.md)",
				st.Size(), SizeString(max), what)}
		}
		return &Input{File: f, Size: st.Size(), Reader: f}, nil
	case m.IsDir() || regular:
		return nil, &FileError{path, fmt.Sprintf("is %s; %s must be a regular file", kindOf(m), what)}
	}
	return &Input{File: f, Size: -1, Reader: &capped{r: f, left: max, what: what, max: max}}, nil
}

// capped reads at most max bytes of a stream and fails after.
type capped struct {
	r    io.Reader
	left int64
	what string
	max  int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// Past the bound: see whether the stream has ended there.
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			return 0, &TooLargeError{c.what, c.max}
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// ReadFile reads the whole of path, an input of kind what of at most max
// bytes, with Open's checks. Errors name the file.
func ReadFile(path, what string, max int64, regular bool) ([]byte, error) {
	in, err := Open(path, what, max, regular)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	var buf bytes.Buffer
	if in.Size >= 0 {
		buf.Grow(int(in.Size) + 1)
	}
	if _, err := buf.ReadFrom(in.Reader); err != nil {
		var tl *TooLargeError
		if errors.As(err, &tl) {
			return nil, &FileError{path, tl.Error()}
		}
		return nil, err
	}
	return buf.Bytes(), nil
}

// LineError says that a line is longer than the bound of its format.
type LineError struct {
	// Line is the 1-based number of the line.
	Line int
	// Max is the bound, bytes.
	Max int
}

func (e *LineError) Error() string {
	return fmt.Sprintf("line %d is longer than %s, the longest line this format may have (docs/LIMITS.md)", e.Line, SizeString(int64(e.Max)))
}

// LineLimit returns a reader of r that fails with a *LineError when a
// line (bytes between newlines) is longer than max bytes. It costs three
// vectorised byte scans per read (first and last newline, newline count).
func LineLimit(r io.Reader, max int) io.Reader { return &lineLimit{r: r, max: max, line: 1} }

type lineLimit struct {
	r    io.Reader
	max  int
	cur  int // bytes of the current line so far
	line int
	err  error
}

func (l *lineLimit) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	b := p[:n]
	if n <= l.max {
		// The lines wholly inside b are shorter than max: only the
		// first (which continues the current line) and the last (which
		// the next read continues) can be too long.
		first := bytes.IndexByte(b, '\n')
		if first < 0 {
			l.cur += n
		} else {
			if l.cur+first > l.max {
				l.err = &LineError{l.line, l.max}
				return 0, l.err
			}
			l.line += bytes.Count(b[first:], []byte{'\n'})
			l.cur = n - 1 - bytes.LastIndexByte(b, '\n')
		}
		if l.cur > l.max {
			l.err = &LineError{l.line, l.max}
			return 0, l.err
		}
		return n, err
	}
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.cur += len(b)
			break
		}
		if l.cur+i > l.max {
			l.err = &LineError{l.line, l.max}
			return 0, l.err
		}
		l.cur = 0
		l.line++
		b = b[i+1:]
	}
	if l.cur > l.max {
		l.err = &LineError{l.line, l.max}
		return 0, l.err
	}
	return n, err
}

// Quote quotes s for an error message, at most 64 bytes of it: a longer
// value is cut and its length said, so that a huge field in an input
// never makes a huge error line.
func Quote(s string) string {
	const max = 64
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return strconv.Quote(s[:cut]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// JSONError says in one line what is wrong with a JSON document that
// failed to decode, without the decoder's type names: "not JSON: invalid
// character 'x' looking for beginning of value (at byte 12)", "key
// \"seed\": a string where a number is wanted (at byte 40)", "the file
// ends in the middle of the JSON document".
func JSONError(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.As(err, &se) && strings.Contains(se.Error(), "unexpected end"):
		return "the file ends in the middle of the JSON document"
	case errors.As(err, &se):
		return fmt.Sprintf("not JSON: %s (at byte %d)", se.Error(), se.Offset)
	case errors.As(err, &te):
		where := "the document"
		if te.Field != "" {
			where = "key " + strconv.Quote(te.Field)
		}
		return fmt.Sprintf("%s: a JSON %s where %s is wanted (at byte %d)", where, te.Value, goKind(te.Type), te.Offset)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// goKind names a Go type the way a JSON user thinks of it.
func goKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number >= 0"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another value"
}

// CountingReader counts in N the bytes read through R, for a reader that
// refuses a stream from how much of it it has consumed (an OSU report
// past its bound, a gzip capture inflating too far).
type CountingReader struct {
	R io.Reader
	N int64
}

// Read reads from R and adds what it read to N.
func (c *CountingReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	return n, err
}
