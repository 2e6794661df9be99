package dumpi

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/limits"
)

// TestFuncTable checks the function table: every id has a name and a
// layout that compiles, only MPI_Pcontrol and the sentinel are unreadable,
// and names round-trip.
func TestFuncTable(t *testing.T) {
	if NumFunctions != 290 || fnPcontrol != 128 || fnEndOfStream != 293 {
		t.Fatalf("NumFunctions %d, MPI_Pcontrol %d, end %d", NumFunctions, fnPcontrol, fnEndOfStream)
	}
	for i := range funcTable {
		id := FuncID(i)
		got, ok := FuncByName(id.String())
		if !ok || got != id {
			t.Errorf("%d: name %s maps to %d", i, id, got)
		}
		if unknown := layouts[i].unknown; unknown != (id == fnPcontrol || id == fnAllFunctions) {
			t.Errorf("%v: unknown layout %v", id, unknown)
		}
	}
	for _, c := range []struct {
		id   FuncID
		name string
	}{{fnSend, "MPI_Send"}, {fnIsend, "MPI_Isend"}, {fnAlltoall, "MPI_Alltoall"}, {fnCommRank, "MPI_Comm_rank"},
		{fnInit, "MPI_Init"}, {fnIOTestsome, "MPIO_Testsome"}, {fnFunctionExit, "DUMPI_Function_exit"}, {999, "DUMPI_function_999"}} {
		if c.id.String() != c.name {
			t.Errorf("%d is %s, want %s", c.id, c.id, c.name)
		}
	}
	for _, bad := range []string{"x", "a:q", "a:i a:i", "?a=b c:i", "a:I@1.2", "a:I@1.2.x"} {
		if _, err := compileLayout(bad); err == nil {
			t.Errorf("layout %q compiled", bad)
		}
	}
}

// randomArgs makes arguments for every field of fn's layout; when equal
// is set the fields of a condition are made equal, else different.
func randomArgs(rng *rand.Rand, fn FuncID, equal bool) map[string]any {
	a := map[string]any{}
	ints := func(n int, lo, hi int64) []int64 {
		v := make([]int64, n)
		for i := range v {
			v[i] = lo + rng.Int64N(hi-lo)
		}
		return v
	}
	strs := func(n int) []string {
		v := make([]string, n)
		for i := range v {
			v[i] = fmt.Sprintf("s%d-%d", i, rng.IntN(1000))
		}
		return v
	}
	for _, f := range layouts[fn].fields {
		switch f.kind {
		case KindInt:
			a[f.name] = rng.Int64N(200000) - 1000
		case KindDatatype, KindComm, KindGroup, KindHandle:
			a[f.name] = rng.Int64N(1 << 16)
		case KindEnum:
			a[f.name] = rng.Int64N(256)
		case KindInt64:
			a[f.name] = rng.Int64() - 1<<62
		case KindStatuses:
			st := make([]Status, rng.IntN(3))
			for i := range st {
				st[i] = Status{Bytes: rng.Int32(), Source: rng.Int32N(64), Tag: rng.Int32N(100), Cancelled: uint8(rng.IntN(2)), Error: uint8(rng.IntN(256))}
			}
			a[f.name] = st
		case KindInts:
			a[f.name] = ints(1+rng.IntN(4), -5, 1000)
		case KindDatatypes, KindHandles:
			a[f.name] = ints(rng.IntN(4), 0, 1<<16)
		case KindEnums:
			a[f.name] = ints(rng.IntN(4), 0, 256)
		case KindInts2:
			a[f.name] = ints(3*rng.IntN(3), -5, 1000)
		case KindString:
			a[f.name] = strs(1)[0]
		case KindStrings, KindStrings2:
			a[f.name] = strs(rng.IntN(4))
		}
	}
	for _, f := range layouts[fn].fields {
		if f.condA >= 0 {
			x, y := layouts[fn].fields[f.condA].name, layouts[fn].fields[f.condB].name
			a[y] = a[x]
			if !equal {
				a[y] = toInt(a[x]) + 1
			}
		}
	}
	return a
}

