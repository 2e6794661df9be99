package duckdbcheck

import (
	"bytes"
	"database/sql"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" database/sql driver

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/runfolder"
)

// Paths relative to this package's folder.
const (
	repoRoot   = "../.."
	sqlDir     = "../../notebooks/sql"
	notebooks  = "../../notebooks"
	sharedData = "../../../shared/data" // the repo's ../shared/data
)

var (
	workDir string // temporary folder holding the CLI and every run
	cliPath string // the ccreplay binary built from the main module
)

// TestMain builds the CLI once from the main module, so that the runs are
// made by the binary users get (the main module's go.mod, no cgo).
func TestMain(m *testing.M) {
	code := func() int {
		dir, err := os.MkdirTemp("", "ccreplay-duckdb-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "tests/duckdb:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		workDir = dir
		cliPath = filepath.Join(dir, "ccreplay")
		if runtime.GOOS == "windows" {
			cliPath += ".exe"
		}
		if err := buildCLI(cliPath); err != nil {
			fmt.Fprintln(os.Stderr, "tests/duckdb: building the CLI:", err)
			return 1
		}
		return m.Run()
	}()
	os.Exit(code)
}

// goTool is the go command running these tests.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// buildCLI builds ./cmd/ccreplay of the main module into out. NB: GOFLAGS
// is reset so that this module's -mod=mod never touches the main go.mod.
func buildCLI(out string) error {
	cmd := exec.Command(goTool(), "build", "-o", out, "./cmd/ccreplay")
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly -buildvcs=false")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// ccreplay runs the CLI with args in workDir and returns its stdout.
func ccreplay(t testing.TB, args ...string) []byte {
	t.Helper()
	out, err := ccreplayErr(args...)
	if err != nil {
		t.Fatalf("ccreplay %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// ccreplayErr is ccreplay returning the error (with stderr) instead.
func ccreplayErr(args ...string) ([]byte, error) {
	cmd := exec.Command(cliPath, args...)
	cmd.Dir = workDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// hasSubcommand reports whether the CLI has the subcommand name.
func hasSubcommand(name string) bool {
	out, err := ccreplayErr("help")
	if err != nil {
		return false
	}
	return regexp.MustCompile(`(?m)^\s+` + regexp.QuoteMeta(name) + `\s`).Match(out)
}

// openDB opens an in-memory DuckDB with one connection, so that variables
// set with SET VARIABLE stay visible to the next statement.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// Row is one result row by column name.
type Row map[string]any

// queryRows runs q and returns its rows and column names.
func queryRows(t testing.TB, db *sql.DB, q string, args ...any) ([]Row, []string) {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("query %s: %v", firstLine(q), err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []Row
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("query %s: %v", firstLine(q), err)
		}
		r := Row{}
		for i, c := range cols {
			r[c] = vals[i]
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("query %s: %v", firstLine(q), err)
	}
	return out, cols
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// notebookSQL runs notebooks/sql/NAME.sql exactly as the notebooks do:
// every parameter is set with SET VARIABLE, then the file's text runs as
// is. It checks that the file's "-- params:" header names every variable
// the query reads and that vars gives each of them.
func notebookSQL(t testing.TB, db *sql.DB, name string, vars map[string]any) ([]Row, []string) {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(sqlDir, name+".sql"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range sqlParams(string(text)) {
		if _, ok := vars[v]; !ok {
			t.Fatalf("%s.sql needs variable %q", name, v)
		}
	}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, err := db.Exec("SET VARIABLE "+k+" = ?", vars[k]); err != nil {
			t.Fatalf("SET VARIABLE %s: %v", k, err)
		}
	}
	return queryRows(t, db, string(text))
}

var getvariable = regexp.MustCompile(`getvariable\('([a-z_]+)'\)`)

// sqlParams is the sorted set of variables a query reads.
func sqlParams(text string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range getvariable.FindAllStringSubmatch(text, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	sort.Strings(out)
	return out
}

// manifest is a run's summary.json as runfolder reads it, with its
// metrics decoded.
type manifest struct {
	*runfolder.Manifest
	Metrics metrics.Summary
}

func readManifest(t testing.TB, dir string) manifest {
	t.Helper()
	rf, err := runfolder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := metrics.DecodeSummary(rf.Manifest.Metrics)
	if err != nil {
		t.Fatalf("%s: %v", rf.Path(runfolder.SummaryFile), err)
	}
	return manifest{rf.Manifest, sum}
}

// Tolerance of floating-point metrics that DuckDB sums in another order
// than metrics.Compute (means, fairness indices, goodput): relative 1e-9,
// absolute 1e-9 around 0. Integers, percentiles, minima and maxima (one of
// the values, or the same operations on one row) must be equal exactly.
const relTol = 1e-9

// exactFloat names float metrics that must match bit for bit.
var exactFloat = regexp.MustCompile(`(_p[0-9]+|_max|_min)$`)

// compareValue checks a DuckDB value got against the Go value want of the
// metric name and returns a description of the mismatch, or "".
func compareValue(name string, got any, want reflect.Value) string {
	switch want.Kind() {
	case reflect.Int64, reflect.Int32, reflect.Int:
		g, ok := asInt(got)
		if !ok {
			return fmt.Sprintf("%s: DuckDB gave %T %v, want an integer %d", name, got, got, want.Int())
		}
		if g != want.Int() {
			return fmt.Sprintf("%s: DuckDB %d, ccreplay %d", name, g, want.Int())
		}
	case reflect.Float64:
		g, ok := got.(float64)
		if !ok {
			return fmt.Sprintf("%s: DuckDB gave %T %v, want a DOUBLE %v", name, got, got, want.Float())
		}
		w := want.Float()
		if exactFloat.MatchString(name) {
			if g != w {
				return fmt.Sprintf("%s: DuckDB %v, ccreplay %v (must be equal)", name, g, w)
			}
			return ""
		}
		if math.Abs(g-w) > relTol*math.Max(1, math.Abs(w)) {
			return fmt.Sprintf("%s: DuckDB %v, ccreplay %v (tolerance %g relative)", name, g, w, relTol)
		}
	default:
		return fmt.Sprintf("%s: cannot compare Go kind %s", name, want.Kind())
	}
	return ""
}

// asInt converts DuckDB's integer results to int64.
func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int16:
		return int64(x), true
	case int8:
		return int64(x), true
	case *big.Int:
		if x.IsInt64() {
			return x.Int64(), true
		}
	}
	return 0, false
}

// jsonFields maps the json names of a struct's fields to their values.
func jsonFields(v any) map[string]reflect.Value {
	rv := reflect.ValueOf(v)
	out := map[string]reflect.Value{}
	for i := 0; i < rv.NumField(); i++ {
		name, _, _ := strings.Cut(rv.Type().Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[name] = rv.Field(i)
		}
	}
	return out
}

// checkRowAgainst compares every column of got that names a field of want
// (a struct with json tags) and fails on mismatches. It returns how many
// columns it compared; columns with no such field are an error unless
// listed in extra.
func checkRowAgainst(t testing.TB, what string, got Row, cols []string, want any, extra ...string) int {
	t.Helper()
	fields := jsonFields(want)
	n := 0
	for _, c := range cols {
		f, ok := fields[c]
		if !ok {
			if !contains(extra, c) {
				t.Errorf("%s: column %q is not a field of %T", what, c, want)
			}
			continue
		}
		if msg := compareValue(c, got[c], f); msg != "" {
			t.Errorf("%s: %s", what, msg)
		}
		n++
	}
	return n
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// once memoizes a fixture: build runs on first use; every later caller gets
// the same folder, or is failed with the same error.
type once struct {
	o   sync.Once
	dir string
	err error
}

func (f *once) get(t testing.TB, build func() (string, error)) string {
	t.Helper()
	f.o.Do(func() { f.dir, f.err = build() })
	if f.err != nil {
		t.Fatal(f.err)
	}
	return f.dir
}
