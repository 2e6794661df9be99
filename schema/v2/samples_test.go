package v2_test

// The committed samples of schema version 2 (docs/OUTPUTS.md,
// "Versioning": "a tiny sample of every file kind of each version is
// committed" and read back by this test).
//
// testdata/<kind>.parquet holds a few rows of each file kind and
// testdata/<kind>.json the same rows as JSON. They come from a real run
// (a 2-to-1 incast of 3 KB flows under DCQCN, --packets all, seed 1) and
// are regenerated, after a deliberate change only, with (links.parquet:
// the same scenario through ccreplay estimate)
//
//	go test ./schema/v2 -run TestSample -update
//
// The test reads every sample back with Apache Arrow (metrics/arrowread)
// and with parquet-go (the writer's library), compares the rows with the
// JSON twin, checks the version metadata, and checks that a file written
// today has the same columns (name, physical and logical type, encodings)
// as the committed one: a column is never renamed or retyped within v2.
//
// decisions.parquet and learning.parquet have writers of their own
// (rl/dataset, rl/train) and NaN cells, which JSON cannot hold; their
// samples are the first rows of files made by the CLI,
//
//	ccreplay dataset --workload incast:n=4,size=200KB --cca dcqcn --reward all -o /tmp/ds
//	ccreplay train rlcc --episodes 3 --duration 200us --flows 2 -o /tmp/tr
//	go test ./schema/v2 -run TestSample -update \
//	    -decisions /tmp/ds/decisions.parquet -learning /tmp/tr/learning.parquet
//
// and TestSampleDatasets reads them back with parquet-go (typed) and Arrow
// (untyped: columns and row count), with the same schema check. So are
// the files of train fdcc and of netcalc (its curves and events with
// --format parquet, and the model beside the replay with --compare):
//
//	ccreplay train fdcc --curriculum 2 --episodes-per-stage 2 --duration 200us \
//	    --updates 2 --batch 32 --seed 1 -o /tmp/fd
//	ccreplay netcalc --workload incast:n=4,size=100KB --cca dcqcn --compare --out /tmp/nc
//	go test ./schema/v2 -run TestSampleDatasets -update \
//	    -fdcc-learning /tmp/fd/learning.parquet -netcalc /tmp/nc

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/metrics"

	"github.com/apache/arrow/go/v16/parquet/file"
	"github.com/parquet-go/parquet-go"

	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/estimate"
	"github.com/ccreplay/ccreplay/internal/replaytest/star"
	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/metrics/arrowread"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

var (
	update    = flag.Bool("update", false, "regenerate testdata/*.parquet and *.json from a tiny run")
	decisions = flag.String("decisions", "", "with -update: a "+runfolder.DecisionsFile+" to take testdata/"+runfolder.DecisionsFile+" from")
	learning  = flag.String("learning", "", "with -update: a "+runfolder.LearningFile+" to take testdata/"+runfolder.LearningFile+" from")
	netcalc   = flag.String("netcalc", "", "with -update: a ccreplay netcalc --compare folder to take testdata/netcalc_*.parquet from")
	fdccLearn = flag.String("fdcc-learning", "", "with -update: a train fdcc "+runfolder.LearningFile+" to take testdata/fdcc_learning.parquet from")
)

// inNetcalc is name in the -netcalc folder, or "" without one.
func inNetcalc(name string) *string {
	p := ""
	if *netcalc != "" {
		p = filepath.Join(*netcalc, name)
	}
	return &p
}

// sampleRows bounds the rows of each sample.
const sampleRows = 12

// sample is one committed file kind: how to read it back with Arrow and
// parquet-go, and how to write rows of it.
type sample struct {
	kind      string
	readArrow func(path string) (any, error)
	readPQ    func(path string) (any, error)
	write     func(path string, rows any) error
	decode    func(b []byte) (any, error)
}

