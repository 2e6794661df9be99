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

var update = flag.Bool("update", false, "rewrite testdata/sample_v2.* from sampleTrace")

// sampleTrace exercises every field of schema v2: an MPI job (ranks and
// ppn) with a host running no rank, a shared flow with a priority, a
// same-host transfer, a zero-byte barrier (a sync point) with a gap, a
// message outside the ranks, iterations and collectives.
func sampleTrace() *trace.Trace {
	return &trace.Trace{Hosts: 3, PPN: 2, Ranks: []int32{0, 0, 1, 1}, Messages: []trace.Message{
		{ID: 0, Src: 0, Dst: 1, Bytes: 1000, FlowID: 7, CollectiveID: 2, Priority: 3, Iteration: 0, SrcRank: 0, DstRank: 2},
		{ID: 1, Src: 0, Dst: 0, Bytes: 4096, FlowID: -1, CollectiveID: 2, Iteration: 0, SrcRank: 0, DstRank: 1},
		{ID: 2, Src: 0, Dst: 0, Bytes: 0, FlowID: -1, CollectiveID: -1, Deps: []int64{0, 1}, Gap: 250 * units.Nanosecond, Iteration: 0, SrcRank: -1, DstRank: -1},
		{ID: 5, Src: 1, Dst: 0, Bytes: 1_000_000, Release: 10 * units.Microsecond, FlowID: -1, CollectiveID: 3, Deps: []int64{2}, Iteration: 1, SrcRank: 3, DstRank: 0},
		{ID: 3, Src: 2, Dst: 1, Bytes: 0, Release: 1500 * units.Nanosecond, FlowID: 9, CollectiveID: -1, Priority: 5, Iteration: -1, SrcRank: -1, DstRank: -1},
	}}
}

// sampleTraceV1 is what the version 1 samples in testdata hold, as read
// today: no ranks, priority 0, iteration and ranks -1.
func sampleTraceV1() *trace.Trace {
	none := func(m trace.Message) trace.Message {
		m.Iteration, m.SrcRank, m.DstRank = -1, -1, -1
		return m
	}
	return &trace.Trace{Hosts: 4, Messages: []trace.Message{
		none(trace.Message{ID: 0, Src: 0, Dst: 3, Bytes: 1000, Release: 0, FlowID: 7, CollectiveID: -1}),
		none(trace.Message{ID: 1, Src: 0, Dst: 3, Bytes: 0, Release: 1500 * units.Nanosecond, FlowID: 7, CollectiveID: -1}),
		none(trace.Message{ID: 5, Src: 1, Dst: 3, Bytes: 4096, FlowID: -1, CollectiveID: 2, Deps: []int64{0, 1}, Gap: 250 * units.Nanosecond}),
		none(trace.Message{ID: 3, Src: 2, Dst: 0, Bytes: 1_000_000, Release: 10 * units.Microsecond, FlowID: -1, CollectiveID: 2, Deps: []int64{5}}),
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
	invalid.Messages[0].Priority = 8
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

// TestSamples reads the committed sample of each format and schema
// version (a tiny file per schema version, read back by a test, as
// docs/OUTPUTS.md, "Versioning", does for the output files). Run with -update to rewrite the version 2 samples; the
// version 1 samples are frozen.
func TestSamples(t *testing.T) {
	for _, ext := range []string{".parquet", ".csv", ".jsonl"} {
		path := filepath.Join("testdata", "sample_v2"+ext)
		if *update {
			if err := trace.WriteFile(path, sampleTrace()); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			path string
			want *trace.Trace
		}{
			{path, sampleTrace()},
			{filepath.Join("testdata", "sample_v1"+ext), sampleTraceV1()},
		} {
			got, err := trace.ReadFile(c.path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s: got\n%+v\nwant\n%+v", c.path, got, c.want)
			}
		}
	}
}

func TestCSVText(t *testing.T) {
	var b bytes.Buffer
	if err := trace.WriteCSV(&b, sampleTrace()); err != nil {
		t.Fatal(err)
	}
	want := `# hosts=3
# ppn=2
# ranks=0;0;1;1
id,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns,priority,iteration,src_rank,dst_rank
0,0,1,1000,0,7,2,,0,3,0,0,2
1,0,0,4096,0,-1,2,,0,0,0,0,1
2,0,0,0,0,-1,-1,0;1,250,0,0,-1,-1
5,1,0,1000000,10000,-1,3,2,0,0,1,3,0
3,2,1,0,1500,9,-1,,0,5,-1,-1,-1
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// A trace that is not an MPI job has no ppn or ranks lines.
	b.Reset()
	if err := trace.WriteCSV(&b, sampleTraceV1()); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("# hosts=4\n"+trace.CSVHeader+"\n0,0,3,1000,0,7,-1,,0,0,-1,-1,-1\n")) {
		t.Errorf("got\n%s", b.String())
	}
}

func TestJSONLText(t *testing.T) {
	var b bytes.Buffer
	tr := sampleTrace()
	tr.Messages = tr.Messages[:1]
	if err := trace.WriteJSONL(&b, tr); err != nil {
		t.Fatal(err)
	}
	want := `{"hosts":3,"ppn":2,"ranks":[0,0,1,1]}
{"id":0,"src":0,"dst":1,"bytes":1000,"release_ns":0,"flow_id":7,"collective_id":2,"deps":[],"gap_ns":0,"priority":3,"iteration":0,"src_rank":0,"dst_rank":2}
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	tr = sampleTraceV1()
	tr.Messages = tr.Messages[2:3]
	tr.Messages[0].Deps = nil
	if err := trace.WriteJSONL(&b, tr); err != nil {
		t.Fatal(err)
	}
	want = `{"hosts":4}
{"id":5,"src":1,"dst":3,"bytes":4096,"release_ns":0,"flow_id":-1,"collective_id":2,"deps":[],"gap_ns":250,"priority":0,"iteration":-1,"src_rank":-1,"dst_rank":-1}
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
