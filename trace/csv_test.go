package trace_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/trace"
	"github.com/ccreplay/ccreplay/units"
)

// csvHead starts a version 1 CSV trace, csvHeadV2 a version 2 one of an
// MPI job with ranks 0..3 on hosts 0, 0, 3, 3.
const (
	csvHead   = "# hosts=4\nid,src,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns\n"
	csvHeadV2 = "# hosts=4\n# ppn=2\n# ranks=0;0;3;3\n" + trace.CSVHeader + "\n"
)

func TestReadCSVErrors(t *testing.T) {
	good := "0,0,3,1000,0,-1,-1,,0\n"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "line 1: missing header line \"" + trace.CSVHeader + "\""},
		{"only hosts", "# hosts=4\n", "line 2: missing header line \"" + trace.CSVHeader + "\""},
		{"bad header", "id,src,dst\n", `line 1: header "id,src,dst", want "` + trace.CSVHeader + `" (or the version 1 header "` + trace.CSVHeaderV1 + `")`},
		{"bad hosts", "# hosts=x\n", `line 1: hosts "x" is not an integer`},
		{"negative hosts", "# hosts=-3\n", `line 1: hosts "-3" must be >= 0 (0 = infer from the largest host index)`},
		{"few fields", csvHead + good + "1,0,3\n", "line 4: 3 fields, want 9 (" + trace.CSVHeaderV1 + ")"},
		{"many fields", csvHead + "1,0,3,1,1,1,1,,1,1\n", "line 3: 10 fields, want 9 (" + trace.CSVHeaderV1 + ")"},
		{"v2 few fields", csvHeadV2 + "1,0,3,1,1,1,1,,1\n", "line 5: 9 fields, want 13 (" + trace.CSVHeader + ")"},
		{"hosts twice", "# hosts=4\n# hosts=5\n", `line 2: "# hosts" given twice`},
		{"bad ppn", "# ppn=-1\n", `line 1: ppn "-1" must be >= 0 (0 = not an MPI job)`},
		{"bad ranks", "# hosts=2\n# ppn=2\n# ranks=0;x\n", `line 3: ranks "x" is not an integer`},
		{"empty rank", "# ranks=0;;1\n", `line 1: ranks "0;;1" has an empty entry (want integers separated by ';')`},
		{"rank host", "# hosts=2\n# ppn=2\n# ranks=0;2\n" + trace.CSVHeader + "\n", `rank 1 is on host 2, which is not a host (hosts are 0..1)`},
		{"ppn exceeded", "# hosts=2\n# ppn=1\n# ranks=0;1;1\n" + trace.CSVHeader + "\n", `host 1 runs more than ppn 1 ranks (rank 2 is one too many)`},
		{"ranks without ppn", "# ranks=0;1\n" + trace.CSVHeader + "\n", `there are 2 ranks but ppn is 0 (set PPN, the processes per node)`},
		{"ppn without ranks", "# ppn=4\n" + trace.CSVHeader + "\n", `ppn is 4 but there are no ranks (ppn is 0 when the trace is not an MPI job)`},
		{"priority", csvHeadV2 + "1,0,3,5,0,-1,-1,,0,8,-1,-1,-1\n", `line 5: priority "8" must be <= 7`},
		{"iteration", csvHeadV2 + "1,0,3,5,0,-1,-1,,0,0,-2,-1,-1\n", `line 5: iteration "-2" must be >= -1 (-1 = none)`},
		{"src_rank", csvHeadV2 + "1,0,3,5,0,-1,-1,,0,0,0,-3,-1\n", `line 5: src_rank "-3" must be >= -1 (-1 = not an MPI rank)`},
		{"rank not on src", csvHeadV2 + "1,0,3,5,0,-1,-1,,0,0,0,2,0\n", `line 5: message 1: src_rank 2 runs on host 3, not on src 0`},
		{"rank not on dst", csvHeadV2 + "1,0,3,5,0,-1,-1,,0,0,0,0,1\n", `line 5: message 1: dst_rank 1 runs on host 0, not on dst 3`},
		{"unknown rank", csvHeadV2 + "1,0,3,5,0,-1,-1,,0,0,0,0,4\n", `line 5: message 1: dst_rank 4 is not a rank (ranks are 0..3)`},
		{"half ranks", csvHeadV2 + "1,0,3,5,0,-1,-1,,0,0,0,0,-1\n", `line 5: message 1: src_rank 0 and dst_rank -1 must both be ranks or both -1`},
		{"flow priority", csvHeadV2 + "0,0,3,1,0,5,-1,,0,1,-1,-1,-1\n1,0,3,1,0,5,-1,,0,2,-1,-1,-1\n",
			"line 6: message 1: flow 5 has priority 2 here but 1 at line 5 (messages of one flow share a priority)"},
		{"non-numeric", csvHead + good + good[:0] + "1,0,3,abc,0,-1,-1,,0\n", `line 4: bytes "abc" is not an integer`},
		{"empty field", csvHead + "1,0,3,,0,-1,-1,,0\n", `line 3: bytes is empty (want an integer)`},
		{"negative bytes", csvHead + good + "# a comment\n\n" + "1,0,3,-5,0,-1,-1,,0\n", `line 6: bytes "-5" must be >= 0`},
		{"huge release", csvHead + "1,0,3,5,9300000000000000,-1,-1,,0\n", `line 3: release_ns "9300000000000000"` + timeLimit},
		{"overflow", csvHead + "99999999999999999999,0,3,5,0,-1,-1,,0\n", `line 3: id "99999999999999999999" is out of range (must be 0..9223372036854775807)`},
		{"src int32", csvHead + "1,3000000000,3,5,0,-1,-1,,0\n", `line 3: src "3000000000" is beyond the limit of 1048575 (the largest host index: a trace has at most 1048576 hosts)`},
		{"flow -2", csvHead + "1,0,3,5,0,-2,-1,,0\n", `line 3: flow_id "-2" must be >= -1 (-1 = a queue pair of its own)`},
		{"bad dep", csvHead + "1,0,3,5,0,-1,-1,2;x,0\n", `line 3: deps "x" is not an integer`},
		{"empty dep", csvHead + "1,0,3,5,0,-1,-1,2;;4,0\n", `line 3: deps "2;;4" has an empty id (want ids separated by ';')`},
		{"quote", csvHead + "1,0,3,5\"x,0,-1,-1,,0\n", `line 3: bare " in non-quoted-field`},
		{"host range", csvHead + good + "1,0,4,5,0,-1,-1,,0\n", "line 4: message 1: dst 4 is not a host (hosts are 0..3)"},
		{"duplicate", csvHead + good + good, "line 4: message 0: id 0 is also used at line 3"},
		{"unknown dep", csvHead + good + "1,0,3,5,0,-1,-1,0;8,0\n", "line 4: message 1: depends on unknown message 8"},
		{"cycle", csvHead + "0,0,3,1,0,-1,-1,1,0\n1,0,3,1,0,-1,-1,0,0\n", "line 3: message 0: dependency cycle: 0 depends on 1, 1 depends on 0"},
		{"flow", csvHead + "0,0,3,1,0,5,-1,,0\n1,1,3,1,0,5,-1,,0\n", "line 4: message 1: flow 5 goes 1->3 here but 0->3 at line 3 (messages of one flow share src and dst)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := trace.ReadCSV(strings.NewReader(tc.in))
			wantErr(t, "ReadCSV()", err, tc.want)
			var pe *trace.ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *trace.ParseError", err)
			}
		})
	}
}

