package trace_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/trace/gen"
	"github.com/ccreplay/ccreplay/units"
)

// Error texts of the limits, as readers give them after the position and
// the value.
var timeLimit = ` is beyond the limit of 1000000000000000 ns = ` + limits.Describe(limits.MaxTime) +
	` (the simulator's clock is int64 picoseconds)`

const (
	bytesLimit = ` is beyond the limit of 1000000000000 bytes (the largest message a trace may hold)`
	hostLimit  = ` is beyond the limit of 1048575 (the largest host index: a trace has at most 1048576 hosts)`
)

// TestReadCSVLimits checks that the CSV reader refuses times, sizes and
// host counts beyond the limits package's bounds with an error naming the
// line and the column, and accepts them at the bounds. A release_ns whose
// picoseconds overflow int64 gets the same error, not a wrapped time.
func TestReadCSVLimits(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string // want "" = accepted
	}{
		{"release whose ps overflow", csvHead + "1,0,3,5,9223372036854775,-1,-1,,0\n", `line 3: release_ns "9223372036854775"` + timeLimit},
		{"release just beyond", csvHead + "1,0,3,5,1000000000000001,-1,-1,,0\n", `line 3: release_ns "1000000000000001"` + timeLimit},
		{"release at the limit", csvHead + "1,0,3,5,1000000000000000,-1,-1,,0\n", ""},
		{"gap beyond", csvHead + "0,0,3,5,0,-1,-1,,0\n1,0,3,5,0,-1,-1,0,2000000000000000\n", `line 4: gap_ns "2000000000000000"` + timeLimit},
		{"bytes 1e18", csvHead + "1,0,3,1000000000000000000,0,-1,-1,,0\n", `line 3: bytes "1000000000000000000"` + bytesLimit},
		{"bytes at the limit", csvHead + "1,0,3,1000000000000,0,-1,-1,,0\n", ""},
		{"hosts beyond", "# hosts=1048577\n" + trace.CSVHeaderV1 + "\n", `line 1: hosts "1048577" is beyond the limit of 1048576 hosts`},
		{"hosts at the limit", "# hosts=1048576\n" + trace.CSVHeaderV1 + "\n", ""},
		{"a million hosts", "# hosts=1000000\n" + trace.CSVHeaderV1 + "\n", ""},
		{"src beyond", csvHead + "1,1048576,3,5,0,-1,-1,,0\n", `line 3: src "1048576"` + hostLimit},
		{"rank host beyond", "# ppn=1\n# ranks=0;1048576\n", `line 2: ranks "1048576"` + hostLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := trace.ReadCSV(strings.NewReader(tc.in))
			wantErr(t, "ReadCSV()", err, tc.want)
		})
	}
}

// TestReadFileLimitNamesFile checks that a limit error read from a file
// names the file, the line and the column.
func TestReadFileLimitNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.csv")
	if err := os.WriteFile(path, []byte(csvHead+"0,0,3,5,0,-1,-1,,0\n1,0,3,5,9223372036854775,-1,-1,,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := trace.ReadFile(path)
	if want := path + `:4: release_ns "9223372036854775"` + timeLimit; err == nil || err.Error() != want {
		t.Errorf("ReadFile() = %v\nwant %s", err, want)
	}
}

// TestReadJSONLLimits checks the JSON Lines reader against the same
// limits.
func TestReadJSONLLimits(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"release", `{"id":0,"src":0,"dst":1,"bytes":1,"release_ns":9223372036854775}`, `line 1: release_ns "9223372036854775"` + timeLimit},
		{"gap", `{"id":0,"src":0,"dst":1,"bytes":1,"gap_ns":1000000000000001}`, `line 1: gap_ns "1000000000000001"` + timeLimit},
		{"bytes", "{\"hosts\":2}\n" + `{"id":0,"src":0,"dst":1,"bytes":1000000000000000000}`, `line 2: bytes "1000000000000000000"` + bytesLimit},
		{"hosts", `{"hosts":1048577}`, `line 1: hosts "1048577" is beyond the limit of 1048576 hosts`},
		{"dst", `{"id":0,"src":0,"dst":2000000,"bytes":1}`, `line 1: dst "2000000"` + hostLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := trace.ReadJSONL(strings.NewReader(tc.in))
			wantErr(t, "ReadJSONL()", err, tc.want)
		})
	}
}

