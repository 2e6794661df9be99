package trace

import (
	"fmt"

	"github.com/parquet-go/parquet-go"
	pqformat "github.com/parquet-go/parquet-go/format"
)

// pqColumn is a trace column as a Parquet file holds it.
type pqColumn struct {
	pqLeaf
	f        field
	leaf     int  // index of its column chunk in a row group
	nullable bool // a null keeps the message's default; otherwise it is an error
	list     bool // deps: a list of message ids per row
	set      func(m *Message, v int64) error
}

// pqColumnsV1 are the columns of a version 1 Parquet trace and
// pqColumnsV2 those of version 2, in the order ReadParquet checks a row's
// values. Only the columns version 2 added may hold nulls, which read as
// the defaults version 1 files get; a null deps list is an empty one.
var (
	pqColumnsV1 = []pqColumn{
		{f: fieldID, set: func(m *Message, v int64) error { m.ID = v; return nil }},
		{f: fieldSrc, set: func(m *Message, v int64) error { m.Src = int32(v); return nil }},
		{f: fieldDst, set: func(m *Message, v int64) error { m.Dst = int32(v); return nil }},
		{f: fieldBytes, set: func(m *Message, v int64) error { m.Bytes = v; return nil }},
		{f: fieldRelease, set: func(m *Message, v int64) (err error) { m.Release, err = nsToTime(fieldRelease, v); return err }},
		{f: fieldFlow, set: func(m *Message, v int64) error { m.FlowID = v; return nil }},
		{f: fieldColl, set: func(m *Message, v int64) error { m.CollectiveID = v; return nil }},
		{f: fieldGap, set: func(m *Message, v int64) (err error) { m.Gap, err = nsToTime(fieldGap, v); return err }},
		{f: fieldDep, list: true},
	}
	pqColumnsV2 = append(pqColumnsV1[:len(pqColumnsV1)-1:len(pqColumnsV1)-1],
		pqColumn{f: fieldPrio, nullable: true, set: func(m *Message, v int64) error { m.Priority = int32(v); return nil }},
		pqColumn{f: fieldIter, nullable: true, set: func(m *Message, v int64) error { m.Iteration = v; return nil }},
		pqColumn{f: fieldSrcRank, nullable: true, set: func(m *Message, v int64) error { m.SrcRank = int32(v); return nil }},
		pqColumn{f: fieldDstRank, nullable: true, set: func(m *Message, v int64) error { m.DstRank = int32(v); return nil }},
		pqColumnsV1[len(pqColumnsV1)-1],
	)
)

// findColumns locates the columns of a trace of the given version in a
// schema that has all of them, and checks that each is an integer column:
// one value per row, or for deps one list of values per row.
func findColumns(s *pqSchema, version string) ([]pqColumn, error) {
	want := pqColumnsV2
	if version == SchemaVersionV1 {
		want = pqColumnsV1
	}
	cols := make([]pqColumn, len(want))
	for i, c := range want {
		r := s.fields[c.f.name]
		if r[1]-r[0] != 1 {
			return nil, fmt.Errorf("column %s has %d leaf columns, want one of integers", c.f.name, r[1]-r[0])
		}
		c.leaf = r[0]
		c.pqLeaf = s.leaves[c.leaf]
		switch {
		case c.typ != pqformat.Int32 && c.typ != pqformat.Int64:
			return nil, fmt.Errorf("column %s has Parquet type %s, want INT32 or INT64", c.f.name, c.typ)
		case c.list && c.maxRep != 1:
			return nil, fmt.Errorf("column %s must be a list of integers (a flat list, one per row)", c.f.name)
		case !c.list && (!c.top || c.maxRep != 0):
			return nil, fmt.Errorf("column %s must be a plain integer column, one value per row", c.f.name)
		}
		cols[i] = c
	}
	return cols, nil
}

// checkColumnTypes checks that parquet-go will decode each trace column
// of f as the integers its physical type holds. parquet-go types a column
// by its logical type (or converted type) when it has one, so an INT64
// leaf annotated as a string or a map would be decoded as one, or make it
// panic (found by FuzzReadParquet).
func checkColumnTypes(f *parquet.File, cols []pqColumn) error {
	rgs := f.RowGroups()
	if len(rgs) == 0 {
		return nil
	}
	rg := rgs[0] // every row group types its columns alike
	for _, c := range cols {
		t := rg.ColumnChunks()[c.leaf].Type()
		if pt := t.PhysicalType(); pt == nil || *pt != c.typ {
			return fmt.Errorf("column %s is annotated %s, which is not an integer type of its Parquet type %s", c.f.name, t, c.typ)
		}
	}
	return nil
}
