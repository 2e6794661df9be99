package dumpi

import (
	"errors"
	"fmt"
)

// Interval is the start and stop of a call on one clock, nanoseconds
// (seconds since the epoch for wall-clock time, since process start for
// CPU time).
type Interval struct {
	// Start is when the call was entered, ns.
	Start int64
	// Stop is when it returned, ns.
	Stop int64
}

// Status is one MPI_Status as recorded.
type Status struct {
	// Bytes is the number of bytes received.
	Bytes int32
	// Source and Tag are the message's envelope. Tag is -1 (MPI_ANY_TAG)
	// in traces older than 0.6.3, which did not store it.
	Source, Tag int32
	// Cancelled and Error are the status's flags.
	Cancelled, Error uint8
}

// PerfCounter is one PAPI counter's value at entry and at exit.
type PerfCounter struct {
	// In and Out are the counter's values when the call started and
	// ended.
	In, Out int64
}

// Field is one argument of a recorded call, named as dumpi2ascii names it
// ("count", "datatype", "dest", "requests", ...).
type Field struct {
	// Name is the argument's name.
	Name string
	// Kind is how the argument is stored, and so which of Int, Ints,
	// Strs and Statuses holds it.
	Kind Kind
	// Present is false for an argument the writer left out: a root-only
	// argument on another rank, or statuses when the trace does not
	// store them.
	Present bool
	// Int holds scalars: integers, handles, enumerations.
	Int int64
	// Ints holds arrays of integers and handles.
	Ints []int64
	// Strs holds strings: one for KindString, the elements otherwise.
	Strs []string
	// Statuses holds statuses; nil (with Present set) is
	// MPI_STATUS_IGNORE.
	Statuses []Status
}

// Record is one recorded MPI call. The record passed to a Records
// callback is reused for the next call: copy what must outlive the
// callback.
type Record struct {
	// Index is the record's 0-based position in the file's stream.
	Index int64
	// Offset is the file offset of the record's function label.
	Offset int64
	// Func is the function called.
	Func FuncID
	// Mask is the record's config mask: which of the optional parts
	// below are stored (0x03 statuses, 0x04 CPU times, 0x08 wall times,
	// 0x40 thread, 0x80 PAPI counters).
	Mask uint8
	// Thread is the calling thread's index.
	Thread uint16
	// CPU and Wall are the call's times on the CPU and wall clocks, ns;
	// zero when not stored.
	CPU, Wall Interval
	// Perf holds PAPI counter values, in the order of File.PerfLabels.
	Perf []PerfCounter
	// Fields are the call's arguments in the writer's order.
	Fields []Field
}

// Field returns the argument with the given name, or nil.
func (r *Record) Field(name string) *Field {
	for i := range r.Fields {
		if r.Fields[i].Name == name {
			return &r.Fields[i]
		}
	}
	return nil
}

// Int returns the scalar argument with the given name, and false when the
// call has no such argument or the writer left it out.
func (r *Record) Int(name string) (int64, bool) {
	if f := r.Field(name); f != nil && f.Present {
		return f.Int, true
	}
	return 0, false
}

// Ints returns the array argument with the given name, or nil.
func (r *Record) Ints(name string) []int64 {
	if f := r.Field(name); f != nil && f.Present {
		return f.Ints
	}
	return nil
}

// Records calls fn with each record of the stream, in order, until the
// stream ends, fn returns an error (returned as is), or a record cannot
// be decoded (a *DecodeError naming the record).
func (f *File) Records(fn func(*Record) error) error {
	b := newByteReader(f.r, f.idx.body, f.sectionEnd(f.idx.body))
	cpuOff := int64(b.i32())
	wallOff := int64(b.i32())
	if b.err != nil {
		return f.errorf(f.idx.body, "truncated stream start")
	}
	var rec Record
	for i := int64(0); b.remaining() > 0; i++ {
		rec.Index, rec.Offset = i, b.off
		label := b.u16()
		if b.err != nil {
			return &DecodeError{File: f.Name, Record: i, Offset: rec.Offset, Msg: "truncated function label"}
		}
		fn2 := f.funcOf(label)
		if fn2 == fnEndOfStream {
			return nil
		}
		if err := f.decode(b, &rec, fn2, cpuOff, wallOff); err != nil {
			return err
		}
		if err := fn(&rec); err != nil {
			return err
		}
	}
	return nil
}