// TestReadParquetLimits checks the Parquet reader against the same limits;
// errors name the row and the column. (Row counts beyond
// limits.MaxMessages: TestParquetBombs, "file rows".)
func TestReadParquetLimits(t *testing.T) {
	ok := okRowV2
	with := func(f func(r *rowV2)) rowV2 { r := ok(2); f(&r); return r }
	for _, tc := range []struct {
		name string
		row  rowV2
		want string
	}{
		{"release", with(func(r *rowV2) { r.ReleaseNs = 9223372036854775 }), `row 3: release_ns 9223372036854775` + timeLimit},
		{"gap", with(func(r *rowV2) { r.GapNs = 1 << 62 }), `row 3: gap_ns 4611686018427387904` + timeLimit},
		{"bytes", with(func(r *rowV2) { r.Bytes = 1e18 }), `row 3: bytes 1000000000000000000` + bytesLimit},
		{"src", with(func(r *rowV2) { r.Src = 1 << 30 }), `row 3: src 1073741824` + hostLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := parquet.Write(&b, []rowV2{ok(0), ok(1), tc.row}, parquet.KeyValueMetadata(trace.MetadataKey, trace.SchemaVersion)); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "trace.parquet")
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := trace.ReadFile(path)
			if want := path + ": " + tc.want; err == nil || err.Error() != want {
				t.Fatalf("ReadFile() = %v\nwant %s", err, want)
			}
		})
	}
}

// TestValidateLimits checks that Validate, which every reader and
// generator ends with, refuses traces beyond the limits package's bounds.
func TestValidateLimits(t *testing.T) {
	with := func(f func(m *trace.Message)) []trace.Message {
		m := msg(1, 0, 1)
		f(&m)
		return []trace.Message{m}
	}
	for _, tc := range []struct {
		name  string
		hosts int
		msgs  []trace.Message
		want  string
	}{
		{"release", 2, with(func(m *trace.Message) { m.Release = limits.MaxTime + units.Second }),
			"message 1: " + limits.TimeError("release", limits.MaxTime+units.Second).Error()},
		{"release at the limit", 2, with(func(m *trace.Message) { m.Release = limits.MaxTime }), ""},
		{"gap", 2, with(func(m *trace.Message) { m.Gap = 1 << 62 }), "message 1: " + limits.TimeError("gap", 1<<62).Error()},
		{"bytes", 2, with(func(m *trace.Message) { m.Bytes = limits.MaxMessageBytes + 1 }), "message 1: bytes 1000000000001" + bytesLimit},
		{"hosts", limits.MaxHosts + 1, nil, "hosts 1048577 is beyond the limit of 1048576 hosts"},
		{"hosts at the limit", limits.MaxHosts, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := (&trace.Trace{Hosts: tc.hosts, Messages: tc.msgs}).Validate()
			wantErr(t, "Validate()", err, tc.want)
		})
	}
}

// TestValidateTotalBytes checks that message sizes may not add up to more
// than limits.MaxTotalBytes, naming the message where the sum passes it.
func TestValidateTotalBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a trace of a million messages")
	}
	n := int(limits.MaxTotalBytes/limits.MaxMessageBytes) + 1
	tr := &trace.Trace{Hosts: 2, Messages: make([]trace.Message, n)}
	for i := range tr.Messages {
		tr.Messages[i] = trace.Message{ID: int64(i), Src: 0, Dst: 1, Bytes: limits.MaxMessageBytes, FlowID: -1, CollectiveID: -1}
	}
	err := tr.Validate()
	want := "message 1000000: the trace's bytes add up to 1000001000000000000 by this message, beyond the limit of 1000000000000000000 for a whole trace"
	if err == nil || err.Error() != want {
		t.Errorf("Validate() = %v\nwant %s", err, want)
	}
	tr.Messages = tr.Messages[:n-1]
	if err := tr.Validate(); err != nil {
		t.Errorf("at the limit: Validate() = %v", err)
	}
}

// TestGeneratedTraceLimits checks that a generator's trace is held to the
// same limits.
func TestGeneratedTraceLimits(t *testing.T) {
	_, err := gen.Parse("incast:n=2,size=2000GB", 1)
	if err == nil || !strings.Contains(err.Error(), "bytes 2000000000000"+bytesLimit) {
		t.Errorf("gen.Parse() = %v, want the size limit", err)
	}
}
