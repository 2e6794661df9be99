package batch

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"

	"github.com/apache/arrow/go/v16/arrow"
	"github.com/apache/arrow/go/v16/arrow/array"
	"github.com/apache/arrow/go/v16/arrow/memory"
	"github.com/apache/arrow/go/v16/parquet"
	"github.com/apache/arrow/go/v16/parquet/compress"
	"github.com/apache/arrow/go/v16/parquet/pqarrow"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
)

// ColumnKind is a collected table's column type.
type ColumnKind int

const (
	Int64 ColumnKind = iota
	Float64
	String
)

// Column is one column of a collected table; a nil value is null.
type Column struct {
	Name   string
	Kind   ColumnKind
	Values []any // int64, float64 or string, or nil
}

// Number returns row i's value as a float64; ok is false when it is null
// or text.
func (c *Column) Number(i int) (v float64, ok bool) {
	switch x := c.Values[i].(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// Table is a plan's items in one table: one row per item.
type Table struct {
	Columns []Column
	Rows    int
	// Tool is the Parquet file's created_by ("ccreplay sweep").
	Tool string
}

// Column returns the named column, or nil.
func (t *Table) Column(name string) *Column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// Collect reads every item of the plan in root into one table: the
// item's index ("point"), folder, state, error and hash; its labels (a
// column per key in the order the items first give them, typed int64 or
// float64 when all its values are numbers, else text; null where an item
// has none); then every number of the item's summary.json (sim_end_ns,
// events, data_packets and each metric, nested names joined by '_'; a
// name that is already a column gets "metric_" before it), null for items
// not done.
func Collect(root string, pl *Plan, states []ItemState) (*Table, error) {
	n := len(pl.Items)
	t := &Table{Rows: n}
	point := Column{Name: "point", Kind: Int64, Values: make([]any, n)}
	dir := Column{Name: "dir", Kind: String, Values: make([]any, n)}
	state := Column{Name: "status", Kind: String, Values: make([]any, n)}
	errc := Column{Name: "error", Kind: String, Values: make([]any, n)}
	hash := Column{Name: "hash", Kind: String, Values: make([]any, n)}
	for i, s := range states {
		it := &pl.Items[i]
		point.Values[i], dir.Values[i], state.Values[i], hash.Values[i] = int64(i), it.Dir, string(s.State), it.Hash
		if s.Error != "" {
			errc.Values[i] = s.Error
		}
	}
	t.Columns = append(t.Columns, point, dir, state, errc, hash)
	labels := newTextColumns(n)
	for i := range pl.Items {
		for _, l := range pl.Items[i].Labels {
			cells := labels.column(l.Key)
			if !l.Null {
				v := l.Value
				cells[i] = &v
			}
		}
	}
	for j, k := range labels.names {
		t.Columns = append(t.Columns, typedColumn(k, labels.cells[j]))
	}
	// Metrics, in the order summary.json first gives them.
	metrics := newTextColumns(n)
	for i, s := range states {
		if s.State != Done {
			continue
		}
		d := pl.Items[i].Dir
		nums, err := summaryNumbers(filepath.Join(root, filepath.FromSlash(d), runfolder.SummaryFile))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d, err)
		}
		for _, kv := range nums {
			v := kv.value
			metrics.column(kv.name)[i] = &v
		}
	}
	have := map[string]bool{}
	for _, c := range t.Columns {
		have[c.Name] = true
	}
	for j, name := range metrics.names {
		if have[name] {
			name = "metric_" + name
		}
		t.Columns = append(t.Columns, typedColumn(name, metrics.cells[j]))
	}
	return t, nil
}

// textColumns gathers columns of texts, one cell per item (nil: null),
// in the order their names first come.
type textColumns struct {
	rows  int
	index map[string]int
	names []string
	cells [][]*string
}

func newTextColumns(rows int) *textColumns {
	return &textColumns{rows: rows, index: map[string]int{}}
}

// column returns the cells of the named column, adding it (all null) the
// first time the name comes.
func (c *textColumns) column(name string) []*string {
	j, ok := c.index[name]
	if !ok {
		j = len(c.names)
		c.index[name] = j
		c.names = append(c.names, name)
		c.cells = append(c.cells, make([]*string, c.rows))
	}
	return c.cells[j]
}

