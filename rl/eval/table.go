package eval

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ccreplay/ccreplay/cca"
)

// Entry is one row label of a comparison and the algorithm it runs.
type Entry struct {
	// Label names the row ("teacher", "student", "dcqcn", ...).
	Label string
	// Spec is the congestion control to run.
	Spec cca.Spec
}

// Table1Flows are the flow counts of the distilled policy's acceptance check
// (many-to-one 16 and 128; RL-CC (Tessler 2022), Table 1 starts at 128).
var Table1Flows = []int{16, 128}

// TableIIIFlows are the flow counts of RL-CC-NIC (Fuhrer 2023), Table III.
var TableIIIFlows = []int{64, 512, 2048}

// Compare runs every entry on every flow count (entries major, flow
// counts in the given order) and returns one Result per pair, labelled.
// progress, when set, is called after each run.
func Compare(entries []Entry, flows []int, o Options, progress func(Result)) ([]Result, error) {
	if len(entries) == 0 || len(flows) == 0 {
		return nil, fmt.Errorf("eval: nothing to compare (%d entries, %d flow counts)", len(entries), len(flows))
	}
	var out []Result
	for _, e := range entries {
		for _, n := range flows {
			r, err := ManyToOne(e.Spec, n, o)
			if err != nil {
				return nil, err
			}
			r.Label = e.Label
			out = append(out, r)
			if progress != nil {
				progress(r)
			}
		}
	}
	return out, nil
}

// labels and flow counts of rs, in first-appearance order.
func axes(rs []Result) (labels []string, flows []int) {
	for _, r := range rs {
		l := rowLabel(r)
		if !slices.Contains(labels, l) {
			labels = append(labels, l)
		}
		if !slices.Contains(flows, r.Flows) {
			flows = append(flows, r.Flows)
		}
	}
	return labels, flows
}

func rowLabel(r Result) string {
	if r.Label != "" {
		return r.Label
	}
	return r.Algorithm
}

func find(rs []Result, label string, n int) (Result, bool) {
	for _, r := range rs {
		if rowLabel(r) == label && r.Flows == n {
			return r, true
		}
	}
	return Result{}, false
}

// cellWidth is the width of one table cell, characters.
const cellWidth = 10

// table writes a grid: one row per label, one column group per flow
// count, cells from cell (which returns the group's formatted values).
func table(w io.Writer, rs []Result, cols []string, cell func(Result) []string) error {
	labels, flows := axes(rs)
	width := 8
	for _, l := range labels {
		width = max(width, len(l)+2)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s", width, "")
	for _, n := range flows {
		fmt.Fprintf(&b, "| %-*s", cellWidth*len(cols), fmt.Sprintf("%d to 1", n))
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "%-*s", width, "alg.")
	for range flows {
		b.WriteString("| ")
		for _, c := range cols {
			fmt.Fprintf(&b, "%-*s", cellWidth, c)
		}
	}
	b.WriteString("\n")
	for _, l := range labels {
		fmt.Fprintf(&b, "%-*s", width, l)
		for _, n := range flows {
			b.WriteString("| ")
			r, ok := find(rs, l, n)
			for i := range cols {
				v := "-"
				if ok {
					v = cell(r)[i]
				}
				fmt.Fprintf(&b, "%-*s", cellWidth, v)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteTable1 writes rs as RL-CC (Tessler 2022), Table 1: per flow count SU
// [%], FR (min rate x 100 / max rate), QL [us] and DR [Gbit/s], plus the
// range of flow goodputs in units of the fair share (Proposition 1's fixed
// point is 1.00-1.00).
func WriteTable1(w io.Writer, rs []Result) error {
	return table(w, rs, []string{"SU", "FR", "QL", "DR", "share"}, func(r Result) []string {
		return []string{
			fmt.Sprintf("%.0f", r.SU), fmt.Sprintf("%.0f", r.FR), fmt.Sprintf("%.1f", r.QL),
			fmt.Sprintf("%.2g", r.DR), fmt.Sprintf("%.2f-%.2f", r.ShareMin, r.ShareMax),
		}
	})
}

// WriteTableIII writes rs as RL-CC-NIC (Fuhrer 2023), Table III: per flow
// count the normalised goodput GP and the latency [us].
func WriteTableIII(w io.Writer, rs []Result) error {
	return table(w, rs, []string{"GP", "Latency"}, func(r Result) []string {
		return []string{fmt.Sprintf("%.2f", r.Goodput), fmt.Sprintf("%.2f", r.Latency)}
	})
}
