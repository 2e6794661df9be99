package archtest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The package table of docs/ARCHITECTURE.md ("## Packages") is the map a
// reader trusts; TestMapMatchesImports keeps it true. Each row names its
// packages in backquotes in the first column; its last column, "depends
// on", lists in backquotes the packages of this module they import (their
// non-test files), as ";"-separated segments: a segment that starts with
// "`PKG`:" lists PKG's own imports, any other segment the imports every
// package of the row shares. Text outside backquotes (notes, third-party
// modules) is prose, and "—" is no import. A cell that starts with
// "everything" (the CLI) or "the main module" (tests/duckdb) is not
// compared.

// mapRow is one row of the table: its packages and, per package, the
// imports the "depends on" column gives it.
type mapRow struct {
	line   int
	pkgs   []string
	deps   map[string][]string
	exempt bool
}

var backquoted = regexp.MustCompile("`([^`]+)`")

// readMap parses the package table of the architecture document at path.
func readMap(path string) ([]mapRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []mapRow
	in := false
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Packages"
			continue
		case !in || !strings.HasPrefix(line, "| `"):
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) < 3 {
			return nil, fmt.Errorf("%s:%d: a package row needs 3 columns, has %d", path, n, len(cells))
		}
		r := mapRow{line: n, deps: map[string][]string{}}
		for _, m := range backquoted.FindAllStringSubmatch(cells[0], -1) {
			r.pkgs = append(r.pkgs, m[1])
		}
		dep := strings.TrimSpace(cells[len(cells)-1])
		if strings.HasPrefix(dep, "everything") || strings.HasPrefix(dep, "the main module") {
			r.exempt = true
			rows = append(rows, r)
			continue
		}
		for _, p := range r.pkgs {
			r.deps[p] = []string{}
		}
		for _, seg := range strings.Split(dep, ";") {
			seg = strings.TrimSpace(seg)
			owners := r.pkgs
			if m := regexp.MustCompile("^`([^`]+)`:").FindStringSubmatch(seg); m != nil {
				if !slices.Contains(r.pkgs, m[1]) {
					return nil, fmt.Errorf("%s:%d: segment %q names %s, not a package of the row", path, n, seg, m[1])
				}
				owners = []string{m[1]}
				seg = seg[len(m[0]):]
			}
			for _, m := range backquoted.FindAllStringSubmatch(seg, -1) {
				for _, o := range owners {
					r.deps[o] = append(r.deps[o], m[1])
				}
			}
		}
		rows = append(rows, r)
	}
	return rows, sc.Err()
}

// TestMapMatchesImports: every package of the module has a row of the
// table, every package a row names exists, and the "depends on" column
// of each is exactly what its non-test files import from this module.
func TestMapMatchesImports(t *testing.T) {
	g := load(t)
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(root, "docs", "ARCHITECTURE.md")
	rows, err := readMap(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 20 {
		t.Fatalf("%s: %d package rows, want the whole module", doc, len(rows))
	}
	seen := map[string]int{}
	for _, r := range rows {
		for _, p := range r.pkgs {
			full := g.module + "/" + p
			if prev, dup := seen[full]; dup {
				t.Errorf("%s:%d: %s has a row already (line %d)", doc, r.line, p, prev)
			}
			seen[full] = r.line
			if p == "tests/duckdb" {
				continue // a module of its own
			}
			q := g.pkgs[full]
			if q == nil || !g.ourPkg(full) {
				t.Errorf("%s:%d: %s is not a package of %s", doc, r.line, p, g.module)
				continue
			}
			if r.exempt {
				continue
			}
			var got []string
			for _, im := range q.Imports {
				if g.ourPkg(im) {
					got = append(got, g.short(im))
				}
			}
			want := slices.Clone(r.deps[p])
			slices.Sort(got)
			slices.Sort(want)
			want = slices.Compact(want)
			if missing, extra := diff(got, want), diff(want, got); len(missing)+len(extra) > 0 {
				t.Errorf("%s:%d: %s: the \"depends on\" column lacks %v and lists %v that it does not import (go list: %v)",
					doc, r.line, p, missing, extra, got)
			}
		}
	}
	for _, p := range g.ours {
		if _, ok := seen[p]; !ok {
			t.Errorf("%s: no row for package %s", doc, g.short(p))
		}
	}
}

// diff lists the elements of a that b lacks (both sorted).
func diff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			out = append(out, x)
		}
	}
	return out
}

// TestReadMap checks the parser on a made-up table, so that a parsing bug
// cannot make TestMapMatchesImports pass vacuously.
func TestReadMap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "A.md")
	os.WriteFile(path, []byte("# x\n\n## Packages\n\n| package | owns | depends on |\n|---|---|---|\n"+
		"| `a` | x | — |\n"+
		"| `b`, `c` (+ `d`) | y | `a` (note); `c`: `b`, third-party/mod; `d`: — |\n"+
		"| `cmd` | z | everything |\n\n## Other\n\n| `e` | not a row | `a` |\n"), 0o644)
	rows, err := readMap(path)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(rows)
	want := "[{7 [a] map[a:[]] false} {8 [b c d] map[b:[a] c:[a b] d:[a]] false} {9 [cmd] map[] true}]"
	if got != want {
		t.Errorf("rows\n got %s\nwant %s", got, want)
	}
	os.WriteFile(path, []byte("## Packages\n| `a` | x | `z`: `b` |\n"), 0o644)
	if _, err := readMap(path); err == nil || !strings.Contains(err.Error(), "not a package of the row") {
		t.Errorf("segment of another package: %v", err)
	}
}
