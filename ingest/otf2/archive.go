package otf2

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
)

// The archive: the anchor file, and the chunked files it names (spec:
// "OTF2 archive layout"; reference library: OTF2_AnchorFile.c,
// OTF2_Buffer.c).
//
//	<dir>/<name>.otf2          anchor file (not chunked)
//	<dir>/<name>.def           global definitions (chunked, definition chunk size)
//	<dir>/<name>/<loc>.def     local definitions of location <loc> (optional)
//	<dir>/<name>/<loc>.evt     events of location <loc> (chunked, event chunk size)
//
// A chunked file is a sequence of chunks of exactly the chunk size (the
// last one may be shorter). Each chunk starts with a header: the byte 3,
// the byte-order mark (0x23 big-endian, 0x42 little-endian; it applies to
// the chunk), then the full 64-bit numbers of the chunk's first and last
// event. Records follow; a 0 byte ends the chunk (the rest is padding) and
// the byte 2 ends the file. The anchor file has the two-byte header only.

// anchorMagic starts every anchor file.
const anchorMagic = "OTF2"

// File substrates and compressions (OTF2_GeneralDefinitions.h).
const (
	substratePOSIX  = 1
	substrateSION   = 2
	substrateNone   = 3
	compressionNone = 1
	compressionZlib = 2
)

// Anchor is the content of an OTF2 anchor file.
type Anchor struct {
	// Path is the anchor file's path.
	Path string
	// FormatVersion is the anchor file format (1 to 3 are known).
	FormatVersion uint8
	// TraceFormat is the trace format version.
	TraceFormat uint8
	// Version is the OTF2 version that wrote the archive.
	Version [3]uint8
	// EventChunkSize and DefChunkSize are the chunk sizes of event and
	// definition files, bytes.
	EventChunkSize, DefChunkSize uint64
	// Substrate and Compression are the file substrate (1 POSIX, 2 SION, 3
	// none) and compression (1 none, 2 zlib).
	Substrate, Compression uint8
	// Locations and GlobalDefs are the numbers of locations and global
	// definitions the writer announced.
	Locations, GlobalDefs uint64
	// Machine, Creator and Description are the writer's strings.
	Machine, Creator, Description string
	// Properties are the archive's key/value properties.
	Properties map[string]string
	// TraceID is the archive's identifier.
	TraceID uint64
}

// VersionString returns the OTF2 version, "3.0.2".
func (a *Anchor) VersionString() string {
	return fmt.Sprintf("%d.%d.%d", a.Version[0], a.Version[1], a.Version[2])
}

// Limits on what a reader accepts from a file before trusting it.
const (
	minChunk      = 64      // the smallest chunk size accepted
	maxChunk      = 1 << 40 // and the largest
	maxProperties = 1 << 16 // anchor properties
	maxMembers    = 1 << 24 // members of one group
	maxMapEntries = 1 << 26 // entries of one mapping table
	maxLocations  = 1 << 22 // locations of an archive
	nsPerSecond   = 1_000_000_000
	maxNsTime     = int64(1) << 62
)

// readFile reads a whole file of an archive, refusing one that is not a
// regular file or is larger than limits.MaxOTF2AnchorBytes (the anchor,
// .otf2) or limits.MaxOTF2FileBytes (.def, .evt).
func readFile(path string) ([]byte, error) {
	if strings.HasSuffix(path, ".otf2") {
		return limits.ReadFile(path, "an OTF2 anchor file", limits.MaxOTF2AnchorBytes, true)
	}
	return limits.ReadFile(path, "an OTF2 file", limits.MaxOTF2FileBytes, true)
}

// IsOTF2 reports whether path is an OTF2 anchor file: a regular file
// whose content starts with the anchor header and magic.
func IsOTF2(path string) bool {
	// NB: only a regular file is looked into: reading a pipe's first bytes
	// would take them from the reader that comes next, and opening a pipe
	// with no writer waits for one.
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [7]byte
	if _, err := f.Read(b[:]); err != nil {
		return false
	}
	return b[0] == recChunkHeader && (b[1] == bigEndian || b[1] == littleEndian) && bytes.Equal(b[2:7], []byte(anchorMagic+"\x00"))
}

// ReadAnchor reads an anchor file.
func ReadAnchor(path string) (*Anchor, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return parseAnchor(path, data)
}

