package trace_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
)

// fuzzRoundTrip checks what a successful read promises: the trace is
// valid, and writing it in any format and reading it back gives it again.
func fuzzRoundTrip(t *testing.T, tr *trace.Trace) {
	if err := tr.Validate(); err != nil {
		t.Fatalf("reader returned an invalid trace: %v", err)
	}
	for _, f := range []struct {
		name  string
		write func(*bytes.Buffer, *trace.Trace) error
		read  func(*bytes.Buffer) (*trace.Trace, error)
	}{
		{"csv", func(b *bytes.Buffer, tr *trace.Trace) error { return trace.WriteCSV(b, tr) },
			func(b *bytes.Buffer) (*trace.Trace, error) { return trace.ReadCSV(b) }},
		{"jsonl", func(b *bytes.Buffer, tr *trace.Trace) error { return trace.WriteJSONL(b, tr) },
			func(b *bytes.Buffer) (*trace.Trace, error) { return trace.ReadJSONL(b) }},
		{"parquet", func(b *bytes.Buffer, tr *trace.Trace) error { return trace.WriteParquet(b, tr) },
			func(b *bytes.Buffer) (*trace.Trace, error) {
				return trace.ReadParquet(bytes.NewReader(b.Bytes()), int64(b.Len()))
			}},
	} {
		var b bytes.Buffer
		if err := f.write(&b, tr); err != nil {
			t.Fatalf("%s: writing a trace just read: %v", f.name, err)
		}
		text := b.String()
		back, err := f.read(&b)
		if err != nil {
			t.Fatalf("%s: reading back %q: %v", f.name, text, err)
		}
		if !reflect.DeepEqual(back, tr) {
			t.Fatalf("%s: round trip changed the trace\n%+v\n%+v", f.name, tr, back)
		}
	}
}

// addSeeds adds the committed samples of both schema versions with the
// extension ext.
func addSeeds(f *testing.F, ext string) {
	for _, name := range []string{"sample_v1" + ext, "sample_v2" + ext} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// fuzzText is the fuzz body of a text reader called name: an error and
// no trace, or a trace that round-trips.
func fuzzText(name string, read func(io.Reader) (*trace.Trace, error)) func(*testing.T, []byte) {
	return func(t *testing.T, data []byte) {
		tr, err := read(bytes.NewReader(data))
		if err != nil {
			if tr != nil {
				t.Fatal(name + " returned both a trace and an error")
			}
			return
		}
		fuzzRoundTrip(t, tr)
	}
}

func FuzzReadCSV(f *testing.F) {
	addSeeds(f, ".csv")
	f.Add([]byte(csvHead + "0,0,3,1000,0,-1,-1,,0\n1,0,3,-5,0,-1,-1,,0\n"))
	f.Add([]byte(csvHeadV2 + "0,0,0,0,0,-1,-1,,0,0,0,-1,-1\n1,3,0,8,0,4,2,0,9,7,3,2,1\n"))
	f.Add([]byte("# ppn=1\n# ranks=0;1\n#hosts=0\n" + trace.CSVHeader + "\n0,1,0,1,0,-1,-1,,0,0,-1,1,0\n"))
	f.Add([]byte(csvHead + "0,0,3,1,0,-1,-1,1,0\n1,0,3,1,0,-1,-1,0,0\n"))
	f.Add([]byte("id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns\n0,1,2,3,4,5,6,\"7;8\",9\n"))
	f.Add([]byte("# hosts=\n\"a\nb\",\"\n"))
	f.Add([]byte(csvHead + "0,0,3,1000000000000,1000000000000000,-1,-1,,0\n1,0,3,1,9223372036854775,-1,-1,0,1000000000000001\n"))
	f.Add([]byte("# hosts=1048577\n# ppn=1\n# ranks=1048575\n" + trace.CSVHeaderV1 + "\n"))
	f.Fuzz(fuzzText("ReadCSV", trace.ReadCSV))
}

func FuzzReadJSONL(f *testing.F) {
	addSeeds(f, ".jsonl")
	f.Add([]byte(`{"ppn":2,"ranks":[1,0,1]}` + "\n" + `{"id":0,"src":1,"dst":1,"bytes":0,"src_rank":0,"dst_rank":2,"iteration":0}`))
	f.Add([]byte(`{"hosts":0}` + "\n" + `{"id":0,"src":0,"dst":1,"bytes":1,"deps":[1]}` + "\n" + `{"id":1,"src":1,"dst":0,"bytes":1}`))
	f.Add([]byte(`{"id":0,"src":0,"dst":1,"bytes":1e3,"deps":[null,"x"]}`))
	f.Add([]byte(`{"hosts":2} {"id":1}` + "\n[]\nnull\n"))
	f.Add([]byte(`{"hosts":1048576}` + "\n" + `{"id":0,"src":1048575,"dst":0,"bytes":1000000000000,"release_ns":1000000000000000,"gap_ns":9223372036854775}`))
	f.Fuzz(fuzzText("ReadJSONL", trace.ReadJSONL))
}

// maxParquetAlloc bounds what reading a Parquet file of size bytes may
// allocate: the reader's bounds (pqbounds.go) allow 64 rows a byte, each
// taking well under 1 KB through reading and validation, and pages of up
// to 8 MB or 1000 times their compressed size.
func maxParquetAlloc(size int) uint64 { return 64<<20 + 64<<10*uint64(size) }

// FuzzReadParquet runs the samples of both versions through every format
// as part of go test, with the files TestParquetBombs reads and others
// other writers make (dictionary pages, optional columns, nulls) as seeds.
// Besides what every reader promises (no panic, an error or a valid trace
// that round-trips), reading must allocate at most maxParquetAlloc, and
// parquet-go must not panic either (ReadParquet would recover).
//
// History: the fuzzer once found, within seconds, small files that made
// parquet-go v0.32.0 allocate until the process died (its LZ4 decoder
// doubles its buffer while a corrupt block fails to decode); ReadParquet now
// walks the footer with bounded lengths and refuses LZ4 before decoding
// (TestParquetHostileFiles). Page headers and page data claiming more
// values or bytes than the file holds did the same (TestParquetBombs) until
// ReadParquet walked every page first; so did dictionary indices beyond
// the dictionary, on which parquet-go panics (testdata/fuzz). `make fuzz`
// runs this target.
func FuzzReadParquet(f *testing.F) {
	addSeeds(f, ".parquet")
	f.Add(dictParquet(f))
	zero := int64(0)
	f.Add(arrowDepsFile(f, [][]*int64{nil, {&zero}, {&zero, nil}}))
	rows := optionalRows()
	rows[2].Bytes, rows[1].Iteration = nil, nil
	f.Add(writeOptional(f, rows))
	for _, b := range parquetBombs(f) {
		if len(b.data) <= 64<<10 {
			f.Add(b.data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var tr *trace.Trace
		var err error
		n := allocated(func() { tr, err = trace.ReadParquet(bytes.NewReader(data), int64(len(data))) })
		if n > maxParquetAlloc(len(data)) {
			t.Fatalf("reading a %d-byte file allocated %d MB, more than %d MB", len(data), n>>20, maxParquetAlloc(len(data))>>20)
		}
		if err != nil {
			if tr != nil {
				t.Fatal("ReadParquet returned both a trace and an error")
			}
			// NB: ReadParquet recovers from a panic in parquet-go with this
			// error; the checks before decoding should leave none.
			if msg := err.Error(); strings.HasPrefix(msg, "corrupt Parquet file:") {
				t.Fatalf("parquet-go panicked: %s", msg)
			}
			return
		}
		fuzzRoundTrip(t, tr)
	})
}
