package trace_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

var update = flag.Bool("update", false, "rewrite testdata/sample.* from sampleTrace")

// sampleTrace exercises every field: a shared flow, a zero-byte message,
// dependencies with a gap and a collective.
func sampleTrace() *trace.Trace {
	return &trace.Trace{Hosts: 4, Messages: []trace.Message{
		{ID: 0, Src: 0, Dst: 3, Bytes: 1000, Release: 0, FlowID: 7, CollectiveID: -1},
		{ID: 1, Src: 0, Dst: 3, Bytes: 0, Release: 1500 * units.Nanosecond, FlowID: 7, CollectiveID: -1},
		{ID: 5, Src: 1, Dst: 3, Bytes: 4096, FlowID: -1, CollectiveID: 2, Deps: []int64{0, 1}, Gap: 250 * units.Nanosecond},
		{ID: 3, Src: 2, Dst: 0, Bytes: 1_000_000, Release: 10 * units.Microsecond, FlowID: -1, CollectiveID: 2, Deps: []int64{5}},
	}}
}

func TestRoundTripFiles(t *testing.T) {
	for _, ext := range []string{".parquet", ".csv", ".jsonl"} {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "trace"+ext)
			want := sampleTrace()
			if err := trace.WriteFile(path, want); err != nil {
				t.Fatal(err)
			}
			got, err := trace.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("read back\n%+v\nwant\n%+v", got, want)
			}
			// Atomic write: only the final file is left in the directory.
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 || entries[0].Name() != "trace"+ext {
				t.Errorf("directory holds %v, want only trace%s", entries, ext)
			}
		})
	}
}

func TestRoundTripEmptyAndInferred(t *testing.T) {
	for _, ext := range []string{".parquet", ".csv", ".jsonl"} {
		path := filepath.Join(t.TempDir(), "empty"+ext)
		if err := trace.WriteFile(path, &trace.Trace{}); err != nil {
			t.Fatal(err)
		}
		got, err := trace.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got.Hosts != 0 || len(got.Messages) != 0 {
			t.Errorf("%s: got %+v, want an empty trace", ext, got)
		}
	}
}

func TestWriteRejects(t *testing.T) {
	dir := t.TempDir()
	bad := sampleTrace()
	bad.Messages[1].Release = 1500*units.Nanosecond + 1
	for _, ext := range []string{".parquet", ".csv", ".jsonl"} {
		path := filepath.Join(dir, "bad"+ext)
		err := trace.WriteFile(path, bad)
		want := path + ": message 1: release 1.500001us is not a whole number of nanoseconds (trace files store integer ns)"
		if err == nil || err.Error() != want {
			t.Errorf("WriteFile(%s) = %v, want %s", ext, err, want)
		}
	}
	invalid := sampleTrace()
	invalid.Messages[0].Dst = 0
	if err := trace.WriteFile(filepath.Join(dir, "x.csv"), invalid); err == nil {
		t.Error("WriteFile wrote an invalid trace")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed writes left %v behind", entries)
	}
	err := trace.WriteFile(filepath.Join(dir, "x.txt"), sampleTrace())
	if want := filepath.Join(dir, "x.txt") + `: unknown trace format ".txt" (want .parquet, .csv or .jsonl)`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if _, err := trace.ReadFile("trace.json"); err == nil || err.Error() != `trace.json: unknown trace format ".json" (want .parquet, .csv or .jsonl)` {
		t.Errorf("ReadFile(trace.json) = %v", err)
	}
}

// TestSamples reads the committed sample of each format (STYLE.md
// section 7: a tiny file per schema version, read back by a test).
// Run with -update to rewrite them.
func TestSamples(t *testing.T) {
	for _, name := range []string{"sample.parquet", "sample.csv", "sample.jsonl"} {
		path := filepath.Join("testdata", name)
		if *update {
			if err := trace.WriteFile(path, sampleTrace()); err != nil {
				t.Fatal(err)
			}
		}
		got, err := trace.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, sampleTrace()) {
			t.Errorf("%s: got\n%+v\nwant\n%+v", name, got, sampleTrace())
		}
	}
}

func TestCSVText(t *testing.T) {
	var b bytes.Buffer
	if err := trace.WriteCSV(&b, sampleTrace()); err != nil {
		t.Fatal(err)
	}
	want := `# hosts=4
id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns
0,0,3,1000,0,7,-1,,0
1,0,3,0,1500,7,-1,,0
5,1,3,4096,0,-1,2,0;1,250
3,2,0,1000000,10000,-1,2,5,0
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestJSONLText(t *testing.T) {
	var b bytes.Buffer
	tr := sampleTrace()
	tr.Messages = tr.Messages[2:3]
	tr.Messages[0].Deps = nil
	if err := trace.WriteJSONL(&b, tr); err != nil {
		t.Fatal(err)
	}
	want := `{"hosts":4}
{"id":5,"src":1,"dst":3,"bytes":4096,"release_ns":0,"flow_id":-1,"collective_id":2,"deps":[],"gap_ns":250}
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