func parseAnchor(path string, data []byte) (*Anchor, error) {
	r := &rbuf{b: data, end: len(data)}
	bad := func(msg string) error {
		return &DecodeError{File: path, Offset: int64(r.pos), Msg: "anchor file: " + msg}
	}
	if r.u8() != recChunkHeader {
		return nil, bad("not an OTF2 anchor file (no buffer header)")
	}
	switch r.u8() {
	case bigEndian:
		r.big = true
	case littleEndian:
	default:
		return nil, bad("invalid byte-order mark")
	}
	if r.str() != anchorMagic || r.err != nil {
		return nil, bad("not an OTF2 anchor file (magic)")
	}
	a := &Anchor{Path: path}
	a.FormatVersion = r.u8()
	if a.FormatVersion == 0 {
		return nil, bad("anchor format version 0")
	}
	a.TraceFormat = r.u8()
	a.Version = [3]uint8{r.u8(), r.u8(), r.u8()}
	a.EventChunkSize = r.full64()
	a.DefChunkSize = r.full64()
	a.Substrate = r.u8()
	a.Compression = r.u8()
	a.Locations = r.full64()
	a.GlobalDefs = r.full64()
	a.Machine = r.str()
	a.Creator = r.str()
	a.Description = r.str()
	if a.FormatVersion > 1 {
		n := r.full32()
		if r.err == nil && n > maxProperties {
			return nil, bad(fmt.Sprintf("%d properties", n))
		}
		for i := uint32(0); i < n && r.err == nil; i++ {
			k, v := r.str(), r.str()
			if a.Properties == nil {
				a.Properties = map[string]string{}
			}
			a.Properties[k] = v
		}
		a.TraceID = r.full64()
	}
	if a.FormatVersion > 2 {
		r.full32() // snapshots
		r.full32() // thumbnails
	}
	if r.err != nil {
		return nil, bad(r.err.msg)
	}
	switch {
	case a.EventChunkSize < minChunk || a.EventChunkSize > maxChunk:
		return nil, bad(fmt.Sprintf("event chunk size %d", a.EventChunkSize))
	case a.DefChunkSize < minChunk || a.DefChunkSize > maxChunk:
		return nil, bad(fmt.Sprintf("definition chunk size %d", a.DefChunkSize))
	case a.Substrate == substrateSION:
		return nil, bad("the SIONlib file substrate is not supported")
	case a.Substrate == substrateNone:
		return nil, bad("the archive has no files (substrate NONE)")
	case a.Substrate != substratePOSIX:
		return nil, bad(fmt.Sprintf("unknown file substrate %d", a.Substrate))
	case a.Compression == compressionZlib:
		return nil, bad("zlib-compressed archives are not supported")
	case a.Compression != compressionNone:
		return nil, bad(fmt.Sprintf("unknown compression %d", a.Compression))
	case a.Locations > maxLocations:
		return nil, bad(fmt.Sprintf("%d locations", a.Locations))
	}
	return a, nil
}

// archivePaths returns the global definition file and the directory of
// the per-location files of an anchor file.
func archivePaths(anchor string) (defs, dir string) {
	base := strings.TrimSuffix(anchor, filepath.Ext(anchor))
	return base + ".def", base
}

// recordFn handles one record of a chunked file: typ is its type byte,
// r is positioned after it, bounded by its chunk; t is the current
// timestamp (event files). It must consume the record.
type recordFn func(typ uint8, r *rbuf, t uint64) error

// fileKind tells event files (timestamps, attribute lists) from
// definition files.
type fileKind uint8

const (
	defFile fileKind = iota
	evtFile
)

// errStop ends a scan early without an error.
var errStop = errors.New("stop")

// scanChunks walks the records of a chunked file. Errors are
// *DecodeError, numbered by record.
func scanChunks(name string, data []byte, chunk uint64, kind fileKind, fn recordFn) error {
	noun := "definition"
	if kind == evtFile {
		noun = "event"
	}
	var rec int64
	var t uint64
	fail := func(off int, msg string) error {
		return &DecodeError{File: name, Kind: noun, Record: rec, Offset: int64(off), Msg: msg}
	}
	cs := int(min(chunk, uint64(len(data))+1))
	for off := 0; off < len(data); off += cs {
		end := min(off+cs, len(data))
		r := &rbuf{b: data, pos: off, end: end}
		if r.u8() != recChunkHeader {
			return fail(off, "missing chunk header")
		}
		switch r.u8() {
		case bigEndian:
			r.big = true
		case littleEndian:
		default:
			return fail(off+1, "invalid byte-order mark")
		}
		r.full64()
		r.full64()
		if r.err != nil {
			return fail(off, "truncated chunk header")
		}
	records:
		for {
			if r.pos >= end {
				if end == len(data) {
					return fail(r.pos, "file ends without an end-of-file record (truncated?)")
				}
				break
			}
			start := r.pos
			typ := r.u8()
			switch {
			case typ == recEndOfChunk:
				break records
			case typ == recEndOfFile || typ == recEndOfBuffer:
				return nil
			case kind == evtFile && typ == recTimestamp:
				t = r.full64()
				if r.err != nil {
					return fail(start, "truncated timestamp")
				}
				continue
			case kind == evtFile && typ == recAttrList:
				e := r.recordLen()
				if r.err != nil {
					return fail(start, "attribute list: "+r.err.msg)
				}
				r.pos = e
				continue
			}
			rec++
			if err := fn(typ, r, t); err != nil {
				if err == errStop {
					return nil
				}
				var de *DecodeError
				if errors.As(err, &de) && de.File == "" {
					de.File, de.Record, de.Kind = name, rec, noun
					if de.Offset == 0 {
						de.Offset = int64(start)
					}
				}
				return err
			}
			if r.err != nil {
				return fail(start, r.err.msg)
			}
		}
	}
	return fail(len(data), "file ends without an end-of-file record (truncated?)")
}

// missing reports whether err says a file does not exist.
func missing(err error) bool { return errors.Is(err, fs.ErrNotExist) }
