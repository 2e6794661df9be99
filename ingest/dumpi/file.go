package dumpi

import (
	"fmt"
	"io"
	"slices"

	"github.com/ccreplay/ccreplay/limits"
)

// Magic numbers of the format (sst-dumpi dumpi/common/io.c).
const (
	headMagic uint64 = 0xffaadd44_554d5049 // "\xff\xaa\xddDUMPI": file start and index start
	footMagic uint64 = 0xf007fee7          // start of the footer
)

// Config-mask bits of a record (sst-dumpi dumpi/common/settings.h).
const (
	maskStatus  = 0x03 // statuses are stored (DUMPI_ENABLE)
	maskCPU     = 0x04 // CPU times are stored
	maskWall    = 0x08 // wall-clock times are stored
	maskThread  = 0x40 // the thread id is stored
	maskPerfCtr = 0x80 // PAPI counter values are stored
)

// Built-in handle values (sst-dumpi dumpi/common/constants.h).
const (
	commNull  = 1
	commWorld = 2
	commSelf  = 3

	anySource = -1
	anyTag    = -1
)

// Header is a trace file's header section.
type Header struct {
	// Version is the DUMPI version that wrote the file, e.g. {1, 1, 0}.
	Version [3]uint8
	// StartTime is when tracing started, Unix seconds.
	StartTime int64
	// Hostname and Username are where and by whom the trace was taken.
	Hostname, Username string
	// MeshCoords and MeshSize are the rank's coordinates in, and the size
	// of, the machine's mesh (BlueGene), or empty.
	MeshCoords, MeshSize []int32
}

// KeyVal is one entry of a file's key/value section.
type KeyVal struct {
	// Key and Val are the entry's strings.
	Key, Val string
}

// ProfiledFunction names the address that DUMPI_Function_enter and
// DUMPI_Function_exit records carry.
type ProfiledFunction struct {
	// Addr is the function's address, as recorded.
	Addr uint64
	// Name is the function's name.
	Name string
}

// File is one rank's DUMPI trace file, opened for reading. Open and
// NewFile read every section but the stream of records, which Records
// walks.
type File struct {
	// Name is the file's name as given, used in errors.
	Name string
	// Header is the header section.
	Header Header
	// Calls and Ignored are the footer's counts of calls made and not
	// recorded, indexed by FuncID; the last element (index NumFunctions)
	// is the total over all functions.
	Calls, Ignored []uint32
	// TypeSizes are the sizes in bytes of the built-in datatypes, indexed
	// by datatype handle (DUMPI's own numbering: 9 is MPI_INT).
	TypeSizes []int32
	// Keyvals is the key/value section.
	Keyvals []KeyVal
	// Functions names profiled functions' addresses.
	Functions []ProfiledFunction
	// PerfLabels names the PAPI counters whose values records carry.
	PerfLabels []string
	// LegacyNumbering is set for files written before MPI_Pcontrol got a
	// label: their labels from 128 on are one lower than FuncID.
	LegacyNumbering bool

	r    io.ReaderAt
	size int64
	idx  index
}

// index holds the offsets of the sections (0 = absent).
type index struct {
	sizes, addrs, perf, header, body, footer, keyval int64
	start                                            int64 // offset of the index itself
}

// Open opens the named DUMPI file and reads its sections. The file stays
// open until Close.
// The file must be a regular file (it is read at offsets) of at most
// limits.MaxDUMPIBytes.
func Open(name string) (*File, error) {
	in, err := limits.Open(name, "a DUMPI .bin file", limits.MaxDUMPIBytes, true)
	if err != nil {
		return nil, err
	}
	f := in.File
	df, err := NewFile(f, in.Size, name)
	if err != nil {
		f.Close()
		return nil, err
	}
	return df, nil
}

