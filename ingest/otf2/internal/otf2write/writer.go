// Package otf2write writes small OTF2 archives: the anchor file, global
// definitions, per-location local definitions and event files, in the
// on-disk format the reader in ingest/otf2 documents. It covers the
// records ccreplay reads (clock properties and offsets, strings, the
// system tree, locations, regions, groups, communicators, mapping tables,
// Enter/Leave and the MPI events) plus raw records of any type, for tests
// and for the examples. Archives it writes are read by the reference
// library's otf2-print.
package otf2write

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
)

// MinChunk is the smallest chunk size the reference library accepts.
const MinChunk = 256 << 10

// Group types, paradigms and other enumerations the writer's callers
// use (OTF2_GroupType, OTF2_Paradigm, OTF2_CollectiveOp).
const (
	GroupLocations     = 1
	GroupCommLocations = 4
	GroupCommGroup     = 5
	GroupCommSelf      = 6

	ParadigmMPI  = 4
	ParadigmNone = 22

	RoleFunction     = 1
	RolePoint2Point  = 28
	RoleCollective   = 25 // COLL_ALL2ALL
	LocationCPU      = 1
	GroupTypeProcess = 1

	OpBarrier   = 0
	OpBcast     = 1
	OpGather    = 2
	OpScatter   = 4
	OpAllgather = 6
	OpAlltoall  = 8
	OpAllreduce = 11
	OpReduce    = 12

	Undefined32 = math.MaxUint32
	Undefined64 = math.MaxUint64
)

// enc builds the bytes of records in one byte order.
type enc struct {
	b   []byte
	big bool
}

func (e *enc) u8(v uint8) { e.b = append(e.b, v) }

func (e *enc) full64(v uint64) {
	if e.big {
		e.b = binary.BigEndian.AppendUint64(e.b, v)
	} else {
		e.b = binary.LittleEndian.AppendUint64(e.b, v)
	}
}

func (e *enc) full32(v uint32) {
	if e.big {
		e.b = binary.BigEndian.AppendUint32(e.b, v)
	} else {
		e.b = binary.LittleEndian.AppendUint32(e.b, v)
	}
}

// comp writes a compressed integer of width bytes (4 or 8): a length
// byte and the significant low-order bytes; 0 is one 0 byte, all bits set
// one 0xff byte (unsigned only: signed values pass signed=true).
func (e *enc) comp(v uint64, width int, signed bool) {
	if v == 0 {
		e.u8(0)
		return
	}
	if !signed && ((width == 4 && v == math.MaxUint32) || (width == 8 && v == math.MaxUint64)) {
		e.u8(0xff)
		return
	}
	n := 1
	for n < width && v>>(8*n) != 0 {
		n++
	}
	e.u8(uint8(n))
	for i := 0; i < n; i++ {
		k := i
		if e.big {
			k = n - 1 - i
		}
		e.u8(uint8(v >> (8 * k)))
	}
}

func (e *enc) u32(v uint32) { e.comp(uint64(v), 4, false) }
func (e *enc) u64(v uint64) { e.comp(v, 8, false) }
func (e *enc) i64(v int64)  { e.comp(uint64(v), 8, true) }
func (e *enc) str(s string) { e.b = append(append(e.b, s...), 0) }
func (e *enc) f64(v float64) {
	e.full64(math.Float64bits(v))
}

// chunked lays out records in chunks of a fixed size.
type chunked struct {
	size   int
	big    bool
	events bool // event file: timestamps and event numbers
	out    []byte
	cur    []byte // current chunk
	first  uint64 // number of the chunk's first event
	count  uint64 // events written so far
	time   uint64
	wrote  bool // a timestamp was written in this chunk
}

func newChunked(size int, big, events bool) *chunked {
	c := &chunked{size: size, big: big, events: events}
	c.start()
	return c
}

func (c *chunked) header(first, last uint64) []byte {
	e := &enc{big: c.big}
	e.u8(3)
	if c.big {
		e.u8(0x23)
	} else {
		e.u8(0x42)
	}
	e.full64(first)
	e.full64(last)
	return e.b
}

func (c *chunked) start() {
	c.first = c.count + 1
	c.cur = c.header(c.first, 0)
	c.wrote = false
}

// flushChunk pads the current chunk and appends it to the file.
func (c *chunked) flushChunk() {
	last := c.count
	copy(c.cur[10:18], c.header(c.first, last)[10:18])
	for len(c.cur) < c.size {
		c.cur = append(c.cur, 0)
	}
	c.out = append(c.out, c.cur...)
	c.start()
}