// typedColumn types a column of texts: int64 when every value is an
// integer, float64 when every value is a number, else text.
func typedColumn(name string, texts []*string) Column {
	c := Column{Name: name, Kind: Int64, Values: make([]any, len(texts))}
	for _, s := range texts {
		if s == nil {
			continue
		}
		if _, err := strconv.ParseInt(*s, 10, 64); err == nil {
			continue
		}
		if _, err := strconv.ParseFloat(*s, 64); err == nil && c.Kind != String {
			c.Kind = Float64
			continue
		}
		c.Kind = String
	}
	for i, s := range texts {
		if s == nil {
			continue
		}
		switch c.Kind {
		case Int64:
			v, _ := strconv.ParseInt(*s, 10, 64)
			c.Values[i] = v
		case Float64:
			v, _ := strconv.ParseFloat(*s, 64)
			c.Values[i] = v
		default:
			c.Values[i] = *s
		}
	}
	return c
}

type namedNumber struct{ name, value string }

// summaryNumbers reads the numbers of a summary.json in document order:
// the top level's (schema and configuration echo aside) and the metrics',
// nested objects' names joined by '_'. Lists are left out (the per-size
// buckets are in comparison and flows tables).
func summaryNumbers(path string) ([]namedNumber, error) {
	b, err := limits.ReadFile(path, "a "+runfolder.SummaryFile, limits.MaxRunJSONBytes, true)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out []namedNumber
	var walk func(prefix string, top bool) error
	walk = func(prefix string, top bool) error {
		// The opening '{' has been read.
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := tok.(string)
			name := key
			if prefix != "" {
				name = prefix + "_" + key
			}
			tok, err = dec.Token()
			if err != nil {
				return err
			}
			switch v := tok.(type) {
			case json.Number:
				if !(top && key == "seed") { // the seed is an input, an axis or the base's
					out = append(out, namedNumber{name, v.String()})
				}
			case json.Delim:
				switch {
				case v == '{' && top && key == "metrics":
					if err := walk("", false); err != nil {
						return err
					}
				case v == '{' && !top:
					if err := walk(name, false); err != nil {
						return err
					}
				default:
					if err := skip(dec, v); err != nil {
						return err
					}
				}
			}
		}
		_, err := dec.Token() // the closing '}'
		return err
	}
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%s: not a JSON object", path)
	}
	if err := walk("", true); err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return out, nil
}

// skip reads past the value that opened with d.
func skip(dec *json.Decoder, d json.Delim) error {
	if d != '{' && d != '[' {
		return nil
	}
	depth := 1
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if t, ok := tok.(json.Delim); ok {
			switch t {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
	}
	return nil
}

// WriteParquet writes the table to path atomically, with Arrow's Parquet
// writer (one row group, Snappy): the same table gives the same bytes.
func (t *Table) WriteParquet(path string) error {
	fields := make([]arrow.Field, len(t.Columns))
	for i, c := range t.Columns {
		var dt arrow.DataType
		switch c.Kind {
		case Int64:
			dt = arrow.PrimitiveTypes.Int64
		case Float64:
			dt = arrow.PrimitiveTypes.Float64
		default:
			dt = arrow.BinaryTypes.String
		}
		fields[i] = arrow.Field{Name: c.Name, Type: dt, Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, c := range t.Columns {
		for _, v := range c.Values {
			if v == nil {
				b.Field(i).AppendNull()
				continue
			}
			switch fb := b.Field(i).(type) {
			case *array.Int64Builder:
				fb.Append(v.(int64))
			case *array.Float64Builder:
				f := v.(float64)
				if math.IsNaN(f) {
					fb.AppendNull()
				} else {
					fb.Append(f)
				}
			case *array.StringBuilder:
				fb.Append(v.(string))
			}
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithCreatedBy(cmp.Or(t.Tool, "ccreplay batch")))
	fw, err := pqarrow.NewFileWriter(schema, &buf, props, pqarrow.DefaultWriterProps())
	if err != nil {
		return err
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return output.WriteFileAtomic(path, buf.Bytes())
}

// String names the type as Parquet readers show it.
func (k ColumnKind) String() string {
	return [...]string{"int64", "float64", "string"}[k]
}
