package duckdbcheck

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

// fileKinds are the Parquet files of a run folder and their row types.
var fileKinds = []struct {
	file string
	row  any
}{
	{runfolder.PacketsFile, v2.PacketRow{}},
	{runfolder.FlowsFile, v2.FlowRow{}},
	{runfolder.MessagesFile, v2.MessageRow{}},
	{runfolder.PortsFile, v2.PortRow{}},
}

// duckType is the DuckDB type a Go field of a schema/v1 row must read as.
func duckType(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "VARCHAR" // dictionary-encoded UTF-8, never BLOB or ENUM
	case reflect.Int64:
		return "BIGINT"
	case reflect.Int32:
		return "INTEGER"
	case reflect.Float64:
		return "DOUBLE"
	case reflect.Bool:
		return "BOOLEAN"
	}
	return "unsupported Go kind " + k.String()
}

// column is one line of DESCRIBE.
type column struct{ name, typ string }

// describe returns a Parquet file's columns as DuckDB reads them.
func describe(t testing.TB, db *sql.DB, path string) []column {
	t.Helper()
	rows, _ := queryRows(t, db, "describe select * from read_parquet(?, hive_partitioning = false)", path)
	var out []column
	for _, r := range rows {
		out = append(out, column{r["column_name"].(string), r["column_type"].(string)})
	}
	return out
}

// wantColumns lists a row type's parquet columns and DuckDB types in order.
func wantColumns(row any) []column {
	rt := reflect.TypeOf(row)
	var out []column
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("parquet"), ",")
		out = append(out, column{name, duckType(f.Type.Kind())})
	}
	return out
}

// checkColumns compares a file's DESCRIBE with its row type and the
// schema rules (docs/OUTPUTS.md, "Conventions"): no unsigned or 128-bit
// integers, times as BIGINT with _ns in the name, strings as VARCHAR.
func checkColumns(t *testing.T, db *sql.DB, path string, row any) {
	t.Helper()
	got := describe(t, db, path)
	want := wantColumns(row)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: DuckDB reads columns\n  %v\nwant (from %T)\n  %v", path, got, row, want)
	}
	checkTypeRules(t, path, got)
}

// checkTypeRules applies the schema rules to any column list.
func checkTypeRules(t *testing.T, path string, cols []column) {
	t.Helper()
	for _, c := range cols {
		switch {
		case strings.HasPrefix(c.typ, "U") || c.typ == "HUGEINT" || c.typ == "BLOB":
			t.Errorf("%s: column %s reads as %s: unsigned, 128-bit or binary columns surprise readers", path, c.name, c.typ)
		case strings.HasSuffix(c.name, "_mean_ns") && c.typ == "DOUBLE":
			// NB: a mean of nanoseconds is fractional (comparison.parquet's
			// cct_mean_ns, as summary.json's *_mean_ns); still ns by name.
		case strings.HasSuffix(c.name, "_ns") && c.typ != "BIGINT":
			t.Errorf("%s: time column %s reads as %s, want BIGINT nanoseconds", path, c.name, c.typ)
		case (strings.HasSuffix(c.name, "_bytes") || strings.HasSuffix(c.name, "_pkts")) && c.typ != "BIGINT" && c.typ != "DOUBLE":
			t.Errorf("%s: counter %s reads as %s, want BIGINT", path, c.name, c.typ)
		case strings.HasPrefix(c.typ, "TIMESTAMP") || strings.HasPrefix(c.typ, "DECIMAL"):
			t.Errorf("%s: column %s reads as %s, want plain int64/double", path, c.name, c.typ)
		}
	}
}

// checkMetadata checks the ccreplay.schema key/value metadata.
func checkMetadata(t *testing.T, db *sql.DB, path string) {
	t.Helper()
	rows, _ := queryRows(t, db,
		"select decode(key) as k, decode(value) as v from parquet_kv_metadata(?) where decode(key) = ?", path, v2.MetadataKey)
	if len(rows) != 1 || rows[0]["v"] != v2.Version {
		t.Errorf("%s: key/value metadata %s = %v, want one entry %q", path, v2.MetadataKey, rows, v2.Version)
	}
}

// count returns the rows of a Parquet file.
func count(t testing.TB, db *sql.DB, path string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow("select count(*) from read_parquet(?, hive_partitioning = false)", path).Scan(&n); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return n
}

// TestRunFilesReadByDuckDB opens every file of every run with DuckDB and
// checks column names and types against schema/v1, the schema metadata and
// the row counts against summary.json (packet_rows, flows, messages).
func TestRunFilesReadByDuckDB(t *testing.T) {
	runs := allRuns(t)
	names := make([]string, 0, len(runs))
	for n := range runs {
		names = append(names, n)
	}
	sort.Strings(names)
	db := openDB(t)
	for _, name := range names {
		dir := runs[name]
		t.Run(name, func(t *testing.T) {
			m := readManifest(t, dir)
			if m.SchemaVersion != v2.Version {
				t.Errorf(runfolder.SummaryFile+" schema_version %q, want %q", m.SchemaVersion, v2.Version)
			}
			for _, k := range fileKinds {
				path := filepath.Join(dir, k.file)
				if k.file == runfolder.PacketsFile && m.Packets == "none" {
					if _, err := os.Stat(path); err == nil {
						t.Errorf("%s written with --packets none", path)
					}
					continue
				}
				checkColumns(t, db, path, k.row)
				checkMetadata(t, db, path)
				n := count(t, db, path)
				var want int64 = -1
				switch k.file {
				case runfolder.PacketsFile:
					want = m.PacketRows
				case runfolder.FlowsFile:
					want = m.Metrics.Flows
				case runfolder.MessagesFile:
					want = m.Metrics.Messages
				case runfolder.PortsFile:
					// one row per egress port: each (node, port) once
					var distinct int64
					if err := db.QueryRow("select count(distinct (node, port)) from read_parquet(?)", path).Scan(&distinct); err != nil {
						t.Fatal(err)
					}
					want = distinct
				}
				if n != want || n == 0 {
					t.Errorf("%s: %d rows, want %d ("+runfolder.SummaryFile+") and > 0", path, n, want)
				}
			}
		})
	}
}

