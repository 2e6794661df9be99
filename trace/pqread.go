package trace

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// rowError is a problem with one row of a row group (0-based), found
// while reading one of its columns.
type rowError struct {
	row int
	err error
}

// readColumns appends the messages of every row group of f to t.Messages,
// reading the columns cols (see findColumns) one column chunk at a time,
// so that a file's other columns are never decoded. Messages start with
// the defaults of the columns version 1 lacks; each value is checked
// against its column's range, and a null where cols does not allow one is
// an error. Errors name the first row, in file order, with a problem and,
// within it, the first column in cols order, as checking row by row
// would.
func readColumns(f *parquet.File, cols []pqColumn, t *Trace) error {
	r := columnReader{buf: make([]parquet.Value, 1024)}
	for _, rg := range f.RowGroups() {
		base := len(t.Messages)
		t.Messages = slices.Grow(t.Messages, int(rg.NumRows()))[:base+int(rg.NumRows())]
		msgs := t.Messages[base:]
		for i := range msgs {
			msgs[i] = Message{Iteration: NoIteration, SrcRank: NoRank, DstRank: NoRank}
		}
		var first *rowError
		for i := range cols {
			c := &cols[i]
			var re *rowError
			var err error
			if c.list {
				re, err = r.list(rg.ColumnChunks()[c.leaf], c, msgs)
			} else {
				re, err = r.scalar(rg.ColumnChunks()[c.leaf], c, msgs)
			}
			if err != nil {
				return &ParseError{Err: fmt.Errorf("column %s: %w", c.f.name, err)}
			}
			if re != nil && (first == nil || re.row < first.row) {
				first = re
			}
		}
		if first != nil {
			return &ParseError{Row: base + first.row + 1, Err: first.err}
		}
	}
	return nil
}

// columnReader reads column chunks into messages.
type columnReader struct {
	buf  []parquet.Value
	deps []int64 // the deps of a row group, before they are copied out
	ends []int   // deps[ends[i-1]:ends[i]] are row i's
}

// values calls each with every value of column chunk cc, in order, until
// each returns false or an error.
func (r *columnReader) values(cc parquet.ColumnChunk, each func(v parquet.Value) (bool, error)) error {
	pages := cc.Pages()
	defer pages.Close()
	for {
		page, err := pages.ReadPage()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		more, err := r.pageValues(page, each)
		parquet.Release(page)
		if err != nil || !more {
			return err
		}
	}
}

// pageValues calls each with the values of one page.
func (r *columnReader) pageValues(page parquet.Page, each func(v parquet.Value) (bool, error)) (bool, error) {
	vr := page.Values()
	for {
		n, err := vr.ReadValues(r.buf)
		for _, v := range r.buf[:n] {
			if more, err := each(v); err != nil || !more {
				return more, err
			}
		}
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// intValue returns the value of an INT32 or INT64 column.
func intValue(v parquet.Value) int64 {
	if v.Kind() == parquet.Int32 {
		return int64(v.Int32())
	}
	return v.Int64()
}

// scalar reads column c, one value per row, into msgs.
func (r *columnReader) scalar(cc parquet.ColumnChunk, c *pqColumn, msgs []Message) (*rowError, error) {
	var re *rowError
	row := 0
	err := r.values(cc, func(v parquet.Value) (bool, error) {
		if row == len(msgs) {
			return false, fmt.Errorf("more values than the row group's %d rows", len(msgs))
		}
		if v.IsNull() {
			if !c.nullable {
				re = &rowError{row, fmt.Errorf("column %s is null (required)", c.f.name)}
				return false, nil
			}
			row++
			return true, nil
		}
		x := intValue(v)
		err := c.f.check(x, strconv.FormatInt(x, 10))
		if err == nil {
			err = c.set(&msgs[row], x)
		}
		if err != nil {
			re = &rowError{row, err}
			return false, nil
		}
		row++
		return true, nil
	})
	if err == nil && re == nil && row != len(msgs) {
		err = fmt.Errorf("%d values for the row group's %d rows", row, len(msgs))
	}
	return re, err
}

// list reads column c, a list of message ids per row, into the Deps of
// msgs. An empty or null list is no deps; a null id is an error.
func (r *columnReader) list(cc parquet.ColumnChunk, c *pqColumn, msgs []Message) (*rowError, error) {
	var re *rowError
	r.deps, r.ends = r.deps[:0], r.ends[:0]
	err := r.values(cc, func(v parquet.Value) (bool, error) {
		if v.RepetitionLevel() == 0 {
			if len(r.ends) == len(msgs) {
				return false, fmt.Errorf("more lists than the row group's %d rows", len(msgs))
			}
			r.ends = append(r.ends, len(r.deps))
		} else if len(r.ends) == 0 {
			return false, errors.New("the first value continues a list")
		}
		row := len(r.ends) - 1
		switch d := v.DefinitionLevel(); {
		case d == c.maxDef:
			x := intValue(v)
			if err := c.f.check(x, strconv.FormatInt(x, 10)); err != nil {
				re = &rowError{row, err}
				return false, nil
			}
			r.deps = append(r.deps, x)
			r.ends[row] = len(r.deps)
		case d >= c.repDef:
			re = &rowError{row, fmt.Errorf("column %s holds a null id (required)", c.f.name)}
			return false, nil
		}
		return true, nil
	})
	if err != nil || re != nil {
		return re, err
	}
	if len(r.ends) != len(msgs) {
		return nil, fmt.Errorf("%d lists for the row group's %d rows", len(r.ends), len(msgs))
	}
	// NB: copied out of r.deps, which is reused, into one array of the
	// exact size; each message's slice is capped so that appending to it
	// cannot overwrite the next message's deps.
	all := append([]int64(nil), r.deps...)
	start := 0
	for i, end := range r.ends {
		if end > start {
			msgs[i].Deps = all[start:end:end]
		}
		start = end
	}
	return nil, nil
}