func newSample[T any](kind string, readArrow func(string) ([]T, error)) sample {
	return sample{
		kind:      kind,
		readArrow: func(p string) (any, error) { return readArrow(p) },
		readPQ:    func(p string) (any, error) { return parquet.ReadFile[T](p) },
		write:     func(p string, rows any) error { return output.WriteRows(p, rows.([]T)) },
		decode: func(b []byte) (any, error) {
			var rows []T
			err := json.Unmarshal(b, &rows)
			return rows, err
		},
	}
}

func scanPackets(path string) ([]v2.PacketRow, error) {
	var rows []v2.PacketRow
	err := arrowread.ScanPackets(path, func(r *v2.PacketRow) error {
		rows = append(rows, *r)
		return nil
	})
	return rows, err
}

var samples = []sample{
	newSample("packets", scanPackets),
	newSample("flows", arrowread.ReadFlows),
	newSample("messages", arrowread.ReadMessages),
	newSample("ports", arrowread.ReadPorts),
	newSample("comparison", arrowread.ReadComparison),
	newSample("links", arrowread.ReadLinks),
}

func TestSamples(t *testing.T) {
	if *update {
		writeSamples(t)
	}
	for _, s := range samples {
		t.Run(s.kind, func(t *testing.T) {
			path := filepath.Join("testdata", s.kind+".parquet")
			want, err := os.ReadFile(filepath.Join("testdata", s.kind+".json"))
			if err != nil {
				t.Fatalf("%v (regenerate with -update)", err)
			}
			wantRows, err := s.decode(want)
			if err != nil {
				t.Fatal(err)
			}
			if n := reflect.ValueOf(wantRows).Len(); n == 0 || n > sampleRows {
				t.Errorf("%d rows in the sample, want 1..%d", n, sampleRows)
			}
			arrowRows, err := s.readArrow(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(arrowRows, wantRows) {
				t.Errorf("Arrow read:\n got %+v\nwant %+v", arrowRows, wantRows)
			}
			pqRows, err := s.readPQ(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(pqRows, wantRows) {
				t.Errorf("parquet-go read:\n got %+v\nwant %+v", pqRows, wantRows)
			}

			// The columns a writer of today produces are those of the
			// committed file.
			fresh := filepath.Join(t.TempDir(), s.kind+".parquet")
			if err := s.write(fresh, wantRows); err != nil {
				t.Fatal(err)
			}
			committed, now := describe(t, path), describe(t, fresh)
			if committed != now {
				t.Errorf("the schema of %s changed within %s:\ncommitted:\n%s\nnow:\n%s", s.kind, v2.Version, committed, now)
			}
			if !strings.Contains(committed, "metadata "+v2.MetadataKey+"="+v2.Version) {
				t.Errorf("committed sample lacks the version metadata:\n%s", committed)
			}
		})
	}
}

// describe lists a Parquet file's version metadata and, per column, its
// name, physical and logical type, repetition and the encodings of its
// first column chunk.
func describe(t *testing.T, path string) string {
	t.Helper()
	r, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var b strings.Builder
	md := r.MetaData()
	if v := md.KeyValueMetadata().FindValue(v2.MetadataKey); v != nil {
		fmt.Fprintf(&b, "metadata %s=%s\n", v2.MetadataKey, *v)
	}
	sch := md.Schema
	for i := range sch.NumColumns() {
		c := sch.Column(i)
		fmt.Fprintf(&b, "%s %s %s %s", c.Name(), c.PhysicalType(), c.LogicalType(), c.SchemaNode().RepetitionType())
		if r.NumRowGroups() > 0 {
			cc, err := md.RowGroup(0).ColumnChunk(i)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, " %v", cc.Encodings())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// writeSamples runs the tiny scenario and writes the first sampleRows rows
// of each file kind, and the comparison rows of its summary.
func writeSamples(t *testing.T) {
	t.Helper()
	tr := star.Workload(t, "incast:n=2,size=3KB")
	cfg := star.Config(t, tr, star.Spec(t, "dcqcn", nil, dcqcn.Register))
	cfg.Packets = replay.PacketsAll
	dir := t.TempDir()
	res, _, err := runner.Run(context.Background(), &runner.Scenario{Config: &cfg, Trace: tr}, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	packets, err := scanPackets(filepath.Join(dir, runfolder.PacketsFile))
	if err != nil {
		t.Fatal(err)
	}
	s := metrics.Compute(res.Flows, res.Messages, res.Ports, metrics.Options{})
	comparison := []v2.ComparisonRow{{
		CCA: cfg.CC.Name, Seed: 1, Bucket: -1, SizeMinBytes: s.Buckets[0].SizeMinBytes, SizeMaxBytes: s.Buckets[len(s.Buckets)-1].SizeMaxBytes,
		Flows: s.Flows, FlowsFinished: s.FlowsFinished, FCTP50Ns: s.FCTP50Ns, FCTP95Ns: s.FCTP95Ns, FCTP99Ns: s.FCTP99Ns,
		SlowdownP50: s.SlowdownP50, SlowdownP95: s.SlowdownP95, SlowdownP99: s.SlowdownP99,
		MCTP50Ns: s.MCTP50Ns, MCTP99Ns: s.MCTP99Ns, CCTMeanNs: s.CCTMeanNs, ECNRatio: s.ECNRatio,
		UnfairRatio: s.UnfairRatio, JainIndex: s.JainIndex, GoodputBps: s.GoodputBps, QLenMaxBytes: s.QLenMaxBytes,
		QLenP99Bytes: s.QLenP99Bytes, PFCPauseFrac: s.PFCPauseFraction, DropsPkts: s.DropsPkts, SimDurationNs: s.SimDurationNs,
	}}
	for i, bk := range s.Buckets {
		row := comparison[0]
		row.Bucket, row.SizeMinBytes, row.SizeMaxBytes, row.Flows, row.FlowsFinished = int32(i), bk.SizeMinBytes, bk.SizeMaxBytes, bk.Flows, bk.FlowsFinished
		row.FCTP50Ns, row.FCTP95Ns, row.FCTP99Ns = bk.FCTP50Ns, bk.FCTP95Ns, bk.FCTP99Ns
		row.SlowdownP50, row.SlowdownP95, row.SlowdownP99 = bk.SlowdownP50, bk.SlowdownP95, bk.SlowdownP99
		comparison = append(comparison, row)
	}
	// links.parquet: the same scenario estimated by link simulations.
	cfg.Packets = replay.PacketsNone
	est, err := estimate.Run(context.Background(), cfg, tr, estimate.Options{Tolerance: estimate.DefaultTolerance})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]any{
		"packets": head(packets), "flows": head(res.Flows), "messages": head(res.Messages),
		"ports": head(res.Ports), "comparison": head(comparison), "links": head(est.Links),
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, smp := range samples {
		if err := smp.write(filepath.Join("testdata", smp.kind+".parquet"), rows[smp.kind]); err != nil {
			t.Fatal(err)
		}
		if err := output.WriteJSONAtomic(filepath.Join("testdata", smp.kind+".json"), rows[smp.kind]); err != nil {
			t.Fatal(err)
		}
	}
}

// head returns at most sampleRows rows.
func head[T any](rows []T) []T { return rows[:min(len(rows), sampleRows)] }

// datasetSample is a sample checked without a JSON twin.
type datasetSample struct {
	kind  string
	from  *string                               // -update source file
	cut   func(src, dst string) (int, error)    // copies the first sampleRows rows
	check func(t *testing.T, path string) []any // reads the rows with parquet-go
	write func(path string, rows []any) error
}

func newDatasetSample[T any](kind string, from *string) datasetSample {
	return datasetSample{
		kind: kind,
		from: from,
		cut: func(src, dst string) (int, error) {
			rows, err := parquet.ReadFile[T](src)
			if err != nil {
				return 0, err
			}
			rows = head(rows)
			return len(rows), output.WriteRows(dst, rows)
		},
		check: func(t *testing.T, path string) []any {
			rows, err := parquet.ReadFile[T](path)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]any, len(rows))
			for i := range rows {
				out[i] = rows[i]
			}
			return out
		},
		write: func(path string, rows []any) error {
			typed := make([]T, len(rows))
			for i := range rows {
				typed[i] = rows[i].(T)
			}
			return output.WriteRows(path, typed)
		},
	}
}

var datasetSamples = []datasetSample{
	newDatasetSample[v2.DecisionRow]("decisions", decisions),
	newDatasetSample[v2.LearningRow]("learning", learning),
	newDatasetSample[v2.FDCCLearningRow]("fdcc_learning", fdccLearn),
	newDatasetSample[v2.NetcalcCurveRow]("netcalc_curves", nil),
	newDatasetSample[v2.NetcalcEventRow]("netcalc_events", nil),
	newDatasetSample[v2.NetcalcCompareRow]("netcalc_compare", nil),
	newDatasetSample[v2.NetcalcFlowRow]("netcalc_compare_flows", nil),
}

// netcalcFiles are the files of a netcalc folder the netcalc samples come
// from.
var netcalcFiles = map[string]string{
	"netcalc_curves": runfolder.CurvesFile, "netcalc_events": runfolder.EventsFile,
	"netcalc_compare": runfolder.CompareFile, "netcalc_compare_flows": runfolder.CompareFlowsFile,
}

func TestSampleDatasets(t *testing.T) {
	for _, s := range datasetSamples {
		t.Run(s.kind, func(t *testing.T) {
			path := filepath.Join("testdata", s.kind+".parquet")
			from := s.from
			if name, ok := netcalcFiles[s.kind]; ok {
				from = inNetcalc(name)
			}
			if *update && *from != "" {
				n, err := s.cut(*from, path)
				if err != nil || n == 0 {
					t.Fatalf("sample from %s: %d rows, %v", *from, n, err)
				}
			}
			rows := s.check(t, path)
			if len(rows) == 0 || len(rows) > sampleRows {
				t.Fatalf("%d rows in the sample, want 1..%d", len(rows), sampleRows)
			}
			// Arrow reads the same rows and columns.
			cols, n := arrowTable(t, path)
			if n != int64(len(rows)) {
				t.Errorf("Arrow reads %d rows, parquet-go %d", n, len(rows))
			}
			fresh := filepath.Join(t.TempDir(), s.kind+".parquet")
			if err := s.write(fresh, rows); err != nil {
				t.Fatal(err)
			}
			// NB: %v prints NaN as NaN and floats in their shortest exact
			// form, so equal text means equal rows, NaN cells included.
			if a, b := fmt.Sprint(rows), fmt.Sprint(s.check(t, fresh)); a != b {
				t.Errorf("rows differ after a rewrite:\n%s\n%s", a, b)
			}
			committed, now := describe(t, path), describe(t, fresh)
			if committed != now {
				t.Errorf("the schema of %s changed within %s:\ncommitted:\n%s\nnow:\n%s", s.kind, v2.Version, committed, now)
			}
			if !strings.Contains(committed, "metadata "+v2.MetadataKey+"="+v2.Version) {
				t.Errorf("committed sample lacks the version metadata:\n%s", committed)
			}
			// The same rows give the same bytes: the writer of today
			// writes the committed file, root schema name included.
			if a, b := readBytes(t, path), readBytes(t, fresh); !bytes.Equal(a, b) {
				t.Errorf("rewriting the %d rows of %s gives other bytes (%d, committed %d)", len(rows), path, len(b), len(a))
			}
			if want := strings.Count(committed, "\n") - 1; len(cols) != want {
				t.Errorf("Arrow sees %d columns, the file has %d", len(cols), want)
			}
		})
	}
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// arrowTable reads a Parquet file whole with pqarrow and returns its column
// names and row count.
func arrowTable(t *testing.T, path string) ([]string, int64) {
	t.Helper()
	tbl, _ := testfiles.ArrowTable(t, path, "")
	defer tbl.Release()
	var names []string
	for _, fld := range tbl.Schema().Fields() {
		names = append(names, fld.Name)
	}
	return names, tbl.NumRows()
}
