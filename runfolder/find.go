package runfolder

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// RunDir is a run folder found by Find and its hive partition: the
// key=value parts of its path, outermost first (cca=dcqcn/seed=3 gives
// cca "dcqcn" and seed "3"), as `ccreplay compare` and sweeps lay runs out
// and as DuckDB's hive_partitioning reads them.
type RunDir struct {
	Dir       string
	Partition []KeyValue
}

// KeyValue is one hive partition part of a path.
type KeyValue struct {
	Key, Value string
}

// Get returns the value of key in the partition ("" and false when absent).
func (r RunDir) Get(key string) (string, bool) {
	for _, kv := range r.Partition {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// looksLikeRun reports whether dir holds a manifest or any of a run's
// Parquet files: a run folder, complete or not.
func looksLikeRun(dir string) bool {
	for _, f := range []string{SummaryFile, FlowsFile, MessagesFile, PortsFile, PacketsFile} {
		if st, err := os.Stat(filepath.Join(dir, f)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// Find returns root itself when it is a run folder, else every run folder
// below it (not below a run folder; hidden folders, such as the staging
// folders of commands still writing, are skipped). Runs come sorted by
// path, part by part, comparing key=value parts of one key by their values
// as integers when both are (seed=2 before seed=10). A root that does not
// exist, is not a folder or has no run folder is an error naming it, and
// so is a run folder that is not complete (see ReadManifest): readers
// never see half a run.
func Find(root string) ([]RunDir, error) {
	st, err := os.Stat(root)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("%s: no such folder", root)
	case err != nil:
		return nil, err
	case !st.IsDir():
		return nil, fmt.Errorf("%s: not a folder (give a run folder or a folder of run folders)", root)
	}
	if looksLikeRun(root) {
		if _, err := ReadManifest(root); err != nil {
			return nil, err
		}
		return []RunDir{newRunDir(root)}, nil
	}
	var runs []RunDir
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() || p == root {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if looksLikeRun(p) {
			if _, err := ReadManifest(p); err != nil {
				return err
			}
			runs = append(runs, newRunDir(p))
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: not a run folder (no %s) and no run folder below it", root, SummaryFile)
	}
	slices.SortStableFunc(runs, func(a, b RunDir) int { return comparePaths(a.Dir, b.Dir) })
	return runs, nil
}

func newRunDir(dir string) RunDir {
	dir = filepath.Clean(dir)
	r := RunDir{Dir: dir}
	for _, part := range strings.Split(filepath.ToSlash(dir), "/") {
		if kv, ok := partitionPart(part); ok {
			r.Partition = append(r.Partition, kv)
		}
	}
	return r
}

// partitionPart parses a path part key=value; the key must start with a
// letter or '_' and hold only letters, digits, '_', '-' and '.'.
func partitionPart(part string) (KeyValue, bool) {
	k, v, ok := strings.Cut(part, "=")
	if !ok || k == "" {
		return KeyValue{}, false
	}
	for i, c := range k {
		letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '-' || c == '.')) {
			return KeyValue{}, false
		}
	}
	return KeyValue{k, v}, true
}

// comparePaths orders slash paths part by part; two key=value parts of the
// same key with integer values compare as integers.
func comparePaths(a, b string) int {
	pa, pb := strings.Split(filepath.ToSlash(a), "/"), strings.Split(filepath.ToSlash(b), "/")
	for i := range min(len(pa), len(pb)) {
		if c := comparePart(pa[i], pb[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(pa), len(pb))
}

func comparePart(a, b string) int {
	kva, oka := partitionPart(a)
	kvb, okb := partitionPart(b)
	if oka && okb && kva.Key == kvb.Key {
		x, errx := strconv.ParseInt(kva.Value, 10, 64)
		y, erry := strconv.ParseInt(kvb.Value, 10, 64)
		if errx == nil && erry == nil {
			return cmp.Compare(x, y)
		}
	}
	return strings.Compare(a, b)
}
