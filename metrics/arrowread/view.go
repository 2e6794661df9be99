package arrowread

import (
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v16/arrow"
	"github.com/apache/arrow/go/v16/arrow/array"
)

// col is one expected column of a row type T: its name, its Arrow type and
// how a value lands in the row.
type col[T any] struct {
	name string
	typ  arrow.Type
	set  func(row *T, v *view, i int)
	// since is the schema version that added the column (0: version 1);
	// older files lack it and their rows get fill instead.
	since int
	fill  func(row *T)
	// late marks a column added to version 2 after files of that version
	// were written: a version 2 file without it reads with fill too.
	late bool
}

// v2Only marks c as added in schema version 2; rows of version 1 files get
// fill.
func v2Only[T any](c col[T], fill func(*T)) col[T] {
	c.since, c.fill = 2, fill
	return c
}

// v2Late marks c as added to schema version 2 after its first files: rows
// of version 1 files, and of version 2 files without the column, get fill.
func v2Late[T any](c col[T], fill func(*T)) col[T] {
	c = v2Only(c, fill)
	c.late = true
	return c
}

func int64Col[T any](name string, field func(*T) *int64) col[T] {
	return col[T]{name: name, typ: arrow.INT64, set: func(r *T, v *view, i int) { *field(r) = v.i64[i] }}
}

func int32Col[T any](name string, field func(*T) *int32) col[T] {
	return col[T]{name: name, typ: arrow.INT32, set: func(r *T, v *view, i int) { *field(r) = v.i32[i] }}
}

func float64Col[T any](name string, field func(*T) *float64) col[T] {
	return col[T]{name: name, typ: arrow.FLOAT64, set: func(r *T, v *view, i int) { *field(r) = v.f64[i] }}
}

func boolCol[T any](name string, field func(*T) *bool) col[T] {
	return col[T]{name: name, typ: arrow.BOOL, set: func(r *T, v *view, i int) { *field(r) = v.bools.Value(i) }}
}

func stringCol[T any](name string, field func(*T) *string) col[T] {
	return col[T]{name: name, typ: arrow.STRING, set: func(r *T, v *view, i int) { *field(r) = v.str(i) }}
}

// view is one column of the current record batch, as the typed slice the
// row setters index.
type view struct {
	i64   []int64
	i32   []int32
	f64   []float64
	bools *array.Boolean
	strs  *array.String     // plain strings
	dict  *array.Dictionary // dictionary-encoded strings
	words []string          // dict's values, interned
	in    *interner
}

// load points v at column a of the current batch. Columns are required:
// a null is an error.
func (v *view) load(a arrow.Array, in *interner) error {
	if n := a.NullN(); n > 0 {
		return fmt.Errorf("%d of %d values are null", n, a.Len())
	}
	*v = view{words: v.words[:0], in: in}
	switch a := a.(type) {
	case *array.Int64:
		v.i64 = a.Int64Values()
	case *array.Int32:
		v.i32 = a.Int32Values()
	case *array.Float64:
		v.f64 = a.Float64Values()
	case *array.Boolean:
		v.bools = a
	case *array.String:
		v.strs = a
	case *array.Dictionary:
		d, ok := a.Dictionary().(*array.String)
		if !ok {
			return fmt.Errorf("dictionary of %s, want utf8", a.Dictionary().DataType())
		}
		v.dict = a
		for j := range d.Len() {
			v.words = append(v.words, in.intern(d.Value(j)))
		}
	default:
		return fmt.Errorf("unexpected array %s", a.DataType())
	}
	return nil
}

// str returns string i of a string column.
func (v *view) str(i int) string {
	if v.dict != nil {
		return v.words[v.dict.GetValueIndex(i)]
	}
	return v.in.intern(v.strs.Value(i))
}

// interner gives repeated strings (event and kind names) one Go copy. NB:
// arrow's String.Value aliases the batch's buffer, which is reused after
// the batch; interning copies it once instead of once per row.
type interner struct {
	m map[string]string
}

// maxInterned bounds the interner for columns that turn out not to be
// enumerations.
const maxInterned = 1 << 12

func newInterner() *interner { return &interner{m: make(map[string]string)} }

func (in *interner) intern(s string) string {
	if c, ok := in.m[s]; ok {
		return c
	}
	c := strings.Clone(s)
	if len(in.m) < maxInterned {
		in.m[c] = c
	}
	return c
}
