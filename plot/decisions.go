package plot

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v16/arrow/array"
	"github.com/apache/arrow/go/v16/arrow/memory"
	"github.com/apache/arrow/go/v16/parquet"
	"github.com/apache/arrow/go/v16/parquet/file"
	"github.com/apache/arrow/go/v16/parquet/pqarrow"

	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// decision is one rate decision of a flow's algorithm.
type decision struct {
	tNs     int64   // when it was taken, ns
	rateBps float64 // the new sending rate, bit/s
}

// decisionCols are the columns of decisions.parquet the rate view reads.
// NB: metrics/arrowread has no reader for this file (yet); this one reads
// only these three columns, streamed in record batches like arrowread.
var decisionCols = [3]string{"t_ns", "flow_id", "new_rate_bps"}

// readDecisions returns, for each flow in want, its decisions in file
// order. t_ns and flow_id must be int64, new_rate_bps int64 or double,
// none null; the file must carry ccreplay's schema version.
//
// NB: arrow v16 panics on some corrupt pages ("snappy: corrupt input"
// from a damaged file whose footer is intact, found by FuzzReadDecisions);
// that becomes an error naming the file.
func readDecisions(path string, want map[int64]bool) (m map[int64][]decision, err error) {
	defer func() {
		if p := recover(); p != nil {
			m, err = nil, fmt.Errorf("%s: corrupt data: %v", path, p)
		}
	}()
	return decodeDecisions(path, want)
}

// decodeDecisions is readDecisions without the recovery.
func decodeDecisions(path string, want map[int64]bool) (map[int64][]decision, error) {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%s: "+format, append([]any{path}, a...)...)
	}
	in, err := limits.Open(path, "a run's "+runfolder.DecisionsFile, limits.MaxRunParquetBytes, true)
	if err != nil {
		return nil, fmt.Errorf("decisions: %w", err)
	}
	f := in.File
	defer f.Close()
	props := parquet.NewReaderProperties(memory.DefaultAllocator)
	props.BufferedStreamEnabled = true
	pf, err := file.NewParquetReader(f, file.WithReadProps(props))
	if err != nil {
		return nil, fail("not a Parquet file: %v", err)
	}
	defer pf.Close()
	if v := pf.MetaData().KeyValueMetadata().FindValue(v2.MetadataKey); v == nil || *v != v2.Version {
		got := "none"
		if v != nil {
			got = fmt.Sprintf("%q", *v)
		}
		return nil, fail("schema version %s, want %q", got, v2.Version)
	}
	var leaves []int
	for _, name := range decisionCols {
		i := pf.MetaData().Schema.ColumnIndexByName(name)
		if i < 0 {
			return nil, fail("missing column %q", name)
		}
		leaves = append(leaves, i)
	}
	out := map[int64][]decision{}
	if pf.NumRows() == 0 {
		return out, nil
	}
	if err := arrowread.CheckChunks(pf, leaves); err != nil {
		return nil, fail("%v", err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 8192}, memory.DefaultAllocator)
	if err != nil {
		return nil, fail("%v", err)
	}
	rr, err := fr.GetRecordReader(context.Background(), leaves, nil)
	if err != nil {
		return nil, fail("%v", err)
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.Record()
		for k := range decisionCols {
			if n := rec.Column(k).NullN(); n > 0 {
				return nil, fail("column %q: %d null values", decisionCols[k], n)
			}
		}
		ts, ok1 := rec.Column(0).(*array.Int64)
		ids, ok2 := rec.Column(1).(*array.Int64)
		if !ok1 || !ok2 {
			return nil, fail("t_ns and flow_id must be int64, got %s and %s", rec.Column(0).DataType(), rec.Column(1).DataType())
		}
		var rate func(i int) float64
		switch c := rec.Column(2).(type) {
		case *array.Int64:
			rate = func(i int) float64 { return float64(c.Value(i)) }
		case *array.Float64:
			rate = c.Value
		default:
			return nil, fail("column %q is %s, want int64 or double", decisionCols[2], c.DataType())
		}
		for i := range int(rec.NumRows()) {
			id := ids.Value(i)
			if want[id] {
				out[id] = append(out[id], decision{tNs: ts.Value(i), rateBps: rate(i)})
			}
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, fail("%v", err)
	}
	return out, nil
}
