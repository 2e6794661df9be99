package dumpi

import (
	"fmt"
	"strconv"
	"strings"
)

// FuncID identifies an MPI function (or a profiling label) in a DUMPI
// trace: its position in DUMPI's dumpi_function enum, the numbering of the
// traces with MPI_Pcontrol (label 128). Traces written before MPI_Pcontrol
// was added number the functions after MPI_Abort one lower; the reader
// translates them (see File.LegacyNumbering).
type FuncID uint16

// NumFunctions is the number of MPI functions DUMPI knows (the ids below
// it are MPI calls); the footer of a trace counts calls for each of them.
const NumFunctions = int(fnAllFunctions)

// String returns the function's MPI name, e.g. "MPI_Isend", or
// "DUMPI_function_<n>" for an id outside the table.
func (f FuncID) String() string {
	if int(f) < len(funcTable) {
		return funcTable[f].name
	}
	return "DUMPI_function_" + strconv.Itoa(int(f))
}

// FuncByName returns the id of the MPI function with the given name
// ("MPI_Isend"), and false for an unknown name.
func FuncByName(name string) (FuncID, bool) {
	id, ok := funcByName[name]
	return id, ok
}

var funcByName = func() map[string]FuncID {
	m := make(map[string]FuncID, len(funcTable))
	for i, f := range funcTable {
		m[f.name] = FuncID(i)
	}
	return m
}()

// Kind is how an argument is stored in a trace and held in a Field.
type Kind uint8

// The argument kinds. Scalars are held in Field.Int, arrays in Field.Ints
// (Field.Strs for strings), statuses in Field.Statuses.
const (
	// KindInt is a 32-bit signed integer (counts, ranks, tags, requests).
	KindInt Kind = iota + 1
	// KindDatatype is a 16-bit datatype handle.
	KindDatatype
	// KindComm is a 16-bit communicator handle.
	KindComm
	// KindGroup is a 16-bit group handle.
	KindGroup
	// KindHandle is another 16-bit handle (info, errhandler, file, keyval,
	// window).
	KindHandle
	// KindEnum is an 8-bit enumeration (operation, combiner, thread
	// level, ...).
	KindEnum
	// KindInt64 is a 64-bit signed integer (file offsets, addresses).
	KindInt64
	// KindStatuses is an array of MPI_Status values; nil Statuses with
	// Present set means MPI_STATUS(ES)_IGNORE.
	KindStatuses
	// KindInts is an array of 32-bit integers.
	KindInts
	// KindDatatypes is an array of 16-bit datatype handles.
	KindDatatypes
	// KindHandles is an array of other 16-bit handles.
	KindHandles
	// KindEnums is an array of 8-bit enumerations.
	KindEnums
	// KindString is a string.
	KindString
	// KindStrings is an array of strings (e.g. argv).
	KindStrings
	// KindStrings2 is an array of string arrays, flattened into Strs.
	KindStrings2
	// KindInts2 is an array of int arrays, flattened into Ints.
	KindInts2
)

// fieldSpec is one compiled argument of a layout.
type fieldSpec struct {
	name string
	kind Kind
	// argv: MPI_Init's argc-prefixed argv, with the extra count word of
	// traces older than 0.6.2.
	argv bool
	// before: when set, traces older than this version store a single
	// int32 instead of the array.
	before [3]uint8
	// condA, condB >= 0: the field is present only when the fields with
	// these indices are equal.
	condA, condB int
}

// layout is a compiled argument layout; unknown marks a function whose
// arguments cannot be read.
type layout struct {
	fields  []fieldSpec
	unknown bool
}

var kindOf = map[byte]Kind{
	'i': KindInt, 'd': KindDatatype, 'c': KindComm, 'g': KindGroup, 'h': KindHandle,
	'b': KindEnum, 'l': KindInt64, 's': KindStatuses, 'I': KindInts, 'D': KindDatatypes,
	'H': KindHandles, 'B': KindEnums, 'S': KindString, 'A': KindStrings, 'T': KindStrings2,
	'J': KindInts2, 'a': KindStrings,
}

// layouts are the compiled layouts of funcTable, by FuncID.
var layouts = func() []layout {
	out := make([]layout, len(funcTable))
	for i, f := range funcTable {
		l, err := compileLayout(f.layout)
		if err != nil {
			panic(fmt.Sprintf("dumpi: layout of %s: %v", f.name, err))
		}
		out[i] = l
	}
	return out
}()

// compileLayout parses a layout string of the function table.
func compileLayout(s string) (layout, error) {
	if s == "!" {
		return layout{unknown: true}, nil
	}
	var l layout
	index := map[string]int{}
	condA, condB := -1, -1
	for _, tok := range strings.Fields(s) {
		switch {
		case tok == ";":
			condA, condB = -1, -1
			continue
		case strings.HasPrefix(tok, "?"):
			a, b, ok := strings.Cut(tok[1:], "=")
			ia, okA := index[a]
			ib, okB := index[b]
			if !ok || !okA || !okB {
				return layout{}, fmt.Errorf("bad condition %q", tok)
			}
			condA, condB = ia, ib
			continue
		}
		name, kind, ok := strings.Cut(tok, ":")
		if !ok || kind == "" {
			return layout{}, fmt.Errorf("bad field %q", tok)
		}
		spec := fieldSpec{name: name, condA: condA, condB: condB}
		if k, v, found := strings.Cut(kind, "@"); found {
			kind = k
			var err error
			if spec.before, err = parseVersion(v); err != nil {
				return layout{}, fmt.Errorf("field %q: %v", tok, err)
			}
		}
		if len(kind) != 1 || kindOf[kind[0]] == 0 {
			return layout{}, fmt.Errorf("bad kind in %q", tok)
		}
		spec.kind = kindOf[kind[0]]
		spec.argv = kind[0] == 'a'
		if _, dup := index[name]; dup {
			return layout{}, fmt.Errorf("duplicate field %q", name)
		}
		index[name] = len(l.fields)
		l.fields = append(l.fields, spec)
	}
	return l, nil
}

// parseVersion parses "M.m.p".
func parseVersion(s string) ([3]uint8, error) {
	var v [3]uint8
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return v, fmt.Errorf("version %q is not M.m.p", s)
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 8)
		if err != nil {
			return v, fmt.Errorf("version %q: %v", s, err)
		}
		v[i] = uint8(n)
	}
	return v, nil
}

// versionBefore reports whether version v is older than w.
func versionBefore(v, w [3]uint8) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}
