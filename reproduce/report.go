package reproduce

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"go.yaml.in/yaml/v3"

	"github.com/ccreplay/ccreplay/plot"
	"github.com/ccreplay/ccreplay/runconfig"
)

// ReportVersion is the version of reproduction.json's layout.
const ReportVersion = "ccreplay.reproduce.v1"

// Report is an experiment's outcome: reproduction.json, and what
// `ccreplay reproduce --json` prints.
type Report struct {
	SchemaVersion string `json:"schema_version"`
	Experiment    string `json:"experiment"`
	Paper         string `json:"paper"`
	Title         string `json:"title"`
	Scale         Scale  `json:"scale"`
	// Out is the output folder (set by the command; empty in the file).
	Out    string        `json:"out,omitempty"`
	Claims []ClaimResult `json:"claims"`
	Runs   []RunInfo     `json:"runs"`
}

// ClaimResult is one claim judged.
type ClaimResult struct {
	ID   string `json:"id"`
	What string `json:"what"`
	// Unit of Paper and Ours; a Change is a fraction ((B - A) / A).
	Unit  string  `json:"unit"`
	Paper float64 `json:"paper"`
	// Ours is null in JSON when ccreplay's run did not produce the event
	// measured (e.g. no PFC pause at all).
	Ours Value `json:"ours"`
	// Change is true for a relative difference (see Kind).
	Change  bool    `json:"change"`
	Rule    string  `json:"rule"`
	Verdict Verdict `json:"verdict"`
	Note    string  `json:"note,omitempty"`
}

// Value is a number that is null in JSON when it is not finite.
type Value float64

// MarshalJSON writes null for NaN and infinities.
func (v Value) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// UnmarshalJSON reads null as NaN.
func (v *Value) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*v = Value(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*v = Value(f)
	return nil
}

// RunInfo names one run folder and its configuration file, both relative
// to the output folder.
type RunInfo struct {
	Label  string `json:"label"`
	Config string `json:"config"`
}

// Counts returns how many claims got each verdict.
func (r *Report) Counts() map[Verdict]int {
	m := map[Verdict]int{}
	for _, c := range r.Claims {
		m[c.Verdict]++
	}
	return m
}

// Format prints a value in its unit: a Change as a signed percentage.
func Format(v float64, unit string, change bool) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	if change {
		return fmt.Sprintf("%+.1f %%", 100*v)
	}
	s := strconv.FormatFloat(v, 'g', 4, 64)
	if a := math.Abs(v); a >= 1e4 && a < 1e9 {
		s = strconv.FormatFloat(v, 'f', 0, 64)
	}
	if unit != "" {
		s += " " + unit
	}
	return s
}

// difference is ours against the paper's: a ratio for a quantity, the
// difference in percentage points for a change.
func (c *ClaimResult) difference() string {
	if o := float64(c.Ours); math.IsNaN(o) || math.IsInf(o, 0) {
		return "n/a"
	}
	if c.Change {
		return fmt.Sprintf("%+.1f pp", 100*(float64(c.Ours)-c.Paper))
	}
	if c.Paper == 0 {
		return "n/a"
	}
	return fmt.Sprintf("x%.3g", float64(c.Ours)/c.Paper)
}

// WriteText prints the report as a table: claim, the paper's value,
// ccreplay's, the difference, the verdict; then the notes.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s: %s\n%s scale", r.Paper, r.Title, r.Scale)
	if r.Out != "" {
		fmt.Fprintf(w, "; runs, configurations and figure in %s", r.Out)
	}
	fmt.Fprint(w, "\n\n")
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "claim\tpaper\tccreplay\tdifference\tverdict\trule")
	for i := range r.Claims {
		c := &r.Claims[i]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.What, Format(c.Paper, c.Unit, c.Change), Format(float64(c.Ours), c.Unit, c.Change), c.difference(), c.Verdict, c.Rule)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	n := r.Counts()
	fmt.Fprintf(w, "\n%s\n", tally(len(r.Claims), n))
	seen := map[string]bool{}
	for _, c := range r.Claims {
		if c.Note != "" && c.Verdict != Reproduces && !seen[c.Note] {
			seen[c.Note] = true
			fmt.Fprintf(w, "- %s\n", c.Note)
		}
	}
	return nil
}

