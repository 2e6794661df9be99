package dataset

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccreplay/ccreplay/cca/dcqcn"
	"github.com/ccreplay/ccreplay/internal/clierr"
	"github.com/ccreplay/ccreplay/internal/replaytest/star"
	"github.com/ccreplay/ccreplay/runfolder"
	"github.com/ccreplay/ccreplay/runner"
	v2 "github.com/ccreplay/ccreplay/schema/v2"
)

func TestParamsCheck(t *testing.T) {
	if err := DefaultParams().Check(); err != nil {
		t.Fatalf("defaults refused: %v", err)
	}
	tests := []struct {
		edit func(*Params)
		flag string
		msg  string
	}{
		{func(p *Params) { p.Gamma = 1.5 }, "--gamma", "gamma: want a value in [0, 1], got 1.5"},
		{func(p *Params) { p.Gamma = math.NaN() }, "--gamma", "gamma: want a value in [0, 1]"},
		{func(p *Params) { p.IntervalNs = -2 }, "--decision-interval-ns", "decision interval: want -1, 0 or a positive number of ns, got -2"},
		{func(p *Params) { p.Target = 0 }, "--rlcc-target", "rlcc target: want a positive number, got 0"},
		{func(p *Params) { p.Target = math.Inf(1) }, "--rlcc-target", "rlcc target"},
		{func(p *Params) { p.Beta = -1 }, "--rlcc-beta", "rlcc beta: want a number >= 0, got -1"},
	}
	for _, tt := range tests {
		p := DefaultParams()
		tt.edit(&p)
		err := p.Check()
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Flag != tt.flag || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%+v: error %v, want a ParamError of %s saying %q", p, err, tt.flag, tt.msg)
		}
	}
	for _, edit := range []func(*Params){func(p *Params) { p.Gamma = 0 }, func(p *Params) { p.Gamma = 1 }, func(p *Params) { p.IntervalNs = 0 }, func(p *Params) { p.Beta = 0 }} {
		p := DefaultParams()
		edit(&p)
		if err := p.Check(); err != nil {
			t.Errorf("%+v refused: %v", p, err)
		}
	}
}

func TestInfoJSONSafe(t *testing.T) {
	i := Info{RewardMeans: []ColumnMean{{Column: "a", Mean: math.NaN()}, {Column: "b", Mean: math.Inf(-1)}, {Column: "c", Mean: 2.5, Rows: 3}}}
	s := i.JSONSafe()
	if s.RewardMeans[0].Mean != 0 || s.RewardMeans[1].Mean != 0 || s.RewardMeans[2].Mean != 2.5 {
		t.Errorf("JSONSafe means %+v", s.RewardMeans)
	}
	if !math.IsNaN(i.RewardMeans[0].Mean) {
		t.Error("JSONSafe changed its receiver's means")
	}
	if _, err := json.Marshal(s); err != nil {
		t.Error(err)
	}
}

// TestWrite writes a dataset run folder: decisions.parquet and
// dataset.json listed in a complete summary.json, the run's own config
// untouched (HPCC's INT kept on), INT turned on for the FDCC reward when
// the run had none (FDCC, Zhang 2023, Section 4.2) and said so, and the
// same bytes for the same seed.
func TestWrite(t *testing.T) {
	cc, tr, cfg := starCase(t, "incast:n=4,size=200KB", "hpcc")
	cfg.Seed = 3
	write := func() (Info, string) {
		dir := t.TempDir()
		info, err := Write(context.Background(), runner.Scenario{Config: &cfg, Trace: tr, TraceName: "incast"}, DefaultParams(), dir)
		if err != nil {
			t.Fatal(err)
		}
		return info, dir
	}
	info, dir := write()
	if cfg.WrapCC != nil || !cfg.Switch.INT {
		t.Error("Write changed the caller's configuration")
	}
	if info.INTForced || info.Rows == 0 || info.Flows != 4 || info.RunID != cc.Name+"/incast/seed=3" || info.Seed != 3 || info.CCA != cc.Name {
		t.Errorf("info %+v", info)
	}
	m, err := runfolder.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{FileName, runfolder.DatasetFile} {
		if !slices.Contains(m.Files, f) {
			t.Errorf("%s files %v lack %s", runfolder.SummaryFile, m.Files, f)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, runfolder.DatasetFile))
	if err != nil {
		t.Fatal(err)
	}
	var back Info
	if err := json.Unmarshal(b, &back); err != nil || back.Rows != info.Rows {
		t.Errorf("%s: %v, rows %d want %d", runfolder.DatasetFile, err, back.Rows, info.Rows)
	}
	_, dir2 := write()
	for _, f := range []string{FileName, runfolder.DatasetFile} {
		a, _ := os.ReadFile(filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(dir2, f))
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("%s differs between two writes of the same seed", f)
		}
	}
	// DCQCN's switches stamp no INT: the FDCC reward turns it on, and
	// dataset.json says so.
	dc := star.Config(t, tr, star.Spec(t, "dcqcn", nil, dcqcn.Register))
	if dc.Switch.INT {
		t.Fatal("DCQCN's configuration has INT on")
	}
	if info, err := Write(context.Background(), runner.Scenario{Config: &dc, Trace: tr}, DefaultParams(), t.TempDir()); err != nil || !info.INTForced || dc.Switch.INT {
		t.Errorf("DCQCN with the FDCC reward: %v, INT forced %v, caller's INT %v", err, info.INTForced, dc.Switch.INT)
	}
	p := DefaultParams()
	p.Target = 0
	_, err = Write(context.Background(), runner.Scenario{Config: &cfg, Trace: tr}, p, t.TempDir())
	var ie *clierr.InputError
	if !errors.As(err, &ie) {
		t.Errorf("a configuration the recorder refuses: %v, want an input error", err)
	}
}

// Write streams the run's rows as flows finish (runner.Scenario.StreamRows,
// as `run`): with runner.StreamRowsMin lowered so that this small trace
// streams, every message row passes OnMessage during the run, and the
// folder's files are the bytes of a run that kept its rows.
func TestWriteStreamsRows(t *testing.T) {
	_, tr, cfg := starCase(t, "incast:n=4,size=200KB", "dcqcn")
	write := func(min int) (string, int) {
		defer func(n int) { runner.StreamRowsMin = n }(runner.StreamRowsMin)
		runner.StreamRowsMin = min
		dir := t.TempDir()
		seen := 0
		sc := runner.Scenario{Config: &cfg, Trace: tr, TraceName: "incast", OnMessage: func(*v2.MessageRow) { seen++ }}
		if _, err := Write(context.Background(), sc, DefaultParams(), dir); err != nil {
			t.Fatal(err)
		}
		return dir, seen
	}
	streamed, seen := write(0)
	if seen != len(tr.Messages) {
		t.Errorf("OnMessage saw %d message rows, want the trace's %d: the rows were not streamed", seen, len(tr.Messages))
	}
	kept, _ := write(len(tr.Messages) + 1)
	for _, f := range []string{runfolder.FlowsFile, runfolder.MessagesFile, runfolder.PortsFile, FileName, runfolder.DatasetFile} {
		a, _ := os.ReadFile(filepath.Join(streamed, f))
		b, _ := os.ReadFile(filepath.Join(kept, f))
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("%s differs between a streamed and a kept run", f)
		}
	}
}