// record appends one record (type byte, length, payload) at time t
// (event files only). Singleton records have no length.
func (c *chunked) record(t uint64, typ uint8, payload []byte, singleton bool) {
	rec := &enc{big: c.big}
	rec.u8(typ)
	if !singleton {
		if len(payload) < 255 {
			rec.u8(uint8(len(payload)))
		} else {
			rec.u8(0xff)
			rec.full64(uint64(len(payload)))
		}
	}
	rec.b = append(rec.b, payload...)
	need := len(rec.b) + 1 // room for the end-of-chunk byte
	if c.events {
		need += 9
	}
	if len(c.cur)+need > c.size && len(c.cur) > 18 {
		c.flushChunk()
	}
	if c.events {
		if !c.wrote || t != c.time || (t == 0 && c.count == 0) {
			ts := &enc{big: c.big}
			ts.u8(5)
			ts.full64(t)
			c.cur = append(c.cur, ts.b...)
			c.time, c.wrote = t, true
		}
		c.count++
	}
	c.cur = append(c.cur, rec.b...)
}

// finish ends the file: end-of-file and end-of-buffer bytes.
func (c *chunked) finish() []byte {
	copy(c.cur[10:18], c.header(c.first, c.count)[10:18])
	c.cur = append(c.cur, 2, 1)
	return append(c.out, c.cur...)
}

// Writer collects an archive in memory; Write puts it on disk.
type Writer struct {
	// EventChunk and DefChunk are the chunk sizes (MinChunk by default).
	EventChunk, DefChunk int
	// BigEndian writes every chunk in big-endian byte order.
	BigEndian bool
	// Creator is the anchor file's creator string.
	Creator string

	strings map[string]uint32
	defs    []func(e *enc) uint8 // global definitions, in order
	locs    []*Loc
	ndefs   uint64
	clock   *[4]uint64
}

// New returns an empty archive writer.
func New() *Writer {
	return &Writer{EventChunk: MinChunk, DefChunk: MinChunk, Creator: "ccreplay otf2write", strings: map[string]uint32{}}
}

func (w *Writer) def(f func(e *enc) uint8) {
	w.defs = append(w.defs, f)
	w.ndefs++
}

// String returns the id of a string definition, defining it when new.
func (w *Writer) String(s string) uint32 {
	if id, ok := w.strings[s]; ok {
		return id
	}
	id := uint32(len(w.strings))
	w.strings[s] = id
	w.def(func(e *enc) uint8 { e.u32(id); e.str(s); return 10 })
	return id
}

// ClockProperties sets the timer: ticks per second, the global offset and
// the trace length (ticks).
func (w *Writer) ClockProperties(resolution, offset, length uint64) {
	w.clock = &[4]uint64{resolution, offset, length, Undefined64}
}

// SystemTreeNode defines a system-tree node; parent is Undefined32 for
// the root.
func (w *Writer) SystemTreeNode(id uint32, name, class string, parent uint32) {
	n, c := w.String(name), w.String(class)
	w.def(func(e *enc) uint8 { e.u32(id); e.u32(n); e.u32(c); e.u32(parent); return 12 })
}

// LocationGroup defines a process on a system-tree node.
func (w *Writer) LocationGroup(id uint32, name string, node uint32) {
	n := w.String(name)
	w.def(func(e *enc) uint8 {
		e.u32(id)
		e.u32(n)
		e.u8(GroupTypeProcess)
		e.u32(node)
		e.u32(Undefined32) // creating location group (3.0)
		return 13
	})
}

// Region defines a region with a role and a paradigm.
func (w *Writer) Region(id uint32, name string, role, paradigm uint8) {
	n, empty := w.String(name), w.String("")
	w.def(func(e *enc) uint8 {
		e.u32(id)
		e.u32(n)
		e.u32(empty)       // description
		e.u8(0)            // region type (before 1.1)
		e.u32(Undefined32) // source file
		e.u32(0)
		e.u32(0)
		e.u32(n) // canonical name
		e.u8(role)
		e.u8(paradigm)
		e.u32(0) // flags
		return 15
	})
}

