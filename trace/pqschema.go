package trace

import (
	"errors"
	"fmt"

	pqformat "github.com/parquet-go/parquet-go/format"
)

// pqLeaf is a leaf (a column with values) of a Parquet schema.
type pqLeaf struct {
	schema int           // index in FileMetaData.Schema
	typ    pqformat.Type // physical type
	maxDef int           // definition level of a present value
	maxRep int           // repetition level of the innermost repeated ancestor
	repDef int           // definition level at which that ancestor is defined, 0 if none
	top    bool          // the leaf is itself a top-level field
}

// pqSchema is the shape of a Parquet schema: its leaves in column chunk
// order and, for each top-level field, the range of its leaves.
type pqSchema struct {
	leaves []pqLeaf
	fields map[string][2]int // top-level field name -> [first, end) of its leaves
	names  []string          // top-level field names, in order
}

// parseSchema checks the flattened schema tree of a footer (each group is
// followed by its children, depth first) and returns its shape: the root
// must be a group, child counts must add up to the elements there are and
// nesting must stay within maxSchemaDepth. parquet-go builds the tree
// recursively and sizes some of its tables by depth times width, so this
// comes before parquet.OpenFile.
func parseSchema(md *pqformat.FileMetaData) (*pqSchema, error) {
	els := md.Schema
	if len(els) == 0 || els[0].Type.Valid {
		return nil, errors.New("the schema has no root group")
	}
	type open struct { // a group whose children are being read
		left             int32 // children still to come
		def, rep, repDef int   // its levels, as in pqLeaf
	}
	s := &pqSchema{fields: make(map[string][2]int)}
	stack := []open{{left: els[0].NumChildren.V}}
	if stack[0].left < 0 {
		return nil, fmt.Errorf("the root declares %d children", stack[0].left)
	}
	for i := 1; i < len(els); i++ {
		e := &els[i]
		for len(stack) > 0 && stack[len(stack)-1].left == 0 {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return nil, fmt.Errorf("schema element %d (%q) is not a child of any group", i, e.Name)
		}
		parent := &stack[len(stack)-1]
		parent.left--
		def, rep, repDef := parent.def, parent.rep, parent.repDef
		switch e.RepetitionType.V {
		case pqformat.Optional:
			def++
		case pqformat.Repeated:
			def++
			rep++
			repDef = def
		}
		if len(stack) == 1 { // a top-level field
			if _, dup := s.fields[e.Name]; dup {
				return nil, fmt.Errorf("the schema has two top-level fields named %q", e.Name)
			}
			s.names = append(s.names, e.Name)
			s.fields[e.Name] = [2]int{len(s.leaves), len(s.leaves)}
		}
		if e.Type.Valid {
			s.leaves = append(s.leaves, pqLeaf{schema: i, typ: e.Type.V, maxDef: def, maxRep: rep, repDef: repDef, top: len(stack) == 1})
		} else {
			n := e.NumChildren.V
			if n < 0 || int(n) > len(els)-1-i {
				return nil, fmt.Errorf("group %q declares %d children but %d schema elements follow it", e.Name, n, len(els)-1-i)
			}
			if len(stack) == maxSchemaDepth {
				return nil, fmt.Errorf("group %q is nested more than %d deep", e.Name, maxSchemaDepth)
			}
			stack = append(stack, open{left: n, def: def, rep: rep, repDef: repDef})
		}
		top := s.names[len(s.names)-1]
		s.fields[top] = [2]int{s.fields[top][0], len(s.leaves)}
	}
	for _, o := range stack {
		if o.left != 0 {
			return nil, errors.New("the schema ends before every group has its children")
		}
	}
	return s, nil
}

// checkLayout checks what a footer says about the file's shape before
// parquet-go builds anything from it: a schema parseSchema accepts, one
// column chunk per leaf in every row group, and row counts a file of size
// bytes can hold (checkRowCount). It returns the schema's shape.
func checkLayout(md *pqformat.FileMetaData, size int64) (*pqSchema, error) {
	s, err := parseSchema(md)
	if err != nil {
		return nil, err
	}
	if err := checkRowCount("the file's row count", md.NumRows, size); err != nil {
		return nil, err
	}
	var rows int64
	for g := range md.RowGroups {
		rg := &md.RowGroups[g]
		if len(rg.Columns) != len(s.leaves) {
			return nil, fmt.Errorf("row group %d has %d column chunks for %d columns", g, len(rg.Columns), len(s.leaves))
		}
		if err := checkRowCount(fmt.Sprintf("row group %d's row count", g), rg.NumRows, size); err != nil {
			return nil, err
		}
		rows += rg.NumRows // both terms are below 2^31
		if err := checkRowCount("the row groups' row count", rows, size); err != nil {
			return nil, err
		}
	}
	return s, nil
}