// Close closes the underlying file when it was opened by Open; it does
// nothing for a File made by NewFile over a reader that is not an
// io.Closer.
func (f *File) Close() error {
	if c, ok := f.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// NewFile reads the sections of a DUMPI file of the given size from r;
// name is used in errors. Errors are *DecodeError.
func NewFile(r io.ReaderAt, size int64, name string) (*File, error) {
	f := &File{Name: name, r: r, size: size}
	if err := f.readIndex(); err != nil {
		return nil, err
	}
	f.readNumbering()
	for _, s := range []struct {
		off  int64
		what string // as in "truncated <what>"
		read func(b *byteReader) error
	}{
		{f.idx.header, "header", f.readHeader},
		{f.idx.footer, "footer", f.readFooter},
		{f.idx.sizes, "datatype sizes", func(b *byteReader) error { f.TypeSizes = readInt32s(b); return nil }},
		{f.idx.perf, "performance counter labels", func(b *byteReader) error { f.PerfLabels = readArray(b, 2, b.str16); return nil }},
		{f.idx.addrs, "function addresses", func(b *byteReader) error { f.Functions = readArray(b, 10, b.profiledFunction); return nil }},
		{f.idx.keyval, "key/value section", func(b *byteReader) error { f.Keyvals = readArray(b, 4, b.keyVal); return nil }},
	} {
		if err := f.readSection(s.off, s.what, s.read); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// readSection reads the section starting at off, if the index has one,
// with read; a read that runs past the section's end is an error
// "truncated <what>" at the offset where it stopped.
func (f *File) readSection(off int64, what string, read func(b *byteReader) error) error {
	if off == 0 {
		return nil
	}
	b := f.section(off)
	if err := read(b); err != nil {
		return err
	}
	if b.err != nil {
		return f.errorf(b.off, "truncated %s", what)
	}
	return nil
}

// errorf returns a *DecodeError about the file outside the stream.
func (f *File) errorf(off int64, format string, args ...any) *DecodeError {
	return &DecodeError{File: f.Name, Record: -1, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// readIndex reads the index at the end of the file. The index is the head
// magic followed by up to seven 64-bit offsets; files older than 0.6.6
// lack the first (sizes), older ones the next two (addresses, perf
// labels), so the magic is looked for at each possible start.
func (f *File) readIndex() error {
	const words = 8
	if f.size < 8+words*8 {
		return f.errorf(0, "file of %d bytes is too short for a DUMPI trace", f.size)
	}
	b := newByteReader(f.r, 0, 8)
	if m := b.u64(); b.err != nil || m != headMagic {
		return f.errorf(0, "not a DUMPI trace (bad magic %#x)", m)
	}
	b = newByteReader(f.r, f.size-words*8, f.size)
	var w [words]uint64
	for i := range w {
		w[i] = b.u64()
	}
	if b.err != nil {
		return f.errorf(f.size-words*8, "cannot read the index: %v", b.err)
	}
	k := slices.Index(w[:4], headMagic)
	if k < 0 {
		return f.errorf(f.size-words*8, "index record not found (file truncated?)")
	}
	offs := make([]int64, 0, 7)
	for range k {
		offs = append(offs, 0) // sections the writer did not know yet
	}
	for _, v := range w[k+1:] {
		if v > uint64(f.size) {
			return f.errorf(f.size-words*8, "index offset %d is past the end of the %d-byte file", v, f.size)
		}
		offs = append(offs, int64(v))
	}
	f.idx = index{sizes: offs[0], addrs: offs[1], perf: offs[2], header: offs[3], body: offs[4], footer: offs[5], keyval: offs[6],
		start: f.size - int64(words-k)*8}
	for _, o := range offs {
		if o != 0 && (o < 8 || o >= f.idx.start) {
			return f.errorf(f.idx.start, "index offset %d is outside the file's sections", o)
		}
	}
	if f.idx.body == 0 {
		return f.errorf(f.idx.start, "the index has no stream of records")
	}
	return nil
}

// sectionEnd is the offset where the section starting at off ends: the
// next section's start, or the index.
func (f *File) sectionEnd(off int64) int64 {
	end := f.idx.start
	for _, o := range []int64{f.idx.sizes, f.idx.addrs, f.idx.perf, f.idx.header, f.idx.body, f.idx.footer, f.idx.keyval} {
		if o > off && o < end {
			end = o
		}
	}
	return end
}

// section returns a reader over the section starting at off.
func (f *File) section(off int64) *byteReader { return newByteReader(f.r, off, f.sectionEnd(off)) }

// readHeader reads the header section.
func (f *File) readHeader(b *byteReader) error {
	h := &f.Header
	for i := range h.Version {
		h.Version[i] = b.u8()
	}
	h.StartTime = int64(b.u64())
	h.Hostname = b.str16()
	h.Username = b.str16()
	h.MeshCoords = readInt32s(b)
	// The mesh size was added in 0.5 and is only written with a mesh.
	if len(h.MeshCoords) > 0 && (h.Version[0] > 0 || h.Version[1] > 4) {
		h.MeshSize = readInt32s(b)
	}
	return nil
}

// readInt32s reads a 32-bit count, then that many 32-bit integers.
func readInt32s(b *byteReader) []int32 { return readArray(b, 4, b.i32) }

// profiledFunction reads an entry of the function address section.
func (b *byteReader) profiledFunction() ProfiledFunction {
	a := b.u64()
	return ProfiledFunction{Addr: a, Name: b.str16()}
}

// keyVal reads an entry of the key/value section.
func (b *byteReader) keyVal() KeyVal {
	k := b.str16()
	return KeyVal{Key: k, Val: b.str16()}
}

// readNumbering decides whether the file predates the MPI_Pcontrol label.
// The writer puts an end-of-stream label just before the header, whose
// value is the enum's last: 293 with MPI_Pcontrol, 292 without. In a file
// cut short there, the footer's length tells: it holds two counts per
// function.
func (f *File) readNumbering() {
	if f.idx.header >= f.idx.body+8+2 {
		b := newByteReader(f.r, f.idx.header-2, f.idx.header)
		switch b.u16() {
		case uint16(fnEndOfStream):
			return
		case uint16(fnEndOfStream) - 1:
			f.LegacyNumbering = true
			return
		}
	}
	if f.idx.footer > 0 {
		avail := f.sectionEnd(f.idx.footer) - f.idx.footer - 8
		f.LegacyNumbering = avail >= 2*4*int64(NumFunctions) && avail < 2*4*int64(NumFunctions+1)
	}
}

// funcOf maps a label read from the file to a FuncID.
func (f *File) funcOf(label uint16) FuncID {
	if f.LegacyNumbering && label >= uint16(fnPcontrol) {
		return FuncID(label + 1)
	}
	return FuncID(label)
}

// readFooter reads the footer section: its magic, then the calls made
// and the calls not recorded, by function.
func (f *File) readFooter(b *byteReader) error {
	if m := b.u64(); b.err != nil || m != footMagic {
		return f.errorf(f.idx.footer, "bad footer magic %#x", m)
	}
	n := NumFunctions + 1 // the counts run to DUMPI_ALL_FUNCTIONS inclusive
	if f.LegacyNumbering {
		n--
	}
	read := func() []uint32 {
		c := make([]uint32, NumFunctions+1)
		for i := range n {
			c[f.funcOf(uint16(i))] = b.u32()
		}
		return c
	}
	f.Calls = read()
	f.Ignored = read()
	return nil
}
