package report

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"

	"github.com/ccreplay/ccreplay/metrics"
	"github.com/ccreplay/ccreplay/plot"
	"github.com/ccreplay/ccreplay/reproduce"
	"github.com/ccreplay/ccreplay/runfolder"
)

// reproduction writes a reproduce folder's section: the paper's numbers
// beside ccreplay's with the verdicts (reproduction.json), the notes on
// the claims that do not reproduce, ccreplay / paper per claim as a
// figure, and the headline metrics of its runs.
func (p *page) reproduction(id, dir string) error {
	var rep reproduce.Report
	if err := readJSON(filepath.Join(dir, reproduce.ReportFile), "a "+runfolder.ReproductionFile, &rep); err != nil {
		return err
	}
	if rep.SchemaVersion != reproduce.ReportVersion {
		return fmt.Errorf("%s: schema_version %q, want %q", filepath.Join(dir, reproduce.ReportFile), rep.SchemaVersion, reproduce.ReportVersion)
	}
	p.section(id, "Reproduction: "+rep.Paper)
	p.h3("What was run")
	p.para(fmt.Sprintf("Experiment %s at the %s scale: %s. Command: ccreplay reproduce %s --scale %s -o %s (each run's configuration is in %s/configs).",
		rep.Experiment, rep.Scale, rep.Title, rep.Experiment, rep.Scale, filepath.ToSlash(dir), filepath.ToSlash(dir)))
	var rows [][]string
	fig := plot.Figure{Name: "reproduce_ratio", Title: "ccreplay / paper per claim", XLabel: "claim", YLabel: "ccreplay / paper", LogY: true}
	s := plot.Series{Label: "ccreplay / paper", Colour: -1, Points: true, Scatter: true}
	for i, c := range rep.Claims {
		rows = append(rows, []string{c.What, reproduce.Format(c.Paper, c.Unit, c.Change), reproduce.Format(float64(c.Ours), c.Unit, c.Change), string(c.Verdict), c.Rule, c.ID})
		fig.XTicks = append(fig.XTicks, plot.Tick{Value: float64(i + 1), Label: fmt.Sprint(i + 1)})
		if r := float64(c.Ours) / c.Paper; c.Paper != 0 && !math.IsNaN(r) && !math.IsInf(r, 0) && r > 0 {
			s.X = append(s.X, float64(i+1))
			s.Y = append(s.Y, r)
		}
	}
	p.h3("The paper's numbers and ccreplay's")
	p.table("Claims ("+runfolder.ReproductionFile+"): the paper's value, ccreplay's, the verdict and its rule", []string{"claim", "paper", "ccreplay", "verdict", "rule", "id"}, rows,
		func(c int) bool { return c == 1 || c == 2 })
	n := rep.Counts()
	var vs []string
	for v := range n {
		vs = append(vs, string(v))
	}
	sort.Strings(vs)
	tally := fmt.Sprintf("%d claims:", len(rep.Claims))
	for i, v := range vs {
		if i > 0 {
			tally += ","
		}
		tally += fmt.Sprintf(" %d %s", n[reproduce.Verdict(v)], v)
	}
	p.para(tally + ".")
	var ws []string
	seen := map[string]bool{}
	for _, c := range rep.Claims {
		if c.Note != "" && c.Verdict != reproduce.Reproduces && !seen[c.Note] {
			seen[c.Note] = true
			ws = append(ws, c.What+": "+c.Note)
		}
	}
	p.warnings(ws, "None: no note on a claim that does not reproduce.")
	if len(s.X) > 0 {
		fig.Panels = []plot.Panel{{Series: []plot.Series{s}, Legend: []plot.Key{{Label: "ccreplay / paper", Colour: -1, Points: true}}}}
		fig.Notes = append(fig.Notes, "x is the claim's row in the table above; 1 is the paper's value")
		p.figure(&fig)
	}

	// Its runs' headline metrics.
	found, err := runfolder.Find(dir)
	if err != nil {
		return err
	}
	header := []string{"metric"}
	var sums []metrics.Summary
	for _, d := range found {
		rf, err := runfolder.Open(d.Dir)
		if err != nil {
			return err
		}
		sum, err := metrics.DecodeSummary(rf.Manifest.Metrics)
		if err != nil {
			return fmt.Errorf("%s: %w", rf.Path(runfolder.SummaryFile), err)
		}
		rel, _ := filepath.Rel(dir, d.Dir)
		header = append(header, filepath.ToSlash(rel)+" ("+rf.Manifest.CCA+")")
		sums = append(sums, sum)
	}
	p.res.Runs += len(found)
	rows = rows[:0]
	for _, mt := range metrics.Compared {
		row := []string{mt.Label}
		for i := range sums {
			row = append(row, metrics.Format(mt.Get(&sums[i]), mt.Unit))
		}
		rows = append(rows, row)
	}
	p.h3("Its runs")
	p.table("Headline metrics of the experiment's runs (their "+runfolder.SummaryFile+")", header, rows, allNumeric)
	p.endSection()
	return nil
}
