package runfolder

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/internal/testfiles"
)

// writeRun stages a run folder at target holding name, committed.
func writeRun(t *testing.T, target, name string, force bool) {
	t.Helper()
	st, err := Stage(target, StageOptions{Force: force})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(st.Dir), "."+filepath.Base(target)+".tmp-") {
		t.Errorf("staging folder %s is not a hidden sibling of %s", st.Dir, target)
	}
	if err := os.WriteFile(filepath.Join(st.Dir, name), []byte(name), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(st.Dir, &Manifest{CCA: "x", Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if err := st.Commit(); err != nil {
		t.Fatal(err)
	}
}

// A committed folder replaces the previous one whole (no file of it
// survives) and only with Force; nothing is left beside it.
func TestStageCommitReplacesWhole(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "a", "run")
	writeRun(t, target, "packets.parquet", false)
	if _, err := Stage(target, StageOptions{}); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "give --force") {
		t.Fatalf("second stage without force: %v", err)
	}
	writeRun(t, target, "flows.parquet", true)
	if got := strings.Join(testfiles.Names(t, target), " "); got != "flows.parquet summary.json" {
		t.Errorf("folder holds %q after the replacement", got)
	}
	if got := testfiles.Names(t, filepath.Dir(target)); len(got) != 1 {
		t.Errorf("left %v beside the folder", got)
	}
	if _, err := ReadManifest(target); err != nil {
		t.Error(err)
	}
}

// Abort removes the staging folder and leaves the target as it was.
func TestStageAbortLeavesTarget(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "run")
	writeRun(t, target, "flows.parquet", false)
	st, err := Stage(target, StageOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(st.Dir, "ports.parquet"), nil, 0o644)
	st.Abort()
	st.Abort() // twice is harmless
	if got := strings.Join(testfiles.Names(t, root), " "); got != "run" {
		t.Errorf("root holds %q after Abort", got)
	}
	if got := strings.Join(testfiles.Names(t, target), " "); got != "flows.parquet summary.json" {
		t.Errorf("target holds %q after Abort", got)
	}
	if err := st.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
}

// Inspect tells the kinds apart; Stage refuses foreign folders even with
// Force, files, and the current folder.
func TestInspectAndRefusals(t *testing.T) {
	root := t.TempDir()
	foreign := filepath.Join(root, "foreign")
	os.MkdirAll(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "thesis.tex"), nil, 0o644)
	empty := filepath.Join(root, "empty")
	os.MkdirAll(empty, 0o755)
	file := filepath.Join(root, "file")
	os.WriteFile(file, nil, 0o644)
	coll := filepath.Join(root, "cmp")
	os.MkdirAll(coll, 0o755)
	if err := WriteCollection(coll, &Collection{Runs: []string{"cca=x/seed=1"}}); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{foreign: KindForeign, empty: KindEmpty, filepath.Join(root, "none"): "", coll: KindComparison} {
		if w, err := Inspect(path); err != nil || w.Kind != kind {
			t.Errorf("Inspect(%s) = %+v, %v; want kind %q", path, w, err, kind)
		}
	}
	for _, bad := range []string{foreign, file} {
		if _, err := Stage(bad, StageOptions{Force: true}); !errors.Is(err, ErrRefused) {
			t.Errorf("Stage(%s, force) = %v, want a refusal", bad, err)
		}
	}
	if st, err := Stage(coll, StageOptions{Force: true}); err != nil || !st.Replaces {
		t.Errorf("a comparison is replaceable with force: %v", err)
	} else {
		st.Abort()
	}
	wd, _ := os.Getwd()
	if _, err := Stage(wd, StageOptions{Force: true}); !errors.Is(err, ErrRefused) {
		t.Errorf("staging the current folder: %v", err)
	}
	st, err := Stage(empty, StageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	Write(st.Dir, &Manifest{})
	if err := st.Commit(); err != nil {
		t.Fatalf("committing over an empty folder: %v", err)
	}
}

// Find skips hidden staging folders and refuses incomplete run folders.
func TestFindSkipsStagingAndRefusesIncomplete(t *testing.T) {
	root := t.TempDir()
	writeRun(t, filepath.Join(root, "cca=a", "seed=1"), "flows.parquet", false)
	os.MkdirAll(filepath.Join(root, ".cmp.tmp-123", "cca=b", "seed=1"), 0o755)
	os.WriteFile(filepath.Join(root, ".cmp.tmp-123", "cca=b", "seed=1", FlowsFile), nil, 0o644)
	runs, err := Find(root)
	if err != nil || len(runs) != 1 {
		t.Fatalf("Find = %v, %v; want the one complete run", runs, err)
	}
	bad := filepath.Join(root, "cca=c", "seed=1")
	os.MkdirAll(bad, 0o755)
	os.WriteFile(filepath.Join(bad, FlowsFile), nil, 0o644)
	if _, err := Find(root); !errors.Is(err, ErrIncomplete) {
		t.Errorf("Find with an incomplete run: %v", err)
	}
}

// A command killed outright leaves its staging folder beside the target;
// the next Stage of that target removes it once its writer is gone, and
// leaves the staging of a writer that still runs (this process).
func TestStageRemovesStagingOfDeadWriters(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a process: %v", err)
	}
	dead := cmd.Process.Pid // exited and waited for: no process has this id now
	root := t.TempDir()
	target := filepath.Join(root, "out")
	stale := filepath.Join(root, fmt.Sprintf(".out.tmp-%d.1-42", dead))
	if err := os.MkdirAll(filepath.Join(stale, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	first, err := Stage(target, StageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Abort()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the staging folder of dead process %d is still there (%v)", dead, err)
	}
	writeRun(t, target, "a", false)
	if _, err := os.Stat(first.Dir); err != nil {
		t.Errorf("the staging folder of a live writer was removed: %v", err)
	}
}
