package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ccreplay/ccreplay/internal/staging"
	"github.com/ccreplay/ccreplay/limits"
)

// Staged is an output folder being written: every file goes into Dir, a
// hidden sibling of Target (".NAME.tmp-<pid>.<start>-*", named by package
// internal/staging so that a later Stage of the same target can remove it
// once its writer is gone), and Commit renames Dir to Target as the last
// step. Until then Target is untouched, so a command
// that is killed or fails leaves either the previous folder or none.
type Staged struct {
	// Target is the folder the user asked for.
	Target string
	// Dir is where the files are written until Commit.
	Dir string
	// Replaces is true when Commit replaces a previous ccreplay folder.
	Replaces bool
	// path is Target with symbolic links followed: where the folder is
	// written (a link given as --out is kept and points to the new
	// folder).
	path string
	done bool
}

// ErrRefused marks Stage's refusals: a target that is a file, a folder
// that is not ccreplay's, a previous output without Force.
var ErrRefused = errors.New("refused")

// StageOptions say what Stage may replace.
type StageOptions struct {
	// Force allows replacing a previous ccreplay output folder (a run or a
	// comparison). A folder that is not ccreplay's is never replaced.
	Force bool
	// Flag names the option that gave the target, for errors ("--out").
	Flag string
}

// Stage checks that target may be written and creates the staging folder
// beside it. target may not exist yet (its parents are created), be an
// empty folder, or, with opt.Force, hold a previous ccreplay output
// folder; anything else is refused with an error naming the folder and
// what is in it.
func Stage(target string, opt StageOptions) (*Staged, error) {
	flag := opt.Flag
	if flag == "" {
		flag = "--out"
	}
	if target == "" {
		return nil, refuse("%s: empty folder name; give the folder to write", flag)
	}
	path, err := followLinks(target)
	if err != nil {
		return nil, refuse("%s %s: %v", flag, target, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, target, err)
	}
	if cwd, err := os.Getwd(); err == nil && isSameOrParent(abs, cwd) {
		return nil, refuse("%s %s: is the current folder or one of its parents; give a folder of its own", flag, target)
	}
	st := &Staged{Target: target, path: path}
	switch what, err := Inspect(path); {
	case err != nil:
		return nil, refuse("%s %s: %v", flag, target, err)
	case what.Kind == "":
	case what.Kind == KindEmpty:
	case what.Kind == KindForeign:
		return nil, refuse("%s %s: folder is not empty and not a ccreplay output folder (it holds %q); give a new or empty folder", flag, target, what.Example)
	case !opt.Force:
		return nil, refuse("%s %s: holds a previous %s; give --force to replace it, or another folder", flag, target, what.Describe())
	default:
		st.Replaces = true
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && errors.Is(err, syscall.ENOTDIR) {
			return nil, refuse("%s %s: %s is a file, not a folder", flag, target, pe.Path)
		}
		return nil, fmt.Errorf("%s %s: %w", flag, target, err)
	}
	// A command killed outright (SIGKILL, a second Ctrl-C, a crash) leaves
	// its staging folder: remove those whose writer no longer runs.
	staging.Clean(parent, "."+filepath.Base(abs))
	dir, err := os.MkdirTemp(parent, staging.Prefix("."+filepath.Base(abs)))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, target, err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("%s %s: %w", flag, target, err)
	}
	st.Dir = dir
	return st, nil
}

// refusal is one of Stage's refusals; errors.Is(err, ErrRefused) holds.
type refusal struct{ msg string }

func (r *refusal) Error() string        { return r.msg }
func (r *refusal) Is(target error) bool { return target == ErrRefused }

func refuse(format string, a ...any) error { return &refusal{fmt.Sprintf(format, a...)} }

// isSameOrParent reports whether dir is p or a folder above it.
func isSameOrParent(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || !strings.HasPrefix(rel, ".."))
}

// Commit moves the staged folder to Target, replacing the previous folder
// there (Stage checked it may). It is the last step of a command.
func (s *Staged) Commit() error {
	if s.done {
		return errors.New("runfolder: staged folder committed or aborted twice")
	}
	s.done = true
	path := s.path
	if path == "" {
		path = s.Target
	}
	what, err := Inspect(path)
	switch {
	case err != nil:
		s.abort()
		return err
	case what.Kind == "":
		err = os.Rename(s.Dir, path)
	case what.Kind == KindEmpty:
		if err = os.Remove(path); err == nil {
			err = os.Rename(s.Dir, path)
		}
	case what.Kind == KindForeign || !s.Replaces:
		s.abort()
		return fmt.Errorf("%s: changed while the command ran (now holds %q); the results were not written", s.Target, what.Example)
	default:
		err = replace(s.Dir, path)
	}
	if err != nil {
		s.abort()
		return fmt.Errorf("%s: %w", s.Target, err)
	}
	syncDir(filepath.Dir(path))
	return nil
}