// Group defines a group of locations or ranks.
func (w *Writer) Group(id uint32, name string, typ, paradigm uint8, members []uint64) {
	n := w.String(name)
	pre := uint8(0)
	switch typ {
	case GroupLocations:
		pre = 1
	case GroupCommGroup:
		pre = 4
	case GroupCommSelf:
		pre = 5
	case GroupCommLocations:
		pre = 6
	}
	ms := append([]uint64(nil), members...)
	w.def(func(e *enc) uint8 {
		e.u32(id)
		e.u32(n)
		e.u8(pre)
		e.u32(uint32(len(ms)))
		for _, m := range ms {
			e.u64(m)
		}
		e.u8(typ)
		e.u8(paradigm)
		e.u32(0)
		return 18
	})
}

// Comm defines a communicator over a group.
func (w *Writer) Comm(id uint32, name string, group, parent uint32) {
	n := w.String(name)
	w.def(func(e *enc) uint8 {
		e.u32(id)
		e.u32(n)
		e.u32(group)
		e.u32(parent)
		e.u32(0)
		return 22
	})
}

// Raw defines a global definition record of any type with a raw payload.
func (w *Writer) Raw(typ uint8, payload []byte) {
	p := append([]byte(nil), payload...)
	w.def(func(e *enc) uint8 { e.b = append(e.b, p...); return typ })
}

// Loc is a location: its definition, local definitions and events.
type Loc struct {
	ID    uint64
	name  uint32
	group uint32
	w     *Writer
	local []func(e *enc) uint8
	evts  []func(c *chunked, e func() *enc)
	n     uint64
}

// Location defines a CPU-thread location of a location group.
func (w *Writer) Location(id uint64, name string, group uint32) *Loc {
	l := &Loc{ID: id, name: w.String(name), group: group, w: w}
	w.locs = append(w.locs, l)
	w.def(func(e *enc) uint8 {
		e.u64(l.ID)
		e.u32(l.name)
		e.u8(LocationCPU)
		e.u64(l.n) // events written by then
		e.u32(l.group)
		return 14
	})
	return l
}

// ClockOffset adds a clock offset to the location's local definitions.
func (l *Loc) ClockOffset(t uint64, offset int64, stddev float64) {
	l.local = append(l.local, func(e *enc) uint8 { e.full64(t); e.i64(offset); e.f64(stddev); return 6 })
}

// MappingTable adds a dense mapping table (local id i -> global[i]) of a
// mapping type (2 location, 3 region, 4 group, 6 comm).
func (l *Loc) MappingTable(typ uint8, global []uint64) {
	g := append([]uint64(nil), global...)
	l.local = append(l.local, func(e *enc) uint8 {
		e.u8(typ)
		e.u64(uint64(len(g)))
		e.u8(0) // dense
		for _, v := range g {
			e.u64(v)
		}
		return 5
	})
}

func (l *Loc) ev(t uint64, typ uint8, singleton bool, f func(e *enc)) {
	l.n++
	l.evts = append(l.evts, func(c *chunked, mk func() *enc) {
		e := mk()
		f(e)
		c.record(t, typ, e.b, singleton)
	})
}

// Enter writes an Enter event.
func (l *Loc) Enter(t uint64, region uint32) { l.ev(t, 12, true, func(e *enc) { e.u32(region) }) }

// Leave writes a Leave event.
func (l *Loc) Leave(t uint64, region uint32) { l.ev(t, 13, true, func(e *enc) { e.u32(region) }) }

// MpiSend writes an MpiSend event.
func (l *Loc) MpiSend(t uint64, receiver, comm, tag uint32, length uint64) {
	l.ev(t, 14, false, func(e *enc) { e.u32(receiver); e.u32(comm); e.u32(tag); e.u64(length) })
}

// MpiIsend writes an MpiIsend event.
func (l *Loc) MpiIsend(t uint64, receiver, comm, tag uint32, length, request uint64) {
	l.ev(t, 15, false, func(e *enc) { e.u32(receiver); e.u32(comm); e.u32(tag); e.u64(length); e.u64(request) })
}

// MpiIsendComplete writes an MpiIsendComplete event.
func (l *Loc) MpiIsendComplete(t, request uint64) {
	l.ev(t, 16, true, func(e *enc) { e.u64(request) })
}

// MpiIrecvRequest writes an MpiIrecvRequest event.
func (l *Loc) MpiIrecvRequest(t, request uint64) {
	l.ev(t, 17, true, func(e *enc) { e.u64(request) })
}

