package duckdbcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// notebookFile is the part of an nbformat v4 notebook the checks read.
type notebookFile struct {
	NBFormat      int            `json:"nbformat"`
	NBFormatMinor int            `json:"nbformat_minor"`
	Metadata      map[string]any `json:"metadata"`
	Cells         []struct {
		CellType       string          `json:"cell_type"`
		ID             string          `json:"id"`
		Metadata       map[string]any  `json:"metadata"`
		Source         json.RawMessage `json:"source"`
		ExecutionCount *int            `json:"execution_count"`
		Outputs        []any           `json:"outputs"`
	} `json:"cells"`
}

// source joins a cell's source, a string or a list of strings in nbformat.
func source(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []string
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("source is neither a string nor a list of strings")
	}
	return strings.Join(parts, ""), nil
}

func notebookPaths(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(notebooks, "*.ipynb"))
	if err != nil || len(paths) < 3 {
		t.Fatalf("want at least 3 notebooks in notebooks/, found %v (%v)", paths, err)
	}
	return paths
}

var (
	cellID     = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	sqlCall    = regexp.MustCompile(`\bq\("([a-z0-9_]+)"`)
	quotedName = regexp.MustCompile(`"([a-z0-9_]+)"`)
	cellParams = regexp.MustCompile(`\bq\("[a-z0-9_]+"((?:, *[a-z_]+=[^,)]+)*)\)`)
)

// TestNotebooksStructure checks every notebook against the nbformat 4.5
// structure in Go (this always runs): kernelspec, cell types, unique cell
// ids, clean code cells (no stored outputs or execution counts), and that
// the SQL files the notebooks run exist, each is run by some notebook and
// by some test of this package.
func TestNotebooksStructure(t *testing.T) {
	usedByNotebooks := map[string]bool{}
	for _, p := range notebookPaths(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var nb notebookFile
		if err := json.Unmarshal(b, &nb); err != nil {
			t.Errorf("%s: not JSON: %v", p, err)
			continue
		}
		if nb.NBFormat != 4 || nb.NBFormatMinor < 5 {
			t.Errorf("%s: nbformat %d.%d, want 4.5+", p, nb.NBFormat, nb.NBFormatMinor)
		}
		if _, ok := nb.Metadata["kernelspec"]; !ok {
			t.Errorf("%s: no metadata.kernelspec", p)
		}
		ids := map[string]bool{}
		code := 0
		for i, c := range nb.Cells {
			where := fmt.Sprintf("%s cell %d", p, i)
			if !cellID.MatchString(c.ID) || ids[c.ID] {
				t.Errorf("%s: id %q missing, malformed or repeated", where, c.ID)
			}
			ids[c.ID] = true
			if c.Metadata == nil {
				t.Errorf("%s: no metadata object", where)
			}
			src, err := source(c.Source)
			if err != nil {
				t.Errorf("%s: %v", where, err)
			}
			switch c.CellType {
			case "code":
				code++
				if c.ExecutionCount != nil || len(c.Outputs) != 0 {
					t.Errorf("%s: stored outputs or execution count: notebooks are committed clean", where)
				}
				for _, m := range sqlCall.FindAllStringSubmatch(src, -1) {
					usedByNotebooks[m[1]] = true
					if _, err := os.Stat(filepath.Join(sqlDir, m[1]+".sql")); err != nil {
						t.Errorf("%s: runs sql/%s.sql, which does not exist", where, m[1])
					}
				}
				for _, m := range cellParams.FindAllStringSubmatch(src, -1) {
					checkCellParams(t, where, m[0])
				}
			case "markdown", "raw":
				if c.Outputs != nil || c.ExecutionCount != nil {
					t.Errorf("%s: a %s cell with outputs", where, c.CellType)
				}
			default:
				t.Errorf("%s: cell type %q", where, c.CellType)
			}
		}
		if code == 0 {
			t.Errorf("%s: no code cells", p)
		}
	}
	usedByTests := goTestSQLCalls(t)
	files, _ := filepath.Glob(filepath.Join(sqlDir, "*.sql"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".sql")
		if !usedByNotebooks[name] {
			t.Errorf("sql/%s.sql is run by no notebook", name)
		}
		if !usedByTests[name] {
			t.Errorf("sql/%s.sql is checked by no test in tests/duckdb", name)
		}
		text, _ := os.ReadFile(f)
		header := headerParams(string(text))
		if got := strings.Join(sqlParams(string(text)), ","); got != header {
			t.Errorf("sql/%s.sql reads variables %q, its '-- params:' line names %q", name, got, header)
		}
	}
}

