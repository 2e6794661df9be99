package dumpi

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A DUMPI writer for the tests' own fixtures, driven by the same layout
// table as the reader (sst-dumpi dumpi/common/io.c, dumpiio.c).

// fixRec is one call of a fixture.
type fixRec struct {
	fn     FuncID
	mask   uint8    // 0 means 0x4f: statuses, CPU and wall times, thread
	wall   [2]int64 // ns
	cpu    [2]int64 // ns
	thread uint16
	perf   []PerfCounter
	args   map[string]any // int, int64, []int64, []string, []Status
}

// fixture is one rank's trace file.
type fixture struct {
	version [3]uint8
	legacy  bool  // number labels as before MPI_Pcontrol
	wallOff int32 // seconds added to every 16-bit wall second count
	recs    []fixRec
	sizes   []int32
	mesh    []int32
	cut     int // drop this many bytes off the end of the stream (and its end label)
	ignored map[FuncID]uint32
}

// builtinSizes are the datatype sizes of the shared traces (x86-64).
var builtinSizes = []int32{0, 0, 1, 1, 1, 1, 4, 2, 2, 4, 4, 8, 8, 4, 8, 16, 0, 8, 8, 1, 0, 0, 8, 12, 12, 6, 8, 20}

type enc struct{ b []byte }

func (e *enc) u8(v uint8)   { e.b = append(e.b, v) }
func (e *enc) u16(v uint16) { e.b = binary.BigEndian.AppendUint16(e.b, v) }
func (e *enc) u32(v uint32) { e.b = binary.BigEndian.AppendUint32(e.b, v) }
func (e *enc) i32(v int64)  { e.u32(uint32(int32(v))) }
func (e *enc) u64(v uint64) { e.u32(uint32(v >> 32)); e.u32(uint32(v)) }
func (e *enc) str16(s string) {
	e.u16(uint16(len(s)))
	e.b = append(e.b, s...)
}
func (e *enc) str32(s string) {
	e.u32(uint32(len(s)))
	e.b = append(e.b, s...)
}

func (fx *fixture) label(fn FuncID) uint16 {
	if fx.legacy && fn > fnPcontrol {
		return uint16(fn) - 1
	}
	return uint16(fn)
}

func toInt(v any) int64 {
	switch x := v.(type) {
	case nil:
		return 0
	case int:
		return int64(x)
	case int64:
		return x
	case FuncID:
		return int64(x)
	}
	panic(fmt.Sprintf("not an integer: %#v", v))
}

// encodeArgs writes a record's arguments by its layout.
func (fx *fixture) encodeArgs(e *enc, r *fixRec, mask uint8) {
	lay := layouts[r.fn]
	if lay.unknown {
		panic("no layout for " + r.fn.String())
	}
	vals := make([]int64, len(lay.fields))
	for i := range lay.fields {
		s := &lay.fields[i]
		v := r.args[s.name]
		vals[i] = 0
		if s.condA >= 0 && vals[s.condA] != vals[s.condB] {
			continue
		}
		switch s.kind {
		case KindInt:
			vals[i] = toInt(v)
			e.i32(vals[i])
		case KindDatatype, KindComm, KindGroup, KindHandle:
			vals[i] = toInt(v)
			e.u16(uint16(vals[i]))
		case KindEnum:
			vals[i] = toInt(v)
			e.u8(uint8(vals[i]))
		case KindInt64:
			e.u64(uint64(toInt(v)))
		case KindStatuses:
			if mask&maskStatus == 0 {
				continue
			}
			st, _ := v.([]Status)
			e.u32(uint32(len(st)))
			for _, x := range st {
				e.i32(int64(x.Bytes))
				e.i32(int64(x.Source))
				e.u8(x.Cancelled)
				e.u8(x.Error)
				if !versionBefore(fx.version, [3]uint8{0, 6, 3}) {
					e.i32(int64(x.Tag))
				}
			}
		case KindInts, KindDatatypes, KindHandles, KindEnums:
			a, _ := v.([]int64)
			if s.before != [3]uint8{} && versionBefore(fx.version, s.before) {
				e.i32(a[0]) // the old writers' bug: one int instead of the array
				continue
			}
			e.u32(uint32(len(a)))
			for _, x := range a {
				switch s.kind {
				case KindInts:
					e.i32(x)
				case KindEnums:
					e.u8(uint8(x))
				default:
					e.u16(uint16(x))
				}
			}
		case KindInts2: // triples, as MPI_Group_range_incl stores them
			a, _ := v.([]int64)
			e.u32(uint32(len(a) / 3))
			for k := 0; k+2 < len(a); k += 3 {
				e.u32(3)
				e.i32(a[k])
				e.i32(a[k+1])
				e.i32(a[k+2])
			}
		case KindString:
			str, _ := v.(string)
			e.str32(str)
		case KindStrings:
			a, _ := v.([]string)
			e.u32(uint32(len(a)))
			if s.argv && versionBefore(fx.version, [3]uint8{0, 6, 2}) {
				e.u32(uint32(len(a))) // argc written twice
			}
			for _, x := range a {
				e.str32(x)
			}
		case KindStrings2: // one group of strings
			a, _ := v.([]string)
			if len(a) == 0 {
				e.u32(0)
				continue
			}
			e.u32(1)
			e.u32(uint32(len(a)))
			for _, x := range a {
				e.str32(x)
			}
		}
	}
}