// expectField is what reading an argument written from v gives.
func expectField(s *fieldSpec, v any, present bool) Field {
	f := Field{Name: s.name, Kind: s.kind, Present: present}
	if !present {
		return f
	}
	switch s.kind {
	case KindInt:
		f.Int = int64(int32(toInt(v)))
	case KindDatatype, KindComm, KindGroup, KindHandle, KindEnum, KindInt64:
		f.Int = toInt(v)
	case KindStatuses:
		f.Statuses, _ = v.([]Status)
		if len(f.Statuses) == 0 {
			f.Statuses = nil
		}
	case KindInts, KindDatatypes, KindHandles, KindEnums, KindInts2:
		f.Ints, _ = v.([]int64)
		if len(f.Ints) == 0 {
			f.Ints = nil
		}
	case KindString:
		f.Strs = []string{v.(string)}
	case KindStrings, KindStrings2:
		f.Strs, _ = v.([]string)
		switch {
		case s.kind == KindStrings && f.Strs == nil:
			f.Strs = []string{}
		case s.kind == KindStrings2 && len(f.Strs) == 0:
			f.Strs = nil
		}
	}
	return f
}

// TestRoundTripAllFunctions writes a record of every function with random
// arguments (two for those with root-only arguments: on and off the root)
// and reads them back: function, times, thread and every argument.
func TestRoundTripAllFunctions(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var fx fixture
	now := int64(1e9)
	for i := range funcTable {
		fn := FuncID(i)
		if layouts[fn].unknown {
			continue
		}
		cond := false
		for _, f := range layouts[fn].fields {
			cond = cond || f.condA >= 0
		}
		for _, equal := range []bool{true, false} {
			if !equal && !cond {
				continue
			}
			fx.recs = append(fx.recs, fixRec{fn: fn, wall: [2]int64{now, now + 1234}, cpu: [2]int64{now / 3, now/3 + 99},
				thread: uint16(i), args: randomArgs(rng, fn, equal)})
			now += 1e9 + 7
		}
	}
	f, err := NewFile(bytes.NewReader(fx.bytes()), int64(len(fx.bytes())), "all.bin")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = f.Records(func(r *Record) error {
		w := &fx.recs[n]
		if r.Func != w.fn || r.Wall != (Interval{w.wall[0], w.wall[1]}) || r.CPU != (Interval{w.cpu[0], w.cpu[1]}) || r.Thread != w.thread || r.Index != int64(n) {
			return fmt.Errorf("record %d: %v %+v %+v thread %d, want %v", n, r.Func, r.Wall, r.CPU, r.Thread, w.fn)
		}
		lay := layouts[w.fn]
		for k := range lay.fields {
			s := &lay.fields[k]
			present := s.condA < 0 || toInt(w.args[lay.fields[s.condA].name]) == toInt(w.args[lay.fields[s.condB].name])
			if want := expectField(s, w.args[s.name], present); !reflect.DeepEqual(r.Fields[k], want) {
				return fmt.Errorf("record %d (%v): field %s = %+v, want %+v", n, w.fn, s.name, r.Fields[k], want)
			}
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The footer counts MPI calls, not the two profiling labels.
	if n != len(fx.recs) || f.Calls[NumFunctions] != uint32(n-2) || f.Calls[fnAlltoall] != 1 || f.Calls[fnGather] != 2 {
		t.Errorf("read %d of %d records; footer total %d", n, len(fx.recs), f.Calls[NumFunctions])
	}
	if f.Header.Hostname != "fixture-host" || f.Header.Username != "tester" || !reflect.DeepEqual(f.TypeSizes, builtinSizes) {
		t.Errorf("header %+v, sizes %v", f.Header, f.TypeSizes)
	}
}

// TestRecordOptionalParts checks the config mask: records without a
// thread, without CPU or wall times, without statuses, with PAPI
// counters.
func TestRecordOptionalParts(t *testing.T) {
	st := []Status{{Bytes: 8, Source: 1, Tag: 2}}
	fx := fixture{wallOff: 100000, recs: []fixRec{
		{fn: fnWait, mask: 0x08, wall: [2]int64{100001e9, 100002e9}, args: args{"request": 5, "status": st}},
		{fn: fnWait, mask: 0x07, cpu: [2]int64{3, 4}, args: args{"request": 6, "status": st}},
		{fn: fnWait, mask: 0xcf, thread: 3, wall: [2]int64{100003e9, 100003e9 + 5}, perf: []PerfCounter{{1, 2}, {-3, 4}}, args: args{"request": 7, "status": st}},
	}}
	b := fx.bytes()
	f, err := NewFile(bytes.NewReader(b), int64(len(b)), "opt.bin")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = f.Records(func(r *Record) error {
		s := r.Field("status")
		got = append(got, fmt.Sprintf("%x %d %v %v %v %v %v", r.Mask, r.Thread, r.Wall, r.CPU, r.Perf, s.Present, s.Statuses))
		return nil
	})
	want := []string{
		"8 0 {100001000000000 100002000000000} {0 0} [] false []",
		"7 0 {0 0} {3 4} [] true [{8 1 2 0 0}]",
		"cf 3 {100003000000000 100003000000005} {0 0} [{1 2} {-3 4}] true [{8 1 2 0 0}]",
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %v (%v)\nwant %v", got, err, want)
	}
}

// TestOldVersions checks the quirks of traces older than 0.6.9: MPI_Init's
// argc written twice (< 0.6.2), statuses without a tag (< 0.6.3), and
// MPI_Type_struct's displacements as a single int (< 0.6.9); and the
// numbering of traces written before MPI_Pcontrol had a label.
func TestOldVersions(t *testing.T) {
	fx := fixture{version: [3]uint8{0, 6, 1}, legacy: true, recs: []fixRec{
		{fn: fnInit, wall: [2]int64{1e9, 1e9}, args: args{"argv": []string{"a.out", "-x"}}},
		{fn: fnWait, wall: [2]int64{2e9, 2e9}, args: args{"request": 3, "status": []Status{{Bytes: 4, Source: 2, Tag: 99}}}},
		{fn: fnTypeStruct, wall: [2]int64{3e9, 3e9}, args: args{"count": 2, "lengths": []int64{1, 2}, "indices": []int64{16, 99}, "oldtypes": []int64{9, 14}, "newtype": 40}},
		{fn: fnAlltoallw, wall: [2]int64{4e9, 4e9}, args: args{"commsize": 1, "sendcounts": []int64{1}, "comm": 2}},
	}}
	b := fx.bytes()
	f, err := NewFile(bytes.NewReader(b), int64(len(b)), "old.bin")
	if err != nil {
		t.Fatal(err)
	}
	if !f.LegacyNumbering || f.Calls[fnAlltoallw] != 1 || f.Calls[fnInit] != 1 || f.Calls[NumFunctions] != 4 {
		t.Fatalf("legacy %v, calls: alltoallw %d init %d total %d", f.LegacyNumbering, f.Calls[fnAlltoallw], f.Calls[fnInit], f.Calls[NumFunctions])
	}
	var got []string
	err = f.Records(func(r *Record) error {
		switch r.Func {
		case fnInit:
			got = append(got, fmt.Sprint(r.Field("argv").Strs))
		case fnWait:
			got = append(got, fmt.Sprintf("%+v", r.Field("status").Statuses))
		case fnTypeStruct:
			got = append(got, fmt.Sprint(r.Ints("indices"), r.Ints("oldtypes")))
		default:
			got = append(got, r.Func.String())
		}
		return nil
	})
	want := []string{"[a.out -x]", "[{Bytes:4 Source:2 Tag:-1 Cancelled:0 Error:0}]", "[16] [9 14]", "MPI_Alltoallw"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("records %q (%v), want %q", got, err, want)
	}
}

// TestTruncatedStream cuts the stream short at several places: the error
// names the file, the record and what was cut; a cut between records
// ends the stream early without an error.
func TestTruncatedStream(t *testing.T) {
	recs := []fixRec{
		{fn: fnInit, args: args{"argv": []string{"x"}}},
		{fn: fnIsend, args: isend(1, dtInt, 1, 0, commWorld, 2)},
		{fn: fnWaitall, args: args{"count": 2, "requests": []int64{2, 3}}},
		{fn: fnFinalize},
	}
	const finalize = 2 + 1 + 2 + 12 + 12 // label, mask, thread, CPU and wall times
	for _, c := range []struct {
		cut  int
		want string
	}{
		{0, ""},
		{1, "cut.bin: record 3: truncated MPI_Finalize record header"},
		{finalize - 2, "cut.bin: record 3: truncated MPI_Finalize record header"},
		{finalize - 1, "cut.bin: record 3: truncated function label"},
		{finalize, ""},
		{finalize + 1, "cut.bin: record 2: truncated MPI_Waitall arguments"},
		{finalize + 4, "cut.bin: record 2: truncated MPI_Waitall arguments"},
	} {
		fx := fixture{recs: recs, cut: c.cut}
		b := fx.bytes()
		f, err := NewFile(bytes.NewReader(b), int64(len(b)), "cut.bin")
		if err != nil {
			t.Fatalf("cut %d: %v", c.cut, err)
		}
		err = f.Records(func(*Record) error { return nil })
		var de *DecodeError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("cut %d: %v", c.cut, err)
		case c.want != "" && (err == nil || err.Error() != c.want || !errors.As(err, &de)):
			t.Errorf("cut %d: error %v, want %q", c.cut, err, c.want)
		}
	}
}

// TestBadFiles checks files that are not DUMPI traces or are damaged
// outside the stream: each gives a one-line error, none panics.
func TestBadFiles(t *testing.T) {
	good := (&fixture{recs: []fixRec{{fn: fnWaitall, args: args{"count": 2, "requests": []int64{2, 3}}}}}).bytes()
	patch := func(at int, p ...byte) []byte {
		b := bytes.Clone(good)
		if at < 0 {
			at += len(b)
		}
		copy(b[at:], p)
		return b
	}
	huge := bytes.Clone(good)
	arr, _ := hex.DecodeString("000000020000000200000003")
	if k := bytes.Index(huge, arr); k < 0 {
		t.Fatal("fixture lacks the requests array")
	} else {
		copy(huge[k:], []byte{0x7f, 0xff, 0xff, 0xff}) // 2^31-1 requests
	}
	// A barrier record whose label (after the magic and the stream's two
	// time offsets) is replaced.
	withLabel := func(l uint16) []byte {
		b := (&fixture{recs: []fixRec{{fn: fnBarrier, args: args{"comm": 2}}}}).bytes()
		b[16], b[17] = byte(l>>8), byte(l)
		return b
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "bad.bin: file of 0 bytes is too short for a DUMPI trace"},
		{"text", []byte(strings.Repeat("not a trace ", 10)), "bad.bin: not a DUMPI trace (bad magic 0x6e6f742061207472)"},
		{"no index", patch(-64, make([]byte, 64)...), "bad.bin: index record not found (file truncated?)"},
		{"offset past end", patch(-8, 0, 0, 0, 1, 0, 0, 0, 0), "bad.bin: index offset 4294967296 is past the end of the"},
		{"bad footer offset", patch(len(good)-16, 0, 0, 0, 0, 0, 0, 0, 3), "is outside the file's sections"},
		{"huge array", huge, "bad.bin: record 0: truncated MPI_Waitall arguments"},
		{"unknown label", withLabel(400), "bad.bin: record 0: bad function label 400"},
		{"sentinel label", withLabel(uint16(fnAllFunctions)), "bad.bin: record 0: bad function label 290"},
		{"pcontrol", withLabel(uint16(fnPcontrol)), "bad.bin: record 0: MPI_Pcontrol records cannot be read"},
	} {
		err := readAll(c.data, "bad.bin")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error spans lines: %q", c.name, err)
		}
	}
	// The footer's magic, found through the index.
	b := bytes.Clone(good)
	f, err := NewFile(bytes.NewReader(b), int64(len(b)), "bad.bin")
	if err != nil {
		t.Fatal(err)
	}
	b[f.idx.footer] ^= 0xff
	if err := readAll(b, "bad.bin"); err == nil || !strings.Contains(err.Error(), "bad footer magic") {
		t.Errorf("bad footer: %v", err)
	}
}

// readAll opens data as a DUMPI file and reads every record.
func readAll(data []byte, name string) error {
	f, err := NewFile(bytes.NewReader(data), int64(len(data)), name)
	if err != nil {
		return err
	}
	return f.Records(func(*Record) error { return nil })
}

// Regression (issue 33, class 2): a .bin file larger than
// limits.MaxDUMPIBytes is refused from its size, and one that is not a
// regular file (a link to /dev/zero) at once, each in one line naming
// the file.
func TestOpenBounded(t *testing.T) {
	testfiles.Bounded{
		Read: func(path string) error {
			df, err := Open(path)
			if err == nil {
				df.Close()
			}
			return err
		},
		Limit:      limits.MaxDUMPIBytes,
		Big:        "big-0000.bin",
		Zero:       "zero-0000.bin",
		TooBig:     "68719476737 bytes, more than 64 GiB, the limit of a DUMPI .bin file",
		NotRegular: "is a character device; a DUMPI .bin file must be a regular file",
	}.CheckRefused(t)
}
