package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/ccreplay/ccreplay/netcalc"
	"github.com/ccreplay/ccreplay/output"
	"github.com/ccreplay/ccreplay/runfolder"
)

// SummaryFile is the folder's manifest.
const SummaryFile = runfolder.SummaryFile

// Run checks and resolves r, runs the model (and with r.Compare the
// packet replay) and writes r.Out, whole or not at all. It returns the
// summary as written to summary.json (Marshal prints the same bytes).
func Run(ctx context.Context, r *Request) (*Summary, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	m, err := r.Resolve()
	if err != nil {
		return nil, err
	}
	warnings := append(slices.Clone(m.Setup.Warnings), m.Path.Warnings...)
	r.warn(warnings...)
	start := time.Now()
	res, err := netcalc.Run(m.Config)
	wall := time.Since(start)
	if err != nil {
		return nil, inputErrorf("netcalc: %v", err)
	}
	stage, err := runfolder.Stage(r.Out, runfolder.StageOptions{Force: r.Force, Flag: "--out"})
	if errors.Is(err, runfolder.ErrRefused) {
		return nil, usageErrorf("%w", err)
	}
	if err != nil {
		return nil, err
	}
	defer stage.Abort()
	sum, err := r.write(ctx, stage.Dir, m, res, warnings)
	if err != nil {
		return nil, err
	}
	sum.ModelWallMs = float64(wall.Microseconds()) / 1000
	return sum, stage.Commit()
}

// write writes the folder's files into dir (the staged folder).
func (r *Request) write(ctx context.Context, dir string, m *Model, res *netcalc.Result, warnings []string) (*Summary, error) {
	files, err := writeModelFiles(dir, r.Format, res)
	if err != nil {
		return nil, err
	}
	var cmp *Compare
	var rows []ncCompareRow
	if r.Compare {
		var more []string
		if rows, cmp, more, err = runReplay(ctx, r, dir, m, res); err != nil {
			return nil, err
		}
		r.warn(more...)
		warnings = append(warnings, more...)
		files = append(files, CompareDir+"/", CompareFile, CompareFlowsFile)
	}
	sum := summarize(r, m, res)
	title := fmt.Sprintf("%s, %s, pfc %s", sum.Workload, r.CC, onOff(r.PFC))
	figs, err := writeFigures(dir, r.Figures, figureCurves(res, rows, title))
	if err != nil {
		return nil, err
	}
	sum.Compare = cmp
	sum.Files = append(append(files, figs...), SummaryFile)
	sum.Warnings = warnings
	b, err := sum.Marshal()
	if err != nil {
		return nil, err
	}
	return sum, output.WriteFileAtomic(filepath.Join(dir, SummaryFile), b)
}

// Marshal is summary.json's bytes: indented JSON and a newline.
func (s *Summary) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	return append(b, '\n'), err
}

// warn passes warnings to r.Warn.
func (r *Request) warn(ws ...string) {
	if r.Warn == nil {
		return
	}
	for _, w := range ws {
		r.Warn(w)
	}
}
