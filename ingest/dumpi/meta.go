package dumpi

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/ccreplay/ccreplay/limits"
)

// Meta is a DUMPI .meta file: the description of a trace set, one
// key=value per line.
type Meta struct {
	// Path is the file's path as given to ReadMeta.
	Path string
	// Hostname and Username are where and by whom the trace was taken.
	Hostname, Username string
	// NumProcs is the number of ranks, one trace file each.
	NumProcs int
	// StartTime is when tracing started, Unix seconds.
	StartTime int64
	// FilePrefix is the trace files' name before "-NNNN.bin" (the key
	// fileprefix), possibly a path on the machine that made the trace.
	FilePrefix string
	// Version is DUMPI's version, from version, subversion and
	// subsubversion.
	Version [3]int
}

// ReadMeta reads a .meta file. numprocs and fileprefix are required;
// unknown keys are ignored.
func ReadMeta(path string) (*Meta, error) {
	f, err := limits.Open(path, "a DUMPI .meta file", limits.MaxConfigBytes, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := &Meta{Path: path}
	sc := bufio.NewScanner(f.Reader)
	sc.Buffer(make([]byte, 0, 64*1024), limits.MaxTableLineBytes)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		k, v, ok := strings.Cut(text, "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: %s is not key=value", path, line, limits.Quote(text))
		}
		num := func() (int64, error) {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s:%d: %s %s is not an integer", path, line, k, limits.Quote(v))
			}
			return n, nil
		}
		var n int64
		switch k {
		case "hostname":
			m.Hostname = v
		case "username":
			m.Username = v
		case "fileprefix":
			m.FilePrefix = v
		case "numprocs", "startime", "starttime", "version", "subversion", "subsubversion":
			if n, err = num(); err != nil {
				return nil, err
			}
		}
		switch k {
		case "numprocs":
			if n < 1 || n > 1<<24 {
				return nil, fmt.Errorf("%s:%d: numprocs %d must be in 1..%d", path, line, n, 1<<24)
			}
			m.NumProcs = int(n)
		case "startime", "starttime": // DUMPI writes "startime"
			m.StartTime = n
		case "version":
			m.Version[0] = int(n)
		case "subversion":
			m.Version[1] = int(n)
		case "subsubversion":
			m.Version[2] = int(n)
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s:%d: line longer than %s, the longest line of a DUMPI .meta file (docs/LIMITS.md)", path, line+1, limits.SizeString(limits.MaxTableLineBytes))
	} else if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	switch {
	case m.NumProcs == 0:
		return nil, fmt.Errorf("%s: no numprocs", path)
	case m.FilePrefix == "":
		return nil, fmt.Errorf("%s: no fileprefix", path)
	}
	return m, nil
}

// Files returns the paths of the ranks' trace files: the fileprefix's
// base name followed by "-%04d.bin", in the .meta file's directory.
func (m *Meta) Files() []string {
	dir := filepath.Dir(m.Path)
	base := filepath.Base(m.FilePrefix)
	out := make([]string, m.NumProcs)
	for r := range out {
		out[r] = filepath.Join(dir, fmt.Sprintf("%s-%04d.bin", base, r))
	}
	return out
}

// rankFile matches a rank's trace file name: prefix-NNNN.bin.
var rankFile = regexp.MustCompile(`^(.*)-([0-9]{4,})\.bin$`)

// traceFiles finds the files of the trace set that path (a .meta file or
// any rank's .bin) belongs to, by rank. A .bin with a .meta beside it
// (prefix.meta) uses the .meta; without one, the ranks are the
// consecutive prefix-NNNN.bin files from 0000; a .bin not named like a
// rank's file is a one-rank trace.
func traceFiles(path string) ([]string, *Meta, error) {
	if strings.HasSuffix(path, ".meta") {
		m, err := ReadMeta(path)
		if err != nil {
			return nil, nil, err
		}
		files := m.Files()
		for _, f := range files {
			if _, err := os.Stat(f); err != nil {
				return nil, nil, fmt.Errorf("%s: numprocs=%d but %s is missing: %v", path, m.NumProcs, filepath.Base(f), err)
			}
		}
		return files, m, nil
	}
	if _, err := os.Stat(path); err != nil {
		return nil, nil, err
	}
	sub := rankFile.FindStringSubmatch(filepath.Base(path))
	if sub == nil {
		return []string{path}, nil, nil
	}
	dir := filepath.Dir(path)
	meta := filepath.Join(dir, sub[1]+".meta")
	if _, err := os.Stat(meta); err == nil {
		return traceFiles(meta)
	}
	var files []string
	for r := 0; ; r++ {
		f := filepath.Join(dir, fmt.Sprintf("%s-%04d.bin", sub[1], r))
		if _, err := os.Stat(f); err != nil {
			break
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("%s: no %s-0000.bin beside it and no %s.meta", path, sub[1], sub[1])
	}
	return files, nil, nil
}