// decode reads one record after its label.
func (f *File) decode(b *byteReader, rec *Record, fn FuncID, cpuOff, wallOff int64) error {
	fail := func(format string, args ...any) error {
		return &DecodeError{File: f.Name, Record: rec.Index, Offset: b.off, Msg: fmt.Sprintf(format, args...)}
	}
	if int(fn) >= len(layouts) || fn == fnAllFunctions {
		return fail("bad function label %d", fn)
	}
	lay := &layouts[fn]
	if lay.unknown {
		return fail("%v records cannot be read (DUMPI stores no layout for them)", fn)
	}
	rec.Func = fn
	rec.Mask = b.u8()
	rec.Thread = 0
	if rec.Mask&maskThread != 0 {
		rec.Thread = b.u16()
	}
	rec.CPU, rec.Wall = Interval{}, Interval{}
	if rec.Mask&maskCPU != 0 {
		rec.CPU = readInterval(b, cpuOff)
	}
	if rec.Mask&maskWall != 0 {
		rec.Wall = readInterval(b, wallOff)
	}
	rec.Perf = rec.Perf[:0]
	if rec.Mask&maskPerfCtr != 0 {
		n := int(b.u8())
		for range n {
			rec.Perf = append(rec.Perf, PerfCounter{In: int64(b.u64()), Out: int64(b.u64())})
		}
	}
	if b.err != nil {
		return fail("truncated %v record header", fn)
	}
	rec.Fields = rec.Fields[:0]
	for i := range lay.fields {
		s := &lay.fields[i]
		fd := Field{Name: s.name, Kind: s.kind}
		if s.condA < 0 || rec.Fields[s.condA].Int == rec.Fields[s.condB].Int {
			f.readField(b, s, &fd, rec.Mask)
		}
		rec.Fields = append(rec.Fields, fd)
	}
	if b.err != nil {
		if errors.Is(b.err, errShort) {
			return fail("truncated %v arguments", fn)
		}
		return fail("reading %v arguments: %v", fn, b.err)
	}
	return nil
}

// readInterval reads a start and stop time: each a 16-bit second count
// relative to the stream's time offset and a 32-bit nanosecond count.
func readInterval(b *byteReader, offset int64) Interval {
	var v Interval
	v.Start = (int64(b.u16())+offset)*1e9 + int64(b.u32())
	v.Stop = (int64(b.u16())+offset)*1e9 + int64(b.u32())
	return v
}

// readField reads one argument.
func (f *File) readField(b *byteReader, s *fieldSpec, fd *Field, mask uint8) {
	fd.Present = true
	v := f.Header.Version
	old := s.before != [3]uint8{} && versionBefore(v, s.before)
	switch s.kind {
	case KindInt:
		fd.Int = int64(b.i32())
	case KindDatatype, KindComm, KindGroup, KindHandle:
		fd.Int = int64(b.u16())
	case KindEnum:
		fd.Int = int64(b.u8())
	case KindInt64:
		fd.Int = int64(b.u64())
	case KindStatuses:
		if mask&maskStatus == 0 {
			fd.Present = false
			return
		}
		fd.Statuses = readStatuses(b, v)
	case KindInts:
		if old {
			fd.Ints = []int64{int64(b.i32())}
			return
		}
		fd.Ints = readArray(b, 4, func() int64 { return int64(b.i32()) })
	case KindDatatypes, KindHandles:
		fd.Ints = readArray(b, 2, func() int64 { return int64(b.u16()) })
	case KindEnums:
		fd.Ints = readArray(b, 1, func() int64 { return int64(b.u8()) })
	case KindInts2:
		n := b.count(4)
		for range n {
			fd.Ints = append(fd.Ints, readArray(b, 4, func() int64 { return int64(b.i32()) })...)
		}
	case KindString:
		fd.Strs = []string{b.str32()}
	case KindStrings:
		n := b.count(4)
		// Traces older than 0.6.2 wrote MPI_Init's argc twice.
		if s.argv && versionBefore(v, [3]uint8{0, 6, 2}) {
			b.i32()
		}
		fd.Strs = make([]string, 0, n)
		for range n {
			fd.Strs = append(fd.Strs, b.str32())
		}
	case KindStrings2:
		n := b.count(4)
		for range n {
			m := b.count(4)
			for range m {
				fd.Strs = append(fd.Strs, b.str32())
			}
		}
	}
}

// readArray reads a 32-bit count and that many elements of at least elem
// bytes each: nil when the count is 0 or more than the bytes left hold.
func readArray[T any](b *byteReader, elem int64, read func() T) []T {
	n := b.count(elem)
	if n == 0 {
		return nil
	}
	v := make([]T, n)
	for i := range v {
		v[i] = read()
	}
	return v
}

// readStatuses reads a status array: a 32-bit count, then per status its
// byte count, source, cancelled and error flags, and (from 0.6.3) tag. A
// count of 0 is MPI_STATUS(ES)_IGNORE.
func readStatuses(b *byteReader, v [3]uint8) []Status {
	withTag := !versionBefore(v, [3]uint8{0, 6, 3})
	size := int64(10)
	if withTag {
		size += 4
	}
	n := b.count(size)
	if n == 0 {
		return nil
	}
	st := make([]Status, n)
	for i := range st {
		s := &st[i]
		s.Bytes = b.i32()
		s.Source = b.i32()
		s.Cancelled = b.u8()
		s.Error = b.u8()
		s.Tag = anyTag
		if withTag {
			s.Tag = b.i32()
		}
	}
	return st
}