// bytes encodes the fixture as a DUMPI file.
func (fx *fixture) bytes() []byte {
	if fx.version == [3]uint8{} {
		fx.version = [3]uint8{1, 1, 0}
	}
	if fx.sizes == nil {
		fx.sizes = builtinSizes
	}
	e := &enc{}
	e.u64(headMagic)
	body := len(e.b)
	e.u32(0) // CPU time offset
	e.u32(uint32(fx.wallOff))
	calls := make([]uint32, NumFunctions+1)
	for i := range fx.recs {
		r := &fx.recs[i]
		mask := r.mask
		if mask == 0 {
			mask = 0x4f
		}
		e.u16(fx.label(r.fn))
		e.u8(mask)
		if mask&maskThread != 0 {
			e.u16(r.thread)
		}
		times := func(v [2]int64, off int64) {
			for _, t := range v {
				e.u16(uint16(t/1e9 - off))
				e.u32(uint32(t % 1e9))
			}
		}
		if mask&maskCPU != 0 {
			times(r.cpu, 0)
		}
		if mask&maskWall != 0 {
			times(r.wall, int64(fx.wallOff))
		}
		if mask&maskPerfCtr != 0 {
			e.u8(uint8(len(r.perf)))
			for _, p := range r.perf {
				e.u64(uint64(p.In))
				e.u64(uint64(p.Out))
			}
		}
		fx.encodeArgs(e, r, mask)
		if r.fn < fnAllFunctions {
			calls[r.fn]++
			calls[NumFunctions]++
		}
	}
	end := fnEndOfStream
	if fx.legacy {
		end--
	}
	if fx.cut > 0 {
		e.b = e.b[:len(e.b)-fx.cut]
	} else {
		e.u16(uint16(end))
	}
	header := len(e.b)
	for _, v := range fx.version {
		e.u8(v)
	}
	e.u64(1700000000)
	e.str16("fixture-host")
	e.str16("tester")
	for range 2 {
		e.u32(uint32(len(fx.mesh)))
		for _, v := range fx.mesh {
			e.i32(int64(v))
		}
	}
	footer := len(e.b)
	e.u64(footMagic)
	n := NumFunctions + 1
	if fx.legacy {
		n--
	}
	for pass := range 2 {
		for i := range n {
			id := FuncID(i)
			if fx.legacy && i >= int(fnPcontrol) {
				id++
			}
			if pass == 0 {
				e.u32(calls[id] + fx.ignored[id])
			} else {
				e.u32(fx.ignored[id])
			}
		}
	}
	sizes := len(e.b)
	e.u32(uint32(len(fx.sizes)))
	for _, s := range fx.sizes {
		e.i32(int64(s))
	}
	e.u64(headMagic)
	for _, off := range []int{sizes, 0, 0, header, body, footer, 0} {
		e.u64(uint64(off))
	}
	return e.b
}

// writeSet writes fixtures as prefix-NNNN.bin files and prefix.meta in
// dir and returns the .meta's path.
func writeSet(t testing.TB, dir, prefix string, ranks []*fixture) string {
	t.Helper()
	for r, fx := range ranks {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%04d.bin", prefix, r)), fx.bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	meta := filepath.Join(dir, prefix+".meta")
	text := fmt.Sprintf("hostname=fixture-host\nnumprocs=%d\nusername=tester\nstartime=1700000000\nfileprefix=/far/away/%s\nversion=1\nsubversion=1\nsubsubversion=0\n", len(ranks), prefix)
	if err := os.WriteFile(meta, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return meta
}

// prog writes one rank's calls with a simple clock: each call takes dur
// ns of wall time and is followed by 1 us of compute.
type prog struct {
	fx  fixture
	now int64
}

func newProg() *prog { return &prog{now: 5e9} }

// call appends a call lasting dur ns.
func (p *prog) call(fn FuncID, dur int64, args map[string]any) *prog {
	p.fx.recs = append(p.fx.recs, fixRec{fn: fn, wall: [2]int64{p.now, p.now + dur}, cpu: [2]int64{p.now / 10, (p.now + dur) / 10}, args: args})
	p.now += dur + 1000
	return p
}

// compute advances the clock by d ns.
func (p *prog) compute(d int64) *prog { p.now += d; return p }

// loadProgs writes the programs as a trace set and loads it.
func loadProgs(t *testing.T, opt Options, progs ...*prog) (*Report, *traceResult) {
	t.Helper()
	fxs := make([]*fixture, len(progs))
	for i, p := range progs {
		fxs[i] = &p.fx
	}
	meta := writeSet(t, t.TempDir(), "fix", fxs)
	tr, rep, err := Load(meta, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep, &traceResult{tr}
}
