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

// runExampleLines runs lines in order in a fresh folder holding a link to the
// repository's examples/ (as a user's checkout has it), each under the
// deadline: an example must exit 0, or still be running at the deadline.
// A line stopped at the deadline has not written its outputs, so the lines
// after it, which may read them (train, then run with the policy), are
// skipped: a loaded machine makes the first one slow, not the rest wrong.
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
	stoppedEarly := false
	for i, line := range lines {
		if i > 0 && stoppedEarly {
			t.Logf("%s: ccreplay %s: skipped (an earlier line was stopped at the deadline)", name, line)
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
			stoppedEarly = true
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
