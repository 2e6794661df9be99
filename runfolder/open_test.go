package runfolder

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	v1 "github.com/ccreplay/ccreplay/schema/v1"
)

// Expand keeps the arguments' order, expands trees in path order (seed 2
// before 10) and keeps a run reached twice once.
func TestExpand(t *testing.T) {
	root := t.TempDir()
	var want []string
	for _, p := range []string{"cca=dcqcn/seed=2", "cca=dcqcn/seed=10", "cca=hpcc/seed=1"} {
		d := filepath.Join(root, "cmp", filepath.FromSlash(p))
		mkRun(t, d)
		want = append(want, d)
	}
	single := filepath.Join(root, "single")
	mkRun(t, single)
	runs, err := Expand([]string{single, filepath.Join(root, "cmp"), single + "/", filepath.Join(root, "cmp", "cca=hpcc")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.Dir)
	}
	if want = append([]string{single}, want...); !slices.Equal(got, want) {
		t.Errorf("runs %q, want %q (seed 2 before 10, duplicates once)", got, want)
	}
	for _, bad := range []struct{ arg, msg string }{
		{filepath.Join(root, "nope"), "no such folder"},
		{t.TempDir(), "not a run folder (no " + SummaryFile + ") and no run folder below it"},
		{filepath.Join(single, SummaryFile), "not a folder"},
	} {
		if _, err := Expand([]string{single, bad.arg}); err == nil || !strings.HasPrefix(err.Error(), bad.arg+": "+bad.msg) {
			t.Errorf("%s: err = %v, want %q and the path", bad.arg, err, bad.msg)
		}
	}
}

// Open reads a finished run of this version or the previous one, says
// which optional files it holds, and refuses anything else naming the
// file.
func TestOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cca=hpcc", "seed=4")
	mkRun(t, dir)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Manifest.CCA != "dcqcn" || r.Manifest.SchemaVersion != Version || len(r.Partition) != 2 {
		t.Errorf("opened %+v, manifest %+v", r.RunDir, r.Manifest)
	}
	if !r.Has(FlowsFile) || r.Has(PacketsFile) {
		t.Errorf("Has wrong: flows %v, packets %v", r.Has(FlowsFile), r.Has(PacketsFile))
	}
	if p, err := r.Optional(PacketsFile); p != "" || err != nil {
		t.Errorf("Optional of an absent file: %q, %v", p, err)
	}
	if p, err := r.Optional(FlowsFile); p != filepath.Join(dir, FlowsFile) || err != nil {
		t.Errorf("Optional of a present file: %q, %v", p, err)
	}
	os.Mkdir(filepath.Join(dir, DecisionsFile), 0o755)
	if _, err := r.Optional(DecisionsFile); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Optional of a folder: %v", err)
	}
	f, err := r.OpenFile(SummaryFile)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := r.OpenFile(PacketsFile); err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, PacketsFile)+": ") || strings.Count(err.Error(), PacketsFile) != 1 {
		t.Errorf("missing file: %v", err)
	}

	// A run folder of the previous schema version is still read.
	old := filepath.Join(t.TempDir(), "v1")
	os.MkdirAll(old, 0o755)
	writeManifestJSON(t, old, `{"schema_version": "`+v1.Version+`", "kind": "run", "complete": true, "cca": "dcqcn"}`)
	if r, err := Open(old); err != nil || r.Manifest.SchemaVersion != PreviousVersion {
		t.Errorf("v1 folder: %v", err)
	}

	for name, body := range map[string]string{
		"unfinished": `{"schema_version": "` + Version + `", "kind": "run", "complete": false}`,
		"collection": `{"schema_version": "` + Version + `", "kind": "comparison", "complete": true}`,
		"future":     `{"schema_version": "ccreplay.v9", "kind": "run", "complete": true}`,
		"garbage":    `{"schema_version": `,
		"missing":    "",
	} {
		d := filepath.Join(t.TempDir(), name)
		os.MkdirAll(d, 0o755)
		if body != "" {
			writeManifestJSON(t, d, body)
		}
		_, err := Open(d)
		if err == nil {
			t.Errorf("%s: opened", name)
			continue
		}
		if !strings.HasPrefix(err.Error(), d) {
			t.Errorf("%s: error does not name the folder: %v", name, err)
		}
		if incomplete := name == "unfinished" || name == "collection" || name == "missing"; incomplete != errors.Is(err, ErrIncomplete) {
			t.Errorf("%s: errors.Is(ErrIncomplete) = %v: %v", name, !incomplete, err)
		}
	}
}

func writeManifestJSON(t *testing.T, dir, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, SummaryFile), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A training folder is staged like a run, read back complete, recognised
// by Inspect (so --force may replace it) and never taken for a run.
func TestTraining(t *testing.T) {
	target := filepath.Join(t.TempDir(), "tr")
	st, err := Stage(target, StageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(st.Dir, PolicyFile), []byte("{}"), 0o644)
	if err := WriteTraining(st.Dir, &Training{Command: "train rlcc", Seed: 2, Files: []string{PolicyFile, TrainingFile}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Commit(); err != nil {
		t.Fatal(err)
	}
	m, err := ReadTraining(target)
	if err != nil || m.Kind != KindTraining || !m.Complete || m.SchemaVersion != Version || m.Seed != 2 {
		t.Fatalf("%+v, %v", m, err)
	}
	if w, err := Inspect(target); err != nil || w.Kind != KindTraining || w.Describe() != "ccreplay training" {
		t.Errorf("Inspect: %+v, %v", w, err)
	}
	if _, err := Stage(target, StageOptions{}); !errors.Is(err, ErrRefused) {
		t.Errorf("staging over a training without force: %v", err)
	}
	if _, err := Open(target); err == nil {
		t.Error("a training folder opened as a run")
	}
	os.Remove(filepath.Join(target, TrainingFile))
	if _, err := ReadTraining(target); !errors.Is(err, ErrIncomplete) {
		t.Errorf("no manifest: %v", err)
	}
}
