// Package staging names the temporary files and folders a command writes
// beside an output before renaming them into place, so that a later
// command can tell whether their writer still runs and remove what a
// killed one left behind.
//
// A staging name is "<base>.tmp-<owner>-<random>", where owner is the
// writer's process id and start time ("<pid>.<start>", start in clock
// ticks since boot as /proc/<pid>/stat gives it on Linux, 0 where the
// system does not tell). A process id is reused once its process is gone;
// the pair is not, so a staging entry whose pid now belongs to another
// process is still recognized as stale.
package staging

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// self is this process's owner token, computed once.
var self = sync.OnceValue(func() string {
	pid := os.Getpid()
	return strconv.Itoa(pid) + "." + strconv.FormatUint(startTime(pid), 10)
})

// Prefix is the pattern prefix to give os.MkdirTemp or os.CreateTemp for a
// staging entry of base (a file or folder name, without directory):
// "<base>.tmp-<pid>.<start>-".
func Prefix(base string) string { return base + ".tmp-" + self() + "-" }

// Clean removes, from dir, the staging entries of base (files or folders
// named "<base>.tmp-<pid>.<start>-...") whose writer is no longer running,
// and returns how many it removed. Entries of this process, of a process
// that still runs, and entries named in another way (for instance by a
// version of ccreplay that did not record its owner) are left alone.
// Errors are ignored: cleaning is a courtesy, never a reason to fail.
func Clean(dir, base string) int {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	prefix := base + ".tmp-"
	removed := 0
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		owner, _, ok := strings.Cut(rest, "-")
		if !ok || owner == self() {
			continue
		}
		pid, start, ok := parseOwner(owner)
		if !ok || alive(pid, start) {
			continue
		}
		if os.RemoveAll(filepath.Join(dir, e.Name())) == nil {
			removed++
		}
	}
	return removed
}

// parseOwner splits "<pid>.<start>".
func parseOwner(s string) (pid int, start uint64, ok bool) {
	p, st, found := strings.Cut(s, ".")
	if !found {
		return 0, 0, false
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 {
		return 0, 0, false
	}
	start, err = strconv.ParseUint(st, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return pid, start, true
}

// alive says whether the process that wrote an entry may still run: a
// process of that id exists and, where start times are known, started
// when the entry's writer did.
func alive(pid int, start uint64) bool {
	if !processExists(pid) {
		return false
	}
	if start == 0 {
		return true
	}
	now := startTime(pid)
	return now == 0 || now == start
}
