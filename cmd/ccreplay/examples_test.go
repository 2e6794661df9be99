package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/ccreplay/ccreplay/trace/gen"
)

// exampleDeadline is how long one example may run in the test. Most take
// well under a second; an example that shows a full-scale recipe (training
// the shipped policy, the paper's scales) is stopped there, which proves
// it parses, resolves and runs, not that it finishes.
const exampleDeadline = 8 * time.Second

// splitShell splits a command line as a POSIX shell would for the forms
// the examples use: words, '...' and "..." quoting, backslash escapes.
func splitShell(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated %c in %q", c, line)
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '\\' && i+1 < len(line):
			cur.WriteByte(line[i+1])
			i++
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// exampleLines returns the ccreplay command lines of an example text:
// continuation lines (ending in \) joined, comments and other programs
// (duckdb, ...) left out, the leading "ccreplay" or "go run ./cmd/ccreplay"
// removed.
func exampleLines(text string) []string {
	var out []string
	var cont string
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if cont != "" {
			line = cont + " " + line
			cont = ""
		}
		if strings.HasSuffix(line, "\\") {
			cont = strings.TrimSuffix(line, "\\")
			continue
		}
		for _, prefix := range []string{"ccreplay ", "go run ./cmd/ccreplay "} {
			if strings.HasPrefix(line, prefix) {
				out = append(out, strings.TrimPrefix(line, prefix))
			}
		}
	}
	return out
}

// outputPaths returns the paths an example line writes: the values, given
// or default, of its command's output flags (--out, whose deprecated alias
// --output shares its value, and --links-dir).
// known is false when the line cannot be parsed or an output flag is empty
// (the command then picks a folder of its own), so what it writes is
// unknown; a command without output flags writes nothing.
func outputPaths(args []string) (paths []string, known bool) {
	root := newRootCmd(&Factory{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	c, rest, err := root.Find(args)
	if err != nil || c.ParseFlags(rest) != nil {
		return nil, false
	}
	for _, name := range []string{"out", "links-dir"} {
		f := c.Flags().Lookup(name)
		if f == nil {
			continue
		}
		if f.Value.String() == "" {
			if name == "links-dir" {
				continue // optional: no link folder
			}
			return nil, false
		}
		paths = append(paths, f.Value.String())
	}
	return paths, true
}

// readsAny reports whether an example line names one of paths, or a file
// under one (policy=student/policy.json names student).
func readsAny(line string, paths []string) bool {
	for _, p := range paths {
		if regexp.MustCompile(`(^|[\s=,:])` + regexp.QuoteMeta(p) + `($|[\s/,:])`).MatchString(line) {
			return true
		}
	}
	return false
}

// runExampleLines runs lines in order in a fresh folder holding a link to the
// repository's examples/ (as a user's checkout has it), each under the
// deadline: an example must exit 0, or still be running at the deadline.
// A line stopped at the deadline has not written its outputs, so a later
// line that reads them (train -o DIR, then run with DIR/policy.json) is
// skipped: a loaded machine makes the first one slow, not the rest wrong.
// Later lines that name none of its outputs still run; when what the
// stopped line writes is unknown, every later line is skipped.
func runExampleLines(t *testing.T, name string, lines []string) {
	t.Helper()
	dir := t.TempDir()
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(examples, filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	var unwritten []string // outputs of lines stopped at the deadline
	skipRest := false
	for _, line := range lines {
		if skipRest || readsAny(line, unwritten) {
			t.Logf("%s: ccreplay %s: skipped (it reads the outputs of a line stopped at the deadline)", name, line)
			continue
		}
		args, err := splitShell(line)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		timer := time.AfterFunc(exampleDeadline, cancel)
		var out, errw bytes.Buffer
		start := time.Now()
		code := mainContext(ctx, args, strings.NewReader(""), &out, &errw)
		stopped := !timer.Stop()
		cancel()
		switch {
		case code == ExitOK:
		case stopped && code == ExitInterrupted:
			t.Logf("%s: ccreplay %s: still running after %v (stopped there)", name, line, exampleDeadline)
			paths, known := outputPaths(args)
			unwritten = append(unwritten, paths...)
			skipRest = skipRest || !known
		default:
			t.Errorf("%s: ccreplay %s: exit %d after %v\n%s", name, line, code, time.Since(start).Round(time.Millisecond), errw.String())
		}
	}
}

// Every example in every command's --help runs (examples that must not go
// stale: one named a file that did not exist).
func TestHelpExamplesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every --help example")
	}
	var walk func(c *cobra.Command)
	var cmds []*cobra.Command
	walk = func(c *cobra.Command) {
		cmds = append(cmds, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&Factory{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}))
	ran := 0
	for _, c := range cmds {
		lines := exampleLines(c.Example)
		if len(lines) == 0 {
			continue
		}
		ran += len(lines)
		t.Run(strings.ReplaceAll(c.CommandPath(), " ", "_"), func(t *testing.T) {
			runExampleLines(t, c.CommandPath(), lines)
		})
	}
	if ran < 30 {
		t.Errorf("only %d examples found in --help texts", ran)
	}
}

// placeholder matches the words README uses for "your value here".
var placeholder = regexp.MustCompile(`\b[A-Z][A-Z_]+\b|\.\.\.`)

// Every command the README shows runs: the lines of its sh blocks, and
// inline commands that have arguments and no placeholders (FILE, DIR,
// ...).
func TestReadmeExamplesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the README's commands")
	}
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	inSh := false
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "```sh"):
			inSh = true
		case strings.HasPrefix(l, "```"):
			inSh = false
		case inSh:
			lines = append(lines, exampleLines(l)...)
		}
	}
	for _, m := range regexp.MustCompile("`ccreplay ([^`]+)`").FindAllStringSubmatch(string(b), -1) {
		cmd := m[1]
		if placeholder.MatchString(cmd) || !strings.ContainsAny(cmd, "-/:") {
			continue // a reference to a command, not an example
		}
		lines = append(lines, cmd)
	}
	if len(lines) < 3 {
		t.Fatalf("found only %d runnable commands in README.md: %q", len(lines), lines)
	}
	t.Logf("README commands: %q", lines)
	runExampleLines(t, "README.md", lines)
}

