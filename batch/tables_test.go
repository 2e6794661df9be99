//go:build unix

package batch

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ccreplay/ccreplay/internal/testfiles"
	"github.com/ccreplay/ccreplay/limits"
	"github.com/ccreplay/ccreplay/runfolder"
)

// A point whose run folder is complete but whose tables are not Parquet
// files a reader can take is failed, with the table and what is wrong: a
// named pipe at once (a plain open would wait for a writer for ever, and
// `sweep status` with it), a file past its kind's bound from its size
// (docs/LIMITS.md, "Input files").
func TestStatesRefuseTablesAtOnce(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sw")
	tp := &testPlan{}
	pl := tp.plan([]string{"dcqcn"}, 3, ".state")
	if c, _, err := Run(context.Background(), root, pl, Options{Jobs: 1}); err != nil || c.Done != 3 {
		t.Fatalf("run: %+v %v", c, err)
	}
	fifo := filepath.Join(root, pl.Items[0].Dir, runfolder.FlowsFile)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	testfiles.Sparse(t, filepath.Join(root, pl.Items[1].Dir, runfolder.PacketsFile), limits.MaxPacketsParquetBytes+1)

	done := make(chan []ItemState, 1)
	go func() { done <- States(root, pl) }()
	var states []ItemState
	select {
	case states = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("States blocked on a named pipe")
	}
	want := []string{
		runfolder.FlowsFile + ": is a named pipe (FIFO); a run's " + runfolder.FlowsFile + " must be a regular file",
		runfolder.PacketsFile + ": 1099511627777 bytes, more than 1024 GiB, the limit of a run's " + runfolder.PacketsFile + " (docs/LIMITS.md)",
	}
	for i, w := range want {
		if s := states[i]; s.State != Failed || s.Error != w {
			t.Errorf("point %d: %s %q, want failed %q", i, s.State, s.Error, w)
		}
	}
	if s := states[2]; s.State != Done {
		t.Errorf("point 2: %s %q, want done", s.State, s.Error)
	}
	if strings.Contains(states[0].Error, root) {
		t.Errorf("the error names the table once, inside the point: %q", states[0].Error)
	}
}