func TestReadCSVFileError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.csv")
	in := csvHead + "0,0,3,1000,0,-1,-1,,0\n1,0,3,1000,0,-1,-1,,0\n2,0,3,1000,0,-1,-1,,0\n# note\n\n3,1,3,-5,0,-1,-1,,0\n"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := trace.ReadFile(path)
	if want := path + `:8: bytes "-5" must be >= 0`; err == nil || err.Error() != want {
		t.Errorf("ReadFile() = %v, want %s", err, want)
	}
}

func TestReadCSVLenient(t *testing.T) {
	// A byte order mark, CRLF line ends, spaces, no hosts line (inferred)
	// and a quoted deps field are all accepted.
	in := "\xef\xbb\xbfid, src ,dst,bytes,release_ns,flow_id,collective_id,deps,gap_ns\r\n" +
		"0, 0, 5, 10, 2, -1, -1, , 0\r\n" +
		"1,1,5,20,0,-1,3,\"0; 2\",7\r\n" +
		"2,2,5,20,0,-1,3,,0\r\n"
	got, err := trace.ReadCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &trace.Trace{Hosts: 6, Messages: []trace.Message{
		{ID: 0, Src: 0, Dst: 5, Bytes: 10, Release: 2 * units.Nanosecond, FlowID: -1, CollectiveID: -1, Iteration: -1, SrcRank: -1, DstRank: -1},
		{ID: 1, Src: 1, Dst: 5, Bytes: 20, FlowID: -1, CollectiveID: 3, Deps: []int64{0, 2}, Gap: 7 * units.Nanosecond, Iteration: -1, SrcRank: -1, DstRank: -1},
		{ID: 2, Src: 2, Dst: 5, Bytes: 20, FlowID: -1, CollectiveID: 3, Iteration: -1, SrcRank: -1, DstRank: -1},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}

func TestReadCSVDirectives(t *testing.T) {
	// Directives may come in any order among comments before the header;
	// a hosts count is inferred from the ranks too; a same-host message
	// between two ranks is valid.
	in := "# a trace of two nodes\n# ranks = 0;1;1\n#ppn=2\n# note: hosts inferred\n" + trace.CSVHeader + "\n" +
		"0,1,1,64,0,-1,0,,0,0,0,1,2\n# a comment\n"
	got, err := trace.ReadCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := &trace.Trace{Hosts: 2, PPN: 2, Ranks: []int32{0, 1, 1}, Messages: []trace.Message{
		{ID: 0, Src: 1, Dst: 1, Bytes: 64, FlowID: -1, CollectiveID: 0, Iteration: 0, SrcRank: 1, DstRank: 2},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}
