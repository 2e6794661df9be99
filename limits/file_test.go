package limits

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A regular file at its bound is read; one byte more is refused
	// from its size.
	if b, err := ReadFile(p, "a test file", 10, true); err != nil || string(b) != "0123456789" {
		t.Fatalf("at the bound: %q, %v", b, err)
	}
	_, err := ReadFile(p, "a test file", 9, true)
	var fe *FileError
	if !errors.As(err, &fe) || err.Error() != p+": 10 bytes, more than 9 bytes, the limit of a test file (docs/LIMITS.md)" {
		t.Errorf("over the bound: %v", err)
	}
	// A folder is never an input.
	if _, err := Open(dir, "a test file", 10, false); err == nil || !strings.HasSuffix(err.Error(), "is a folder; a test file must be a regular file") {
		t.Errorf("folder: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		return
	}
	// A device: refused where a regular file is needed, else read up to
	// the bound.
	if _, err := Open("/dev/zero", "a test file", 10, true); err == nil || !strings.Contains(err.Error(), "is a character device") {
		t.Errorf("device, regular wanted: %v", err)
	}
	_, err = ReadFile("/dev/zero", "a test file", 1000, false)
	if err == nil || err.Error() != "/dev/zero: more than 1000 bytes, the limit of a test file" {
		t.Errorf("endless device: %v", err)
	}
}

func TestLineLimit(t *testing.T) {
	in := "ab\ncde\n\nfghij\nk"
	for _, c := range []struct {
		max  int
		line int // 0: no error
	}{{5, 0}, {4, 4}, {3, 4}, {2, 2}} {
		got, err := io.ReadAll(LineLimit(iotestOneByte(strings.NewReader(in)), c.max))
		var le *LineError
		switch {
		case c.line == 0 && (err != nil || string(got) != in):
			t.Errorf("max %d: %q, %v", c.max, got, err)
		case c.line > 0 && (!errors.As(err, &le) || le.Line != c.line):
			t.Errorf("max %d: %v, want line %d", c.max, err, c.line)
		}
	}
}

// iotestOneByte reads one byte at a time, so that lines cross reads.
func iotestOneByte(r io.Reader) io.Reader { return oneByte{r} }

type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

func TestQuote(t *testing.T) {
	if got := Quote("12kB"); got != `"12kB"` {
		t.Errorf("short: %s", got)
	}
	long := strings.Repeat("é", 100) // 200 bytes
	got := Quote(long)
	if len(got) > 100 || !strings.HasSuffix(got, "... (200 bytes)") || strings.Contains(got, `\x`) {
		t.Errorf("long: %s", got)
	}
}

func TestJSONError(t *testing.T) {
	var v struct {
		Seed   uint64   `json:"seed"`
		Points []string `json:"points"`
	}
	for _, c := range []struct{ in, want string }{
		{`{"seed": "x"}`, `key "seed": a JSON string where a whole number >= 0 is wanted (at byte 12)`},
		{`{"points": {}}`, `key "points": a JSON object where a list is wanted`},
		{`{"seed": 1,`, `the file ends in the middle of the JSON document`},
		{`x`, `not JSON: invalid character 'x' looking for beginning of value (at byte 1)`},
	} {
		err := json.Unmarshal([]byte(c.in), &v)
		if got := JSONError(err); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzLineLimit: LineLimit passes any input whose lines fit unchanged, and
// fails on the first line that does not, naming it.
func FuzzLineLimit(f *testing.F) {
	f.Add([]byte("ab\ncde\n"), uint8(2))
	f.Add([]byte("\n\n\nxxxxxxxx"), uint8(7))
	f.Fuzz(func(t *testing.T, in []byte, max uint8) {
		got, err := io.ReadAll(LineLimit(bytes.NewReader(in), int(max)))
		want := 0
		for i, l := range bytes.Split(in, []byte("\n")) {
			if len(l) > int(max) {
				want = i + 1
				break
			}
		}
		var le *LineError
		switch {
		case want == 0 && (err != nil || !bytes.Equal(got, in)):
			t.Fatalf("lines fit, got %q, %v", got, err)
		case want > 0 && (!errors.As(err, &le) || le.Line != want):
			t.Fatalf("line %d too long, got %v", want, err)
		}
	})
}

// A named pipe where a regular file is needed is refused at once, not
// waited on until some process opens it for writing.
func TestOpenRefusesFIFOAtOnce(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe")
	if err := mkfifo(p); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(p, "a test file", 10, true)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || err.Error() != p+": is a named pipe (FIFO); a test file must be a regular file" {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("opening a FIFO with no writer blocked")
	}
}
