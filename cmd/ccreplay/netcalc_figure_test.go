package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/runfolder"
)

// --compare with the default --figure png writes backlog.png and
// rates.png (valid PNG files) into the folder, and lists them in
// summary.json.
func TestNetcalcFigurePNG(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fig")
	s := ncRunArgs(t, out, append(append([]string{"netcalc"}, ncCompareArgs...),
		"--cca", "linerate", "--pfc", "on", "--horizon", "1ms", "--compare")...)
	for _, name := range []string{"backlog.png", "rates.png"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) || len(b) < 1000 {
			t.Errorf("%s: %d bytes, not a PNG", name, len(b))
		}
		if !slices.Contains(s.Files, name) {
			t.Errorf(runfolder.SummaryFile+" files %v lack %s", s.Files, name)
		}
	}
	ents, _ := os.ReadDir(filepath.Dir(out))
	if len(ents) != 1 {
		t.Errorf("staging left behind: %d entries beside the output", len(ents))
	}
}

// --figure svg writes SVG files, --figure none no figure, and a bad value
// is a usage error.
func TestNetcalcFigureFormats(t *testing.T) {
	dir := t.TempDir()
	args := []string{"netcalc", "--workload", "incast:n=4,size=100KB", "--cca", "dcqcn", "--horizon", "200us"}
	svg := filepath.Join(dir, "svg")
	ncRunArgs(t, svg, append(slices.Clone(args), "--figure", "svg")...)
	for _, name := range []string{"backlog.svg", "rates.svg"} {
		b, err := os.ReadFile(filepath.Join(svg, name))
		if err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: %v, not an SVG", name, err)
		}
	}
	none := filepath.Join(dir, "none")
	s := ncRunArgs(t, none, append(slices.Clone(args), "--figure", "none")...)
	for _, name := range []string{"backlog.png", "rates.png", "backlog.svg"} {
		if _, err := os.Stat(filepath.Join(none, name)); err == nil || slices.Contains(s.Files, name) {
			t.Errorf("--figure none wrote %s", name)
		}
	}
	r := runCLI(t, append(slices.Clone(args), "--figure", "jpg", "--out", filepath.Join(dir, "bad"))...)
	if r.code != 2 || !strings.Contains(r.stderr, "--figure") {
		t.Errorf("--figure jpg: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad")); err == nil {
		t.Errorf("--figure jpg left a folder")
	}
}