// checkCellParams checks that a q(...) call passes exactly the variables
// its SQL file reads.
func checkCellParams(t *testing.T, where, call string) {
	name := sqlCall.FindStringSubmatch(call)[1]
	text, err := os.ReadFile(filepath.Join(sqlDir, name+".sql"))
	if err != nil {
		return // reported above
	}
	var passed []string
	for _, kv := range regexp.MustCompile(`([a-z_]+)=`).FindAllStringSubmatch(call, -1) {
		passed = append(passed, kv[1])
	}
	sort.Strings(passed)
	if got, want := strings.Join(passed, ","), strings.Join(sqlParams(string(text)), ","); got != want {
		t.Errorf("%s: %s passes %q, sql/%s.sql reads %q", where, call, got, name, want)
	}
}

// headerParams reads "-- params: run (...), bin_ns (...)" as "bin_ns,run".
func headerParams(text string) string {
	m := regexp.MustCompile(`(?m)^-- params: (.*)$`).FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	var names []string
	for _, n := range regexp.MustCompile(`(?:^|, )([a-z_]+) \(`).FindAllStringSubmatch(m[1], -1) {
		names = append(names, n[1])
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

// goTestSQLCalls is the set of SQL files whose name this package's tests
// quote as a string ("run_flow_metrics"), i.e. pass to notebookSQL.
func goTestSQLCalls(t *testing.T) map[string]bool {
	files, _ := filepath.Glob("*_test.go")
	out := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range quotedName.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = true
		}
	}
	return out
}

// python returns the first Python 3 that can import every module, "" if
// none: the one on PATH, then Debian's (where apt's python3-* packages go).
func python(modules ...string) string {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		cmd := exec.Command(py, "-c", "import "+strings.Join(modules, ", "))
		if cmd.Run() == nil {
			return py
		}
	}
	return ""
}

// TestNotebooksNBFormat validates the notebooks with the reference
// validator (Python nbformat, Debian's python3-nbformat) and compiles every
// code cell with Python, when they are installed; otherwise it says so and
// TestNotebooksStructure's Go check is all there is.
func TestNotebooksNBFormat(t *testing.T) {
	py := python("nbformat")
	if py == "" {
		t.Skip("NOT VALIDATED with nbformat: no Python with the nbformat module (apt-get install python3-nbformat); only the Go structural check (TestNotebooksStructure) ran")
	}
	script := `import ast, sys, nbformat
for path in sys.argv[1:]:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for i, c in enumerate(nb.cells):
        if c.cell_type == "code":
            ast.parse(c.source, filename="%s cell %d" % (path, i))
`
	cmd := exec.Command(py, append([]string{"-c", script}, notebookPaths(t)...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Errorf("nbformat validation (%s): %v\n%s", py, err, stderr.String())
	}
}

// TestNotebooksExecute runs every notebook top to bottom with
// jupyter nbconvert against this package's runs, when a Python with DuckDB
// and pandas and nbconvert exists; otherwise it says why it could not.
func TestNotebooksExecute(t *testing.T) {
	py := python("duckdb", "pandas", "nbconvert", "ipykernel")
	if py == "" {
		t.Skip("NOTEBOOKS NOT EXECUTED: no Python that imports duckdb, pandas, nbconvert and ipykernel " +
			"(Debian has no python3-duckdb or python3-pyarrow, so nothing here reads Parquet from Python); " +
			"their SQL files were run through duckdb-go by the other tests of this package")
	}
	sqlAbs, _ := filepath.Abs(sqlDir)
	out := t.TempDir()
	for _, p := range notebookPaths(t) {
		cmd := exec.Command(py, "-m", "nbconvert", "--to", "notebook", "--execute",
			"--ExecutePreprocessor.timeout=120", "--output-dir", out, p)
		cmd.Dir = workDir
		cmd.Env = append(os.Environ(),
			"CCREPLAY_BIN="+cliPath, "CCREPLAY_SQL="+sqlAbs,
			"CCREPLAY_RUN="+getPFC(t), "CCREPLAY_CMP="+getCompare(t),
			"CCREPLAY_DECISIONS="+decisionsForNotebook(t))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("executing %s: %v\n%s", p, err, stderr.String())
		}
	}
}

// decisionsForNotebook is a decisions.parquet for the training notebook:
// a real one when `ccreplay dataset` exists, else the rows of
// syntheticDecisions.
func decisionsForNotebook(t *testing.T) string {
	out := filepath.Join(workDir, "nb-dataset")
	if hasSubcommand("dataset") {
		if _, err := ccreplayErr("dataset", "--workload", incastSpec, "--cca", "dcqcn", "--out", out); err == nil {
			return filepath.Join(out, runfolder.DecisionsFile)
		}
	}
	return writeSyntheticDecisions(t)
}
