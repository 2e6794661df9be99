package trace_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

func TestReadJSONLDefaults(t *testing.T) {
	in := "\n{\"id\":4,\"src\":0,\"dst\":2,\"bytes\":10}\n\n" +
		`{"id":5,"src":1,"dst":2,"bytes":0,"release_ns":"30","deps":[4],"gap_ns":2,"flow_id":1,"collective_id":0}` // no final newline
	got, err := trace.ReadJSONL(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &trace.Trace{Hosts: 3, Messages: []trace.Message{
		{ID: 4, Src: 0, Dst: 2, Bytes: 10, FlowID: -1, CollectiveID: -1, Iteration: -1, SrcRank: -1, DstRank: -1},
		{ID: 5, Src: 1, Dst: 2, Bytes: 0, Release: 30 * units.Nanosecond, FlowID: 1, CollectiveID: 0, Deps: []int64{4}, Gap: 2 * units.Nanosecond, Iteration: -1, SrcRank: -1, DstRank: -1},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}

func TestReadJSONLErrors(t *testing.T) {
	good := `{"id":0,"src":0,"dst":1,"bytes":1}` + "\n"
	const alone = `"hosts", "ppn" and "ranks" must be alone on the first line: {"hosts":N,"ppn":N,"ranks":[...]}`
	for _, tc := range []struct {
		name, in, want string
	}{
		{"not json", "{\"hosts\":2}\nhello\n", "line 2: invalid JSON at byte 1: invalid character 'h' looking for beginning of value"},
		{"truncated", good + `{"id":1,"src":0`, "line 2: invalid JSON: the line ends inside a value"},
		{"two values", good + good[:len(good)-1] + good, "line 2: more than one JSON value on the line"},
		{"unknown key", `{"id":0,"src":0,"dst":1,"bytes":1,"size":3}`, `line 1: unknown field "size"`},
		{"missing key", "\n" + `{"id":0,"src":0,"bytes":1}`, `line 2: missing "dst"`},
		{"array", `[1,2]`, "line 1: want a JSON object (one message per line), got a JSON array"},
		{"float", `{"id":0,"src":0,"dst":1,"bytes":1.5}`, `line 1: bytes "1.5" is not an integer`},
		{"negative", good + `{"id":1,"src":0,"dst":1,"bytes":-5}`, `line 2: bytes "-5" must be >= 0`},
		{"deps not list", `{"id":0,"src":0,"dst":1,"bytes":1,"deps":5}`, "line 1: deps: want a list of integers, got a JSON number"},
		{"bool id", `{"id":true,"src":0,"dst":1,"bytes":1}`, "line 1: id: want an integer, got a JSON bool"},
		{"bad dep", `{"id":0,"src":0,"dst":1,"bytes":1,"deps":[null]}`, `line 1: deps is empty (want an integer)`},
		{"hosts late", good + `{"hosts":3}`, `line 2: ` + alone},
		{"hosts mixed", `{"hosts":3,"id":0}`, `line 1: ` + alone},
		{"ranks mixed", `{"ranks":[0],"priority":0}`, `line 1: ` + alone},
		{"bad ppn", `{"ppn":1.5}`, `line 1: ppn "1.5" is not an integer`},
		{"bad rank", `{"hosts":2,"ppn":1,"ranks":[0,-1]}`, `line 1: ranks "-1" must be >= 0 (the host of each rank)`},
		{"ranks not list", `{"ranks":3}`, "line 1: ranks: want a list of integers, got a JSON number"},
		{"priority", `{"id":0,"src":0,"dst":1,"bytes":1,"priority":9}`, `line 1: priority "9" must be <= 7`},
		{"rank range", `{"hosts":2,"ppn":1,"ranks":[0,1]}` + "\n" + `{"id":0,"src":0,"dst":1,"bytes":1,"src_rank":0,"dst_rank":2}`,
			"line 2: message 0: dst_rank 2 is not a rank (ranks are 0..1)"},
		{"bad hosts", `{"hosts":-1}`, `line 1: hosts "-1" must be >= 0 (0 = infer from the largest host index)`},
		{"host range", "{\"hosts\":1}\n" + good, "line 2: message 0: dst 1 is not a host (hosts are 0..0)"},
		{"duplicate", good + "\n" + good, "line 3: message 0: id 0 is also used at line 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := trace.ReadJSONL(strings.NewReader(tc.in))
			wantErr(t, "ReadJSONL()", err, tc.want)
		})
	}
}

func TestReadJSONLFileError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	in := "{\"hosts\":2}\n{\"id\":0,\"src\":0,\"dst\":1,\"bytes\":1,\"deps\":[3]}\n"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := trace.ReadFile(path)
	if want := path + ":2: message 0: depends on unknown message 3"; err == nil || err.Error() != want {
		t.Errorf("ReadFile() = %v, want %s", err, want)
	}
}

func TestReadJSONLRanks(t *testing.T) {
	in := `{"ppn":2,"ranks":[0,0,1]}` + "\n" +
		`{"id":0,"src":0,"dst":0,"bytes":8,"src_rank":1,"dst_rank":0,"iteration":4,"priority":2}` + "\n"
	got, err := trace.ReadJSONL(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &trace.Trace{Hosts: 2, PPN: 2, Ranks: []int32{0, 0, 1}, Messages: []trace.Message{
		{ID: 0, Src: 0, Dst: 0, Bytes: 8, FlowID: -1, CollectiveID: -1, Priority: 2, Iteration: 4, SrcRank: 1, DstRank: 0},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}
