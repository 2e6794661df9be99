package runfolder

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Run is a finished run folder opened for reading: its manifest, checked
// complete (a run of this schema version or the previous one), and the
// paths of its files. The Parquet files are read by metrics/arrowread,
// which takes these paths; Run itself reads only summary.json.
type Run struct {
	RunDir
	// Manifest is the folder's summary.json.
	Manifest *Manifest
}

// Open reads the manifest of the run folder dir and refuses a folder that
// is not a finished run (no summary.json, or one that does not say
// "complete": true; errors.Is(err, ErrIncomplete)) or whose manifest is of
// another schema version. The run's partition is that of dir's path.
func Open(dir string) (*Run, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	return &Run{RunDir: newRunDir(dir), Manifest: m}, nil
}

// Path is the path of the file name inside the run folder (one of the
// *File constants), whether or not it exists.
func (r *Run) Path(name string) string { return filepath.Join(r.Dir, name) }

// Has reports whether the run folder holds the regular file name (the
// optional ones: PacketsFile, DecisionsFile, FCTFile).
func (r *Run) Has(name string) bool {
	st, err := os.Stat(r.Path(name))
	return err == nil && st.Mode().IsRegular()
}

// Optional is the path of the optional file name when the run folder
// holds it as a regular file, "" when nothing is there, and an error
// naming it when something else is (a folder, a device, a symbolic link
// to nothing).
func (r *Run) Optional(name string) (string, error) {
	p := r.Path(name)
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(p); lerr == nil {
			return "", fmt.Errorf("%s: a symbolic link to a file that does not exist", p)
		}
		return "", nil
	case err != nil:
		return "", err
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("%s: not a regular file", p)
	}
	return p, nil
}

// OpenFile opens the file name of the run folder for reading. A missing
// file is an error naming it.
func (r *Run) OpenFile(name string) (io.ReadCloser, error) {
	f, err := os.Open(r.Path(name))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Path(name), unwrapPath(err))
	}
	return f, nil
}

// unwrapPath drops the *PathError's own "open PATH:" so an error names the
// file once.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// Expand turns folder arguments into run folders: a run folder is itself,
// any other folder stands for the run folders below it (Find: the hive
// trees of compare, reproduce and sweeps, in path order with numeric
// partition values in numeric order). Arguments keep their order; a run
// folder reached twice is kept once. A missing folder, a folder with no
// run folder, or an incomplete run folder is an error naming it.
func Expand(args []string) ([]RunDir, error) {
	var out []RunDir
	seen := map[string]bool{}
	for _, a := range args {
		found, err := Find(a)
		if err != nil {
			return nil, err
		}
		for _, d := range found {
			if !seen[d.Dir] {
				seen[d.Dir] = true
				out = append(out, d)
			}
		}
	}
	return out, nil
}

// Dirs is the folders of runs, in order.
func Dirs(runs []RunDir) []string {
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = r.Dir
	}
	return out
}