// TestPacketEnumsAreStrings checks that the dictionary-encoded enumerations
// of packets.parquet come back as the documented strings (schema/v1), and
// that the lossy, PFC and RL-CC runs hold every kind and event.
func TestPacketEnumsAreStrings(t *testing.T) {
	db := openDB(t)
	seen := map[string]bool{}
	for _, dir := range []string{getPFC(t), getLossy(t), getRLCC(t)} {
		rows, _ := queryRows(t, db, "select distinct event, kind from read_parquet(?) order by all",
			filepath.Join(dir, runfolder.PacketsFile))
		for _, r := range rows {
			seen["event="+r["event"].(string)] = true
			seen["kind="+r["kind"].(string)] = true
		}
	}
	var want []string
	for _, e := range []string{v2.EventDequeue, v2.EventDeliver, v2.EventDrop} {
		want = append(want, "event="+e)
	}
	for _, k := range []string{v2.KindData, v2.KindAck, v2.KindNack, v2.KindCNP, v2.KindPause, v2.KindResume, v2.KindRTTReq, v2.KindRTTResp} {
		want = append(want, "kind="+k)
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("no packet row with %s in the PFC and lossy runs", w)
		}
		delete(seen, w)
	}
	if len(seen) > 0 {
		t.Errorf("undocumented enumeration values: %v", seen)
	}
}

// TestComparisonFileReadByDuckDB checks comparison.parquet: types from
// v2.ComparisonRow, the schema metadata, one row per run and bucket (plus
// the run-wide bucket -1), and the algorithm names as resolved.
func TestComparisonFileReadByDuckDB(t *testing.T) {
	cmp := getCompare(t)
	db := openDB(t)
	path := filepath.Join(cmp, runfolder.ComparisonFile)
	checkColumns(t, db, path, v2.ComparisonRow{})
	checkMetadata(t, db, path)
	var want int64
	names := map[string]bool{}
	for _, d := range compareRunDirs(t, cmp) {
		m := readManifest(t, d)
		want += 1 + int64(len(m.Metrics.Buckets))
		// comparison.parquet names the algorithm as the run's folder does.
		names[strings.TrimPrefix(filepath.Base(filepath.Dir(d)), "cca=")] = true
	}
	if n := count(t, db, path); n != want {
		t.Errorf("%s: %d rows, want %d (1 + buckets per run)", path, n, want)
	}
	rows, _ := queryRows(t, db, "select distinct cca from read_parquet(?) order by cca", path)
	for _, r := range rows {
		if !names[r["cca"].(string)] {
			t.Errorf(runfolder.ComparisonFile+" cca %q is none of the runs' cca= partitions %v", r["cca"], names)
		}
		delete(names, r["cca"].(string))
	}
	if len(names) > 0 {
		t.Errorf("runs missing from "+runfolder.ComparisonFile+": %v", names)
	}
}

// TestHivePartitionsReadByDuckDB reads every run of the compare tree as one
// table, as the compare notebook does: cca and seed come from the folder
// names, and each partition's rows equal that run's flow count.
func TestHivePartitionsReadByDuckDB(t *testing.T) {
	cmp := getCompare(t)
	db := openDB(t)
	rows, _ := queryRows(t, db, `select cca::varchar as cca, seed::bigint as seed, count(*) as n
		from read_parquet(? || '/*/*/`+runfolder.FlowsFile+`', hive_partitioning = true) group by all order by all`, cmp)
	if len(rows) != len(compareRunDirs(t, cmp)) {
		t.Fatalf("hive read gave %d (cca, seed) groups, want %d runs", len(rows), len(compareRunDirs(t, cmp)))
	}
	for _, r := range rows {
		dir := filepath.Join(cmp, "cca="+r["cca"].(string), fmt.Sprintf("seed=%d", r["seed"]))
		m := readManifest(t, dir)
		if r["n"].(int64) != m.Metrics.Flows {
			t.Errorf("%s: %d flows in the hive read, "+runfolder.SummaryFile+" %d", dir, r["n"], m.Metrics.Flows)
		}
	}
}

// TestDecisionRowsReadByDuckDB writes rows of v2.DecisionRow with the
// writer every output uses (output.WriteRows) and checks that DuckDB reads
// decisions.parquet's schema as documented, NaN rewards included. A run's
// own decisions.parquet (from `ccreplay dataset`) is checked by
// TestDatasetFromCLI.
func TestDecisionRowsReadByDuckDB(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, runfolder.DecisionsFile)
	rows := syntheticDecisions()
	if err := output.WriteRows(path, rows); err != nil {
		t.Fatal(err)
	}
	db := openDB(t)
	checkColumns(t, db, path, v2.DecisionRow{})
	checkMetadata(t, db, path)
	if n := count(t, db, path); n != int64(len(rows)) {
		t.Errorf("%d rows read, %d written", n, len(rows))
	}
	var nan int64
	if err := db.QueryRow("select count(*) from read_parquet(?) where isnan(reward_fdcc)", path).Scan(&nan); err != nil {
		t.Fatal(err)
	}
	if nan != int64(len(rows)) {
		t.Errorf("reward_fdcc: %d NaN rows read back, %d written", nan, len(rows))
	}
}