// followLinks returns path with every symbolic link of its last element
// followed, also a link whose target does not exist yet (the folder is
// then created there). The folders above path are left as they are: the
// system follows their links.
func followLinks(path string) (string, error) {
	for hops := 0; ; hops++ {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		if hops == 40 {
			return "", errors.New("too many levels of symbolic links")
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
}

// Abort removes the staged folder and everything in it. It does nothing
// after Commit.
func (s *Staged) Abort() {
	if !s.done {
		s.done = true
		s.abort()
	}
}

func (s *Staged) abort() { os.RemoveAll(s.Dir) }

// replace puts folder src at dst, which holds a previous output folder,
// and removes the previous one. Where the system can exchange two names in
// one step (Linux renameat2) dst is never missing; elsewhere the previous
// folder is first renamed aside.
func replace(src, dst string) error {
	if err := exchange(src, dst); err == nil {
		return os.RemoveAll(src) // src now holds the previous folder
	}
	old := src + ".old"
	if err := os.Rename(dst, old); err != nil {
		return err
	}
	if err := os.Rename(src, dst); err != nil {
		os.Rename(old, dst)
		return err
	}
	return os.RemoveAll(old)
}

// syncDir makes renames in dir durable; errors are ignored (some file
// systems refuse to sync a folder, and the rename has happened).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Kinds Inspect reports besides KindRun and KindComparison.
const (
	// KindEmpty is an existing empty folder.
	KindEmpty = "empty"
	// KindForeign is a folder that is not empty and not ccreplay's.
	KindForeign = "foreign"
)

// What is what Inspect found at a path.
type What struct {
	// Kind is "" when nothing exists there, KindEmpty, KindForeign,
	// KindRun, KindComparison or KindTraining.
	Kind string
	// Example is one entry of a foreign folder, for messages.
	Example string
	// CCA and Seed describe a previous run.
	CCA  string
	Seed uint64
}

// Describe names what a previous output folder holds, for messages.
func (w What) Describe() string {
	if w.Kind == KindRun {
		return fmt.Sprintf("ccreplay run (%s, seed %d)", w.CCA, w.Seed)
	}
	return "ccreplay " + w.Kind
}

// Inspect says what is at path: nothing, an empty folder, a ccreplay run,
// comparison or training folder (complete or not), or something else. A
// file, or a folder that cannot be read, is an error.
func Inspect(path string) (What, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return What{}, nil
	case errors.Is(err, syscall.ENOTDIR):
		return What{}, fmt.Errorf("%s: a folder on this path is a file", path)
	case err != nil:
		return What{}, err
	case !st.IsDir():
		return What{}, errors.New("is a file, not a folder")
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return What{}, err
	}
	if len(ents) == 0 {
		return What{Kind: KindEmpty}, nil
	}
	var head struct {
		SchemaVersion string `json:"schema_version"`
		Kind          string `json:"kind"`
		CCA           string `json:"cca"`
		Seed          uint64 `json:"seed"`
	}
	for _, name := range []string{SummaryFile, CollectionFile, TrainingFile} {
		b, err := limits.ReadFile(filepath.Join(path, name), "a run's "+name, limits.MaxRunJSONBytes, true)
		if err != nil || json.Unmarshal(b, &head) != nil || !strings.HasPrefix(head.SchemaVersion, "ccreplay.") {
			continue
		}
		switch name {
		case CollectionFile:
			return What{Kind: KindComparison}, nil
		case TrainingFile:
			return What{Kind: KindTraining}, nil
		}
		return What{Kind: KindRun, CCA: head.CCA, Seed: head.Seed}, nil
	}
	// A comparison written before comparison.json existed.
	if _, err := os.Stat(filepath.Join(path, ComparisonFile)); err == nil {
		return What{Kind: KindComparison}, nil
	}
	return What{Kind: KindForeign, Example: ents[0].Name()}, nil
}