// run --help lists every generator, algorithm and topology kind, from the
// registries (it once listed 2 of 9 workloads and 4 of 9 algorithms).
func TestRunHelpListsEverything(t *testing.T) {
	r := runCLI(t, "run", "--help")
	r.mustSucceed(t)
	var want []string
	for _, k := range gen.Kinds() {
		want = append(want, "\n  "+k.Name+" ")
	}
	for _, n := range registry().Names() {
		want = append(want, "\n  "+n+" ")
	}
	want = append(want, "star:", "dumbbell:", "leafspine:", "fattree:", "dolce-testbed", "hpcc-fattree", "dolce-fattree", "hpcc:PATH")
	for _, w := range want {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("run --help does not list %q", strings.TrimSpace(w))
		}
	}
}

// A line stopped at the deadline skips the later lines that read its
// outputs, and only those.
func TestExampleLineDependencies(t *testing.T) {
	paths, known := outputPaths([]string{"train", "rlcc", "--episodes", "5", "-o", "teacher"})
	if !known || len(paths) != 1 || paths[0] != "teacher" {
		t.Fatalf("train -o teacher: outputs %q (known %v), want [teacher]", paths, known)
	}
	if paths, known := outputPaths([]string{"run", "--workload", "incast:n=4"}); !known || len(paths) != 1 || paths[0] != "out" {
		t.Errorf("run without --out: outputs %q (known %v), want its default [out]", paths, known)
	}
	if paths, known := outputPaths([]string{"eval", "rlcc", "--flows", "16"}); !known || len(paths) != 0 {
		t.Errorf("eval rlcc: outputs %q (known %v), want none", paths, known)
	}
	if _, known := outputPaths([]string{"run", "--no-such-flag"}); known {
		t.Error("an unparsable line has known outputs")
	}
	for line, want := range map[string]bool{
		"run --workload incast:n=8 --cca rlcc --cca-param policy=teacher/policy.json": true,
		"eval rlcc --policy teacher/policy.json --flows 16":                           true,
		"metrics teacher":                          true,
		"eval rlcc --policy teacher2/policy.json":  false,
		"eval rlcc --flows 64,512 --duration 1s":   false,
		"run --workload incast:n=8 --out teachers": false,
	} {
		if got := readsAny(line, []string{"teacher"}); got != want {
			t.Errorf("readsAny(%q, [teacher]) = %v, want %v", line, got, want)
		}
	}
}