// WriteMarkdown prints the report as the section docs/REPRODUCTION.md
// holds for it.
func (r *Report) WriteMarkdown(w io.Writer, e *Experiment) {
	fmt.Fprintf(w, "## %s: %s\n\n", e.Name, r.Paper)
	fmt.Fprintf(w, "%s\n\n%s\n\n", r.Title, e.Setup)
	fmt.Fprintf(w, "`ccreplay reproduce %s` (%s scale):\n\n", e.Name, r.Scale)
	fmt.Fprintln(w, "| claim | paper | ccreplay | difference | verdict (rule) |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for i := range r.Claims {
		c := &r.Claims[i]
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s (%s) |\n", c.What, Format(c.Paper, c.Unit, c.Change), Format(float64(c.Ours), c.Unit, c.Change), c.difference(), c.Verdict, c.Rule)
	}
	n := r.Counts()
	fmt.Fprintf(w, "\n%s.\n", tally(len(r.Claims), n))
	seen := map[string]bool{}
	first := true
	for _, c := range r.Claims {
		if c.Note != "" && !seen[c.Note] {
			if first {
				fmt.Fprint(w, "\nWhy results differ, where known:\n\n")
				first = false
			}
			seen[c.Note] = true
			fmt.Fprintf(w, "- %s\n", c.Note)
		}
	}
	fmt.Fprintln(w)
}

// tally says how many claims got each verdict.
func tally(total int, n map[Verdict]int) string {
	noun := "claims"
	if total == 1 {
		noun = "claim"
	}
	return fmt.Sprintf("%d %s: %d reproduce, %d same direction only, %d differ", total, noun, n[Reproduces], n[SameDirection], n[Differs])
}

// FigureName is the file name (without extension) of an experiment's
// figure.
const FigureName = "reproduction"

// Figure draws every claim that is a positive quantity as a pair of
// points, the paper's and ccreplay's, against the claim's index, on a
// logarithmic axis of ratio to the paper (the paper is 1); changes are
// drawn as (1 + change). The x ticks name the claims (every k-th when
// there are more than five).
func Figure(r *Report) plot.Figure {
	fig := plot.Figure{
		Name:   FigureName,
		Title:  r.Paper + ", " + string(r.Scale) + " scale: ccreplay / paper",
		XLabel: "claim",
		YLabel: "ccreplay / paper (changes: (1+ccreplay) / (1+paper))",
		LogY:   true,
	}
	ref := plot.Series{Label: "paper", Colour: -1, Dash: 1}
	ours := plot.Series{Label: "ccreplay", Colour: 0, Points: true, Scatter: true}
	var x float64
	drawn := 0
	for _, c := range r.Claims {
		if p, o := c.Paper, float64(c.Ours); c.Change && 1+p > 0 && 1+o > 0 || !c.Change && p > 0 && o > 0 {
			drawn++
		}
	}
	every := (drawn + 4) / 5 // at most five labelled ticks: they are long
	for _, c := range r.Claims {
		p, o := c.Paper, float64(c.Ours)
		if c.Change {
			p, o = 1+p, 1+o
		}
		if !(p > 0) || !(o > 0) {
			continue
		}
		x++
		ours.X, ours.Y = append(ours.X, x), append(ours.Y, o/p)
		t := plot.Tick{Value: x}
		if (int(x)-1)%every == 0 {
			t.Label = shortID(c.ID)
		}
		fig.XTicks = append(fig.XTicks, t)
	}
	if x == 0 {
		fig.Notes = append(fig.Notes, "no claim with positive values to draw")
		x = 1
	}
	ref.X, ref.Y = []float64{0.5, x + 0.5}, []float64{1, 1}
	fig.Panels = []plot.Panel{{
		Series: []plot.Series{ref, ours},
		Legend: []plot.Key{{Label: "paper (= 1)", Colour: -1, Dash: 1}, {Label: "ccreplay", Colour: 0, Points: true}},
	}}
	return fig
}

// shortID keeps the last two parts of a claim ID for a tick label.
func shortID(id string) string {
	parts := strings.Split(id, "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, "/")
}

// marshalConfig writes a run configuration as YAML without the keys it
// leaves empty.
func marshalConfig(f *runconfig.File) ([]byte, error) {
	var n yaml.Node
	if err := n.Encode(f); err != nil {
		return nil, err
	}
	prune(&n)
	return yaml.Marshal(&n)
}

// prune removes null and empty-string values (and mappings left empty)
// from a mapping node, recursively.
func prune(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.MappingNode:
		var kept []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if prune(n.Content[i+1]) {
				kept = append(kept, n.Content[i], n.Content[i+1])
			}
		}
		n.Content = kept
		return len(kept) > 0
	case yaml.ScalarNode:
		return !(n.Tag == "!!null" || (n.Tag == "!!str" && n.Value == ""))
	case yaml.SequenceNode:
		return len(n.Content) > 0
	}
	return true
}