// MpiRecv writes an MpiRecv event.
func (l *Loc) MpiRecv(t uint64, sender, comm, tag uint32, length uint64) {
	l.ev(t, 18, false, func(e *enc) { e.u32(sender); e.u32(comm); e.u32(tag); e.u64(length) })
}

// MpiIrecv writes an MpiIrecv event.
func (l *Loc) MpiIrecv(t uint64, sender, comm, tag uint32, length, request uint64) {
	l.ev(t, 19, false, func(e *enc) { e.u32(sender); e.u32(comm); e.u32(tag); e.u64(length); e.u64(request) })
}

// MpiRequestTest writes an MpiRequestTest event.
func (l *Loc) MpiRequestTest(t, request uint64) {
	l.ev(t, 20, true, func(e *enc) { e.u64(request) })
}

// MpiCollectiveBegin writes an MpiCollectiveBegin event.
func (l *Loc) MpiCollectiveBegin(t uint64) { l.ev(t, 22, false, func(*enc) {}) }

// MpiCollectiveEnd writes an MpiCollectiveEnd event.
func (l *Loc) MpiCollectiveEnd(t uint64, op uint8, comm, root uint32, sent, received uint64) {
	l.ev(t, 23, false, func(e *enc) { e.u8(op); e.u32(comm); e.u32(root); e.u64(sent); e.u64(received) })
}

// OmpFork writes an OmpFork event (a singleton record this reader skips).
func (l *Loc) OmpFork(t uint64, threads uint32) { l.ev(t, 24, true, func(e *enc) { e.u32(threads) }) }

// RawEvent writes an event record of any type with a length and a raw
// payload.
func (l *Loc) RawEvent(t uint64, typ uint8, payload []byte) {
	p := append([]byte(nil), payload...)
	l.ev(t, typ, false, func(e *enc) { e.b = append(e.b, p...) })
}

// Files returns the archive's files, by path relative to its directory
// (name.otf2, name.def, name/<loc>.def, name/<loc>.evt).
func (w *Writer) Files(name string) map[string][]byte {
	files := map[string][]byte{}
	// Global definitions: clock properties, then the others in order.
	g := newChunked(w.DefChunk, w.BigEndian, false)
	mk := func() *enc { return &enc{big: w.BigEndian} }
	if w.clock != nil {
		e := mk()
		e.u64(w.clock[0])
		e.u64(w.clock[1])
		e.u64(w.clock[2])
		e.u64(w.clock[3])
		g.record(0, 5, e.b, false)
	}
	for _, f := range w.defs {
		e := mk()
		typ := f(e)
		g.record(0, typ, e.b, false)
	}
	files[name+".def"] = g.finish()
	for _, l := range w.locs {
		d := newChunked(w.DefChunk, w.BigEndian, false)
		for _, f := range l.local {
			e := mk()
			typ := f(e)
			d.record(0, typ, e.b, false)
		}
		base := filepath.Join(name, strconv.FormatUint(l.ID, 10))
		files[base+".def"] = d.finish()
		c := newChunked(w.EventChunk, w.BigEndian, true)
		for _, f := range l.evts {
			f(c, mk)
		}
		files[base+".evt"] = c.finish()
	}
	a := mk()
	a.u8(3)
	if w.BigEndian {
		a.u8(0x23)
	} else {
		a.u8(0x42)
	}
	a.str("OTF2")
	a.u8(3) // anchor format
	a.u8(2) // trace format
	a.u8(3) // version 3.0.0
	a.u8(0) //
	a.u8(0) //
	a.full64(uint64(w.EventChunk))
	a.full64(uint64(w.DefChunk))
	a.u8(1) // POSIX
	a.u8(1) // no compression
	a.full64(uint64(len(w.locs)))
	a.full64(w.ndefs + 1)
	a.str("")
	a.str(w.Creator)
	a.str("")
	a.full32(0)                  // properties
	a.full64(0x63637265706c6179) // trace id
	a.full32(0)                  // snapshots
	a.full32(0)                  // thumbnails
	a.u8(2)
	a.u8(1)
	a.u8(0)
	files[name+".otf2"] = a.b
	return files
}

// Write writes the archive into dir as name.otf2 and its companions and
// returns the anchor file's path.
func (w *Writer) Write(dir, name string) (string, error) {
	for p, b := range w.Files(name) {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return "", fmt.Errorf("otf2write: %w", err)
		}
	}
	return filepath.Join(dir, name+".otf2"), nil
}
