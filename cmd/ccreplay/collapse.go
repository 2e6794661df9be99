package main

import (
	"github.com/ccreplay/ccreplay/replay"
	"github.com/ccreplay/ccreplay/schema/v1/runfolder"
	"github.com/ccreplay/ccreplay/trace"
)

// checkCollapse runs replay.CollapseCheck on a finished run and records a
// collapse in its manifest (man.Collapse and one warning); it returns the
// warning ("" when the run did not collapse). A check that cannot route
// the trace (it ran, so it can) is not an error of the run: it is skipped.
func checkCollapse(cfg *replay.Config, tr *trace.Trace, res *replay.Result, man *runfolder.Manifest) string {
	c, err := replay.CollapseCheck(cfg, tr, res)
	if err != nil || c == nil {
		return ""
	}
	w := replay.CollapseWarning(cfg, c)
	man.Collapse = c
	man.Warnings = append(man.Warnings, w)
	return w
}
